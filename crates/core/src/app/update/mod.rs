//! `update`: the only place the cockpit's state changes. Pure: it takes an event (a key, a
//! clock tick, a sample, a provider answer) and returns the effects to run at the edge.

use std::borrow::Cow;

use jiff::{SignedDuration, Timestamp};

use super::deadline::Countdown;
use super::keymap::{Intent, KeyCode, KeyPress, binding_for, intent_for};
use super::offer::not_now;
use super::state::{App, Level, Mode};
use crate::cloud::{Action, ActionReport, Inventory, ProviderError};
use crate::guard::BudgetAlert;
use crate::guard::GuardState;
use crate::guard::OnExpiry;
use crate::guard::Supervisor;
use crate::t;
use crate::telemetry::{CpuBoundRule, Expectations, Telemetry, assess};

mod cloud;
mod guard;
mod prompt;
mod resource;
pub use prompt::extend_question;
#[cfg(test)]
mod tests;

use cloud::{on_action_done, on_confirm_key, on_inventory, open_confirm};
use guard::{
    cancel_grace, extend, in_grace, observe_idle, on_guard, on_guard_choice_key, on_guard_found,
    on_watchdog_notes, on_watchdog_started, supervise, supervised,
};

/// A watchdog silent for this long is shown as not running, when the cockpit does not
/// supervise one (which knows its interval: [`crate::guard::stale_after`]).
pub const WATCHDOG_STALE: std::time::Duration = std::time::Duration::from_secs(20);
/// What the event log's ledger lines start with; the recorder keeps its own lines out of the
/// ledger by it.
pub const LEDGER_PREFIX: &str = "ledger:";
/// What the lines read back from the watchdog's own events start with; the recorder keeps them
/// out of the ledger by it, since they are there already.
pub const WATCHDOG_PREFIX: &str = "watchdog:";
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
    /// A prepaid balance, read with a full inventory at this instant.
    Balance(crate::money::Balance, Timestamp),
    /// The account's instances, listed with the balance: what else draws on it.
    Account(Vec<crate::cloud::InstanceInfo>),
    /// The guard row as the ledger holds it (the watchdog's heartbeat, a deadline someone moved).
    Guard(GuardState),
    /// The instance's guard row as first read, before this cockpit writes anything to it
    /// (`None`: there is none yet): the answer to [`Effect::LoadGuard`].
    GuardFound(Option<GuardState>),
    /// The provider announced it reclaims this spot instance at this instant.
    Interruption(Timestamp),
    /// The keys the provider acts with stop working at this instant.
    KeysExpire(Timestamp),
    /// The prepaid term the provider reported with a full inventory: its end wins over the
    /// config's.
    Subscription(crate::subscription::Reported),
    /// The newest checkpoint found (or why the search failed). A `String` error: the core
    /// shows it in the checkpoint line and never matches on it, and the glob error it comes
    /// from is the edge's.
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
    WatchdogStarted(Result<u32, crate::guard::StartError>),
    /// A watchdog process ended: `failure` says how it ended badly (`None`: it exited by
    /// itself, with status 0). Its own child's exit, or the guard row's pid found gone.
    WatchdogEnded {
        pid: u32,
        failure: Option<String>,
    },
    /// A webhook alert the cockpit sent did not get through (as the webhooks' queue says it).
    Webhook(String),
    /// What the watchdog did and said, read from the ledger: new since the last read, or
    /// (`replay`) the last few from before this cockpit started.
    WatchdogNotes {
        notes: Vec<WatchdogNote>,
        replay: bool,
    },
    /// The last `gpumeter verify` the ledger holds for this machine.
    Verified(crate::app::Verified),
    Resize,
}

/// One event the watchdog recorded: an action and its read-back, an alert, a hook or a
/// webhook's outcome. The text is one printable line already.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchdogNote {
    pub at: Timestamp,
    pub level: Level,
    pub text: String,
    /// A request to the provider (a stop, a release): what the instance is may have changed.
    pub action: bool,
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
            super::welcome::stand_down(app);
            let first = app.guard.supervisor.as_mut().and_then(Supervisor::tick);
            effects.extend(first.map_or_else(Vec::new, |s| supervised(app, s)));
            effects
        }
        Event::Telemetry(t) => {
            on_telemetry(app, t);
            Vec::new()
        }
        Event::Inventory(result) => on_inventory(app, result),
        Event::Balance(balance, at) => {
            app.balance = Some((balance, at));
            app.dirty = true;
            Vec::new()
        }
        Event::Account(listed) => {
            app.account = Some(listed);
            app.dirty = true;
            Vec::new()
        }
        Event::Subscription(reported) => {
            let tz = app.spend.time_zone.clone();
            app.subscription = std::mem::take(&mut app.subscription).with_reported(reported, &tz);
            app.dirty = true;
            Vec::new()
        }
        Event::Guard(state) => {
            on_guard(app, &state);
            supervise(app)
        }
        Event::GuardFound(found) => on_guard_found(app, found),
        Event::Interruption(at) => {
            on_interruption(app, at);
            Vec::new()
        }
        Event::KeysExpire(at) => {
            app.cloud.keys_expire = Some(at);
            warn_if_keys_end_first(app);
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
        Event::WatchdogNotes { notes, replay } => on_watchdog_notes(app, notes, replay),
        Event::Verified(v) => {
            if app.telemetry.verified.as_ref() != Some(&v) {
                app.telemetry.verified = Some(v);
                app.dirty = true;
            }
            Vec::new()
        }
        Event::Resize => Vec::new(),
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
        Mode::Details(details) => {
            resource::on_details_key(app, &details, key);
            Vec::new()
        }
        Mode::GuardChoice(choice) => on_guard_choice_key(app, choice, key),
        Mode::Prompt { input, asking, .. } => prompt::on_prompt_key(app, input, asking, key),
        Mode::Main => {
            if in_grace(app)
                && !matches!(intent_for(key, app.settings.read_only), Some(Intent::Quit))
            {
                return cancel_grace(app);
            }
            let read_only = app.settings.read_only;
            let Some(intent) = intent_for(key, read_only) else {
                if let Some(b) = binding_for(key).filter(|b| b.writes && read_only) {
                    let text = t!("event-read-only-key", what = super::keymap::describe(b));
                    app.log(Level::Info, text);
                }
                return Vec::new();
            };
            if let Some(why) = not_now(intent, app) {
                app.log(Level::Info, why);
                return Vec::new();
            }
            on_intent(app, intent)
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
        Intent::PageUp => move_selection(app, -PAGE),
        Intent::PageDown => move_selection(app, PAGE),
        Intent::Top => move_selection(app, isize::MIN),
        Intent::Bottom => move_selection(app, isize::MAX),
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
                asking: None,
            };
        }
        Intent::RetryGpu => {
            app.log(Level::Info, t!("event-retrying-nvml"));
            return vec![Effect::RetryGpu];
        }
        Intent::Release => open_confirm(app, Action::Release),
        Intent::Stop => open_confirm(app, Action::Stop),
        Intent::Start => open_confirm(app, Action::Start),
        Intent::SnapshotClean => resource::open_snapshot_pick(app),
        Intent::Cleanup => resource::open_cleanup(app),
        Intent::Details => resource::open_details(app),
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
    let label = crate::app::confirm::verb(running);
    if app.quit_after_answer {
        app.unanswered_at_quit = Some(running.clone());
        app.quit = true;
        return;
    }
    app.quit_after_answer = true;
    app.log(Level::Warn, t!("event-quit-after-answer", action = label));
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

/// Rows PgUp and PgDn move.
const PAGE: isize = 10;

/// Moves the focused list by `by` rows (negative: up). In the events, up is older: the view
/// scrolls back from the newest line, and `isize::MAX` (G) follows the newest again.
pub(super) fn move_selection(app: &mut App, by: isize) {
    if app.focus == super::state::Focus::Events {
        let oldest = app.events.len().saturating_sub(1);
        app.events_scroll = app
            .events_scroll
            .saturating_add_signed(by.saturating_neg())
            .min(oldest);
        return;
    }
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

fn on_tick(app: &mut App, now: Timestamp) {
    let new_second = now.as_second() != app.now.as_second();
    app.now = now;
    if new_second {
        app.dirty = true;
        resource::refresh_details(app);
    }
    if let Some(deadline) = app.deadline.as_mut() {
        let on_expiry = deadline.on_expiry;
        for said in deadline.tick(now) {
            let text = match said {
                Countdown::Warn(minutes) => t!("event-minutes-left", minutes = minutes),
                Countdown::Expired => t!(
                    "event-deadline-reached",
                    action = crate::app::guards::word(on_expiry)
                ),
            };
            app.bell = true;
            app.log(Level::Warn, text);
        }
    }
    let deadline = crate::app::offer::live_deadline(app);
    app.spend
        .recompute(app.cloud.inventory.as_ref(), now, deadline);
    check_budget(app, now);
    warn_if_keys_end_first(app);
}

/// Logs, once for each deadline, that the keys will have expired before the guard acts on it.
fn warn_if_keys_end_first(app: &mut App) {
    let warning = app.deadline.as_ref().and_then(|d| {
        crate::cloud::outlived_keys(d.at, app.settings.grace, d.on_expiry, app.cloud.keys_expire)
    });
    if warning.is_some() && warning != app.cloud.keys_warned {
        app.bell = true;
        app.log(Level::Warn, warning.clone().unwrap_or_default());
    }
    app.cloud.keys_warned = warning;
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
            app.log(Level::Warn, t!("event-checkpoint-error", error = e));
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
                t!("event-checkpoint-missing", pattern = pattern.clone())
            }
            crate::guard::CheckpointAlert::Stale { path, age } => t!(
                "event-checkpoint-stale",
                path = path.display().to_string(),
                minutes = (age.as_secs() / 60).to_string()
            ),
            crate::guard::CheckpointAlert::OnEphemeralDisk { path, mount } => t!(
                "event-checkpoint-ephemeral",
                path = path.display().to_string(),
                mount = mount.display().to_string()
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
    let text = t!(
        "event-spot-interruption",
        at = local.strftime("%H:%M:%S").to_string()
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
        said.push((Cow::Borrowed(""), watch.check(spent, burn, now)));
    }
    if let Some(budget) = app.month_budget.as_mut() {
        let tz = &app.spend.time_zone;
        let checked = budget.month.spent(spent, now, tz).and_then(|(m, turned)| {
            if turned {
                budget.watch.start_again();
            }
            budget.watch.check(m, burn, now)
        });
        said.push((t!("budget-this-month"), checked));
    }
    for (scope, result) in said {
        announce_budget(app, &scope, result);
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
            let text = t!(
                "event-budget-error",
                scope = scope.to_string(),
                error = e.to_string()
            );
            app.log(Level::Error, text);
            return;
        }
    };
    let tz = app.spend.time_zone.clone();
    for alert in alerts {
        let text = match alert {
            BudgetAlert::Crossed {
                level,
                spent,
                limit,
                ..
            } => crate::guard::budget::crossed_text(scope, level, spent, limit),
            BudgetAlert::Forecast { at, limit } => t!(
                "event-budget-forecast",
                scope = scope.to_string(),
                limit = limit.to_string(),
                at = at
                    .to_zoned_datetime(tz.clone())
                    .strftime("%H:%M")
                    .to_string()
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
                ..Expectations::default()
            };
            app.telemetry.findings =
                assess(&expect, &sample.value, &app.telemetry.history, sample.at);
            app.telemetry.gpus = Some(sample.value);
            observe_idle(app, sample.time);
        }
        Telemetry::Host(sample) => {
            app.telemetry.history.record_host(sample.at, &sample.value);
            let rx: u64 = sample.value.net.iter().map(|n| n.rx_bytes).sum();
            app.spend.record_bytes(
                sample.time,
                sample.value.tx_bytes_total(),
                rx,
                sample.value.egress_split_total,
            );
            app.telemetry.host = Some(sample.value);
        }
    }
}
