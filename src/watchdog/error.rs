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
    #[error("{}", crate::t!("wd-err-lock", at = .at.display().to_string(), error = .source.to_string()))]
    Lock { at: PathBuf, source: std::io::Error },
    #[error("{}", crate::t!("wd-err-look-at-ledger", path = .path.display().to_string(), error = .source.to_string()))]
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
    #[error("{}", crate::t!("wd-err-ledger-replaced", path = .0.display().to_string()))]
    Replaced(PathBuf),
    #[error("{}", crate::t!("wd-err-ledger-deleted", path = .0.display().to_string()))]
    Deleted(PathBuf),
}
