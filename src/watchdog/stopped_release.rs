//! `stopped_release_after` as the watchdog enforces it: at each inventory read it keeps when
//! it first saw the instance stopped (in the ledger, for a cloud that does not date
//! shutdowns), and once the instance has stayed stopped that long it sets the deadline to now
//! with `release` as its policy, as `on_budget` does: the deadline's own path then gives the
//! grace period and its banner (any key or `gpumeter extend` keeps the instance), the
//! `before_action` hook and the release, read back. A start ends it: seen running, the
//! deadline it set (or its extension) goes and the guard row is as it was. While that deadline
//! is in force, a release waits on a fresh read: unless it shows the instance still stopped,
//! nothing is released.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

use super::budget::{LimitDeadline, write_deadline};
use super::run::{Watch, notify, record, say};
use crate::app::Level;
use crate::config::OnExpiry;
use crate::ledger::{EventLevel, EventRecord, GuardState};
use crate::meter::InstanceState;
use crate::notify::Queue;
use crate::provider::{Action, Inventory, StoppedClock, seen_after_read};

/// The rule's name in the ledger's change and the alerts.
const RULE: &str = "stopped_release_after";

/// The policy, what the watchdog saw, and the deadline it set.
#[derive(Debug, Clone)]
pub struct WatchStopped {
    after: SignedDuration,
    /// When this shutdown was first seen, as the ledger keeps it.
    seen: Option<Timestamp>,
    /// Whether `seen` has been read from the ledger (once, at the first check).
    loaded: bool,
    armed: Option<Armed>,
    /// `stopped_release_snapshot`: a final snapshot, read back, before the release.
    final_snapshot: bool,
    snapshot: Snapshot,
}

/// The final snapshot of the deadline now armed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Snapshot {
    NotTaken,
    /// Read back: the release may go ahead (again, if it failed).
    Taken,
    /// Not taken or not read back: the instance is kept, said once.
    Refused,
}

/// The deadline the policy set, and the guard row's deadline before it.
#[derive(Debug, Clone)]
struct Armed {
    at: Timestamp,
    before: (Option<Timestamp>, OnExpiry),
}

impl WatchStopped {
    /// Releases an instance stopped for `after`.
    pub fn new(after: Duration) -> Self {
        WatchStopped {
            after: SignedDuration::try_from(after).unwrap_or(SignedDuration::MAX),
            seen: None,
            loaded: false,
            armed: None,
            final_snapshot: false,
            snapshot: Snapshot::NotTaken,
        }
    }

    /// The final snapshot this deadline asked for was refused: the instance is kept, and
    /// neither the cloud is read nor the snapshot tried again until the deadline goes.
    pub(super) fn snapshot_refused(&self) -> bool {
        self.snapshot == Snapshot::Refused
    }

    /// Takes a final snapshot of the disks, read back, before the release.
    #[must_use]
    pub fn with_final_snapshot(mut self, yes: bool) -> Self {
        self.final_snapshot = yes;
        self
    }

    /// Whether the deadline this policy set (or an extension of it) is in force: a release
    /// then waits on a fresh read.
    pub(super) fn armed(&self) -> bool {
        self.armed.is_some()
    }
}

/// Publishes in the ledger the policy this watchdog enforces (`None` at its exit, or when it
/// has none), for `status` and the cockpit.
pub(super) fn publish(w: &mut Watch, enforcing: bool) {
    let after = w
        .stopped_release
        .as_ref()
        .filter(|_| enforcing)
        .map(|r| r.after.unsigned_abs());
    if let Err(e) = w.ledger.set_stopped_release_after(&w.instance, after) {
        say(&crate::t!("watchdog-ledger", error = e.to_string()));
    }
}

/// After an inventory read at `now`: keeps the first sighting of a shutdown, and once the
/// instance has stayed stopped for the policy's time sets the deadline (returned for the
/// guardian to say why); a start takes back a deadline it set.
pub(super) fn check(
    w: &mut Watch,
    alerts: Option<&Queue>,
    inventory: &Inventory,
    guard: Option<&GuardState>,
    now: Timestamp,
) -> Option<LimitDeadline> {
    w.stopped_release.as_ref()?;
    let state = inventory.instance_state();
    let seen = keep_sighting(w, state, now);
    if state.is_up() && w.stopped_release.as_ref()?.armed.is_some() {
        let text = crate::t!("sr-started-again", id = w.instance.as_str());
        disarm(w, (alerts, guard), now, &text);
    }
    if state != InstanceState::Stopped {
        return None;
    }
    let rule = w.stopped_release.as_ref()?;
    let clock = StoppedClock::of(inventory.instance.as_ref()?, rule.after, seen)?;
    if !clock.due(now) || rule.armed.is_some() {
        return None;
    }
    let at = whole_second_from(now);
    let before = guard.map_or((None, OnExpiry::Alert), |g| (g.deadline, g.on_expiry));
    if !write_deadline(w, (Some(at), OnExpiry::Release, RULE), guard, now) {
        return None;
    }
    let why = crate::t!(
        "sr-due",
        id = w.instance.as_str(),
        after = crate::ui::text::short_duration(clock.after),
        since = clock.since.strftime("%Y-%m-%d %H:%M UTC").to_string()
    );
    let text = crate::t!(
        "wd-limit-then",
        text = why.as_str(),
        rule = RULE,
        policy = "release"
    );
    record(w, EventRecord::alert(now, EventLevel::Warn, text.clone()));
    notify(w, alerts, Level::Warn, "stopped_release", &text);
    let rule = w.stopped_release.as_mut()?;
    rule.armed = Some(Armed { at, before });
    Some(LimitDeadline { deadline: at, why })
}

/// Reads the first sighting from the ledger once, keeps the one this read makes, and gives it.
fn keep_sighting(w: &mut Watch, state: InstanceState, now: Timestamp) -> Option<Timestamp> {
    let loaded = w
        .stopped_release
        .as_ref()
        .filter(|r| r.loaded)
        .map(|r| r.seen);
    let kept = loaded.unwrap_or_else(|| {
        w.ledger.stopped_seen(&w.instance).unwrap_or_else(|e| {
            say(&crate::t!("watchdog-ledger", error = e.to_string()));
            None
        })
    });
    let seen = seen_after_read(state, kept, now);
    if seen != kept
        && let Err(e) = w.ledger.set_stopped_seen(&w.instance, seen)
    {
        say(&crate::t!("watchdog-ledger", error = e.to_string()));
    }
    if let Some(rule) = w.stopped_release.as_mut() {
        rule.seen = seen;
        rule.loaded = true;
    }
    seen
}

/// Before the policy's release: reads the instance again and refuses unless it is still
/// stopped; otherwise says why and takes back the deadline the policy set.
pub(super) async fn still_stopped(
    w: &mut Watch,
    (alerts, guard): (Option<&Queue>, Option<&GuardState>),
) -> bool {
    let id = w.instance.clone();
    let text = match w.provider.inventory().await {
        Ok(inventory) => match inventory.instance_state() {
            InstanceState::Stopped => return true,
            state => {
                // Seen in another state: the next shutdown starts a new clock.
                if let Some(rule) = w.stopped_release.as_mut() {
                    rule.seen = None;
                }
                if let Err(e) = w.ledger.set_stopped_seen(&id, None) {
                    say(&crate::t!("watchdog-ledger", error = e.to_string()));
                }
                let state = format!("{state:?}").to_lowercase();
                crate::t!("sr-refused-state", id = id.as_str(), state = state)
            }
        },
        Err(e) => crate::t!("sr-refused-read", id = id.as_str(), error = e.shown()),
    };
    disarm(w, (alerts, guard), Timestamp::now(), &text);
    false
}

/// Whether the policy's release may go ahead as far as the final snapshot goes: none asked,
/// or one taken now (or before) and read back. Nothing is released before the snapshot that
/// keeps its data is confirmed; one refused keeps the instance (said once) until the user acts,
/// and is not tried again every check.
pub(super) async fn final_snapshot_ready(w: &mut Watch, alerts: Option<&Queue>) -> bool {
    let Some(rule) = w.stopped_release.as_ref() else {
        return true;
    };
    match (rule.final_snapshot, rule.snapshot) {
        (false, _) | (true, Snapshot::Taken) => return true,
        (true, Snapshot::Refused) => return false,
        (true, Snapshot::NotTaken) => {}
    }
    let id = w.instance.clone();
    let outcome = if w.provider.capabilities().snapshots {
        let keep_every_snapshot = Action::SnapshotClean {
            keep: usize::MAX,
            final_snapshot: true,
            delete: Some(Vec::new()),
        };
        match w.provider.perform(&keep_every_snapshot).await {
            Ok(r) if r.confirmed => Ok(r.summary),
            Ok(r) => Err(crate::t!("sr-snapshot-unconfirmed", summary = r.summary)),
            Err(e) => Err(e.shown()),
        }
    } else {
        Err(crate::t!(
            "sr-snapshot-unsupported",
            provider = w.provider.name()
        ))
    };
    let now = Timestamp::now();
    let (taken, snapshot) = match outcome {
        Ok(summary) => {
            let text = crate::t!("sr-snapshot-taken", id = id.as_str(), summary = summary);
            record(w, EventRecord::note(now, text));
            (true, Snapshot::Taken)
        }
        Err(why) => {
            let text = crate::t!("sr-snapshot-refused", id = id.as_str(), why = why);
            record(w, EventRecord::alert(now, EventLevel::Warn, text.clone()));
            notify(w, alerts, Level::Warn, "stopped_release", &text);
            (false, Snapshot::Refused)
        }
    };
    if let Some(rule) = w.stopped_release.as_mut() {
        rule.snapshot = snapshot;
    }
    taken
}

/// Takes back the deadline the policy set, or the extension of it a key or `gpumeter extend`
/// made in its grace period (the guard row's deadline as it was before, unless somebody has
/// set another since), saying `text`.
fn disarm(
    w: &mut Watch,
    (alerts, guard): (Option<&Queue>, Option<&GuardState>),
    now: Timestamp,
    text: &str,
) {
    let Some(armed) = w.stopped_release.as_mut().and_then(|r| {
        r.snapshot = Snapshot::NotTaken;
        r.armed.take()
    }) else {
        return;
    };
    let ours = guard.is_some_and(|g| {
        g.on_expiry == OnExpiry::Release && g.deadline.is_some_and(|d| d >= armed.at)
    });
    if ours {
        let (at, policy) = armed.before;
        write_deadline(w, (at, policy, RULE), guard, now);
    }
    record(
        w,
        EventRecord::alert(now, EventLevel::Warn, text.to_string()),
    );
    notify(w, alerts, Level::Warn, "stopped_release", text);
}

/// `now` rounded up to a whole second, as the ledger keeps a deadline.
fn whole_second_from(now: Timestamp) -> Timestamp {
    let second = now.as_second() + i64::from(now.subsec_nanosecond() > 0);
    Timestamp::from_second(second).unwrap_or(now)
}
