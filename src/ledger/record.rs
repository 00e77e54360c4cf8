//! What the ledger records: plain data, built by the cockpit or the watchdog and handed to
//! [`Ledger`](super::Ledger) or [`LedgerWriter`](super::LedgerWriter).

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde::Serialize;

use crate::meter::{BillingMode, Breakdown};
use crate::money::Currency;
use crate::provider::{Action, ActionReport, ProviderError};

/// A session: one run of the cockpit (or watchdog) watching one instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SessionId(pub i64);

/// An event's row id, known once its transaction committed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct EventId(pub i64);

/// How a session starts: the instance and how it is priced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionStart {
    pub instance: String,
    pub provider: String,
    /// `None` for a provider without regions.
    pub region: Option<String>,
    pub sku: String,
    pub mode: BillingMode,
    /// The compute price per hour; `None` when nothing prices the instance.
    pub rate_per_hour: Option<Decimal>,
    pub currency: Currency,
    pub at: Timestamp,
    /// How the sheet bills the session's compute; `None` when no sheet prices it.
    pub billing: Option<BillingStep>,
}

/// Compute bills in whole steps of `step_seconds`, at least `minimum_seconds` a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BillingStep {
    pub step_seconds: u32,
    pub minimum_seconds: u32,
}

impl BillingStep {
    /// The seconds billed for a run of `seconds`.
    pub fn billed_seconds(self, seconds: i64) -> i64 {
        let step = i64::from(self.step_seconds.max(1));
        let whole = (seconds + step - 1) / step * step;
        whole.max(i64::from(self.minimum_seconds))
    }
}

/// What the GPUs did in one bucket, over all GPUs and samples.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GpuMinute {
    /// GPU readings that had a utilisation (GPUs × samples).
    pub util_samples: u32,
    pub util_mean_pct: Option<f64>,
    pub util_max_pct: Option<f64>,
    /// GPU readings that had a power draw.
    pub power_samples: u32,
    /// Mean draw per GPU, in watts.
    pub power_mean_w: Option<f64>,
    /// Energy used by all GPUs together, in joules.
    pub energy_j: f64,
}

/// One minute of one session.
#[derive(Debug, Clone, PartialEq)]
pub struct MinuteBucket {
    pub session: SessionId,
    /// The minute's start; the ledger floors it to the whole minute.
    pub start: Timestamp,
    /// What accrued during this minute, per line.
    pub cost: Breakdown,
    /// The idle rule held for this minute: its whole cost counts as idle spend.
    pub idle: bool,
    pub gpu: GpuMinute,
    /// Metered bytes sent during this minute.
    pub egress_bytes: u64,
    /// Of them, those sent to the intranet and to other regions.
    pub egress_split: gpumeter_core::traffic::EgressSplit,
    /// What those cost this minute, within `cost.bandwidth`; the rest of it is the internet's
    /// (and ingress, and a fixed-bandwidth plan's).
    pub split_cost: SplitCost,
}

/// The intranet's and other regions' share of a minute's bandwidth cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SplitCost {
    pub intranet: rust_decimal::Decimal,
    pub cross_region: rust_decimal::Decimal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A warning the guards raised (deadline, idle, budget, spot notice).
    Alert,
    /// A request to the provider and what came of it.
    Action,
    /// Anything else worth keeping.
    Note,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventLevel {
    Info,
    Warn,
    Error,
}

/// What came of an action, as the provider's read-back says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Confirmed,
    /// The call returned, but the read-back does not show it took effect.
    Unconfirmed,
    /// The provider refused or could not be reached.
    Failed,
}

/// An action: what was asked (intent), the provider's answer and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRecord {
    /// `release`, `stop`, `snapshot-clean`, `set deadline`.
    pub intent: String,
    /// The full request as JSON (`{"action":"snapshot_clean","keep":1,...}`).
    pub request: String,
    pub answer: String,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRecord {
    pub at: Timestamp,
    pub session: Option<SessionId>,
    pub instance: Option<String>,
    pub kind: EventKind,
    pub level: EventLevel,
    pub text: String,
    pub action: Option<ActionRecord>,
    /// Who acted, when not the cockpit or the watchdog: [`FROM_COMMAND`].
    pub origin: Option<&'static str>,
}

/// The origin of an action run from a command line.
pub const FROM_COMMAND: &str = "command";
/// The origin of what `verify --on-fail` did about a failed verdict.
pub const FROM_VERIFY: &str = "verify";

impl EventRecord {
    pub fn alert(at: Timestamp, level: EventLevel, text: impl Into<String>) -> Self {
        EventRecord {
            at,
            session: None,
            instance: None,
            kind: EventKind::Alert,
            level,
            text: text.into(),
            action: None,
            origin: None,
        }
    }

    pub fn note(at: Timestamp, text: impl Into<String>) -> Self {
        EventRecord {
            kind: EventKind::Note,
            ..EventRecord::alert(at, EventLevel::Info, text)
        }
    }

    /// An action and the provider's answer: its report, or the error it gave.
    pub fn action(
        at: Timestamp,
        action: &Action,
        result: &Result<ActionReport, ProviderError>,
    ) -> Self {
        let (answer, outcome) = match result {
            Ok(report) if report.confirmed => (report.summary.clone(), Outcome::Confirmed),
            Ok(report) => (report.summary.clone(), Outcome::Unconfirmed),
            Err(e) => (e.to_string(), Outcome::Failed),
        };
        let level = match outcome {
            Outcome::Confirmed => EventLevel::Info,
            Outcome::Unconfirmed => EventLevel::Warn,
            Outcome::Failed => EventLevel::Error,
        };
        EventRecord {
            at,
            session: None,
            instance: None,
            kind: EventKind::Action,
            level,
            text: format!("{}: {answer}", action.label()),
            action: Some(ActionRecord {
                intent: action.label().to_string(),
                request: serde_json::to_string(action).unwrap_or_default(),
                answer,
                outcome,
            }),
            origin: None,
        }
    }

    /// An action run from a command line against `instance`.
    #[must_use]
    pub fn from_command(mut self, instance: impl Into<String>) -> Self {
        self.instance = Some(instance.into());
        self.origin = Some(FROM_COMMAND);
        self
    }

    /// Ties the event to a session and its instance.
    #[must_use]
    pub fn in_session(mut self, session: SessionId, instance: impl Into<String>) -> Self {
        self.session = Some(session);
        self.instance = Some(instance.into());
        self
    }
}

/// The snake-case name a value serialises to, as stored in text columns.
pub(crate) fn word<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
