//! `update`: the only place the cockpit's state changes. Pure: it takes an event (a key, a
//! clock tick, a sample, a provider answer) and returns the effects to run at the edge.

use jiff::{SignedDuration, Timestamp};

use super::confirm::{Choice, Confirm};
use super::deadline::{Countdown, Deadline};
use super::keymap::{Intent, KeyCode, KeyPress, intent_for};
use super::state::{ActionFailure, App, GuardChoice, Level, Mode, WatchdogView};
use crate::cloud::{Action, ActionReport, Inventory, ProviderError};
use crate::guard::BudgetAlert;
use crate::guard::GuardState;
use crate::guard::OnExpiry;
use crate::guard::{Supervision, Supervisor};
use crate::telemetry::{CpuBoundRule, Expectations, Telemetry, assess};

/// A watchdog silent for this long is shown as not running, when the cockpit does not
/// supervise one (which knows its interval: [`crate::guard::stale_after`]).
pub const WATCHDOG_STALE: std::time::Duration = std::time::Duration::from_secs(20);
/// What the event log's ledger lines start with; the recorder keeps its own lines out of the
/// ledger by it.
pub const LEDGER_PREFIX: &str = "ledger:";
/// Fleet rows older than this are read again while the fleet screen is open.
pub const FLEET_REFRESH: SignedDuration = SignedDuration::from_secs(60);

#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A key pressed (or repeated); releases never reach `update`.
    Key(KeyPress),
    /// The clock, read at the edge once a second.
    Tick(Timestamp),
    Telemetry(Telemetry),
    /// The provider's inventory, or why it could not be read.
    Inventory(Result<Inventory, ProviderError>),
    /// The guard row as the ledger holds it (the watchdog's heartbeat, a deadline someone moved).
    Guard(GuardState),
    /// The instance's guard row as first read, before this cockpit writes anything to it
    /// (`None`: there is none yet): the answer to [`Effect::LoadGuard`].
    GuardFound(Option<GuardState>),
    /// The provider announced it reclaims this spot instance at this instant.
    Interruption(Timestamp),
    /// The newest checkpoint found (or why the search failed).
    Checkpoint(Result<Option<crate::guard::Checkpoint>, String>),
    ActionDone {
        action: Action,
        result: Result<ActionReport, ProviderError>,
    },
    /// The instances of `[[fleet]]`, read as `gpumeter fleet` reads them.
    Fleet(Vec<crate::fleet::FleetRow>),
    /// The ledger could not do what the cockpit asked of it (open, record, share the guard).
    Ledger(String),
    /// The answer to [`Effect::StartWatchdog`]: the new watchdog's pid, or why it did not start.
    WatchdogStarted(Result<u32, String>),
    /// A watchdog process ended: `failure` says how it ended badly (`None`: it exited by
    /// itself, with status 0). Its own child's exit, or the guard row's pid found gone.
    WatchdogEnded {
        pid: u32,
        failure: Option<String>,
    },
    /// A webhook alert the cockpit sent did not get through (as the webhooks' queue says it).
    Webhook(String),
    Resize,
}

impl From<Telemetry> for Event {
    fn from(t: Telemetry) -> Self {
        Event::Telemetry(t)
    }
}

/// Work for the edges: provider calls and sampler requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Perform(Action),
    RefreshInventory,
    /// Read the instances of `[[fleet]]` for the fleet screen.
    RefreshFleet,
    RetryGpu,
    /// Read the instance's guard row once, before anything is written to it; answered by
    /// [`Event::GuardFound`], then read back every few seconds as [`Event::Guard`].
    LoadGuard {
        instance: String,
    },
    /// Write the deadline and its policy to the ledger, where the watchdog enforces it.
    SaveGuard {
        instance: String,
        deadline: Option<Timestamp>,
        on_expiry: OnExpiry,
        grace: std::time::Duration,
        /// Who writes it (`GuardLink::me`), kept as the row's `updated_by`.
        by: String,
    },
    /// Start the watchdog, detached, with the arguments the cockpit first gave it: at start,
    /// and again when it is gone. Answered by [`Event::WatchdogStarted`].
    StartWatchdog,
    /// Send an alert to the configured webhooks, from a queue of their own.
    Notify {
        level: Level,
        key: String,
        text: String,
        /// The instance the alert is about, once the provider has named it.
        instance: Option<String>,
    },
}

pub fn update(app: &mut App, event: Event) -> Vec<Effect> {
    // These always change what the screen shows. The clock and the guard row decide for
    // themselves (a tick within the same second, a heartbeat alone, draw nothing new), and
    // every line logged marks the screen too.
    if matches!(
        event,
        Event::Key(_) | Event::Telemetry(_) | Event::Inventory(_) | Event::Fleet(_) | Event::Resize
    ) {
        app.dirty = true;
    }
    match event {
        Event::Key(key) => {
            let effects = on_key(app, key);
            // A deadline question that came while another dialog was open, asked after it.
            if app.mode == Mode::Main
                && let Some(choice) = app.guard.pending.take()
            {
                app.mode = Mode::GuardChoice(choice);
            }
            effects
        }
        Event::Tick(now) => {
            on_tick(app, now);
            let mut effects = refresh_fleet(app);
            let first = app.guard.supervisor.as_mut().and_then(Supervisor::tick);
            effects.extend(first.map_or_else(Vec::new, |s| supervised(app, s)));
            effects
        }
        Event::Telemetry(t) => {
            on_telemetry(app, t);
            Vec::new()
        }
        Event::Inventory(result) => on_inventory(app, result),
        Event::Guard(state) => {
            on_guard(app, &state);
            supervise(app)
        }
        Event::GuardFound(found) => on_guard_found(app, found),
        Event::Interruption(at) => {
            on_interruption(app, at);
            Vec::new()
        }
        Event::Checkpoint(found) => {
            on_checkpoint(app, found);
            Vec::new()
        }
        Event::ActionDone { action, result } => on_action_done(app, &action, result),
        Event::Fleet(rows) => {
            app.fleet = rows;
            app.fleet_link.read_at = Some(app.now);
            app.fleet_link.reading = false;
            Vec::new()
        }
        Event::Ledger(problem) => {
            app.log(Level::Error, format!("{LEDGER_PREFIX} {problem}"));
            Vec::new()
        }
        Event::WatchdogStarted(result) => on_watchdog_started(app, result),
        Event::WatchdogEnded { pid, failure } => {
            if let Some(s) = app.guard.supervisor.as_mut() {
                s.ended(pid, failure);
            }
            if let Some(w) = app.guard.watchdog.as_mut().filter(|w| w.pid == pid) {
                app.dirty |= w.alive;
                w.alive = false;
            }
            supervise(app)
        }
        Event::Webhook(problem) => {
            app.log(Level::Warn, problem);
            Vec::new()
        }
        Event::Resize => Vec::new(),
    }
}

/// Asks the supervisor about the guard row as last read.
fn supervise(app: &mut App) -> Vec<Effect> {
    let now = app.now;
    let row = app.guard.watchdog.map(|w| crate::guard::Watchdog {
        pid: w.pid,
        heartbeat: w.last_check,
    });
    let said = app
        .guard
        .supervisor
        .as_mut()
        .and_then(|s| s.observe(now, row.as_ref()));
    said.map_or_else(Vec::new, |s| supervised(app, s))
}

fn on_watchdog_started(app: &mut App, result: Result<u32, String>) -> Vec<Effect> {
    let now = app.now;
    let Some(s) = app.guard.supervisor.as_mut() else {
        return Vec::new();
    };
    let again = s.restarting();
    let said = s.started(now, result.clone());
    app.dirty = true;
    if let (Ok(pid), true) = (result, again) {
        app.log(Level::Info, format!("watchdog started again (pid {pid})"));
    }
    said.map_or_else(Vec::new, |s| supervised(app, s))
}

/// What the supervisor said, as lines in the log and effects.
fn supervised(app: &mut App, said: Supervision) -> Vec<Effect> {
    app.dirty = true;
    match said {
        Supervision::Start { why: None } => vec![Effect::StartWatchdog],
        Supervision::Start { why: Some(why) } => {
            app.log(Level::Warn, format!("{why}: starting it again"));
            vec![Effect::StartWatchdog]
        }
        Supervision::GiveUp { why } => {
            let text = format!(
                "NO WATCHDOG: {why}. Nothing enforces the deadline or the idle rule once this \
                 cockpit is gone; see watchdog.log in the data directory"
            );
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
            app.log(Level::Info, format!("a watchdog guards again (pid {pid})"));
            Vec::new()
        }
    }
}

fn on_key(app: &mut App, key: KeyPress) -> Vec<Effect> {
    let ctrl_c = key.ctrl && key.code == KeyCode::Char('c');
    if ctrl_c {
        request_quit(app);
        return Vec::new();
    }
    match app.mode.clone() {
        Mode::Help => {
            if matches!(
                intent_for(key, app.settings.read_only),
                Some(Intent::Help | Intent::Close | Intent::Quit)
            ) {
                app.mode = Mode::Main;
            }
            Vec::new()
        }
        Mode::Confirm(confirm) => on_confirm_key(app, confirm, key),
        Mode::GuardChoice(choice) => on_guard_choice_key(app, choice, key),
        Mode::Prompt { input, .. } => on_prompt_key(app, input, key),
        Mode::Main => {
            if in_grace(app)
                && !matches!(intent_for(key, app.settings.read_only), Some(Intent::Quit))
            {
                return cancel_grace(app);
            }
            match intent_for(key, app.settings.read_only) {
                Some(intent) => on_intent(app, intent),
                None => Vec::new(),
            }
        }
    }
}

fn on_intent(app: &mut App, intent: Intent) -> Vec<Effect> {
    match intent {
        Intent::Quit => request_quit(app),
        Intent::Help => app.mode = Mode::Help,
        Intent::Close => app.show_fleet = false,
        Intent::Confirm => {}
        Intent::FocusNext | Intent::Right => app.focus = app.focus.next(),
        Intent::FocusPrev | Intent::Left => app.focus = app.focus.prev(),
        Intent::Up => move_selection(app, -1),
        Intent::Down => move_selection(app, 1),
        Intent::Processes => app.show_processes = !app.show_processes,
        Intent::Fleet => {
            app.show_fleet = !app.show_fleet;
            return refresh_fleet(app);
        }
        Intent::Extend => return extend(app, app.settings.extend_step),
        Intent::ExtendPrompt => {
            app.mode = Mode::Prompt {
                input: String::new(),
                error: None,
            };
        }
        Intent::RetryGpu => {
            app.log(Level::Info, "retrying NVML");
            return vec![Effect::RetryGpu];
        }
        Intent::Release => open_confirm(app, Action::Release),
        Intent::Stop => open_confirm(app, Action::Stop),
        Intent::SnapshotClean => open_confirm(
            app,
            Action::SnapshotClean {
                keep: app.settings.keep_snapshots,
                final_snapshot: false,
                delete: None,
            },
        ),
    }
    Vec::new()
}

/// Quits, unless an action is in flight: then the cockpit waits for the provider's answer, so
/// the user learns what happened, and a second quit leaves at once with the action reported
/// as unanswered.
fn request_quit(app: &mut App) {
    let Some((running, _)) = &app.cloud.running else {
        app.quit = true;
        return;
    };
    let label = running.label();
    if app.quit_after_answer {
        app.unanswered_at_quit = Some(running.clone());
        app.quit = true;
        return;
    }
    app.quit_after_answer = true;
    app.log(
        Level::Warn,
        format!("quitting once the {label} is answered; quit again to leave now"),
    );
}

/// Asks for the fleet while its screen is open, when `[[fleet]]` lists accounts, no read is in
/// flight and the rows are missing or older than [`FLEET_REFRESH`].
fn refresh_fleet(app: &mut App) -> Vec<Effect> {
    let link = &mut app.fleet_link;
    let fresh = link
        .read_at
        .is_some_and(|at| app.now.duration_since(at) < FLEET_REFRESH);
    if !app.show_fleet || link.accounts == 0 || link.reading || fresh {
        return Vec::new();
    }
    link.reading = true;
    app.dirty = true;
    vec![Effect::RefreshFleet]
}

fn move_selection(app: &mut App, by: isize) {
    let (selected, len) = match app.focus {
        super::state::Focus::Resources => (
            &mut app.selected_resource,
            app.cloud
                .inventory
                .as_ref()
                .map_or(0, |i| i.resources.len()),
        ),
        _ => (
            &mut app.selected_gpu,
            match &app.telemetry.gpus {
                Some(Ok(r)) => r.gpus.len(),
                _ => 0,
            },
        ),
    };
    if len > 0 {
        *selected = selected.saturating_add_signed(by).min(len - 1);
    }
}

fn open_confirm(app: &mut App, action: Action) {
    if let Some((running, _)) = &app.cloud.running {
        let text = format!("wait: {} is still running", running.label());
        app.log(Level::Warn, text);
        return;
    }
    let caps = app.cloud.capabilities;
    let unsupported = match action {
        Action::Stop => !caps.stop,
        Action::SnapshotClean { .. } => !caps.snapshots,
        _ => false,
    };
    if unsupported {
        let text = format!("{} cannot {}", app.cloud.provider, action.label());
        app.log(Level::Warn, text);
        return;
    }
    app.mode = Mode::Confirm(Confirm::for_action(app, action));
}

fn on_confirm_key(app: &mut App, mut confirm: Confirm, key: KeyPress) -> Vec<Effect> {
    let intent = intent_for(key, app.settings.read_only);
    let chosen = match (key.code, intent) {
        (KeyCode::Char('y'), _) => Some(Choice::Confirm),
        (KeyCode::Char('n'), _) | (_, Some(Intent::Close | Intent::Quit)) => Some(Choice::Cancel),
        (KeyCode::Enter, _) => Some(confirm.choice),
        (_, Some(Intent::Left | Intent::Right | Intent::FocusNext | Intent::FocusPrev)) => {
            confirm.choice = match confirm.choice {
                Choice::Cancel => Choice::Confirm,
                Choice::Confirm => Choice::Cancel,
            };
            app.mode = Mode::Confirm(confirm);
            return Vec::new();
        }
        _ => None,
    };
    match chosen {
        Some(Choice::Confirm) => {
            app.mode = Mode::Main;
            let action = confirm.action;
            let text = format!("{}: sent to {}", action.label(), app.cloud.provider);
            app.log(Level::Info, text);
            app.cloud.running = Some((action.clone(), app.now));
            vec![Effect::Perform(action)]
        }
        Some(Choice::Cancel) => {
            app.mode = Mode::Main;
            let text = format!("{}: cancelled", confirm.action.label());
            app.log(Level::Info, text);
            Vec::new()
        }
        None => Vec::new(),
    }
}

fn on_prompt_key(app: &mut App, mut input: String, key: KeyPress) -> Vec<Effect> {
    match key.code {
        KeyCode::Esc => app.mode = Mode::Main,
        KeyCode::Enter => match input.trim().parse::<SignedDuration>() {
            Ok(by) if by > SignedDuration::ZERO => {
                app.mode = Mode::Main;
                return extend(app, by);
            }
            _ => {
                app.mode = Mode::Prompt {
                    error: Some(format!("`{input}` is not a duration: try 45m, 2h or 1h30m")),
                    input,
                };
            }
        },
        KeyCode::Backspace => {
            input.pop();
            app.mode = Mode::Prompt { input, error: None };
        }
        KeyCode::Char(c) if !c.is_control() && input.len() < 32 => {
            input.push(c);
            app.mode = Mode::Prompt { input, error: None };
        }
        _ => {}
    }
    Vec::new()
}

/// Moves the deadline `by` later, in the ledger at once (so the watchdog never acts on a
/// deadline the user just moved) and at the provider where it holds the deadline or the policy
/// is release. A provider deadline is never created for "alert only" or "stop": it would
/// release the instance (Alibaba and Tencent delete it).
fn extend(app: &mut App, by: SignedDuration) -> Vec<Effect> {
    let now = app.now;
    let held = app.deadline.is_some_and(|d| d.held_by_provider);
    let deadline = app
        .deadline
        .get_or_insert_with(|| Deadline::new(now, OnExpiry::Alert, now));
    deadline.extend(by, now);
    let (at, on_expiry) = (deadline.at, deadline.on_expiry);
    let local = at.to_zoned_datetime(app.spend.time_zone.clone());
    let text = format!("deadline extended by {by:#} to {}", local.strftime("%H:%M"));
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
fn save_guard(app: &App) -> Option<Effect> {
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
fn on_guard_found(app: &mut App, found: Option<GuardState>) -> Vec<Effect> {
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
            let text = format!(
                "read-only: keeping the deadline {} set by {by}; not applied: {}",
                policy_text(app, existing),
                policy_text(app, wanted)
            );
            app.log(Level::Warn, text);
        }
        _ => {
            app.guard.settled = true;
            if !same {
                let text = format!(
                    "shared deadline {} as set by {by}",
                    policy_text(app, existing)
                );
                app.log(Level::Info, text);
            }
        }
    }
    Vec::new()
}

fn on_guard_choice_key(app: &mut App, mut choice: GuardChoice, key: KeyPress) -> Vec<Effect> {
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
            let text = format!(
                "deadline replaced: now {}, was {} set by {by}",
                policy_text(app, wanted),
                policy_text(app, existing)
            );
            app.log(Level::Warn, text);
            save_guard(app).into_iter().collect()
        }
        Choice::Cancel => {
            let text = format!(
                "kept the deadline {} set by {by}; not applied: {}",
                policy_text(app, existing),
                policy_text(app, wanted)
            );
            app.log(Level::Info, text);
            Vec::new()
        }
    }
}

/// The same deadline (in the ledger's whole seconds) and the same policy.
fn same_policy(a: (Timestamp, OnExpiry), b: (Timestamp, OnExpiry)) -> bool {
    a.0.as_second() == b.0.as_second() && a.1 == b.1
}

/// Makes `policy` the cockpit's deadline, keeping whether the provider holds one.
fn adopt(app: &mut App, (at, on_expiry): (Timestamp, OnExpiry)) {
    let held = app.deadline.is_some_and(|d| d.held_by_provider);
    let mut deadline = Deadline::new(at, on_expiry, app.now);
    deadline.held_by_provider = held;
    app.deadline = Some(deadline);
    app.dirty = true;
}

/// `18:30 (on expiry: release)`, in the cockpit's time zone.
fn policy_text(app: &App, (at, on_expiry): (Timestamp, OnExpiry)) -> String {
    let local = at.to_zoned_datetime(app.spend.time_zone.clone());
    let word = match on_expiry {
        OnExpiry::Alert => "alert",
        OnExpiry::Stop => "stop",
        OnExpiry::Release => "release",
    };
    format!("{} (on expiry: {word})", local.strftime("%H:%M"))
}

/// Past the deadline and inside its grace period: the policy has not run yet.
fn in_grace(app: &App) -> bool {
    app.deadline.is_some_and(|d| {
        d.on_expiry != OnExpiry::Alert
            && matches!(
                crate::guard::expiry(d.at, app.settings.grace, app.now),
                crate::guard::Expiry::Grace(_)
            )
    })
}

/// Any key during the grace period cancels the pending stop or release: the deadline moves
/// one step from now.
fn cancel_grace(app: &mut App) -> Vec<Effect> {
    let label = app.deadline.map_or("action", |d| match d.on_expiry {
        OnExpiry::Release => "release",
        OnExpiry::Stop => "stop",
        OnExpiry::Alert => "alert",
    });
    app.log(
        Level::Warn,
        format!("{label} at the deadline cancelled by a key"),
    );
    extend(app, app.settings.extend_step)
}

fn on_guard(app: &mut App, state: &GuardState) {
    let now = app.now;
    let supervisor = app.guard.supervisor.as_ref();
    let watchdog = state.watchdog.map(|w| WatchdogView {
        pid: w.pid,
        last_check: w.heartbeat,
        alive: supervisor.map_or_else(|| w.alive(now, WATCHDOG_STALE), |s| s.alive(now, &w)),
    });
    // A heartbeat alone only changes how long ago the watchdog checked, which the next tick's
    // frame shows: drawing for it would cost a second frame in every second the row is read.
    let seen = |w: Option<WatchdogView>| w.map(|w| (w.pid, w.alive));
    if seen(watchdog) != seen(app.guard.watchdog) {
        app.dirty = true;
    }
    app.guard.watchdog = watchdog;
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
                format!(
                    "deadline moved to {} by {}",
                    local.strftime("%H:%M"),
                    state.updated_by
                )
            }
            None => format!("deadline cleared by {}", state.updated_by),
        };
        app.log(Level::Info, text);
    }
}

fn on_tick(app: &mut App, now: Timestamp) {
    if now.as_second() != app.now.as_second() {
        app.dirty = true;
    }
    app.now = now;
    if let Some(deadline) = app.deadline.as_mut() {
        let on_expiry = deadline.on_expiry;
        for said in deadline.tick(now) {
            let text = match said {
                Countdown::Warn(minutes) => format!(
                    "{minutes} minute{} left before the deadline",
                    if minutes == 1 { "" } else { "s" }
                ),
                Countdown::Expired => {
                    format!("deadline reached: on expiry → {on_expiry:?}").to_lowercase()
                }
            };
            app.bell = true;
            app.log(Level::Warn, text);
        }
    }
    let deadline = app.deadline.map(|d| d.at);
    app.spend
        .recompute(app.cloud.inventory.as_ref(), now, deadline);
    check_budget(app, now);
}

fn on_checkpoint(app: &mut App, found: Result<Option<crate::guard::Checkpoint>, String>) {
    let now = app.now;
    let spot = app
        .spend
        .pricing
        .as_ref()
        .is_some_and(|p| p.mode == crate::meter::BillingMode::Spot);
    // The root disk goes away with the instance when the provider deletes it on release.
    let root_goes = app.cloud.inventory.as_ref().is_some_and(|i| {
        i.resources
            .iter()
            .any(|r| r.kind == crate::meter::ResourceKind::SystemDisk && r.deleted_with_instance)
    });
    let ephemeral: Vec<std::path::PathBuf> = if root_goes {
        vec!["/".into()]
    } else {
        Vec::new()
    };
    let Some(view) = app.checkpoint.as_mut() else {
        return;
    };
    let found = match found {
        Ok(found) => found,
        Err(e) => {
            app.log(Level::Warn, format!("checkpoint: {e}"));
            return;
        }
    };
    view.newest = found;
    let alerts = crate::guard::checkpoint::assess(
        &view.pattern,
        view.newest.as_ref(),
        now,
        view.stale_after,
        spot,
        &ephemeral,
    );
    // Said once per kind and file: a stale checkpoint is not repeated every minute.
    let key = |a: &crate::guard::CheckpointAlert| match a {
        crate::guard::CheckpointAlert::Missing { .. } => "missing".to_string(),
        crate::guard::CheckpointAlert::Stale { path, .. } => format!("stale:{}", path.display()),
        crate::guard::CheckpointAlert::OnEphemeralDisk { path, .. } => {
            format!("ephemeral:{}", path.display())
        }
    };
    let fresh: Vec<_> = alerts
        .into_iter()
        .filter(|a| !view.said.contains(&key(a)))
        .collect();
    view.said.extend(fresh.iter().map(key));
    for alert in fresh {
        let text = match alert {
            crate::guard::CheckpointAlert::Missing { pattern } => {
                format!("checkpoint: nothing matches {pattern}")
            }
            crate::guard::CheckpointAlert::Stale { path, age } => format!(
                "checkpoint: the newest, {}, is {} min old",
                path.display(),
                age.as_secs() / 60
            ),
            crate::guard::CheckpointAlert::OnEphemeralDisk { path, mount } => format!(
                "checkpoint: {} is on {}, a disk deleted with the instance",
                path.display(),
                mount.display()
            ),
        };
        app.bell = true;
        app.log(Level::Warn, text);
    }
}

fn on_interruption(app: &mut App, at: Timestamp) {
    if app.interruption == Some(at) {
        return;
    }
    app.interruption = Some(at);
    app.bell = true;
    let local = at.to_zoned_datetime(app.spend.time_zone.clone());
    let text = format!(
        "spot interruption: the provider reclaims this instance at {}; checkpoint now",
        local.strftime("%H:%M:%S")
    );
    app.log(Level::Error, text);
}

/// Budget thresholds crossed and the forecast of when the budget runs out, for the instance
/// and for the month.
fn check_budget(app: &mut App, now: Timestamp) {
    let Some(reading) = app.spend.reading.as_ref() else {
        return;
    };
    let spent = reading.accrual.accrued.total();
    let burn = reading.accrual.burn_per_hour.total();
    let mut said = Vec::new();
    if let Some(watch) = app.budget.as_mut() {
        said.push(("", watch.check(spent, burn, now)));
    }
    if let Some(month) = app.month_budget.as_mut() {
        let baseline = *month.baseline.get_or_insert(spent);
        let this_month = spent
            .checked_sub(baseline)
            .and_then(|run| month.before.checked_add(run));
        said.push((
            " this month",
            this_month.and_then(|m| month.watch.check(m, burn, now)),
        ));
    }
    for (scope, result) in said {
        announce_budget(app, scope, result);
    }
}

fn announce_budget(
    app: &mut App,
    scope: &str,
    result: Result<Vec<BudgetAlert>, crate::money::CurrencyMismatch>,
) {
    let alerts = match result {
        Ok(alerts) => alerts,
        Err(e) => {
            if scope.is_empty() {
                app.budget = None;
            } else {
                app.month_budget = None;
            }
            app.log(Level::Error, format!("budget{scope}: {e}"));
            return;
        }
    };
    let tz = app.spend.time_zone.clone();
    for alert in alerts {
        let text = match alert {
            BudgetAlert::Crossed {
                percent,
                spent,
                limit,
            } => format!("budget{scope}: {percent}% used ({spent} of {limit})"),
            BudgetAlert::Forecast { at, limit } => format!(
                "budget{scope}: at this rate the {limit} budget is gone at {}",
                at.to_zoned_datetime(tz.clone()).strftime("%H:%M")
            ),
        };
        app.bell = true;
        app.log(Level::Warn, text);
    }
}

fn on_telemetry(app: &mut App, t: Telemetry) {
    match t {
        Telemetry::Gpu(sample) => {
            app.telemetry.history.record_gpus(sample.at, &sample.value);
            let expect = Expectations {
                sku: app.spend.pricing.as_ref().map(|p| &p.sku),
                cuda: app.settings.cuda_required,
                cpu_bound: CpuBoundRule::default(),
            };
            app.telemetry.findings =
                assess(&expect, &sample.value, &app.telemetry.history, sample.at);
            app.telemetry.gpus = Some(sample.value);
        }
        Telemetry::Host(sample) => {
            app.telemetry.history.record_host(sample.at, &sample.value);
            let rx: u64 = sample.value.net.iter().map(|n| n.rx_bytes).sum();
            app.spend
                .record_bytes(sample.time, sample.value.tx_bytes_total(), rx);
            app.telemetry.host = Some(sample.value);
        }
    }
}

fn on_inventory(app: &mut App, result: Result<Inventory, ProviderError>) -> Vec<Effect> {
    match result {
        Ok(inventory) => {
            app.spend.record_inventory(&inventory, app.now);
            if let Some(held) = inventory.deadline {
                let now = app.now;
                let d = app
                    .deadline
                    .get_or_insert_with(|| Deadline::new(held.at, OnExpiry::Alert, now));
                if d.at != held.at {
                    *d = Deadline::new(held.at, d.on_expiry, now);
                }
                d.held_by_provider = true;
            } else if let Some(d) = app.deadline.as_mut() {
                d.held_by_provider = false;
            }
            let first = app.guard.instance.is_none();
            if let Some(instance) = inventory.instance.as_ref().filter(|_| first) {
                app.guard.instance = Some(instance.id.clone());
            }
            app.cloud.inventory = Some(inventory);
            app.cloud.error = None;
            let deadline = app.deadline.map(|d| d.at);
            app.spend
                .recompute(app.cloud.inventory.as_ref(), app.now, deadline);
        }
        Err(e) => app.cloud.error = Some(e),
    }
    // Read the row once, when the instance first becomes known: what to write, if anything,
    // is decided when it comes (`Event::GuardFound`).
    if let Some(instance) = app.guard.instance.clone().filter(|_| !app.guard.loading) {
        app.guard.loading = true;
        return vec![Effect::LoadGuard { instance }];
    }
    Vec::new()
}

fn on_action_done(
    app: &mut App,
    action: &Action,
    result: Result<ActionReport, ProviderError>,
) -> Vec<Effect> {
    if app.cloud.running.as_ref().is_some_and(|(a, _)| a == action) {
        app.cloud.running = None;
    }
    if result.is_ok() {
        app.cloud.failure = None;
    }
    let held_old =
        matches!(action, Action::SetDeadline { .. }) && !result.as_ref().is_ok_and(|r| r.confirmed);
    match result {
        Ok(report) if report.confirmed => {
            let text = format!(
                "{}: done, the provider reports {}",
                action.label(),
                report.summary
            );
            app.log(Level::Done, text);
        }
        Ok(report) => {
            let text = format!(
                "{}: NOT confirmed, the provider reports {}",
                action.label(),
                report.summary
            );
            app.log(Level::Error, text);
        }
        Err(error) => {
            // What to fix first: an entry too long for the panel keeps its start.
            let text = format!(
                "{} failed ({}): {}. {error}",
                action.label(),
                error.kind_label(),
                error.fix()
            );
            app.log(Level::Error, text);
            app.cloud.failure = Some(ActionFailure {
                action: action.clone(),
                error,
                at: app.now,
            });
        }
    }
    if held_old {
        let text = format!(
            "{} may still hold its old deadline and release the instance then; the countdown \
             shows what it holds once it is read again",
            app.cloud.provider
        );
        app.log(Level::Warn, text);
    }
    if app.quit_after_answer && app.cloud.running.is_none() {
        app.quit = true;
        return Vec::new();
    }
    vec![Effect::RefreshInventory]
}

#[cfg(test)]
mod tests {
    use jiff::tz::TimeZone;

    use super::*;
    use crate::app::state::{CloudView, Settings};
    use crate::cloud::{Capabilities, ErrorKind};
    use crate::spend::Spend;

    fn app() -> App {
        let cloud = CloudView {
            provider: "aws".into(),
            capabilities: Capabilities {
                stop: true,
                snapshots: true,
                deadline: false,
            },
            inventory: None,
            error: None,
            running: None,
            failure: None,
        };
        let now = Timestamp::from_second(1_800_000_000).unwrap();
        App::new(
            now,
            Settings::default(),
            cloud,
            Spend::new(None, None, TimeZone::UTC),
        )
    }

    fn empty() -> Inventory {
        Inventory {
            instance: None,
            resources: Vec::new(),
            deadline: None,
        }
    }

    fn denied() -> ProviderError {
        ProviderError::permission("aws", Some("ec2:TerminateInstances"))
            .with_call("ec2 TerminateInstances")
            .with_code("UnauthorizedOperation")
            .with_message("You are not authorized to perform this operation.")
    }

    #[test]
    fn an_inventory_error_is_kept_typed_until_a_read_succeeds() {
        let mut app = app();
        let refused = ProviderError::refused("aws", "the credentials", &["AWS_ACCESS_KEY_ID"])
            .with_code("AuthFailure");
        update(&mut app, Event::Inventory(Err(refused.clone())));
        assert_eq!(app.cloud.error, Some(refused));
        assert!(matches!(
            app.cloud.error.as_ref().map(ProviderError::kind),
            Some(ErrorKind::Auth(_))
        ));
        assert!(app.dirty);
        update(&mut app, Event::Inventory(Ok(empty())));
        assert_eq!(app.cloud.error, None);
    }

    #[test]
    fn a_failed_action_is_kept_with_its_error_and_logged_fix_first() {
        let mut app = app();
        app.cloud.running = Some((Action::Release, app.now));
        let effects = update(
            &mut app,
            Event::ActionDone {
                action: Action::Release,
                result: Err(denied()),
            },
        );
        assert_eq!(effects, vec![Effect::RefreshInventory]);
        assert_eq!(app.cloud.running, None);
        let failure = app.cloud.failure.clone().expect("the failure is kept");
        assert_eq!(failure.action, Action::Release);
        assert_eq!(failure.error, denied());
        assert_eq!(failure.at, app.now);
        let entry = app.events.back().expect("a log line");
        assert_eq!(entry.level, Level::Error);
        assert!(
            entry.text.starts_with(
                "release failed (permission): the key lacks ec2:TerminateInstances; grant it in IAM. "
            ),
            "{}",
            entry.text
        );
        assert!(
            entry.text.contains("UnauthorizedOperation"),
            "{}",
            entry.text
        );
    }

    #[test]
    fn an_answered_action_clears_the_last_failure() {
        let mut app = app();
        let done = |result| Event::ActionDone {
            action: Action::Stop,
            result,
        };
        update(&mut app, done(Err(denied())));
        assert!(app.cloud.failure.is_some());
        let report = ActionReport {
            action: Action::Stop,
            confirmed: false,
            summary: "still running".into(),
            calls: Vec::new(),
        };
        update(&mut app, done(Ok(report)));
        assert_eq!(app.cloud.failure, None);
    }
}
