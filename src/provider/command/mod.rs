//! The `command` provider: any cloud with a command-line tool but no adapter here. The config's
//! `[command]` section gives argument vectors for release, stop, snapshot-clean, extend and
//! inventory; they run without a shell ([`run`]). Exit status 0 means the command was accepted;
//! the effect is confirmed only when the inventory command, run again, shows it ([`schema`] is
//! the JSON it prints). Without an inventory command an action is reported as done by exit
//! status and not verified, never as confirmed. `list_account` and `delete` sweep the account
//! and delete what it lists ([`delete`]).

mod delete;
pub mod run;
pub mod schema;

use std::sync::Arc;

use async_trait::async_trait;
use jiff::Timestamp;

use super::ProviderKind;
use super::{
    Action, ActionReport, Capabilities, Inventory, LinkedResource, Provider, ProviderError,
    SnapshotPlan,
};
use crate::config::CommandConfig;
use crate::meter::{InstanceState, ResourceKind};
use crate::t;
use run::{RunError, Values, display, fill};

pub type Clock = Arc<dyn Fn() -> Timestamp + Send + Sync>;

pub use crate::provider::readback::Readback;

/// An extend's read-back accepts a deadline this close to the one asked (CLIs round).
const DEADLINE_SLACK_S: i64 = 60;

pub struct CommandProvider {
    config: CommandConfig,
    instance: Option<String>,
    readback: Readback,
    clock: Clock,
}

impl CommandProvider {
    pub fn new(config: CommandConfig, instance: Option<String>) -> Self {
        CommandProvider {
            config,
            instance: instance.filter(|i| !i.trim().is_empty()),
            readback: Readback {
                attempts: 20,
                ..Readback::default()
            },
            clock: Arc::new(Timestamp::now),
        }
    }

    super::setters::with_setters! {
        with_readback(readback: Readback);
        with_clock(clock: Clock);
    }

    fn unsupported(what: impl Into<String>) -> ProviderError {
        ProviderError::unsupported(ID, what)
    }

    /// The configured vector for `action`, and the placeholder values it gets.
    fn command_for(&self, action: &Action) -> Result<(&[String], Values), ProviderError> {
        let mut values = Values {
            instance: self.instance.clone(),
            ..Values::default()
        };
        let (argv, key) = match action {
            Action::Release => (&self.config.release, "release"),
            Action::Stop => (&self.config.stop, "stop"),
            Action::Start => return Err(Self::unsupported(t!("cmdp-no-start"))),
            Action::Cleanup { .. } => return Err(crate::provider::cleanup::not_here(ID)),
            Action::SnapshotClean {
                keep,
                final_snapshot,
                ..
            } => {
                values.keep = Some(*keep);
                values.final_snapshot = Some(*final_snapshot);
                (&self.config.snapshot_clean, "snapshot_clean")
            }
            Action::SetDeadline { at: None } => {
                return Err(Self::unsupported(t!("cmdp-no-cancel")));
            }
            Action::SetDeadline { at: Some(at) } => {
                values.deadline = Some(*at);
                values.duration = Some(at.duration_since((self.clock)()).as_secs().max(0));
                (&self.config.extend, "extend")
            }
        };
        let argv = argv.as_deref().filter(|a| !a.is_empty()).ok_or_else(|| {
            Self::unsupported(t!("cmdp-not-set", action = action.label(), key = key))
        })?;
        Ok((argv, values))
    }

    async fn read(&self) -> Result<Inventory, ProviderError> {
        let argv = self.config.inventory.as_deref().filter(|a| !a.is_empty());
        let Some(argv) = argv else {
            return Err(Self::unsupported(t!("cmdp-no-inventory")));
        };
        let values = Values {
            instance: self.instance.clone(),
            ..Values::default()
        };
        let argv = fill(argv, &values).map_err(|why| unfilled(&why.0))?;
        let out = run::run(&argv, self.config.timeout)
            .await
            .map_err(|e| run_error(&e).with_call(&t!("cmdp-call-inventory")))?;
        let document = schema::parse(&out.stdout).map_err(|e| {
            ProviderError::state(
                ID,
                t!("cmdp-bad-json", key = "inventory", error = e.to_string()),
            )
            .with_fix(&t!("cmdp-bad-json-fix", key = "inventory"))
        })?;
        Ok(document.into_inventory((self.clock)()))
    }

    /// Runs the inventory command until `done` holds, at most `attempts` times.
    async fn poll(
        &self,
        attempts: u32,
        done: impl Fn(&Inventory) -> bool,
    ) -> Result<Inventory, ProviderError> {
        let mut last = self.read().await;
        for _ in 1..attempts.max(1) {
            if matches!(&last, Ok(inv) if done(inv)) {
                break;
            }
            tokio::time::sleep(self.readback.interval).await;
            last = self.read().await;
        }
        last
    }
}

/// The adapter's name in its errors.
const ID: &str = ProviderKind::Command.id();

/// A placeholder the configured vector needs has no value (`{instance}` without an instance).
fn unfilled(why: &str) -> ProviderError {
    ProviderError::state(ID, why).with_fix(why)
}

/// A command line in a plan that cannot run as configured, and why.
fn cannot_run(why: &str) -> String {
    t!("cmdp-cannot-run", why = why)
}

/// What came of running a configured command, by what the process did: it could not start or
/// ran out of time (the setup's to fix), or it exited non-zero, which is its answer: a refusal,
/// with its exit status as the code and its stderr as the message.
fn run_error(e: &RunError) -> ProviderError {
    match e {
        RunError::Spawn { .. } => {
            ProviderError::state(ID, e.to_string()).with_fix(&t!("cmdp-spawn-fix"))
        }
        RunError::Timeout { .. } => {
            ProviderError::state(ID, e.to_string()).with_fix(&t!("cmdp-timeout-fix"))
        }
        RunError::Failed {
            program,
            status,
            stderr,
        } => ProviderError::rejected(ID)
            .with_call(&format!("`{program}`"))
            .with_code(status)
            .with_message(stderr),
    }
}

/// Whether `inventory` shows what `action` was to do.
fn shows(action: &Action, inventory: &Inventory) -> bool {
    let state = inventory.instance.as_ref().map(|i| i.state);
    match action {
        Action::Release => state.is_none() || state == Some(InstanceState::Released),
        Action::Stop => state.is_none_or(|s| !s.is_up()),
        Action::Start => state == Some(InstanceState::Running),
        Action::Cleanup { .. } => false,
        Action::SnapshotClean {
            delete: Some(promised),
            ..
        } => !inventory
            .resources
            .iter()
            .any(|r| r.kind == ResourceKind::Snapshot && promised.contains(&r.id)),
        Action::SnapshotClean {
            keep,
            final_snapshot,
            delete: None,
        } => {
            let snapshots = inventory
                .resources
                .iter()
                .filter(|r| r.kind == ResourceKind::Snapshot)
                .count();
            snapshots <= (*keep).max(usize::from(*final_snapshot))
        }
        Action::SetDeadline { at } => match (at, inventory.deadline) {
            (Some(at), Some(held)) => {
                held.at.duration_since(*at).as_secs().abs() <= DEADLINE_SLACK_S
            }
            (None, held) => held.is_none(),
            (Some(_), None) => false,
        },
    }
}

fn what_it_shows(inventory: &Inventory) -> String {
    let instance = match &inventory.instance {
        None => t!("cmdp-shows-no-instance").into_owned(),
        Some(i) => format!("{} {:?}", i.id, i.state).to_lowercase(),
    };
    let snapshots = inventory
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::Snapshot)
        .count();
    let deadline = inventory.deadline.map_or_else(
        || t!("cmdp-shows-no-deadline").into_owned(),
        |d| {
            let at = d.at.strftime("%Y-%m-%d %H:%M:%S UTC").to_string();
            t!("cmdp-shows-deadline", at = at)
        },
    );
    t!(
        "cmdp-shows",
        instance = instance,
        snapshots = snapshots.to_string(),
        deadline = deadline
    )
}

#[async_trait]
impl Provider for CommandProvider {
    fn name(&self) -> &'static str {
        ID
    }

    fn capabilities(&self) -> Capabilities {
        let set = |v: &Option<Vec<String>>| v.as_ref().is_some_and(|a| !a.is_empty());
        let most = ProviderKind::Command.capabilities();
        Capabilities {
            start: most.start,
            stop: most.stop && set(&self.config.stop),
            snapshots: most.snapshots && set(&self.config.snapshot_clean),
            deadline: most.deadline && set(&self.config.extend),
        }
    }

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        let Ok((argv, values)) = self.command_for(action) else {
            return Vec::new();
        };
        let mut calls =
            vec![fill(argv, &values).map_or_else(|e| cannot_run(&e.0), |a| display(&a))];
        if let Some(inventory) = self.config.inventory.as_deref().filter(|a| !a.is_empty()) {
            let line = fill(inventory, &values).map_or_else(|e| cannot_run(&e.0), |a| display(&a));
            calls.push(t!("cmdp-call-read-back-effect", call = line));
        }
        calls
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        self.read().await
    }

    /// What the `list_account` command prints.
    async fn sweep(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        self.list_account().await
    }

    fn delete_plan(&self, resource: &LinkedResource) -> Vec<String> {
        self.delete_calls(resource)
    }

    async fn delete(&self, resource: &LinkedResource) -> Result<ActionReport, ProviderError> {
        self.delete_resource(resource).await
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        let (argv, values) = self.command_for(action)?;
        // The script decides what it deletes; with an inventory to read, it is not run when the
        // plan from a fresh read is not the one confirmed.
        if let Action::SnapshotClean {
            keep,
            final_snapshot,
            delete: Some(promised),
        } = action
            && self
                .config
                .inventory
                .as_deref()
                .is_some_and(|a| !a.is_empty())
        {
            let now = self.read().await?;
            SnapshotPlan::new(&now.resources, *keep, *final_snapshot)
                .check_promise(Some(promised))
                .map_err(|why| ProviderError::state(ID, why))?;
        }
        let argv = fill(argv, &values).map_err(|why| unfilled(&why.0))?;
        let mut calls = vec![display(&argv)];
        let outcome = run::run(&argv, self.config.timeout).await;
        let label = action.label();
        let verify = self
            .config
            .inventory
            .as_deref()
            .is_some_and(|a| !a.is_empty());
        if !verify {
            return match outcome {
                Ok(_) => Ok(ActionReport {
                    action: action.clone(),
                    confirmed: false,
                    summary: t!("cmdp-done-unverified", action = label),
                    calls,
                }),
                Err(e) => Err(run_error(&e)),
            };
        }
        calls.push(t!("cmdp-call-read-back", key = "inventory"));
        let attempts = if outcome.is_ok() {
            self.readback.attempts
        } else {
            1
        };
        let read = self.poll(attempts, |inv| shows(action, inv)).await;
        let confirmed = matches!(&read, Ok(inv) if shows(action, inv));
        let summary = match (&outcome, &read) {
            (Err(e), Err(_)) => return Err(run_error(e)),
            (_, Ok(inv)) if confirmed => {
                t!("cmdp-confirmed", action = label, shows = what_it_shows(inv))
            }
            (Ok(_), Ok(inv)) => t!(
                "cmdp-exited-but-shows",
                action = label,
                shows = what_it_shows(inv)
            ),
            (Err(e), Ok(inv)) => t!(
                "cmdp-failed-shows",
                error = e.to_string(),
                shows = what_it_shows(inv)
            ),
            (Ok(_), Err(e)) => t!(
                "cmdp-exited-read-back-failed",
                action = label,
                error = e.shown()
            ),
        };
        Ok(ActionReport {
            action: action.clone(),
            confirmed,
            summary,
            calls,
        })
    }
}
