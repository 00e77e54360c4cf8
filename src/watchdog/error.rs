//! Why a watchdog could not start watching, or stopped because its ledger went away.

use std::path::PathBuf;
use std::time::Duration;

use crate::ledger::LedgerError;

/// Why a watchdog could not take up its watch.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("the interval {interval:?} {reason}")]
    Interval {
        interval: Duration,
        reason: crate::guard::IntervalError,
    },
    #[error("cannot take the watchdog's lock beside {}: {source}", .at.display())]
    Lock { at: PathBuf, source: std::io::Error },
    #[error("cannot look at the ledger {}: {source}", .path.display())]
    LookAtLedger {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// A sampler thread or the signal handler could not be set up.
    #[error(transparent)]
    Setup(#[from] std::io::Error),
}

/// The ledger file a watchdog opened is no longer at its path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerGone {
    #[error(
        "the ledger {} was replaced by another file; this watchdog stops, as nobody could see or \
         stop it through the new one",
        .0.display()
    )]
    Replaced(PathBuf),
    #[error(
        "the ledger {} was deleted; this watchdog stops, as nobody could see or stop it",
        .0.display()
    )]
    Deleted(PathBuf),
}
