//! The cockpit's line to the ledger's guard row: it reads the row once when the instance is
//! known (answered as [`Event::GuardFound`], so `update` decides whether to adopt, ask or
//! write), writes the deadline and its policy (so the watchdog enforces them) and reads the
//! row back every few seconds (the watchdog's heartbeat, a deadline moved by `gpumeter
//! extend` or another cockpit), with whether the row's watchdog process still runs: a killed
//! one leaves a fresh heartbeat behind. On the same read it takes the watchdog's new events
//! (its actions, alerts, hooks and webhooks), answered as [`Event::WatchdogNotes`]; at the
//! first read, the last few from before. A thread of its own, so no draw waits on the disk.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

use jiff::Timestamp;
use tokio::sync::mpsc;

use crate::app::{Event, Level, Verified, WatchdogNote};
use crate::config::OnExpiry;
use crate::ledger::{Change, GuardPolicy, GuardState, Ledger, WatchdogEvent};
use gpumeter_core::verify::Verdict;

/// How often the guard row is read back.
pub const READ_EVERY: Duration = Duration::from_secs(2);
/// The watchdog's events from before the cockpit started that its log shows.
pub const REPLAYED: usize = 8;
/// The most of the watchdog's new events taken in one read; the rest come at the next.
const NEW_AT_ONCE: usize = 64;

/// A policy to write for an instance.
pub struct Save {
    pub instance: String,
    pub deadline: Option<Timestamp>,
    pub on_expiry: OnExpiry,
    pub grace: Duration,
    /// Who writes it: the row's `updated_by`.
    pub by: String,
}

/// What the link is asked for.
pub enum Request {
    /// Read the instance's row once and answer [`Event::GuardFound`]; reads back from then on.
    Load(String),
    Save(Save),
}

/// Starts the thread; dropping the returned sender ends it. A ledger that cannot be opened
/// is reported once as an [`Event::Ledger`] and tried again at the next save or read.
pub fn spawn(path: PathBuf, events: mpsc::Sender<Event>) -> std::io::Result<Sender<Request>> {
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .name("gpumeter-guard".into())
        .spawn(move || link(&path, &rx, &events))?;
    Ok(tx)
}

fn link(path: &PathBuf, rx: &Receiver<Request>, events: &mpsc::Sender<Event>) {
    let mut ledger: Option<Ledger> = None;
    let mut instance: Option<String> = None;
    let mut said = false;
    // The watchdog process last reported gone, so it is reported once.
    let mut gone: Option<u32> = None;
    // The watchdog's last event passed on.
    let mut seen_event = 0;
    // The last verify run passed on, by its row.
    let mut seen_verified: Option<(Timestamp, String)> = None;
    let mut open = |ledger: &mut Option<Ledger>| {
        if ledger.is_none() {
            match Ledger::open(path) {
                Ok(l) => *ledger = Some(l),
                Err(e) if !said => {
                    said = true;
                    let text = crate::t!("cockpit-no-shared-deadline", error = e.to_string());
                    let _ = events.blocking_send(Event::Ledger(text));
                }
                Err(_) => {}
            }
        }
        ledger.is_some()
    };
    loop {
        match rx.recv_timeout(READ_EVERY) {
            Ok(Request::Load(id)) => {
                // Answered even when the ledger cannot be read: the cockpit then keeps its
                // own deadline, as it did before it could share one.
                let found = if open(&mut ledger) {
                    ledger.as_ref().and_then(|l| match l.guard(&id) {
                        Ok(found) => found,
                        Err(e) => {
                            let _ = events.blocking_send(Event::Ledger(e.to_string()));
                            None
                        }
                    })
                } else {
                    None
                };
                if events.blocking_send(Event::GuardFound(found)).is_err() {
                    break;
                }
                let Some(seen) = replay(ledger.as_ref(), &id, events) else {
                    break;
                };
                seen_event = seen;
                instance = Some(id);
                continue;
            }
            Ok(Request::Save(save)) => {
                if !open(&mut ledger) {
                    continue;
                }
                let Some(l) = ledger.as_mut() else { continue };
                let policy = GuardPolicy {
                    deadline: save.deadline,
                    on_expiry: save.on_expiry,
                    grace: save.grace,
                };
                let change = Change {
                    at: Timestamp::now(),
                    by: &save.by,
                };
                if let Err(e) = l.set_policy(&save.instance, &policy, change) {
                    let _ = events.blocking_send(Event::Ledger(e.to_string()));
                }
                instance = Some(save.instance);
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        if !open(&mut ledger) {
            continue;
        }
        let (Some(id), Some(l)) = (&instance, ledger.as_mut()) else {
            continue;
        };
        if !pass_new(l, id, &mut seen_event, events) {
            break;
        }
        if !pass_verified(l, id, &mut seen_verified, events) {
            break;
        }
        let Ok(Some(mut state)) = l.guard(id) else {
            continue;
        };
        let dead = liveness(path, id, &mut state).filter(|pid| gone != Some(*pid));
        if events.blocking_send(Event::Guard(state)).is_err() {
            break;
        }
        if let Some(pid) = dead {
            gone = Some(pid);
            let failure = Some(crate::t!("watchdog-process-ended").into_owned());
            if events
                .blocking_send(Event::WatchdogEnded { pid, failure })
                .is_err()
            {
                break;
            }
        }
    }
}

/// Marks whether the row's watchdog holds its lock (that, not its heartbeat's age, says it
/// lives); its pid when it holds none and its process has ended.
fn liveness(path: &std::path::Path, instance: &str, state: &mut GuardState) -> Option<u32> {
    let w = state.watchdog.as_mut()?;
    w.lock_held = crate::watchdog::lock::holder(path, instance).held();
    (w.lock_held != Some(true) && !crate::watchdog::process::running(w.pid)).then_some(w.pid)
}

/// The watchdog's last events from before this cockpit, passed on as a replay; the id of the
/// last one (0: none), or `None` when the loop is gone.
fn replay(ledger: Option<&Ledger>, instance: &str, events: &mpsc::Sender<Event>) -> Option<i64> {
    let earlier = ledger
        .and_then(|l| l.last_watchdog_events(instance, REPLAYED).ok())
        .unwrap_or_default();
    let notes = earlier.iter().map(note).collect();
    let replay = Event::WatchdogNotes {
        notes,
        replay: true,
    };
    events.blocking_send(replay).ok()?;
    Some(earlier.last().map_or(0, |e| e.id))
}

/// The watchdog's events after `seen`, passed on; false when the loop is gone.
fn pass_new(l: &Ledger, instance: &str, seen: &mut i64, events: &mpsc::Sender<Event>) -> bool {
    let fresh = l
        .watchdog_events_after(instance, *seen, NEW_AT_ONCE)
        .unwrap_or_default();
    let Some(last) = fresh.last() else {
        return true;
    };
    *seen = last.id;
    let notes = fresh.iter().map(note).collect();
    let new = Event::WatchdogNotes {
        notes,
        replay: false,
    };
    events.blocking_send(new).is_ok()
}

/// The last verify run for `instance`, passed on when it is new; false when the loop is gone.
fn pass_verified(
    l: &Ledger,
    instance: &str,
    seen: &mut Option<(Timestamp, String)>,
    events: &mpsc::Sender<Event>,
) -> bool {
    let Ok(Some(v)) = l.last_verification(instance) else {
        return true;
    };
    let key = (v.at, v.summary.clone());
    if seen.as_ref() == Some(&key) {
        return true;
    }
    // A word this build does not know is shown as the worst, never as a pass.
    let verdict = Verdict::from_word(&v.verdict).unwrap_or(Verdict::Fail);
    *seen = Some(key);
    let verified = Verified {
        at: v.at,
        verdict,
        summary: gpumeter_core::text::one_line(&v.summary, 80),
    };
    events.blocking_send(Event::Verified(verified)).is_ok()
}

/// One of the watchdog's events as a line of the cockpit's log: one printable line, its level
/// as the cockpit's, an action the provider confirmed as done.
fn note(e: &WatchdogEvent) -> WatchdogNote {
    let level = match (e.kind.as_str(), e.outcome.as_deref(), e.level.as_str()) {
        ("action", Some("confirmed"), _) => Level::Done,
        (_, _, "error") => Level::Error,
        (_, _, "warn") => Level::Warn,
        _ => Level::Info,
    };
    WatchdogNote {
        at: e.at,
        level,
        text: gpumeter_core::text::one_line(&e.text, 400),
        action: e.kind == "action",
    }
}
