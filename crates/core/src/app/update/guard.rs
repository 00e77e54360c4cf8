//! What `update` does with the guard: the watchdog's supervision, the deadline moved by a key
//! or by someone else, the guard row the cockpit adopts or asks about, and what it saves.

use jiff::{SignedDuration, Timestamp};

use super::{Effect, WATCHDOG_PREFIX, WATCHDOG_STALE, WatchdogNote};
use crate::app::confirm::Choice;
use crate::app::deadline::Deadline;
use crate::app::keymap::{Intent, KeyCode, KeyPress, intent_for};
use crate::app::state::{App, GuardChoice, Level, Mode, WatchdogView};
use crate::cloud::Action;
use crate::guard::{GuardState, OnExpiry, Supervision};
use crate::t;

/// Asks the supervisor about the guard row as last read.
pub(super) fn supervise(app: &mut App) -> Vec<Effect> {
    let now = app.now;
    let row = app.guard.watchdog.map(|w| crate::guard::Watchdog {
        pid: w.pid,
        heartbeat: w.last_check,
        lock_held: w.lock_held,
    });
    let said = app
        .guard
        .supervisor
        .as_mut()
        .and_then(|s| s.observe(now, row.as_ref()));
    said.map_or_else(Vec::new, |s| supervised(app, s))
}

pub(super) fn on_watchdog_started(
    app: &mut App,
    result: Result<u32, crate::guard::StartError>,
) -> Vec<Effect> {
    let now = app.now;
    let Some(s) = app.guard.supervisor.as_mut() else {
        return Vec::new();
    };
    let again = s.restarting();
    let said = s.started(now, result.clone());
    app.dirty = true;
    if let (Ok(pid), true) = (result, again) {
        app.log(
            Level::Info,
            t!("event-watchdog-restarted", pid = pid.to_string()),
        );
    }
    said.map_or_else(Vec::new, |s| supervised(app, s))
}

/// What the supervisor said, as lines in the log and effects.
pub(super) fn supervised(app: &mut App, said: Supervision) -> Vec<Effect> {
    app.dirty = true;
    match said {
        Supervision::Start { why: None } => vec![Effect::StartWatchdog],
        Supervision::Start { why: Some(why) } => {
            app.log(
                Level::Warn,
                t!("event-watchdog-starting-again", why = why.as_str()),
            );
            vec![Effect::StartWatchdog]
        }
        Supervision::GiveUp { why } => {
            let text = t!("event-no-watchdog", why = why.as_str());
            app.bell = true;
            app.log(Level::Error, text.clone());
            vec![Effect::Notify {
                level: Level::Error,
                key: "watchdog-down".into(),
                text,
                instance: app.guard.instance.clone(),
            }]
        }
        Supervision::Recovered { pid } => {
            app.log(
                Level::Info,
                t!("event-watchdog-recovered", pid = pid.to_string()),
            );
            Vec::new()
        }
    }
}

/// Moves the deadline `by` later, in the ledger at once (so the watchdog never acts on a
/// deadline the user just moved) and at the provider where it holds the deadline or the policy
/// is release. A provider deadline is never created for "alert only" or "stop": it would
/// release the instance (Alibaba and Tencent delete it).
pub(super) fn extend(app: &mut App, by: SignedDuration) -> Vec<Effect> {
    let now = app.now;
    let held = app.deadline.is_some_and(|d| d.held_by_provider);
    let deadline = app
        .deadline
        .get_or_insert_with(|| Deadline::new(now, OnExpiry::Alert, now));
    deadline.extend(by, now);
    let (at, on_expiry) = (deadline.at, deadline.on_expiry);
    let to = crate::app::deadline::when(at, now, &app.spend.time_zone);
    let text = t!("event-extended", by = format!("{by:#}"), to = to);
    app.log(Level::Info, text);
    let mut effects: Vec<Effect> = save_guard(app).into_iter().collect();
    let can_hold = app.cloud.capabilities.deadline && !app.settings.read_only;
    if crate::guard::provider_holds_after_extend(can_hold, held, on_expiry) {
        effects.push(Effect::Perform(Action::SetDeadline { at: Some(at) }));
    }
    effects
}

/// The deadline and its policy as the ledger should hold them, once the instance is known and
/// its row has been read and settled: never before, so nothing set there is overwritten
/// unseen.
pub(super) fn save_guard(app: &App) -> Option<Effect> {
    let instance = app.guard.instance.clone().filter(|_| app.guard.settled)?;
    Some(Effect::SaveGuard {
        instance,
        deadline: app.deadline.map(|d| d.at),
        on_expiry: app.deadline.map_or(OnExpiry::Alert, |d| d.on_expiry),
        grace: app.settings.grace,
        by: app.guard.me.clone(),
    })
}

/// The guard row as found when the instance became known. A deadline set there by someone
/// else (another cockpit, `gpumeter extend`, an earlier run) is never replaced silently: the
/// cockpit adopts it and shows it, and when its own flags ask for a different one it asks
/// first (keep, the default, or replace). A read-only cockpit only adopts.
pub(super) fn on_guard_found(app: &mut App, found: Option<GuardState>) -> Vec<Effect> {
    let Some(instance) = app.guard.instance.clone() else {
        return Vec::new();
    };
    if app.guard.settled || app.guard.pending.is_some() || matches!(app.mode, Mode::GuardChoice(_))
    {
        return Vec::new();
    }
    app.dirty = true;
    if let Some(row) = &found {
        app.guard.revision = row.revision;
    }
    let Some((row, at)) = found.and_then(|row| row.deadline.map(|at| (row, at))) else {
        app.guard.settled = true;
        return save_guard(app).into_iter().collect();
    };
    let existing = (at, row.on_expiry);
    let wanted = app.deadline.map(|d| (d.at, d.on_expiry));
    let same = wanted.is_some_and(|w| same_policy(w, existing));
    adopt(app, existing);
    let by = row.updated_by;
    match wanted {
        Some(wanted) if !same && app.guard.asked && !app.settings.read_only => {
            let choice = GuardChoice {
                instance,
                existing,
                set_by: by,
                set_at: row.updated,
                wanted,
                choice: Choice::Cancel,
            };
            if matches!(app.mode, Mode::Main | Mode::Help) {
                app.mode = Mode::GuardChoice(choice);
            } else {
                app.guard.pending = Some(choice);
            }
            app.bell = true;
        }
        Some(wanted) if !same && app.guard.asked => {
            app.guard.settled = true;
            let text = t!(
                "event-read-only-keeps-deadline",
                existing = policy_text(app, existing),
                by = by,
                wanted = policy_text(app, wanted)
            );
            app.log(Level::Warn, text);
        }
        _ => {
            app.guard.settled = true;
            if !same {
                let text = t!(
                    "event-shared-deadline",
                    existing = policy_text(app, existing),
                    by = by
                );
                app.log(Level::Info, text);
            }
        }
    }
    Vec::new()
}

pub(super) fn on_guard_choice_key(
    app: &mut App,
    mut choice: GuardChoice,
    key: KeyPress,
) -> Vec<Effect> {
    let intent = intent_for(key, app.settings.read_only);
    let chosen = match (key.code, intent) {
        (KeyCode::Char('y' | 'r'), _) => Choice::Confirm,
        (KeyCode::Char('n' | 'k'), _) | (_, Some(Intent::Close | Intent::Quit)) => Choice::Cancel,
        (KeyCode::Enter, _) => choice.choice,
        (_, Some(Intent::Left | Intent::Right | Intent::FocusNext | Intent::FocusPrev)) => {
            choice.choice = match choice.choice {
                Choice::Cancel => Choice::Confirm,
                Choice::Confirm => Choice::Cancel,
            };
            app.mode = Mode::GuardChoice(choice);
            return Vec::new();
        }
        _ => return Vec::new(),
    };
    app.mode = Mode::Main;
    app.guard.settled = true;
    let (existing, wanted, by) = (choice.existing, choice.wanted, choice.set_by);
    match chosen {
        Choice::Confirm => {
            adopt(app, wanted);
            let text = t!(
                "event-deadline-replaced",
                wanted = policy_text(app, wanted),
                existing = policy_text(app, existing),
                by = by
            );
            app.log(Level::Warn, text);
            save_guard(app).into_iter().collect()
        }
        Choice::Cancel => {
            let text = t!(
                "event-kept-deadline",
                existing = policy_text(app, existing),
                by = by,
                wanted = policy_text(app, wanted)
            );
            app.log(Level::Info, text);
            Vec::new()
        }
    }
}

/// The same deadline (in the ledger's whole seconds) and the same policy.
pub(super) fn same_policy(a: (Timestamp, OnExpiry), b: (Timestamp, OnExpiry)) -> bool {
    a.0.as_second() == b.0.as_second() && a.1 == b.1
}

/// Makes `policy` the cockpit's deadline, keeping whether the provider holds one.
pub(super) fn adopt(app: &mut App, (at, on_expiry): (Timestamp, OnExpiry)) {
    let held = app.deadline.is_some_and(|d| d.held_by_provider);
    let mut deadline = Deadline::new(at, on_expiry, app.now);
    deadline.held_by_provider = held;
    app.deadline = Some(deadline);
    app.dirty = true;
}

/// `18:30 (on expiry: release)`, in the cockpit's time zone.
pub(super) fn policy_text(app: &App, (at, on_expiry): (Timestamp, OnExpiry)) -> String {
    let local = at.to_zoned_datetime(app.spend.time_zone.clone());
    let at = local.strftime("%H:%M").to_string();
    t!(
        "policy-text",
        at = at,
        action = crate::app::guards::word(on_expiry)
    )
}

/// Past the deadline and inside its grace period: the policy has not run yet.
pub(super) fn in_grace(app: &App) -> bool {
    crate::app::guards::grace_banner(app, app.now).is_some()
}

/// Any key during the grace period cancels the pending stop or release: the deadline moves
/// one step from now.
pub(super) fn cancel_grace(app: &mut App) -> Vec<Effect> {
    let label = app.deadline.map_or_else(
        || t!("policy-action"),
        |d| crate::app::guards::word(d.on_expiry),
    );
    app.log(Level::Warn, t!("event-grace-cancelled", action = label));
    extend(app, app.settings.extend_step)
}

pub(super) fn on_guard(app: &mut App, state: &GuardState) {
    let now = app.now;
    let supervisor = app.guard.supervisor.as_ref();
    let watchdog = state.watchdog.map(|w| WatchdogView {
        pid: w.pid,
        last_check: w.heartbeat,
        lock_held: w.lock_held,
        alive: supervisor.map_or_else(|| w.alive(now, WATCHDOG_STALE), |s| s.alive(now, &w)),
    });
    // A heartbeat alone only changes how long ago the watchdog checked, which the next tick's
    // frame shows: drawing for it would cost a second frame in every second the row is read.
    let seen = |w: Option<WatchdogView>| w.map(|w| (w.pid, w.alive));
    if seen(watchdog) != seen(app.guard.watchdog) {
        app.dirty = true;
    }
    app.guard.watchdog = watchdog;
    adopt_idle(app, state);
    let moved = state.revision != app.guard.revision
        && state.updated_by != app.guard.me
        // The ledger keeps whole seconds: a deadline within the same second has not moved.
        && state.deadline.map(Timestamp::as_second) != app.deadline.map(|d| d.at.as_second());
    app.guard.revision = state.revision;
    if moved {
        let now = app.now;
        app.deadline = state
            .deadline
            .map(|at| Deadline::new(at, state.on_expiry, now));
        // A question about the row asks about the row as it is now.
        let open = match &mut app.mode {
            Mode::GuardChoice(choice) => Some(choice),
            _ => app.guard.pending.as_mut(),
        };
        if let (Some(choice), Some(at)) = (open, state.deadline) {
            choice.existing = (at, state.on_expiry);
            choice.set_by.clone_from(&state.updated_by);
            choice.set_at = state.updated;
        }
        let text = match state.deadline {
            Some(at) => {
                let local = at.to_zoned_datetime(app.spend.time_zone.clone());
                t!(
                    "event-deadline-moved",
                    at = local.strftime("%H:%M").to_string(),
                    by = state.updated_by.clone()
                )
            }
            None => t!("event-deadline-cleared", by = state.updated_by.clone()),
        };
        app.log(Level::Info, text);
    }
}

/// The idle rule a live watchdog publishes is the one enforced: the cockpit shows it, and says
/// once when it differs from the one its own flags and config arm.
fn adopt_idle(app: &mut App, state: &GuardState) {
    let live = app.guard.watchdog.filter(|w| w.alive).map(|w| w.pid);
    let (Some(watch), Some(armed), Some(pid)) = (app.idle.as_mut(), state.idle, live) else {
        return;
    };
    if watch.enforced_by == Some(pid) {
        return;
    }
    let differs = watch.after() != armed.after || watch.on_idle != armed.on_idle;
    watch.enforced_by = Some(pid);
    watch.tracker.rule.window = armed.after;
    watch.on_idle = armed.on_idle;
    app.dirty = true;
    if differs {
        let text = t!(
            "event-watchdog-own-idle",
            pid = pid.to_string(),
            action = crate::app::guards::word(armed.on_idle),
            after = crate::app::guards::span(armed.after)
        );
        app.log(Level::Warn, text);
    }
}

/// The watchdog's events as lines of the log, at the times it recorded them. After a new
/// action the inventory is read again at once, so the header shows what the provider did
/// without waiting for the next read.
pub(super) fn on_watchdog_notes(
    app: &mut App,
    notes: Vec<WatchdogNote>,
    replay: bool,
) -> Vec<Effect> {
    let acted = notes.iter().any(|n| n.action);
    for note in notes {
        let text = format!("{WATCHDOG_PREFIX} {}", note.text);
        app.log_at(note.at, note.level, text);
        app.bell |= !replay && note.level != Level::Info;
    }
    if acted && !replay {
        vec![Effect::RefreshInventory]
    } else {
        Vec::new()
    }
}

/// Feeds the idle rule the cockpit shows with one sample of the GPUs and the host.
pub(super) fn observe_idle(app: &mut App, at: Timestamp) {
    let (Some(watch), Some(gpus), Some(host)) =
        (app.idle.as_mut(), &app.telemetry.gpus, &app.telemetry.host)
    else {
        return;
    };
    let idle = watch.tracker.sample_is_idle(gpus, host);
    watch.tracker.observe(at, idle);
}
