//! The demo cloud: one simulated instance with the leftovers that surprise renters (a data disk
//! that survives release, snapshots, a custom image, an elastic IP, a load balancer).
//!
//! Its state lives in a small JSON file in the data directory, so the cockpit, the CLI commands
//! and the watchdog, each its own process, see the same cloud. Writes go to a temporary file
//! that is renamed over the old one, so a reader never sees half a file.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use jiff::Timestamp;
use rust_decimal::Decimal;

use super::ProviderKind;
use super::{
    Action, ActionReport, Capabilities, Discovered, ErrorKind, HeldDeadline, Inventory,
    LinkedResource, Provider, ProviderError, SnapshotPlan,
};
use crate::meter::{InstanceState, ResourceKind};
use crate::t;
pub use gpumeter_core::demo::cloud::{CAPABILITIES, DEMO_SHEET, DEMO_SKU, DemoState};

/// The adapter's name in its errors.
const ID: &str = ProviderKind::Demo.id();
/// What helps when the state file is no demo cloud.
fn reset_fix() -> std::borrow::Cow<'static, str> {
    t!("prov-demo-reset-fix")
}

/// The file name of the demo cloud's state inside the data directory.
pub const STATE_FILE: &str = "demo-cloud.json";
pub type Clock = Arc<dyn Fn() -> Timestamp + Send + Sync>;

pub struct DemoCloud {
    path: PathBuf,
    clock: Clock,
    delay: Duration,
    failing: Vec<String>,
    /// The prepaid cash at the instance's creation, in the sheet's currency; `None`: the demo
    /// bills a card, as most clouds do, and keeps no balance.
    prepaid: Option<Decimal>,
}

impl DemoCloud {
    /// The demo cloud stored in `data_dir`, reading time from `clock`.
    pub fn new(data_dir: &Path, clock: Clock) -> Self {
        DemoCloud {
            path: data_dir.join(STATE_FILE),
            clock,
            delay: Duration::from_millis(1200),
            failing: Vec::new(),
            prepaid: None,
        }
    }

    /// How long each simulated action takes.
    #[must_use]
    pub fn with_delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// Actions (by label, such as `release`) that the provider will refuse, to show the error path.
    #[must_use]
    pub fn failing(mut self, actions: Vec<String>) -> Self {
        self.failing = actions;
        self
    }

    /// A prepaid account topped up with `cash` when the instance was created, which its
    /// running draws down (`GPUMETER_DEMO_BALANCE`).
    #[must_use]
    pub fn prepaid(mut self, cash: Option<Decimal>) -> Self {
        self.prepaid = cash;
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts the demo cloud afresh (`--reset`).
    pub fn reset(&self) -> Result<DemoState, ProviderError> {
        let state = DemoState::fresh((self.clock)());
        self.save(&state)?;
        Ok(state)
    }

    /// The stored state, created fresh on first use.
    pub fn load(&self) -> Result<DemoState, ProviderError> {
        match std::fs::read_to_string(&self.path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| {
                ProviderError::state(
                    ID,
                    t!(
                        "prov-demo-not-a-cloud",
                        path = self.path.display().to_string(),
                        error = e.to_string()
                    ),
                )
                .with_fix(&reset_fix())
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => self.reset(),
            Err(e) => Err(self.io(&e)),
        }
    }

    /// The state file cannot be read or written: the data directory is the thing to check.
    fn io(&self, e: &std::io::Error) -> ProviderError {
        ProviderError::state(ID, format!("{}: {e}", self.path.display())).with_fix(&t!(
            "prov-demo-io-fix",
            path = self.path.display().to_string()
        ))
    }

    fn save(&self, state: &DemoState) -> Result<(), ProviderError> {
        let io = |e: std::io::Error| self.io(&e);
        let text = serde_json::to_string_pretty(state)
            .map_err(|e| ProviderError::state(ID, e.to_string()))?;
        crate::files::write_private(&self.path, text.as_bytes()).map_err(io)
    }

    fn apply(state: &mut DemoState, action: &Action, now: Timestamp) -> String {
        use InstanceState::{Running, Stopped};
        match action {
            Action::Cleanup { .. } => t!("prov-demo-cleanup-one-at-a-time").into_owned(),
            Action::Release => {
                if state.instance.state == InstanceState::Released {
                    return t!("prov-demo-already-released").into_owned();
                }
                state.instance.state = InstanceState::Released;
                state.instance.history.push((now, InstanceState::Released));
                state.resources.retain(|r| !r.deleted_with_instance);
                for r in &mut state.resources {
                    r.attached_to = None;
                    if r.kind.is_disk() {
                        "available".clone_into(&mut r.state);
                    } else if r.kind == ResourceKind::PublicIp {
                        "unassociated".clone_into(&mut r.state);
                    }
                }
                state.deadline = None;
                t!("prov-demo-released").into_owned()
            }
            Action::Stop => Self::turn(
                state,
                now,
                [Running, Stopped],
                [t!("prov-demo-was-running"), t!("prov-demo-stopped")],
            ),
            Action::Start => Self::turn(
                state,
                now,
                [Stopped, Running],
                [t!("prov-demo-was-stopped"), t!("prov-demo-started")],
            ),
            Action::SnapshotClean {
                keep,
                final_snapshot,
                ..
            } => snapshot_clean(state, *keep, *final_snapshot, now),
            Action::SetDeadline { at } => {
                state.deadline = at.map(|at| HeldDeadline { at });
                at.map_or_else(
                    || t!("prov-demo-deadline-cancelled").into_owned(),
                    |at| t!("prov-demo-deadline", at = at.to_string()),
                )
            }
        }
    }

    /// Moves the instance from state `from` to `to` (a stop or a start), answering `to`'s word;
    /// an instance not in `from` stays as it is, and the answer says so.
    fn turn(
        state: &mut DemoState,
        now: Timestamp,
        [from, to]: [InstanceState; 2],
        [was, done]: [Cow<'static, str>; 2],
    ) -> String {
        if state.instance.state != from {
            let is = format!("{:?}", state.instance.state).to_lowercase();
            return t!("prov-demo-not", was = was, state = is);
        }
        state.instance.state = to;
        state.instance.history.push((now, to));
        done.into_owned()
    }

    fn verify(state: &DemoState, action: &Action, before: &DemoState) -> bool {
        match action {
            Action::Cleanup { .. } => false,
            Action::Release => state.instance.state == InstanceState::Released,
            Action::Stop => state.instance.state == InstanceState::Stopped,
            Action::Start => state.instance.state == InstanceState::Running,
            Action::SnapshotClean {
                keep,
                final_snapshot,
                ..
            } => {
                let plan = SnapshotPlan::new(&before.resources, *keep, *final_snapshot);
                let ids: Vec<&str> = snapshots(state).iter().map(|r| r.id.as_str()).collect();
                plan.deleted.iter().all(|d| !ids.contains(&d.as_str()))
                    && plan.kept.iter().all(|(k, _)| ids.contains(&k.as_str()))
            }
            Action::SetDeadline { at } => state.deadline.map(|d| d.at) == *at,
        }
    }
}

fn snapshots(state: &DemoState) -> Vec<&LinkedResource> {
    state
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::Snapshot)
        .collect()
}

fn snapshot_clean(
    state: &mut DemoState,
    keep: usize,
    final_snapshot: bool,
    now: Timestamp,
) -> String {
    let plan = SnapshotPlan::new(&state.resources, keep, final_snapshot);
    if final_snapshot {
        let size = state
            .resources
            .iter()
            .find(|r| r.kind == ResourceKind::SystemDisk)
            .map_or(Decimal::ZERO, |r| r.size_gib);
        state.resources.push(LinkedResource::new(
            format!("snap-final{}", now.as_second()),
            "final".into(),
            ResourceKind::Snapshot,
            size,
            "completed".into(),
            now,
        ));
    }
    state.resources.retain(|r| !plan.deleted.contains(&r.id));
    t!(
        "prov-demo-snapshots-cleaned",
        deleted = plan.deleted.len().to_string(),
        kept = (plan.kept.len() + usize::from(final_snapshot)).to_string()
    )
}

fn listed(state: &DemoState, id: &str) -> bool {
    state
        .resources
        .iter()
        .chain(&state.orphans)
        .any(|r| r.id == id)
}

/// What the demo cloud refuses to delete, as a cloud would: what it does not hold, a disk of
/// the running instance, a snapshot an image still uses.
fn refuse_delete(state: &DemoState, id: &str) -> Result<(), ProviderError> {
    let refuse = |code: &str, message: String| {
        Err(ProviderError::state(ID, message.clone())
            .with_code(code)
            .with_message(&message))
    };
    let Some(r) = state
        .resources
        .iter()
        .chain(&state.orphans)
        .find(|r| r.id == id)
    else {
        return refuse("NotFound", t!("prov-demo-no-such", id = id));
    };
    let running = state.instance.state == InstanceState::Running;
    if running && r.attached_to.as_deref() == Some(state.instance.id.as_str()) {
        return refuse(
            "InUse",
            t!(
                "prov-demo-in-use-running",
                id = id,
                instance = state.instance.id.as_str()
            ),
        );
    }
    if let Some(image) = r.backs_image.as_ref().filter(|i| listed(state, i)) {
        return refuse(
            "InUse",
            t!("prov-demo-in-use-image", id = id, image = image.as_str()),
        );
    }
    Ok(())
}

#[async_trait]
impl Provider for DemoCloud {
    async fn interruption_notice(&self) -> Result<Option<Timestamp>, ProviderError> {
        Ok(self.load()?.interruption)
    }

    fn name(&self) -> &'static str {
        ID
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        let target = self.load().map_or_else(
            |_| t!("prov-demo-the-instance").into_owned(),
            |s| s.instance.id,
        );
        vec![
            format!("demo: {} {target}", action.label()),
            t!("prov-demo-call-read-back", target = target.as_str()),
        ]
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        let state = self.load()?;
        Ok(Inventory {
            instance: Some(state.instance),
            resources: state.resources,
            deadline: state.deadline,
        })
    }

    /// The demo instance, until it is released: the demo account holds no other.
    async fn instances(&self) -> Result<Vec<Discovered>, ProviderError> {
        let state = self.load()?;
        if state.instance.state == InstanceState::Released {
            return Ok(Vec::new());
        }
        Ok(vec![Discovered {
            instance: state.instance,
            resources: state.resources,
            deadline: state.deadline,
            tags: std::collections::BTreeMap::new(),
        }])
    }

    /// What bills with no running instance using it: once the instance is released, everything
    /// that outlived it; while it is stopped, all of it (its disks, its address, a load balancer
    /// with no healthy target); while it runs, its snapshots and images.
    async fn sweep(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let state = self.load()?;
        let instance_state = state.instance.state;
        let mut found: Vec<LinkedResource> = state
            .resources
            .into_iter()
            .filter(|r| match instance_state {
                InstanceState::Released => !r.deleted_with_instance,
                InstanceState::Stopped => true,
                InstanceState::Running | InstanceState::NoGpu => {
                    matches!(r.kind, ResourceKind::Snapshot | ResourceKind::Image)
                }
            })
            .collect();
        found.extend(state.orphans);
        Ok(found)
    }

    fn delete_plan(&self, resource: &LinkedResource) -> Vec<String> {
        let mut calls = Vec::new();
        if let Some(on) = resource.attached_to.as_ref() {
            calls.push(t!(
                "prov-demo-call-detach",
                id = resource.id.as_str(),
                on = on.as_str()
            ));
        }
        calls.push(t!(
            "prov-demo-call-delete",
            kind = resource.kind.shown(),
            id = resource.id.as_str()
        ));
        calls.push(t!(
            "prov-demo-call-read-back",
            target = resource.id.as_str()
        ));
        calls
    }

    async fn delete(&self, resource: &LinkedResource) -> Result<ActionReport, ProviderError> {
        tokio::time::sleep(self.delay / 4).await;
        if self.failing.iter().any(|f| f == "cleanup") {
            return Err(ProviderError::new(ID, ErrorKind::Unreachable)
                .with_code("InternalError")
                // The simulated provider's own message, which is never translated.
                .with_message(&format!(
                    "demo: the provider refused to delete {} (injected failure)",
                    resource.id
                )));
        }
        let mut state = self.load()?;
        refuse_delete(&state, &resource.id)?;
        state.resources.retain(|r| r.id != resource.id);
        state.orphans.retain(|r| r.id != resource.id);
        self.save(&state)?;
        let read_back = self.load()?;
        let gone = !listed(&read_back, &resource.id);
        Ok(ActionReport {
            action: Action::Cleanup {
                delete: vec![resource.clone()],
            },
            confirmed: gone,
            summary: if gone {
                t!("prov-demo-gone", id = resource.id.as_str())
            } else {
                t!("prov-demo-still-listed", id = resource.id.as_str())
            },
            calls: self.delete_plan(resource),
        })
    }

    async fn balance(&self) -> Result<Option<super::Balance>, ProviderError> {
        let Some(cash) = self.prepaid else {
            return Ok(None);
        };
        let state = self.load()?;
        Ok(gpumeter_core::demo::prepaid::balance(
            &state,
            cash,
            (self.clock)(),
        ))
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        tokio::time::sleep(self.delay).await;
        if self.failing.iter().any(|f| f == action.label()) {
            // As a cloud failing on its side would answer (GPUMETER_DEMO_FAIL).
            return Err(ProviderError::new(ID, ErrorKind::Unreachable)
                .with_code("InternalError")
                .with_message(&format!(
                    "demo: the provider refused to {} (injected failure)",
                    action.label()
                )));
        }
        let mut state = self.load()?;
        if let Action::SnapshotClean {
            keep,
            final_snapshot,
            delete,
        } = action
        {
            SnapshotPlan::new(&state.resources, *keep, *final_snapshot)
                .check_promise(delete.as_deref())
                .map_err(|why| ProviderError::state(ID, why))?;
        }
        let before = state.clone();
        let said = Self::apply(&mut state, action, (self.clock)());
        self.save(&state)?;
        let read_back = self.load()?;
        let confirmed = Self::verify(&read_back, action, &before);
        Ok(ActionReport {
            action: action.clone(),
            confirmed,
            summary: format!("{}: {said}", read_back.instance.id),
            calls: self.plan(action),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn an_injected_failure_and_a_broken_state_file_have_their_kinds() {
        let dir = std::env::temp_dir().join(format!("gpumeter-demo-kinds-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cloud = DemoCloud::new(&dir, Arc::new(Timestamp::now))
            .with_delay(Duration::ZERO)
            .failing(vec!["stop".into()]);
        let rt = rt();
        let refused = rt.block_on(cloud.perform(&Action::Stop)).unwrap_err();
        assert_eq!(refused.kind(), &ErrorKind::Unreachable);
        assert_eq!(refused.code(), Some("InternalError"));
        assert!(refused.to_string().contains("refused to stop"), "{refused}");
        cloud.reset().unwrap();
        std::fs::write(cloud.path(), "not json").unwrap();
        let broken = rt.block_on(cloud.inventory()).unwrap_err();
        assert!(
            matches!(broken.kind(), ErrorKind::State { .. }),
            "{broken:?}"
        );
        assert_eq!(broken.fix(), reset_fix());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_refused_delete_is_said_in_chinese_with_the_id() {
        use crate::i18n::{self, Lang};
        let state = DemoState::fresh(Timestamp::UNIX_EPOCH);
        let refused = i18n::scoped(Lang::ZhCn, || {
            refuse_delete(&state, "vol-gone").unwrap_err()
        });
        assert_eq!(refused.message(), "演示云中不存在 vol-gone");
        assert_eq!(refused.code(), Some("NotFound"));
    }
}
