//! Vast.ai (bearer key in `VAST_API_KEY`): the instance with its live prices (`dph_total`,
//! `storage_cost`, `inet_up_cost`, `inet_down_cost`), stop (`PUT state stopped`), start (`PUT
//! state running`) and destroy (`DELETE`), each with a read-back.
//!
//! A stopped instance bills storage, and bandwidth bills per GB at the host's own rates, so after
//! an inventory [`Provider::own_sheet`] gives the meter its sheet with this host's rates
//! ([`model::host_sheet`]). Inside the container the id is `CONTAINER_ID` (and a scoped key
//! `CONTAINER_API_KEY`), set in PID 1's environment, which ssh sessions do not inherit.
//!
//! Volumes (`GET /api/v0/volumes?owner=me`, as `vastai`'s `show_volumes` asks) are rented and billed apart from any instance and
//! outlive it: each is a linked resource that survives a destroy. A key that may not list them
//! (401 or 403 on that call alone) leaves them a gap ([`Provider::gaps`]), not an error.

mod discover;
mod listing;
pub mod model;
mod resources;
mod volumes;

use std::ops::ControlFlow::{Break, Continue};
use std::sync::Mutex;

use async_trait::async_trait;
use jiff::Timestamp;
use serde_json::{Value, json};

use self::model::{HostRates, Seen};
use self::resources::{instance_storage, volume_row};
use super::ProviderKind;
use super::bearer::{
    Api, ApiError, Cloud, Forbidden, KeyEnv, Readback, Scheme, Settings, StateLog, no_field,
    read_back_call,
};
use super::bearer_held::{Held, held_provider_methods, or_gap, refusal, watched};
use super::http::{HttpPolicy, Repeat};
use super::{
    Action, ActionReport, InstanceInfo, Inventory, LinkedResource, Provider, ProviderError,
};
use crate::meter::{BillingMode, InstanceState};
use crate::pricing::Sheet;
use crate::t;

pub const KEY_VAR: &str = "VAST_API_KEY";
/// The scoped key Vast puts in the container's environment.
pub const CONTAINER_KEY_VAR: &str = "CONTAINER_API_KEY";
pub const CONTAINER_ID_VAR: &str = "CONTAINER_ID";
/// Points the adapter at another endpoint (tests use a loopback server).
pub const ENDPOINT_VAR: &str = "GPUMETER_VAST_ENDPOINT";
pub const DEFAULT_ENDPOINT: &str = "https://console.vast.ai";
/// The adapter's name in its errors.
const ID: &str = ProviderKind::Vast.id();
/// Vast.ai answers a key it does not take (unknown, revoked) with 403, as its loopback peer
/// in the tests does; a key whose permissions lack the call cannot be told apart from it, and
/// either way the key is what to check.
const CLOUD: Cloud = Cloud {
    kind: ProviderKind::Vast,
    key_var: KEY_VAR,
    forbidden: Forbidden::Key,
    scheme: Scheme::Bearer,
    endpoint: (ENDPOINT_VAR, DEFAULT_ENDPOINT),
};
/// Where the key is looked for: this process's environment, then (inside the container) PID 1's.
const KEY_FROM: [&str; 2] = [KEY_VAR, CONTAINER_KEY_VAR];
const NAMES: [&str; 4] = [KEY_VAR, CONTAINER_KEY_VAR, CONTAINER_ID_VAR, ENDPOINT_VAR];

/// The instance from the flags or config, else `CONTAINER_ID`.
pub type VastSettings = Settings;

pub fn settings(env: &KeyEnv, instance_id: Option<String>) -> VastSettings {
    CLOUD.settings(env, &KEY_FROM, (instance_id, CONTAINER_ID_VAR))
}

/// From the process environment, then PID 1's (inside the container).
pub fn settings_from_process(instance_id: Option<String>) -> VastSettings {
    let mut pairs: Vec<(String, String)> = std::fs::read("/proc/1/environ")
        .map(|raw| pid1_vars(&String::from_utf8_lossy(&raw)))
        .unwrap_or_default();
    pairs.extend(
        NAMES
            .iter()
            .filter_map(|n| std::env::var(n).ok().map(|v| ((*n).to_string(), v))),
    );
    settings(&KeyEnv::from_pairs(pairs), instance_id)
}

/// The variables this adapter reads from a NUL-separated environment block.
pub fn pid1_vars(block: &str) -> Vec<(String, String)> {
    block
        .split('\0')
        .filter_map(|kv| kv.split_once('='))
        .filter(|(k, _)| NAMES.contains(k))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn instance_path(id: &str) -> String {
    format!("/api/v0/instances/{id}/")
}

pub struct Vast {
    held: Held,
    instance_id: Option<String>,
    rates: Mutex<Option<HostRates>>,
    first_seen: Mutex<Option<Timestamp>>,
}

/// The account's volumes, local and network, as `vastai show volumes` asks for them.
const VOLUMES: &str = "/api/v0/volumes?owner=me&type=all_volume";

impl Vast {
    pub fn new(settings: VastSettings, policy: HttpPolicy) -> Self {
        Vast {
            held: Held::new(CLOUD, settings.key, &settings.endpoint, policy),
            instance_id: settings.instance_id,
            rates: Mutex::new(None),
            first_seen: Mutex::new(None),
        }
    }

    /// Every volume the account rents, each with the instances using it.
    async fn volumes(
        api: &Api,
        now: Timestamp,
        instance: &str,
    ) -> Result<Vec<LinkedResource>, ApiError> {
        Ok(Self::volume_rows(api, now)
            .await?
            .into_iter()
            .map(|(mut volume, users)| {
                if users.iter().any(|u| u == instance) {
                    volume.state = format!("{}, attached", volume.state);
                }
                volume
            })
            .collect())
    }

    /// Every volume the account rents, with the ids of the instances using it.
    pub(super) async fn volume_rows(
        api: &Api,
        now: Timestamp,
    ) -> Result<Vec<(LinkedResource, Vec<String>)>, ApiError> {
        let v = api.json("GET", VOLUMES, None, Repeat::Safe).await?;
        let list = v.get("volumes").and_then(Value::as_array).ok_or_else(|| {
            ApiError::malformed(&Api::describe("GET", VOLUMES), no_field("volumes"))
        })?;
        Ok(list.iter().filter_map(|row| volume_row(row, now)).collect())
    }

    super::setters::with_setters! {
        with_readback(readback: Readback) in held;
    }

    fn id(&self) -> Result<&str, ProviderError> {
        let (what, inside) = (t!("vast-word-instance"), t!("vast-word-container"));
        watched(
            self.instance_id.as_deref(),
            CLOUD.kind,
            (&what, &inside, CONTAINER_ID_VAR),
        )
    }

    /// The host's rates from the last inventory.
    pub fn host_rates(&self) -> Option<HostRates> {
        self.rates.lock().ok().and_then(|r| *r)
    }

    /// The instance; `None` once Vast no longer lists it.
    async fn get(api: &Api, id: &str) -> Result<Option<Seen>, ApiError> {
        let path = format!("{}?owner=me", instance_path(id));
        let call = Api::describe("GET", &path);
        let v = match api.json("GET", &path, None, Repeat::Safe).await {
            Ok(v) => v,
            // Gone only when the account's list, read to its last page, lacks it too.
            Err(e) if e.status() == Some(404) => {
                return if listing::listed(api, id).await? {
                    Err(e)
                } else {
                    Ok(None)
                };
            }
            Err(e) => return Err(e),
        };
        // An object for one instance; tolerate a list, and read null or {} as gone.
        match v.get("instances") {
            Some(Value::Object(o)) if o.is_empty() => Ok(None),
            Some(Value::Null) => Ok(None),
            Some(o @ Value::Object(_)) => model::parse(o)
                .map(Some)
                .ok_or_else(|| ApiError::malformed(&call, t!("vast-answer-no-id-or-status"))),
            Some(Value::Array(list)) => {
                Ok(list.iter().filter_map(model::parse).find(|s| s.id == id))
            }
            _ => Err(ApiError::malformed(&call, no_field("instances"))),
        }
    }

    fn info(&self, seen: &Seen, now: Timestamp) -> InstanceInfo {
        let created = seen.started.unwrap_or_else(|| {
            self.first_seen
                .lock()
                .map_or(now, |mut f| *f.get_or_insert(now))
        });
        instance_info(seen, created, now, &self.held.log)
    }

    /// `{"success": false, "msg": ...}` is a refusal even with HTTP 200.
    fn refused(call: &str, v: &Value) -> Option<ApiError> {
        (v.get("success").and_then(Value::as_bool) == Some(false)).then(|| ApiError::Status {
            call: call.to_string(),
            status: 200,
            retry_after: None,
            detail: v
                .get("msg")
                .or_else(|| v.get("error"))
                .and_then(Value::as_str)
                .unwrap_or("success: false")
                .to_string(),
        })
    }

    async fn act(
        &self,
        api: &Api,
        id: &str,
        change: Change,
        calls: &mut Vec<String>,
    ) -> Result<(bool, String), ApiError> {
        let path = instance_path(id);
        calls.push(format!("GET {path}?owner=me"));
        let before = Self::get(api, id).await?;
        api.listed_or_absent(&self.held.sightings, id, before.is_some(), None)
            .map_err(ApiError::Unseen)?;
        let verb = change.verb();
        let status = |s: &Seen| {
            s.actual
                .clone()
                .unwrap_or_else(|| t!("vast-no-status").into_owned())
        };
        match (&before, change) {
            (None, Change::Destroy) => {
                return Ok((true, t!("vast-already-gone").into_owned()));
            }
            (None, _) => {
                return Ok((false, t!("vast-destroyed-nothing-to", verb = verb)));
            }
            (Some(s), Change::Stop) if s.state() == InstanceState::Stopped => {
                return Ok((true, t!("vast-already-stopped", status = status(s))));
            }
            (Some(s), Change::Start) if is_running(s) => {
                return Ok((true, t!("vast-already-running", status = status(s))));
            }
            _ => {}
        }
        let (method, body) = match change {
            Change::Stop => ("PUT", json!({ "state": "stopped" })),
            Change::Start => ("PUT", json!({ "state": "running" })),
            Change::Destroy => ("DELETE", json!({})),
        };
        let call = Api::describe(method, &path);
        // As the plan lists it: a state change names the state asked for.
        calls.push(match change {
            Change::Destroy => call.clone(),
            Change::Stop | Change::Start => format!("{call} {body}"),
        });
        match api.json(method, &path, Some(&body), Repeat::Safe).await {
            Ok(v) => {
                if let Some(e) = Self::refused(&call, &v) {
                    return Err(e);
                }
            }
            // Gone between the two calls, or the wrong endpoint: the read-back decides.
            Err(e) if change == Change::Destroy && e.status() == Some(404) => {}
            Err(e) => return Err(e),
        }
        calls.push(read_back_call(&format!("GET {path}?owner=me")));
        let arrived = |s: &Seen| match change {
            Change::Stop => s.state() == InstanceState::Stopped,
            Change::Start => is_running(s),
            Change::Destroy => false,
        };
        let seen = |instance: Option<&Seen>| match (instance, change) {
            (None, Change::Destroy) => Break(t!("vast-destroyed").into_owned()),
            (None, _) => Continue(t!("vast-not-listed").into_owned()),
            (Some(s), _) if arrived(s) => Break(t!(
                "vast-accepted-reads-back",
                verb = verb,
                status = status(s)
            )),
            (Some(s), _) => Continue(t!("vast-reads-back", status = status(s))),
        };
        Ok(self
            .held
            .readback
            .confirm(verb, || Self::get(api, id), seen)
            .await)
    }
}

/// The instance, created at `created`, its history from `log`.
fn instance_info(seen: &Seen, created: Timestamp, now: Timestamp, log: &StateLog) -> InstanceInfo {
    let state = seen.state();
    InstanceInfo {
        id: seen.id.clone(),
        name: seen.label.clone(),
        provider: ID.into(),
        region: None,
        sku: seen.sku(),
        mode: BillingMode::OnDemand,
        state,
        created,
        live_price_per_hour: seen.compute_per_hour(),
        history: log.saw(created, state, None, now),
    }
}

/// What an action asks of the instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    Destroy,
    /// `PUT {"state": "stopped"}`, as `vastai stop instance` sends it.
    Stop,
    /// `PUT {"state": "running"}`, as `vastai start instance` sends it.
    Start,
}

impl Change {
    fn verb(self) -> &'static str {
        match self {
            Change::Destroy => "destroy",
            Change::Stop => "stop",
            Change::Start => "start",
        }
    }
}

/// Started, not only asked to: `actual_status` reads `running`. A start the host cannot serve
/// yet stays `scheduling` (as `vastai start instance` warns), which is not running.
fn is_running(s: &Seen) -> bool {
    s.actual.as_deref() == Some("running")
}

#[async_trait]
impl Provider for Vast {
    held_provider_methods!(ProviderKind::Vast);

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        let id = self
            .instance_id
            .clone()
            .unwrap_or_else(|| format!("${CONTAINER_ID_VAR}"));
        let path = instance_path(&id);
        let call = match action {
            Action::Release => format!("DELETE {path}"),
            Action::Stop => format!("PUT {path} {{\"state\":\"stopped\"}}"),
            Action::Start => format!("PUT {path} {{\"state\":\"running\"}}"),
            _ => return Vec::new(),
        };
        vec![
            format!("GET {path}?owner=me"),
            call,
            read_back_call(&format!("GET {path}?owner=me")),
        ]
    }

    async fn instances(&self) -> Result<Vec<crate::provider::Discovered>, ProviderError> {
        self.discover().await
    }

    /// Volumes no instance uses, and the storage of stopped instances, which bills stopped.
    async fn sweep(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let api = self.held.api()?;
        let now = Timestamp::now();
        let state = |e: ApiError| api.error(e);
        let rows = listing::rows(api).await.map_err(state)?;
        let mut found: Vec<LinkedResource> = rows
            .iter()
            .filter_map(model::parse)
            .filter(|s| s.state() == InstanceState::Stopped)
            .filter_map(|s| instance_storage(&s, now))
            .collect();
        found.extend(
            Self::volume_rows(api, now)
                .await
                .map_err(state)?
                .into_iter()
                .filter(|(_, users)| users.is_empty())
                .map(|(volume, _)| volume),
        );
        Ok(found)
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        let api = self.held.api()?;
        let id = self.id()?;
        let now = Timestamp::now();
        let seen = Self::get(api, id).await.map_err(|e| api.error(e))?;
        api.listed_or_absent(&self.held.sightings, id, seen.is_some(), None)?;
        if let (Some(s), Ok(mut rates)) = (&seen, self.rates.lock()) {
            *rates = Some(s.rates);
        }
        let mut resources: Vec<LinkedResource> = seen
            .iter()
            .filter_map(|s| instance_storage(s, now))
            .collect();
        let mut gaps = Vec::new();
        let what = t!("vast-gap-volumes");
        resources.extend(or_gap(
            api,
            Self::volumes(api, now, id).await,
            &what,
            &mut gaps,
        )?);
        self.held.set_gaps(gaps);
        Ok(Inventory {
            instance: seen.map(|s| self.info(&s, now)),
            resources,
            deadline: None,
        })
    }

    fn delete_plan(&self, resource: &LinkedResource) -> Vec<String> {
        Self::volume_plan(resource)
    }

    async fn delete(&self, resource: &LinkedResource) -> Result<ActionReport, ProviderError> {
        self.delete_volume(resource).await
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        let change = match action {
            Action::Release => Change::Destroy,
            Action::Stop => Change::Stop,
            Action::Start => Change::Start,
            other => {
                let why = t!("vast-no-snapshots");
                return Err(refusal(CLOUD.kind, other, &why));
            }
        };
        let api = self.held.api()?;
        let id = self.id()?;
        let mut calls = Vec::new();
        let outcome = self.act(api, id, change, &mut calls).await;
        api.report(action, id, calls, outcome)
    }

    fn own_sheet(&self, base: &Sheet) -> Option<Sheet> {
        self.host_rates().map(|r| model::host_sheet(base, &r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{self, Lang};

    #[test]
    fn a_missing_id_and_a_refused_deadline_are_said_in_chinese() {
        let vast = Vast::new(settings(&KeyEnv::default(), None), HttpPolicy::default());
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let (missing, deadline) = i18n::scoped(Lang::ZhCn, || {
            let deadline = rt.block_on(Provider::act(&vast, &Action::SetDeadline { at: None }));
            (
                vast.id().unwrap_err().shown(),
                deadline.unwrap_err().shown(),
            )
        });
        assert!(
            missing.contains("未指定实例") && missing.contains("在容器内运行（CONTAINER_ID）"),
            "{missing}"
        );
        assert!(
            deadline.contains("Vast.ai 没有服务端截止时间"),
            "{deadline}"
        );
    }
}
