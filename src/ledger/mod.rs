//! The spend ledger: SQLite history that survives crashes, shared guard state, and the
//! queries behind `gpumeter report`.
//!
//! - [`store`]: opening the file (WAL, busy timeout, migrations, clear errors).
//! - [`schema`]: the tables as versioned forward migrations.
//! - [`insert`]: sessions, minute buckets, events and inventories, a batch per transaction.
//! - [`aggregate`]: 1-second samples into minute buckets.
//! - [`write`]: [`LedgerWriter`], a thread that owns the ledger and batches writes.
//! - [`guard`]: deadline, policy, snooze and the watchdog's heartbeat, one row per instance.
//! - [`watchdog_events`]: the watchdog's own events, read back for the cockpit.
//! - [`retention`]: minute buckets roll up into hours after 30 days.
//! - [`deletes`]: each resource a cleanup deleted, with the read-back and what it billed.
//! - [`stopped_seen`]: the `stopped_release_after` a watchdog enforces, and when it first saw
//!   the instance stopped.
//! - [`verifications`]: what `gpumeter verify` found, kept as evidence.
//! - [`audit`]: what `gpumeter audit` matches a bill against, and the evidence behind it.
//! - [`query`] and [`report`]: rows read for a time range, and the pure report over them;
//!   [`slices`]: the range's minutes summed per session and quarter hour.

pub mod aggregate;
pub mod amount;
pub mod audit;
pub mod budget;
mod columns;
pub mod deletes;
pub mod demo;
pub mod error;
pub mod focus;
pub mod guard;
pub mod insert;
pub mod query;
pub mod record;
pub mod report;
pub mod retention;
pub mod schema;
pub mod seen;
pub mod slices;
pub mod stopped_seen;
pub mod store;
pub mod traffic;
pub mod verifications;
pub mod watchdog_events;
pub mod write;

use std::path::{Path, PathBuf};

pub use aggregate::{GpuPoint, MinuteAggregator, Tick};
pub use deletes::{Delete, Unpriced};
pub use error::LedgerError;
pub use guard::{Change, Claim, GuardPolicy, GuardState, IdleArmed, Watchdog};
pub use insert::Batch;
pub use query::ReportRows;
pub use record::{
    ActionRecord, BillingStep, EventId, EventKind, EventLevel, EventRecord, GpuMinute,
    MinuteBucket, Outcome, SessionId, SessionStart, SplitCost,
};
pub use retention::{Compacted, Retention};
pub use store::{DEFAULT_BUSY_TIMEOUT, Ledger, OpenOptions};
pub use verifications::Verification;
pub use watchdog_events::WatchdogEvent;
pub use write::{LedgerWriter, Notice};

/// The ledger's file in `data_dir`. The demo keeps its own, so simulated spend never mixes
/// with a real history.
pub fn path_in(data_dir: &Path, demo: bool) -> PathBuf {
    data_dir.join(if demo {
        "demo-ledger.sqlite"
    } else {
        "ledger.sqlite"
    })
}
