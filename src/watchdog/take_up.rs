//! How a watchdog takes up the guard of an instance: the instance's lock first (a second
//! watchdog for a live one goes no further), then the ledger's guard row, taken over from a
//! watchdog whose process has ended without clearing it.

use jiff::Timestamp;

use super::error::WatchError;
use super::ledger_file::Identity;
use super::run::{Watch, record, stale_after};
use crate::ledger::{Claim, EventRecord};

/// Takes the instance's lock and claims its guard row: the lock to hold and the ledger file to
/// watch, or the watchdog that already guards (its pid, when it could be read).
pub(super) fn take_up(
    w: &mut Watch,
    pid: u32,
    now: Timestamp,
) -> Result<Result<(super::lock::Held, Identity), Option<u32>>, WatchError> {
    let path = super::lock::path_for(w.ledger.path(), &w.instance);
    let held = match super::lock::acquire(&path, pid) {
        Ok(Ok(held)) => held,
        Ok(Err(holder)) => {
            let row = w.ledger.guard(&w.instance).ok().flatten();
            return Ok(Err(
                holder.or_else(|| row.and_then(|g| g.watchdog).map(|h| h.pid))
            ));
        }
        Err(source) => {
            return Err(WatchError::Lock {
                at: w.ledger.path().to_path_buf(),
                source,
            });
        }
    };
    let ledger_file = Identity::of(w.ledger.path())?;
    match claim(w, pid, now)? {
        Some(other) => Ok(Err(Some(other))),
        None => Ok(Ok((held, ledger_file))),
    }
}

/// Makes this process the instance's watchdog; the pid of the live one that already is, if one
/// is.
fn claim(w: &mut Watch, pid: u32, now: Timestamp) -> Result<Option<u32>, WatchError> {
    let claim = w
        .ledger
        .claim_watchdog(&w.instance, pid, now, stale_after(w.interval))?;
    let other = match claim {
        Claim::Claimed => return Ok(None),
        Claim::HeldBy(other) if super::process::running(other.pid) => return Ok(Some(other.pid)),
        Claim::HeldBy(other) => other.pid,
    };
    // Killed or crashed without clearing its claim: its heartbeat may still look fresh.
    let taken = w.ledger.take_over_watchdog(&w.instance, other, pid, now)?;
    if !taken {
        let holder = w.ledger.guard(&w.instance).ok().flatten();
        return Ok(Some(
            holder.and_then(|g| g.watchdog).map_or(other, |h| h.pid),
        ));
    }
    let note = crate::t!(
        "wd-takes-over",
        pid = pid.to_string(),
        other = other.to_string()
    );
    record(w, EventRecord::note(now, note));
    Ok(None)
}
