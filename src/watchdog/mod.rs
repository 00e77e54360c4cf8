//! `gpumeter watchdog`: the small headless process that enforces the deadline, the idle rule
//! and the budget, and watches for spot interruption notices, whether or not a cockpit is open. It
//! shares the deadline, the policy and its heartbeat with the cockpit through the ledger.
//!
//! - [`guardian`]: what to say and do at an instant (pure, time injected).
//! - [`run`](mod@run): the loop that samples, asks the guardian and acts through the provider.
//! - [`process`]: whether a watchdog's process still runs.
//! - [`lock`]: the lock a watchdog holds for its life, which says whether one lives.
//! - [`keys`]: the warning when the provider keys end before the deadline acts.
//! - [`ledger_file`]: whether the ledger it opened is still at its path.
//! - [`error`]: why it could not watch, or stopped because its ledger went away.
//! - [`balance`]: a prepaid balance against `[budget] balance_floor`, its alerts and `on_balance`.
//! - [`budget`]: spend against `[budget] per_instance`, its crossings and `on_budget`.
//! - [`stopped_release`]: `stopped_release_after`, the release of an instance left stopped.

pub mod balance;
pub mod budget;
pub mod error;
mod forced_release;
pub mod guardian;
pub mod keys;
pub mod ledger_file;
pub mod liveness;
pub mod lock;
pub mod process;
pub mod run;
pub mod stopped_release;
mod take_up;

pub use balance::WatchBalance;
pub use budget::WatchBudget;
pub use guardian::{Decision, Guardian};
pub use run::{Ended, WallClock, Watch, has_duty, stale_after, watch};
pub use stopped_release::WatchStopped;
