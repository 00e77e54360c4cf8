//! Lambda Cloud (API v1, bearer key in `LAMBDA_API_KEY`): list the instance with its live
//! `price_cents_per_hour`, terminate it with a read-back, and list or delete file systems, which
//! survive termination and bill per GiB-month whether mounted or not.
//!
//! Lambda has no stop, no snapshots and no server-side deadline: those capabilities are off and
//! asking for them says so. There is no metadata service either: the instance comes from
//! `--instance`/`[instance] id`, else from matching this machine's hostname against the list.

mod discover;
mod file_systems;
pub mod model;

use std::ops::ControlFlow::{Break, Continue};
use std::sync::Mutex;

use async_trait::async_trait;
use jiff::Timestamp;
use serde_json::{Value, json};

use self::model::{Seen, file_system, parse_instance, state_of};
use super::ProviderKind;
use super::bearer::{
    Api, ApiError, ApiKey, Cloud, Forbidden, KeyEnv, Readback, Scheme, StateLog, no_field, no_list,
    read_back_call,
};
use super::bearer_held::{Held, held_provider_methods, refusal};
use super::http::{HttpPolicy, Repeat};
use super::{
    Action, ActionReport, InstanceInfo, Inventory, LinkedResource, Provider, ProviderError,
};
use crate::meter::BillingMode;

pub const KEY_VAR: &str = "LAMBDA_API_KEY";
/// Points the adapter at another endpoint (tests use a loopback server).
pub const ENDPOINT_VAR: &str = "GPUMETER_LAMBDA_ENDPOINT";
pub const DEFAULT_ENDPOINT: &str = "https://cloud.lambda.ai/api/v1";
/// The adapter's name in its errors.
const ID: &str = ProviderKind::Lambda.id();
/// Lambda's keys carry every permission; its 403 is an account that may not act
/// (`global/account-inactive`), its refused key a 401 with `global/invalid-api-key`.
const CLOUD: Cloud = Cloud {
    kind: ProviderKind::Lambda,
    key_var: KEY_VAR,
    forbidden: Forbidden::Permission,
    scheme: Scheme::Bearer,
    endpoint: (ENDPOINT_VAR, DEFAULT_ENDPOINT),
};

/// Everything the adapter needs before its first call.
#[derive(Debug, Clone)]
pub struct LambdaSettings {
    pub key: Result<ApiKey, ProviderError>,
    pub endpoint: String,
    pub instance_id: Option<String>,
    /// This machine's hostname, matched against the instance list when no id is configured.
    pub hostname: Option<String>,
}

impl LambdaSettings {
    pub fn resolve(env: &KeyEnv, instance_id: Option<String>, hostname: Option<String>) -> Self {
        LambdaSettings {
            key: CLOUD.key(env, &[KEY_VAR]),
            endpoint: CLOUD.base_url(env),
            instance_id,
            hostname: hostname
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty()),
        }
    }

    /// From the process environment and `/etc/hostname`.
    pub fn from_process(instance_id: Option<String>) -> Self {
        let hostname = std::fs::read_to_string("/etc/hostname").ok();
        Self::resolve(
            &KeyEnv::from_process(&[KEY_VAR, ENDPOINT_VAR]),
            instance_id,
            hostname,
        )
    }
}

pub struct Lambda {
    held: Held,
    configured: Option<String>,
    hostname: Option<String>,
    found: Mutex<Option<String>>,
    first_seen: Mutex<Option<Timestamp>>,
}

impl Lambda {
    pub fn new(settings: LambdaSettings, policy: HttpPolicy) -> Self {
        Lambda {
            held: Held::new(CLOUD, settings.key, &settings.endpoint, policy),
            configured: settings.instance_id,
            hostname: settings.hostname,
            found: Mutex::new(None),
            first_seen: Mutex::new(None),
        }
    }

    super::setters::with_setters! {
        with_readback(readback: Readback) in held;
    }

    fn known_id(&self) -> Option<String> {
        self.configured
            .clone()
            .or_else(|| self.found.lock().ok().and_then(|f| f.clone()))
    }

    /// The instance: configured, else the one whose hostname, name or IP is this machine's.
    pub async fn instance_id(&self) -> Result<String, ProviderError> {
        if let Some(id) = self.known_id() {
            return Ok(id);
        }
        let api = self.held.api()?;
        let no_id = || {
            ProviderError::state(ID, crate::t!("lambda-no-instance"))
                .with_fix(&crate::t!("lambda-no-instance-fix"))
        };
        let host = self.hostname.clone().ok_or_else(no_id)?;
        let list = api
            .json("GET", "/instances", None, Repeat::Safe)
            .await
            .map_err(|e| api.error(e))?;
        let rows = list
            .get("data")
            .and_then(Value::as_array)
            .ok_or_else(|| api.error(ApiError::malformed("GET /instances", no_list("data"))))?;
        let short = host.split('.').next().unwrap_or(&host).to_string();
        let id = rows
            .iter()
            .filter_map(parse_instance)
            .find(|i| {
                [&i.hostname, &Some(i.name.clone()), &i.ip]
                    .iter()
                    .filter_map(|v| v.as_deref())
                    .any(|v| v == host || v.split('.').next() == Some(short.as_str()))
            })
            .map(|i| i.id)
            .ok_or_else(no_id)?;
        if let Ok(mut f) = self.found.lock() {
            *f = Some(id.clone());
        }
        Ok(id)
    }

    /// The instance, `None` once Lambda no longer knows it.
    async fn get(api: &Api, id: &str) -> Result<Option<Seen>, ApiError> {
        let path = format!("/instances/{id}");
        match api.json("GET", &path, None, Repeat::Safe).await {
            Ok(v) => v
                .get("data")
                .and_then(parse_instance)
                .map(Some)
                .ok_or_else(|| {
                    let what = crate::t!("lambda-answer-no-instance");
                    ApiError::malformed(&Api::describe("GET", &path), what)
                }),
            Err(e) if e.status() == Some(404) => api.gone(e, "/instances", "data", id).await,
            Err(e) => Err(e),
        }
    }

    async fn file_systems(api: &Api, now: Timestamp) -> Result<Vec<LinkedResource>, ApiError> {
        let v = api.json("GET", "/file-systems", None, Repeat::Safe).await?;
        let rows = v
            .get("data")
            .and_then(Value::as_array)
            .ok_or_else(|| ApiError::malformed("GET /file-systems", no_list("data")))?;
        Ok(rows.iter().filter_map(|r| file_system(r, now)).collect())
    }

    fn info(&self, seen: &Seen, now: Timestamp) -> InstanceInfo {
        let created = seen.created.unwrap_or_else(|| {
            self.first_seen
                .lock()
                .map_or(now, |mut f| *f.get_or_insert(now))
        });
        instance_info(seen, created, now, &self.held.log)
    }

    async fn release(
        &self,
        api: &Api,
        id: &str,
        calls: &mut Vec<String>,
    ) -> Result<(bool, String), ApiError> {
        let path = format!("/instances/{id}");
        calls.push(Api::describe("GET", &path));
        match Self::get(api, id).await? {
            None => {
                api.absent(&self.held.sightings, id)
                    .map_err(ApiError::Unseen)?;
                return Ok((true, crate::t!("lambda-already-gone").into_owned()));
            }
            Some(i) if i.status == "terminated" => {
                return Ok((true, crate::t!("lambda-already-terminated").into_owned()));
            }
            Some(i) => self.held.sightings.saw(ID, i.region.as_deref(), id),
        }
        calls.push(terminate_call(id));
        let body = json!({ "instance_ids": [id] });
        match api
            .json(
                "POST",
                "/instance-operations/terminate",
                Some(&body),
                Repeat::Safe,
            )
            .await
        {
            Ok(v) if v.get("data").is_some() => {}
            Ok(_) => {
                return Err(ApiError::malformed(
                    "POST /instance-operations/terminate",
                    no_field("data"),
                ));
            }
            // Gone between the two calls, or the wrong endpoint: the read-back decides.
            Err(e) if e.status() == Some(404) => {}
            Err(e) => return Err(e),
        }
        calls.push(read_back_call(&format!("GET {path}")));
        let seen = |instance: Option<&Seen>| match instance {
            None => Break(crate::t!("lambda-terminated-gone").into_owned()),
            Some(i) if i.status == "terminated" => {
                Break(crate::t!("lambda-terminated").into_owned())
            }
            Some(i) => Continue(crate::t!("lambda-reads-back", status = i.status.as_str())),
        };
        Ok(self
            .held
            .readback
            .confirm("terminate", || Self::get(api, id), seen)
            .await)
    }
}

/// The instance, created at `created`, its history from `log`.
fn instance_info(seen: &Seen, created: Timestamp, now: Timestamp, log: &StateLog) -> InstanceInfo {
    let state = state_of(&seen.status);
    InstanceInfo {
        id: seen.id.clone(),
        name: seen.name.clone(),
        provider: ID.into(),
        region: seen.region.clone(),
        sku: seen.sku.clone(),
        mode: BillingMode::OnDemand,
        state,
        created,
        live_price_per_hour: seen.price_per_hour,
        history: log.saw(created, state, None, now),
    }
}

fn terminate_call(id: &str) -> String {
    format!("POST /instance-operations/terminate {{\"instance_ids\":[\"{id}\"]}}")
}

#[async_trait]
impl Provider for Lambda {
    held_provider_methods!(ProviderKind::Lambda);

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        let id = self
            .known_id()
            .unwrap_or_else(|| crate::t!("lambda-plan-instance").into_owned());
        match action {
            Action::Release => vec![
                format!("GET /instances/{id}"),
                terminate_call(&id),
                read_back_call(&format!("GET /instances/{id}")),
            ],
            _ => Vec::new(),
        }
    }

    async fn instances(&self) -> Result<Vec<crate::provider::Discovered>, ProviderError> {
        self.discover().await
    }

    /// Persistent file systems no instance uses (`is_in_use` false): they bill per GB-month
    /// with nothing attached. Lambda instances cannot be stopped, so nothing else bills idle.
    async fn sweep(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let api = self.held.api()?;
        let found = Self::file_systems(api, Timestamp::now())
            .await
            .map_err(|e| api.error(e))?;
        Ok(found
            .into_iter()
            .filter(|f| f.state == model::NOT_IN_USE)
            .collect())
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        let api = self.held.api()?;
        let id = self.instance_id().await?;
        let now = Timestamp::now();
        let state = |e: ApiError| api.error(e);
        let seen = Self::get(api, &id).await.map_err(state)?;
        let region = seen.as_ref().and_then(|i| i.region.as_deref());
        api.listed_or_absent(&self.held.sightings, &id, seen.is_some(), region)?;
        let mut resources = Self::file_systems(api, now).await.map_err(state)?;
        Self::attach_file_systems(api, &mut resources, seen.as_ref()).await;
        Ok(Inventory {
            instance: seen.map(|s| self.info(&s, now)),
            resources,
            deadline: None,
        })
    }

    fn delete_plan(&self, resource: &LinkedResource) -> Vec<String> {
        Self::file_system_plan(resource)
    }

    async fn delete(&self, resource: &LinkedResource) -> Result<ActionReport, ProviderError> {
        self.delete_file_system(resource).await
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        match action {
            Action::Release => {}
            Action::Stop | Action::Start => {
                return Err(ProviderError::unsupported(ID, crate::t!("lambda-no-stop")));
            }
            other => {
                let why = crate::t!("lambda-no-snapshots");
                return Err(refusal(CLOUD.kind, other, &why));
            }
        }
        let api = self.held.api()?;
        let id = self.instance_id().await?;
        let mut calls = Vec::new();
        let outcome = self.release(api, &id, &mut calls).await;
        api.report(action, &id, calls, outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{self, Lang};

    #[test]
    fn a_stop_and_the_read_back_call_are_said_in_chinese() {
        let settings = LambdaSettings::resolve(&KeyEnv::default(), Some("i-7".into()), None);
        let lambda = Lambda::new(settings, HttpPolicy::default());
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let (stop, plan) = i18n::scoped(Lang::ZhCn, || {
            let refused = rt.block_on(lambda.act(&Action::Stop)).unwrap_err();
            (refused.shown(), lambda.plan_instance(&Action::Release))
        });
        assert!(stop.contains("Lambda Cloud 没有停止或暂停"), "{stop}");
        assert_eq!(plan[2], "GET /instances/i-7   （回读）");
    }
}
