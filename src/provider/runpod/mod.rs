//! RunPod (REST v2, bearer key in `RUNPOD_API_KEY`): the pod with its live `cost`, stop, start
//! and terminate with a read-back (`POST /v2/pods/{id}/action`), and the account's network
//! volumes (list, delete).
//!
//! A stopped (`EXITED`) pod's `cost` reads 0, but its volume disk goes on billing at the stopped
//! rate. So the pod's disks are linked resources with the classes the `runpod` sheet prices,
//! `container` (nothing while stopped) and `volume` (a higher `when_stopped` rate), and the meter
//! keeps billing storage while the pod is stopped. Inside a pod its id is `RUNPOD_POD_ID`.
//!
//! A key scoped to the pod may not list network volumes (401 or 403 on that call alone): the
//! pod and its own disks are still reported, and the network volumes are a gap
//! ([`Provider::gaps`]), unknown rather than none.

mod discover;
mod disks;
pub mod model;
mod volumes;

pub use model::sku_for;

use std::ops::ControlFlow::{Break, Continue};

use async_trait::async_trait;
use jiff::Timestamp;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use self::disks::{disk, network_volume, own_disks, volume_of};
use self::model::{Pod, parse_pod, state_of};
use super::ProviderKind;
use super::bearer::{
    Api, ApiError, Cloud, Forbidden, KeyEnv, Readback, Scheme, Settings, StateLog, no_field,
    no_list, read_back_call,
};
use super::bearer_held::{Held, held_provider_methods, or_gap, refusal, watched};
use super::http::{HttpPolicy, Repeat};
use super::{
    Action, ActionReport, InstanceInfo, Inventory, LinkedResource, Provider, ProviderError,
};
use crate::meter::{BillingMode, ResourceKind};
use crate::t;

pub const KEY_VAR: &str = "RUNPOD_API_KEY";
pub const POD_VAR: &str = "RUNPOD_POD_ID";
/// Points the adapter at another endpoint (tests use a loopback server).
pub const ENDPOINT_VAR: &str = "GPUMETER_RUNPOD_ENDPOINT";
pub const DEFAULT_ENDPOINT: &str = "https://api.runpod.io";
/// The adapter's name in its errors.
const ID: &str = ProviderKind::Runpod.id();
/// RunPod keys can be restricted (read-only, or to some endpoints): its 403 is a key that may
/// not make the call.
const CLOUD: Cloud = Cloud {
    kind: ProviderKind::Runpod,
    key_var: KEY_VAR,
    forbidden: Forbidden::Permission,
    scheme: Scheme::Bearer,
    endpoint: (ENDPOINT_VAR, DEFAULT_ENDPOINT),
};

/// The pod from the flags or config, else `RUNPOD_POD_ID`.
pub type RunpodSettings = Settings;

pub fn settings(env: &KeyEnv, pod_id: Option<String>) -> RunpodSettings {
    CLOUD.settings(env, &[KEY_VAR], (pod_id, POD_VAR))
}

pub fn settings_from_process(pod_id: Option<String>) -> RunpodSettings {
    let names = [KEY_VAR, POD_VAR, ENDPOINT_VAR];
    settings(&KeyEnv::from_process(&names), pod_id)
}

pub struct Runpod {
    held: Held,
    pod_id: Option<String>,
}

impl Runpod {
    pub fn new(settings: RunpodSettings, policy: HttpPolicy) -> Self {
        Runpod {
            held: Held::new(CLOUD, settings.key, &settings.endpoint, policy),
            pod_id: settings.instance_id,
        }
    }

    super::setters::with_setters! {
        with_readback(readback: Readback) in held;
    }

    fn pod_id(&self) -> Result<&str, ProviderError> {
        let pod = t!("runpod-word-pod");
        watched(self.pod_id.as_deref(), CLOUD.kind, (&pod, &pod, POD_VAR))
    }

    async fn get(api: &Api, id: &str) -> Result<Option<Pod>, ApiError> {
        let path = format!("/v2/pods/{id}");
        match api.json("GET", &path, None, Repeat::Safe).await {
            Ok(v) => parse_pod(v.get("pod").unwrap_or(&v))
                .map(Some)
                .ok_or_else(|| {
                    ApiError::malformed(&Api::describe("GET", &path), t!("runpod-answer-no-pod"))
                }),
            Err(e) if e.status() == Some(404) => api.gone(e, "/v2/pods", "pods", id).await,
            Err(e) => Err(e),
        }
    }

    /// Every pod of the account: `GET /v2/pods` lists them all in one answer.
    async fn pods(api: &Api) -> Result<Vec<Pod>, ApiError> {
        let listed = api.json("GET", "/v2/pods", None, Repeat::Safe).await?;
        Ok(listed
            .get("pods")
            .and_then(Value::as_array)
            .ok_or_else(|| ApiError::malformed("GET /v2/pods", no_list("pods")))?
            .iter()
            .filter_map(parse_pod)
            .collect())
    }

    async fn network_volumes(api: &Api) -> Result<Vec<Value>, ApiError> {
        let v = api
            .json("GET", "/v2/network-volumes", None, Repeat::Safe)
            .await?;
        v.get("networkVolumes")
            .or(Some(&v))
            .and_then(Value::as_array)
            .cloned()
            .ok_or_else(|| {
                ApiError::malformed("GET /v2/network-volumes", no_field("networkVolumes"))
            })
    }

    /// The pod as an instance, its history from `log` (this adapter's own pod's log, or a
    /// fresh one for each pod an account listing finds).
    fn info(pod: &Pod, now: Timestamp, log: &StateLog) -> InstanceInfo {
        let created = pod.created.unwrap_or(now);
        let state = state_of(&pod.status);
        InstanceInfo {
            id: pod.id.clone(),
            name: pod.name.clone(),
            provider: ID.into(),
            region: pod.data_center.clone(),
            sku: pod.sku.clone(),
            mode: BillingMode::OnDemand,
            state,
            created,
            // 0 while stopped: right for compute, and the disks bill on through the sheet.
            live_price_per_hour: pod.cost,
            history: log.saw(created, state, None, now),
        }
    }

    /// Sends `action` (`terminate`, `stop` or `start`) to the pod, unless the pod is already
    /// where it would take it, then polls until the read-back shows it there: `TERMINATED` (or
    /// gone), `EXITED`, `RUNNING`.
    async fn act(
        &self,
        api: &Api,
        id: &str,
        action: &str,
        calls: &mut Vec<String>,
    ) -> Result<(bool, String), ApiError> {
        let path = format!("/v2/pods/{id}");
        calls.push(Api::describe("GET", &path));
        let before = Self::get(api, id).await?;
        api.listed_or_absent(&self.held.sightings, id, before.is_some(), None)
            .map_err(ApiError::Unseen)?;
        let (stop, start) = (action == "stop", action == "start");
        let ends = !stop && !start;
        match before.as_ref().map(|p| p.status.as_str()) {
            None if !ends => {
                return Ok((false, t!("runpod-gone-nothing-to", action = action)));
            }
            None => return Ok((true, t!("runpod-already-gone").into_owned())),
            Some("TERMINATED") if !ends => {
                return Ok((false, t!("runpod-terminated-nothing-to", action = action)));
            }
            Some("TERMINATED") => return Ok((true, t!("runpod-already-terminated").into_owned())),
            Some("EXITED") if stop => return Ok((true, t!("runpod-already-stopped").into_owned())),
            Some("RUNNING") if start => {
                return Ok((true, t!("runpod-already-running").into_owned()));
            }
            _ => {}
        }
        calls.push(action_call(id, action));
        let body = json!({ "action": action });
        // A start RunPod refuses (409: not valid for the pod's status) is read back once: a
        // repeat that finds the pod already starting, or a pod that cannot start now.
        let mut refused = None;
        match api
            .send("POST", &format!("{path}/action"), Some(&body), Repeat::Safe)
            .await
        {
            Ok(_) => {}
            // Gone between the two calls, or the wrong endpoint: the read-back decides.
            Err(e) if ends && e.status() == Some(404) => {}
            // A repeat finds the work under way; the read-back decides.
            Err(e) if stop && e.status() == Some(409) => {}
            Err(e) if start && e.status() == Some(409) => refused = Some(e),
            Err(e) => return Err(e),
        }
        calls.push(read_back_call(&format!("GET {path}")));
        let want = match action {
            "stop" => "EXITED",
            "start" => "RUNNING",
            _ => "TERMINATED",
        };
        let seen = |pod: Option<&Pod>| match pod {
            None if ends => Break(t!("runpod-accepted-gone", action = action)),
            None => Continue(t!("runpod-not-listed").into_owned()),
            Some(p) if p.status == want => Break(t!(
                "runpod-accepted-reads-back",
                action = action,
                status = p.status.as_str()
            )),
            Some(p) => Continue(t!("runpod-reads-back", status = p.status.as_str())),
        };
        let readback = if refused.is_some() {
            Readback {
                attempts: 1,
                ..self.held.readback
            }
        } else {
            self.held.readback
        };
        let (confirmed, summary) = readback.confirm(action, || Self::get(api, id), seen).await;
        Ok(match refused {
            Some(e) if !confirmed => (
                false,
                t!(
                    "runpod-refused",
                    action = action,
                    error = e.to_string(),
                    summary = summary
                ),
            ),
            _ => (confirmed, summary),
        })
    }
}

fn action_call(id: &str, action: &str) -> String {
    format!("POST /v2/pods/{id}/action {{\"action\":\"{action}\"}}")
}

#[async_trait]
impl Provider for Runpod {
    held_provider_methods!(ProviderKind::Runpod);

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        let id = self.pod_id.clone().unwrap_or_else(|| format!("${POD_VAR}"));
        let verb = match action {
            Action::Release => "terminate",
            Action::Stop => "stop",
            Action::Start => "start",
            _ => return Vec::new(),
        };
        vec![
            format!("GET /v2/pods/{id}"),
            action_call(&id, verb),
            read_back_call(&format!("GET /v2/pods/{id}")),
        ]
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        let api = self.held.api()?;
        let id = self.pod_id()?;
        let now = Timestamp::now();
        let state = |e: ApiError| api.error(e);
        let pod = Self::get(api, id).await.map_err(state)?;
        api.listed_or_absent(&self.held.sightings, id, pod.is_some(), None)?;
        let mut gaps = Vec::new();
        let what = t!("runpod-gap-volumes");
        let volumes = or_gap(api, Self::network_volumes(api).await, &what, &mut gaps)?;
        self.held.set_gaps(gaps);
        let mut resources = pod.as_ref().map(|p| own_disks(p, now)).unwrap_or_default();
        resources.extend(
            volumes
                .iter()
                .filter_map(|v| volume_of(pod.as_ref(), v, "not attached here", now)),
        );
        Ok(Inventory {
            instance: pod.map(|p| Self::info(&p, now, &self.held.log)),
            resources,
            deadline: None,
        })
    }

    async fn instances(&self) -> Result<Vec<crate::provider::Discovered>, ProviderError> {
        self.discover().await
    }

    /// Network volumes no running pod mounts, and the volume disks of stopped (`EXITED`) pods,
    /// which bill while the pod is stopped.
    async fn sweep(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let api = self.held.api()?;
        let now = Timestamp::now();
        let state = |e: ApiError| api.error(e);
        let pods = Self::pods(api).await.map_err(state)?;
        let mounted: std::collections::BTreeSet<&String> = pods
            .iter()
            .filter(|p| p.status == "RUNNING")
            .flat_map(|p| &p.network)
            .collect();
        let mut found: Vec<LinkedResource> = pods
            .iter()
            .filter(|p| p.status == "EXITED" && p.volume_gb > Decimal::ZERO)
            .map(|p| disk(p, "volume", ResourceKind::DataDisk, p.volume_gb, now))
            .collect();
        for v in Self::network_volumes(api).await.map_err(state)? {
            found.extend(
                network_volume(
                    &v,
                    |id| mounted.contains(id),
                    "mounted",
                    "mounted by no pod",
                    now,
                )
                .filter(|r| !mounted.contains(&r.id))
                .map(|mut r| {
                    r.attached_to = volumes::user(&pods, &r.id);
                    r
                }),
            );
        }
        Ok(found)
    }

    fn delete_plan(&self, resource: &LinkedResource) -> Vec<String> {
        Self::volume_plan(resource)
    }

    async fn delete(&self, resource: &LinkedResource) -> Result<ActionReport, ProviderError> {
        self.delete_volume(resource).await
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        let verb = match action {
            Action::Release => "terminate",
            Action::Stop => "stop",
            Action::Start => "start",
            other => return Err(refusal(CLOUD.kind, other, &t!("runpod-no-snapshots"))),
        };
        let api = self.held.api()?;
        let id = self.pod_id()?;
        let mut calls = Vec::new();
        let outcome = self.act(api, id, verb, &mut calls).await;
        api.report(action, id, calls, outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{self, Lang};

    #[test]
    fn a_pods_own_disk_and_the_read_back_call_are_said_in_chinese() {
        let runpod = Runpod::new(
            settings(&KeyEnv::default(), Some("p-9".into())),
            HttpPolicy::default(),
        );
        let disk = LinkedResource::new(
            "p-9-volume".into(),
            "volume disk".into(),
            ResourceKind::DataDisk,
            Decimal::TEN,
            "running".into(),
            Timestamp::UNIX_EPOCH,
        );
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let (refused, plan) = i18n::scoped(Lang::ZhCn, || {
            let refused = rt.block_on(Provider::delete(&runpod, &disk)).unwrap_err();
            (refused.shown(), runpod.plan_instance(&Action::Stop))
        });
        assert!(
            refused.contains("单独删除数据盘（Pod 的磁盘随 Pod 终止而删除"),
            "{refused}"
        );
        assert_eq!(plan[2], "GET /v2/pods/p-9   （回读）");
    }
}
