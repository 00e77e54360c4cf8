//! The guards: rules that turn telemetry, spend and time into alerts and actions. Pure; the
//! watchdog and the cockpit feed them and act on what they say.
//!
//! - [`idle`]: every GPU and the CPU idle for a whole window (a failed reading is active).
//! - [`balance`]: a prepaid balance: when it runs out at the burn, its alerts and its floor.
//! - [`budget`]: thresholds of a limit and a forecast of when it runs out.
//! - [`month`]: spend this calendar month, from the ledger and this run's meter.
//! - [`clock`]: the watchdog's time, carried by the monotonic clock past wall-clock steps.
//! - [`enforce`]: who enforces the deadline now: a live watchdog, the provider, or nothing.
//! - [`expiry`]: the deadline, its grace period, and when the policy is due.
//! - [`row`]: the guard row the cockpit and the watchdog share through the ledger.
//! - [`supervise`]: when the cockpit starts its watchdog again, and when it gives up.
//! - [`checkpoint`]: how old the newest checkpoint is and whether its disk outlives the instance.

pub mod balance;
pub mod budget;
pub mod checkpoint;
pub mod clock;
pub mod enforce;
pub mod expiry;
pub mod idle;
pub mod month;
pub mod row;
pub mod supervise;
#[cfg(test)]
mod words_tests;

pub use balance::{BalanceAlert, BalanceOutlook, BalanceWatch, Burn, BurnScope};
pub use budget::{BudgetAlert, BudgetWatch};
pub use checkpoint::{Checkpoint, CheckpointAlert};
pub use clock::{ArmedDeadline, ClockStep, GuardClock, GuardTime, Reading, STEP_TOLERANCE};
pub use enforce::{Enforcement, EnforcementJson, Holders, Unenforced, enforcement};
pub use expiry::{DEFAULT_GRACE, Expiry, OnExpiry, expiry, provider_holds_after_extend};
pub use idle::{IdleRule, IdleState, IdleTracker};
pub use month::MonthSpend;
pub use row::{
    GuardPolicy, GuardState, IdleArmed, IntervalError, MAX_WATCHDOG_INTERVAL,
    MIN_WATCHDOG_INTERVAL, Watchdog, stale_after, watchdog_interval,
};
pub use supervise::{StartError, Supervision, Supervisor};
