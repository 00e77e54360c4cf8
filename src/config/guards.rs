//! The guard settings: the idle rule, checkpoints, and the hook commands run before an action
//! or on a spot interruption notice.

use std::time::Duration;

use serde::Deserialize;

use super::OnExpiry;
use super::values;

/// `[idle]`: when the instance counts as idle, and what then happens.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IdleConfig {
    /// How long everything must stay idle before `on_idle` runs.
    #[serde(deserialize_with = "values::positive_duration")]
    pub after: Duration,
    /// A GPU under this utilisation (percent) is idle.
    #[serde(deserialize_with = "values::percent")]
    pub gpu_below_pct: f64,
    /// The host is idle under this CPU percentage.
    #[serde(deserialize_with = "values::percent")]
    pub cpu_below_pct: f64,
    /// Judge GPUs by power-weighted load instead of utilisation.
    pub power_weighted: bool,
    /// alert, stop or release.
    pub on_idle: OnExpiry,
    /// Release an instance that has stayed stopped this long (`3d`), whatever stopped it;
    /// unset keeps a stopped instance until told.
    #[serde(deserialize_with = "values::opt_positive_duration")]
    pub stopped_release_after: Option<Duration>,
    /// Before `stopped_release_after` releases the instance, take a final snapshot of its disks
    /// and release only once the provider reads it back.
    pub stopped_release_snapshot: bool,
}

impl Default for IdleConfig {
    fn default() -> Self {
        IdleConfig {
            after: Duration::from_secs(30 * 60),
            gpu_below_pct: 3.0,
            cpu_below_pct: 5.0,
            power_weighted: false,
            on_idle: OnExpiry::Alert,
            stopped_release_after: None,
            stopped_release_snapshot: false,
        }
    }
}

impl IdleConfig {
    /// The idle rule these settings describe; the cockpit, the watchdog and `serve` share it.
    pub fn rule(&self) -> crate::guard::IdleRule {
        crate::guard::IdleRule {
            gpu_below_pct: self.gpu_below_pct,
            power_weighted: self.power_weighted,
            cpu_below_pct: self.cpu_below_pct,
            window: self.after,
        }
    }
}

/// `[checkpoint]`: where the job writes checkpoints, and how old is too old.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CheckpointConfig {
    /// A path or glob such as `/data/ckpt/*.pt`; unset turns the check off.
    pub path: Option<String>,
    /// Older than this warns (default 60 minutes, 30 on spot).
    #[serde(deserialize_with = "values::opt_positive_duration")]
    pub stale_after: Option<Duration>,
}

/// `[hooks]`: commands run as argument vectors (no shell unless you write `sh -c`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HooksConfig {
    /// Runs before a stop or release by the guards (to save a checkpoint, say).
    pub before_action: Vec<String>,
    /// Runs when the provider announces a spot interruption.
    pub on_interrupt: Vec<String>,
    /// A hook still running after this long is killed and the action goes ahead.
    #[serde(deserialize_with = "values::positive_duration")]
    pub timeout: Duration,
}

impl Default for HooksConfig {
    fn default() -> Self {
        HooksConfig {
            before_action: Vec::new(),
            on_interrupt: Vec::new(),
            timeout: Duration::from_secs(120),
        }
    }
}
