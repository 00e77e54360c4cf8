//! The guard state the cockpit and the watchdog share: one row per instance with the deadline,
//! what happens at it, the grace period, a snooze, the deadline the provider holds, and the
//! watchdog's pid and heartbeat.
//!
//! Each call is its own short transaction that changes only its own columns, so the cockpit
//! moving the deadline and the watchdog beating its heart never overwrite each other. Every
//! change but a heartbeat bumps `revision`, so a reader can tell cheaply that something moved.

use std::time::Duration;

use jiff::Timestamp;
use rusqlite::{OptionalExtension, Transaction, params};

use super::error::LedgerError;
use super::store::Ledger;
use crate::config::{DEFAULT_GRACE, OnExpiry};
pub use gpumeter_core::guard::{GuardPolicy, GuardState, IdleArmed, Watchdog};

/// What [`Ledger::claim_watchdog`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// This process is the instance's watchdog now.
    Claimed,
    /// Another watchdog beats its heart: leave it be.
    HeldBy(Watchdog),
}

/// Who changed the row, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change<'a> {
    pub at: Timestamp,
    pub by: &'a str,
}

impl Ledger {
    /// The guard state of `instance`; `None` until something set it.
    pub fn guard(&self, instance: &str) -> Result<Option<GuardState>, LedgerError> {
        // A file opened read-only is not migrated: before version 4 it keeps no idle rule.
        let idle = if self.schema_version()? < 4 {
            "NULL, NULL, NULL"
        } else {
            "idle_after_s, on_idle, idle_since"
        };
        // Read every few seconds by the cockpit and the watchdog, for days: parsed once.
        self.conn
            .prepare_cached(&format!(
                "SELECT deadline, on_expiry, grace_s, provider_held, snooze_until, watchdog_pid,
                        heartbeat, revision, updated, updated_by, {idle}
                 FROM guard WHERE instance = ?1"
            ))
            .and_then(|mut statement| {
                statement.query_row([instance], |r| {
                    let pid: Option<i64> = r.get(5)?;
                    let beat: Option<i64> = r.get(6)?;
                    let grace: i64 = r.get(2)?;
                    let on_expiry: String = r.get(1)?;
                    let idle_after: Option<i64> = r.get(10)?;
                    let on_idle: Option<String> = r.get(11)?;
                    let idle = match (idle_after.and_then(|s| u64::try_from(s).ok()), on_idle) {
                        (Some(after), Some(on_idle)) => Some(IdleArmed {
                            after: Duration::from_secs(after),
                            on_idle: parse_on_expiry(&on_idle),
                            since: ts(r.get(12)?),
                        }),
                        _ => None,
                    };
                    Ok(GuardState {
                        instance: instance.to_string(),
                        deadline: ts(r.get(0)?),
                        on_expiry: parse_on_expiry(&on_expiry),
                        grace: Duration::from_secs(u64::try_from(grace).unwrap_or(0)),
                        provider_held: ts(r.get(3)?),
                        snooze_until: ts(r.get(4)?),
                        watchdog: match (pid.and_then(|p| u32::try_from(p).ok()), ts(beat)) {
                            (Some(pid), Some(heartbeat)) => Some(Watchdog::beat(pid, heartbeat)),
                            _ => None,
                        },
                        idle,
                        revision: r.get(7)?,
                        updated: ts(r.get(8)?).unwrap_or(Timestamp::UNIX_EPOCH),
                        updated_by: r.get(9)?,
                    })
                })
            })
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Sets the deadline, the policy at expiry and the grace period.
    pub fn set_policy(
        &mut self,
        instance: &str,
        policy: &GuardPolicy,
        change: Change<'_>,
    ) -> Result<(), LedgerError> {
        let grace = i64::try_from(policy.grace.as_secs()).unwrap_or(i64::MAX);
        self.guard_update(instance, change, |tx| {
            tx.execute(
                "UPDATE guard SET deadline = ?2, on_expiry = ?3, grace_s = ?4 WHERE instance = ?1",
                params![
                    instance,
                    policy.deadline.map(Timestamp::as_second),
                    on_expiry_word(policy.on_expiry),
                    grace
                ],
            )
            .map(|_| true)
        })
        .map(drop)
    }

    /// Records the deadline the provider holds, as read back from it (`None`: it holds none).
    pub fn set_provider_held(
        &mut self,
        instance: &str,
        held: Option<Timestamp>,
        change: Change<'_>,
    ) -> Result<(), LedgerError> {
        self.guard_update(instance, change, |tx| {
            tx.execute(
                "UPDATE guard SET provider_held = ?2 WHERE instance = ?1",
                params![instance, held.map(Timestamp::as_second)],
            )
            .map(|_| true)
        })
        .map(drop)
    }

    /// Holds idle and expiry actions until `until` (`None` ends the snooze).
    pub fn snooze(
        &mut self,
        instance: &str,
        until: Option<Timestamp>,
        change: Change<'_>,
    ) -> Result<(), LedgerError> {
        self.guard_update(instance, change, |tx| {
            tx.execute(
                "UPDATE guard SET snooze_until = ?2 WHERE instance = ?1",
                params![instance, until.map(Timestamp::as_second)],
            )
            .map(|_| true)
        })
        .map(drop)
    }

    /// Makes `pid` the instance's watchdog unless another one is alive (a heartbeat younger
    /// than `stale_after`). Atomic: of two watchdogs starting at once, one wins.
    pub fn claim_watchdog(
        &mut self,
        instance: &str,
        pid: u32,
        now: Timestamp,
        stale_after: Duration,
    ) -> Result<Claim, LedgerError> {
        let current = self.guard(instance)?.and_then(|g| g.watchdog);
        let change = Change {
            at: now,
            by: "watchdog",
        };
        let claimed = self.guard_update(instance, change, |tx| {
            let stale = now.as_second() - i64::try_from(stale_after.as_secs()).unwrap_or(i64::MAX);
            let n = tx.execute(
                "UPDATE guard SET watchdog_pid = ?2, heartbeat = ?3
                 WHERE instance = ?1
                   AND (watchdog_pid IS NULL OR watchdog_pid = ?2 OR heartbeat IS NULL
                        OR heartbeat <= ?4)",
                params![instance, pid, now.as_second(), stale],
            )?;
            Ok(n > 0)
        })?;
        if claimed {
            return Ok(Claim::Claimed);
        }
        let holder = self.guard(instance)?.and_then(|g| g.watchdog).or(current);
        Ok(holder.map_or(Claim::Claimed, Claim::HeldBy))
    }

    /// Makes `pid` the instance's watchdog in place of `dead`, whose process has ended without
    /// clearing its claim (killed, or it crashed): its heartbeat may still look fresh. `false`
    /// when the row no longer names `dead` (another watchdog was quicker).
    pub fn take_over_watchdog(
        &mut self,
        instance: &str,
        dead: u32,
        pid: u32,
        now: Timestamp,
    ) -> Result<bool, LedgerError> {
        let change = Change {
            at: now,
            by: "watchdog",
        };
        self.guard_update(instance, change, |tx| {
            tx.execute(
                "UPDATE guard SET watchdog_pid = ?3, heartbeat = ?4
                 WHERE instance = ?1 AND watchdog_pid = ?2",
                params![instance, dead, pid, now.as_second()],
            )
            .map(|n| n > 0)
        })
    }

    /// The watchdog's heartbeat; `false` when `pid` is no longer the instance's watchdog.
    /// A heartbeat does not bump the revision.
    pub fn heartbeat(
        &mut self,
        instance: &str,
        pid: u32,
        now: Timestamp,
    ) -> Result<bool, LedgerError> {
        self.conn
            .execute(
                "UPDATE guard SET heartbeat = ?3 WHERE instance = ?1 AND watchdog_pid = ?2",
                params![instance, pid, now.as_second()],
            )
            .map(|n| n > 0)
            .map_err(|e| self.err(e))
    }

    /// The idle rule watchdog `pid` enforces, published for the cockpit and `watchdog --status`.
    pub fn set_idle_rule(
        &mut self,
        instance: &str,
        pid: u32,
        after: Duration,
        on_idle: OnExpiry,
        now: Timestamp,
    ) -> Result<(), LedgerError> {
        let change = Change {
            at: now,
            by: "watchdog",
        };
        let after = i64::try_from(after.as_secs()).unwrap_or(i64::MAX);
        self.guard_update(instance, change, |tx| {
            tx.execute(
                "UPDATE guard SET idle_after_s = ?3, on_idle = ?4, idle_since = NULL
                 WHERE instance = ?1 AND watchdog_pid = ?2",
                params![instance, pid, after, on_expiry_word(on_idle)],
            )
            .map(|n| n > 0)
        })
        .map(drop)
    }

    /// Since when watchdog `pid` has seen the machine idle (`None`: it is active). Like a
    /// heartbeat, it does not bump the revision.
    pub fn set_idle_since(
        &mut self,
        instance: &str,
        pid: u32,
        since: Option<Timestamp>,
    ) -> Result<(), LedgerError> {
        self.conn
            .execute(
                "UPDATE guard SET idle_since = ?3 WHERE instance = ?1 AND watchdog_pid = ?2",
                params![instance, pid, since.map(Timestamp::as_second)],
            )
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// A watchdog that stops clears its pid, so the cockpit knows none is running.
    pub fn release_watchdog(
        &mut self,
        instance: &str,
        pid: u32,
        now: Timestamp,
    ) -> Result<(), LedgerError> {
        let change = Change {
            at: now,
            by: "watchdog",
        };
        self.guard_update(instance, change, |tx| {
            tx.execute(
                "UPDATE guard SET watchdog_pid = NULL, heartbeat = NULL, idle_after_s = NULL,
                        on_idle = NULL, idle_since = NULL
                 WHERE instance = ?1 AND watchdog_pid = ?2",
                params![instance, pid],
            )
            .map(|n| n > 0)
        })
        .map(drop)
    }

    /// Creates the row if missing, runs `update`, and bumps the revision when it changed a row.
    fn guard_update(
        &mut self,
        instance: &str,
        change: Change<'_>,
        update: impl FnOnce(&Transaction<'_>) -> rusqlite::Result<bool>,
    ) -> Result<bool, LedgerError> {
        let (path, timeout) = (self.path.clone(), self.busy_timeout);
        let sql = |e| LedgerError::from_sqlite(&path, timeout, e);
        let tx = self.immediate()?;
        let grace = i64::try_from(DEFAULT_GRACE.as_secs()).unwrap_or(120);
        tx.execute(
            "INSERT INTO guard (instance, on_expiry, grace_s, revision, updated, updated_by)
             VALUES (?1, 'alert', ?2, 0, ?3, ?4) ON CONFLICT (instance) DO NOTHING",
            params![instance, grace, change.at.as_second(), change.by],
        )
        .map_err(sql)?;
        let changed = update(&tx).map_err(sql)?;
        if changed {
            tx.execute(
                "UPDATE guard SET revision = revision + 1, updated = ?2, updated_by = ?3
                 WHERE instance = ?1",
                params![instance, change.at.as_second(), change.by],
            )
            .map_err(sql)?;
        }
        tx.commit().map_err(sql)?;
        Ok(changed)
    }
}

fn ts(seconds: Option<i64>) -> Option<Timestamp> {
    seconds.and_then(|s| Timestamp::from_second(s).ok())
}

fn on_expiry_word(policy: OnExpiry) -> &'static str {
    match policy {
        OnExpiry::Alert => "alert",
        OnExpiry::Stop => "stop",
        OnExpiry::Release => "release",
    }
}

/// An unknown word (written by a newer build) reads as the safe choice: alert.
fn parse_on_expiry(word: &str) -> OnExpiry {
    match word {
        "stop" => OnExpiry::Stop,
        "release" => OnExpiry::Release,
        _ => OnExpiry::Alert,
    }
}
