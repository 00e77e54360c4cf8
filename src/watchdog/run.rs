//! The watchdog's loop: claim the instance in the ledger, then every interval beat the heart,
//! read the guard state, sample the machine, ask the [`Guardian`] and carry out what it
//! decides through the provider. It ends after a confirmed release, on SIGTERM, when another
//! watchdog has taken over, when its ledger file is gone, or (a demo's) when its cockpit is
//! gone and nothing is left to enforce.
//!
//! It holds the instance's [`lock`](super::lock) for its whole life, and counts time on the
//! monotonic clock from the wall clock read at start ([`GuardClock`]): a wall-clock step is
//! said in its log and the cockpit's, and moves no deadline.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use jiff::Timestamp;
use tokio::sync::mpsc;
use tokio::time::MissedTickBehavior;

use super::error::WatchError;
use super::guardian::{Decision, Guardian};
use super::keys::KeysWarned;
use super::stopped_release::WatchStopped;
use super::take_up::take_up;
use crate::app::Level;
use crate::config::{HooksConfig, OnExpiry};
pub use crate::guard::stale_after;
use crate::guard::{GuardClock, GuardTime, IdleTracker, Reading};
use crate::ledger::{EventLevel, EventRecord, GuardState, Ledger};
use crate::notify::{Alert, Notifier, Outcome, QUEUE_LEN, Queue, Report};
use crate::provider::command::run::run_with_env as run_hook;
use crate::provider::refresh::{Ask, InventoryDue, LastRead};
use crate::provider::{Action, Provider};
use crate::telemetry::{
    GpuRound, GpuSource, HostSample, HostSource, SamplerConfig, Telemetry, spawn_gpu_sampler,
    spawn_host_sampler,
};

/// How long a watchdog that is done waits for its last alerts to reach the webhooks.
pub const LAST_ALERTS: Duration = Duration::from_secs(30);

/// With a budget, the full inventory is read at least this often: the budget prices the disks
/// too, and one can be added while the instance's state stays the same. Every two hours keeps
/// a watched day near 220 calls on AWS, inside 300: 12 full reads of 7 or 8 calls and 132
/// looks of one, where hourly reads would come to about 290.
pub const BUDGET_FULL_EVERY: Duration = Duration::from_secs(2 * 3600);

/// Reads the wall clock: `Timestamp::now`, or a test's clock that steps.
pub type WallClock = Arc<dyn Fn() -> Timestamp + Send + Sync>;

/// Everything the loop needs, built at the edge.
pub struct Watch {
    pub instance: String,
    pub provider: Arc<dyn Provider>,
    pub ledger: Ledger,
    pub interval: Duration,
    /// How often the cloud is asked for the inventory while nothing happens.
    pub inventory_every: Duration,
    pub idle: IdleTracker,
    pub on_idle: crate::config::OnExpiry,
    pub hooks: HooksConfig,
    pub notifier: Option<Notifier>,
    /// With `--demo`: the pid of the process that started the watchdog. A simulated instance
    /// needs no guard that nobody watches, so once that process is gone the watchdog stays only
    /// while it has something to enforce (see [`has_duty`]).
    pub started_by: Option<u32>,
    /// The wall clock; the monotonic clock is always the process's own.
    pub wall: WallClock,
    /// `[budget] per_instance` with the instance's pricing; `None` when no budget is set or
    /// no sheet prices the instance.
    pub budget: Option<super::budget::WatchBudget>,
    /// The balance guard, for a provider that bills a prepaid balance; `None` where neither a
    /// floor is set nor a sheet prices the burn.
    pub balance: Option<super::balance::WatchBalance>,
    /// The sheet's `released_after_stopped_days`: how long the platform keeps the instance shut
    /// down before it releases it, where the sheet says (else the platform's own rule).
    pub released_after_stopped_days: Option<u32>,
    /// `stopped_release_after`: release the instance once it has stayed stopped this long.
    pub stopped_release: Option<super::stopped_release::WatchStopped>,
}

/// How the watch ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// Another watchdog already guards the instance (its pid, when it could be read).
    AlreadyGuarded(Option<u32>),
    /// The instance was released (by this watchdog or seen released).
    Released,
    /// Asked to stop (SIGTERM), or another watchdog took over.
    Stopped,
    /// A demo's cockpit is gone and there is no deadline or idle action left to enforce.
    Unwatched,
    /// The ledger file it opened is no longer at its path (deleted or replaced): why.
    LedgerGone(super::error::LedgerGone),
}

/// Heartbeats that may fail in a row before the watchdog gives up.
const MAX_LEDGER_FAILURES: u32 = 10;

/// Whether a heartbeat that failed with `error` counts towards taking the ledger for gone. A
/// ledger busy with another writer does not: a watchdog that left because the file was locked
/// would leave the instance unguarded.
pub fn counts_as_lost(error: &crate::ledger::LedgerError) -> bool {
    !matches!(error, crate::ledger::LedgerError::Busy { .. })
}

/// Whether the watchdog has an action to take by itself: a deadline that stops or releases,
/// or an idle rule that does. Alerts alone need somebody to read them.
pub fn has_duty(
    guard: Option<&crate::ledger::GuardState>,
    on_idle: crate::config::OnExpiry,
) -> bool {
    let acts = |p| p != crate::config::OnExpiry::Alert;
    guard.is_some_and(|g| g.deadline.is_some() && acts(g.on_expiry)) || acts(on_idle)
}

/// Whether the watchdog was left alone with nothing to enforce: no deadline or idle rule that
/// acts, and no budget that stops or releases at its limit.
fn unwatched(w: &Watch, guard: Option<&GuardState>) -> bool {
    let budget_acts = w
        .budget
        .as_ref()
        .is_some_and(|b| b.on_budget() != OnExpiry::Alert);
    let balance_acts = w
        .balance
        .as_ref()
        .is_some_and(super::balance::WatchBalance::acts);
    starter_gone(w.started_by)
        && !has_duty(guard, w.on_idle)
        && !budget_acts
        && !balance_acts
        && w.stopped_release.is_none()
}

/// Whether the process that started the watchdog has ended (it was reparented).
fn starter_gone(started_by: Option<u32>) -> bool {
    started_by.is_some_and(|pid| {
        rustix::process::getppid()
            .is_none_or(|parent| parent.as_raw_nonzero().get().cast_unsigned() != pid)
    })
}

pub async fn watch<G, H>(mut w: Watch, gpu: G, host: H) -> Result<Ended, WatchError>
where
    G: GpuSource + 'static,
    H: HostSource + 'static,
{
    // Zero would panic below and a nanosecond would spin: the command refuses both, and so
    // does the loop, for any other caller.
    crate::guard::watchdog_interval(w.interval).map_err(|reason| WatchError::Interval {
        interval: w.interval,
        reason,
    })?;
    let pid = std::process::id();
    let mut clocks = Clocks::new(w.wall.clone());
    let now = (w.wall)();
    // The lock is held until this function returns; the kernel lets go of it if the process
    // dies first.
    let (_lock, ledger_file) = match take_up(&mut w, pid, now)? {
        Ok(taken) => taken,
        Err(other) => return Ok(Ended::AlreadyGuarded(other)),
    };
    // Shown after the cockpit's `watchdog:` prefix: "watchdog: pid 4242 guards i-0abc".
    let note = crate::t!(
        "wd-pid-guards",
        pid = pid.to_string(),
        instance = w.instance.as_str()
    );
    record(&mut w, EventRecord::note(now, note));
    // Alerts go to the webhooks from a queue of their own: a hook that hangs never holds up
    // the release. What each hook did with each alert comes back here, to be recorded (and so
    // shown in the cockpit) between checks.
    let (hook_tx, hook_rx) = std::sync::mpsc::channel::<Report>();
    let alerts = w.notifier.take().map(|n| {
        Queue::start(n, QUEUE_LEN, move |report| {
            if report.is_failure() {
                say(&report.shown());
            }
            let _ = hook_tx.send(report);
        })
    });
    publish_rules(&mut w, pid, now);
    super::budget::restore(&mut w);
    let mut idle_said: Option<Timestamp> = None;
    let (tx, mut rx) = mpsc::channel::<Telemetry>(16);
    let sampling = SamplerConfig {
        interval: w.interval,
    };
    let gpu_sampler = spawn_gpu_sampler(gpu, sampling, tx.clone())?;
    let host_sampler = spawn_host_sampler(host, sampling, tx)?;
    let mut guardian = Guardian::new(w.idle.clone(), w.on_idle);
    let (mut gpus, mut host): (Option<GpuRound>, Option<HostSample>) = (None, None);
    let mut every = tokio::time::interval(w.interval);
    every.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let mut failures = 0;
    let mut keys_warned = KeysWarned::default();
    let mut inventory = LastInventory::new(&w);
    let ended = loop {
        tokio::select! {
            _ = term.recv() => break Ended::Stopped,
            Some(t) = rx.recv() => {
                take_sample(&mut w, t, &mut gpus, &mut host);
                continue;
            }
            _ = every.tick() => {}
        }
        if let Err(why) = ledger_file.still_at(w.ledger.path()) {
            say(&why.to_string());
            break Ended::LedgerGone(why);
        }
        let t = clocks.read(&mut w);
        if let Some(ended) = beat(&mut w, pid, t.wall, &mut failures) {
            break ended;
        }
        let guard = w.ledger.guard(&w.instance).ok().flatten();
        warn_of_keys(&mut w, &mut keys_warned, guard.as_ref(), t.wall);
        if unwatched(&w, guard.as_ref()) {
            break Ended::Unwatched;
        }
        let idle = match (&gpus, &host) {
            (Some(g), Some(h)) => Some(guardian_idle(&w.idle, g, h)),
            _ => None,
        };
        let notice = w.provider.interruption_notice().await.ok().flatten();
        let decisions = guardian.step_at(t, guard.as_ref(), idle, notice);
        let acted = carry_out_all(&mut w, (alerts.as_ref(), guard.as_ref()), decisions).await;
        publish_idle_since(&mut w, pid, &guardian, &mut idle_said, &t);
        let ask = inventory.due.take(clocks.origin.elapsed(), acted);
        let gone = inventory
            .check(
                &mut w,
                ask,
                (alerts.as_ref(), guard.as_ref()),
                &mut guardian,
                t.wall,
            )
            .await;
        record_webhooks(&mut w, &hook_rx);
        if gone {
            break Ended::Released;
        }
    };
    leave(&mut w, pid);
    let note = EventRecord::note((w.wall)(), ended_note(&ended, pid));
    record(&mut w, note);
    gpu_sampler.shutdown().await;
    host_sampler.shutdown().await;
    if let Some(alerts) = alerts {
        alerts.close(LAST_ALERTS).await;
    }
    record_webhooks(&mut w, &hook_rx);
    Ok(ended)
}

/// The wall clock and this process's monotonic clock, read together.
struct Clocks {
    wall: WallClock,
    origin: Instant,
    guard: GuardClock,
}

impl Clocks {
    fn new(wall: WallClock) -> Self {
        let origin = Instant::now();
        let first = Reading {
            wall: wall(),
            mono: origin.elapsed(),
        };
        Clocks {
            wall,
            origin,
            guard: GuardClock::new(first),
        }
    }

    /// The instant now. A step of the wall clock since the last reading is said in the log
    /// and recorded as a warning, which the cockpit shows.
    fn read(&mut self, w: &mut Watch) -> GuardTime {
        let reading = Reading {
            wall: (self.wall)(),
            mono: self.origin.elapsed(),
        };
        let (t, step) = self.guard.read(reading);
        if let Some(step) = step {
            say(&step.to_string());
            record(
                w,
                EventRecord::alert(t.wall, EventLevel::Warn, step.to_string()),
            );
        }
        t
    }
}

/// Beats the heart; how the watch ends when it must.
fn beat(w: &mut Watch, pid: u32, now: Timestamp, failures: &mut u32) -> Option<Ended> {
    match w.ledger.heartbeat(&w.instance, pid, now) {
        Ok(true) => *failures = 0,
        Ok(false) => return Some(Ended::Stopped),
        Err(e) => {
            say(&format!("heartbeat: {e}"));
            if counts_as_lost(&e) {
                *failures += 1;
            }
            // A ledger gone for good (its directory removed) leaves nobody to share with.
            if *failures >= MAX_LEDGER_FAILURES {
                return Some(Ended::Stopped);
            }
        }
    }
    None
}

/// Says in the log, and records for the cockpit, when the keys end before the deadline acts.
fn warn_of_keys(
    w: &mut Watch,
    warned: &mut KeysWarned,
    guard: Option<&GuardState>,
    now: Timestamp,
) {
    if let Some(warning) = warned.check(guard, w.provider.keys_expire()) {
        say(&warning);
        record(w, EventRecord::alert(now, EventLevel::Warn, warning));
    }
}

fn guardian_idle(rule: &IdleTracker, gpus: &GpuRound, host: &HostSample) -> bool {
    rule.sample_is_idle(gpus, host)
}

/// Publishes in the ledger since when the machine has been idle, when that has changed.
fn publish_idle_since(
    w: &mut Watch,
    pid: u32,
    guardian: &Guardian,
    idle_said: &mut Option<Timestamp>,
    t: &GuardTime,
) {
    if guardian.idle_since() != *idle_said {
        *idle_said = guardian.idle_since();
        let since = idle_said.map(|s| t.to_wall(s));
        if let Err(e) = w.ledger.set_idle_since(&w.instance, pid, since) {
            say(&crate::t!("watchdog-ledger", error = e.to_string()));
        }
    }
}

/// Keeps the newest sample of each kind; a host sample's bytes count toward the budget.
fn take_sample(
    w: &mut Watch,
    t: Telemetry,
    gpus: &mut Option<GpuRound>,
    host: &mut Option<HostSample>,
) {
    match t {
        Telemetry::Gpu(s) => *gpus = Some(s.value),
        Telemetry::Host(s) => {
            super::budget::record_host(w, s.time, &s.value);
            *host = Some(s.value);
        }
    }
}

/// The inventory as last read, and when the next read is due.
struct LastInventory {
    due: InventoryDue,
    read: LastRead,
    forced_release: super::forced_release::ForcedReleaseAlerts,
}

impl LastInventory {
    fn new(w: &Watch) -> Self {
        LastInventory {
            due: InventoryDue::new(w.inventory_every)
                .with_full_every(w.budget.is_some().then_some(BUDGET_FULL_EVERY)),
            read: LastRead::default(),
            forced_release: super::forced_release::ForcedReleaseAlerts::default(),
        }
    }

    /// Asks the cloud what `ask` says, then prices the budget on the last inventory read;
    /// true when a fresh read reports the instance released (or gone).
    async fn check(
        &mut self,
        w: &mut Watch,
        ask: Ask,
        (alerts, guard): (Option<&Queue>, Option<&GuardState>),
        guardian: &mut Guardian,
        now: Timestamp,
    ) -> bool {
        let mut gone = false;
        let mut fresh = false;
        if let Some(read) = self.read.ask(&*w.provider, ask).await {
            gone = released(&read);
            fresh = read.is_ok();
        }
        if let Some(inventory) = self.read.inventory()
            && let Some(limit) = super::budget::check(w, alerts, inventory, guard, now)
        {
            guardian.limit_reached(limit.deadline, limit.why);
        }
        if let Some(inventory) = self.read.inventory() {
            self.forced_release.check(w, alerts, inventory, now);
        }
        if let Some(inventory) = self.read.inventory()
            && let Some(set) = super::stopped_release::check(w, alerts, inventory, guard, now)
        {
            guardian.limit_reached(set.deadline, set.why);
        }
        // The balance is new only with a full inventory: checked then, and only then.
        if fresh
            && let (Some(balance), Some(inventory)) = (self.read.balance(), self.read.inventory())
            && let Some(floor) = super::balance::check(
                w,
                alerts,
                (balance, inventory, self.read.account()),
                guard,
                now,
            )
        {
            guardian.limit_reached(floor.deadline, floor.why);
        }
        gone
    }
}

/// Whether the provider's answer reports the instance released (or gone).
fn released(
    inventory: &Result<crate::provider::Inventory, crate::provider::ProviderError>,
) -> bool {
    match inventory {
        Ok(inv) => inv
            .instance
            .as_ref()
            .is_none_or(|i| i.state == crate::meter::InstanceState::Released),
        Err(_) => false,
    }
}

/// Does what the decisions say, in order, until one leaves the instance gone; whether any
/// was an action (its read-back is due at once).
async fn carry_out_all(
    w: &mut Watch,
    (alerts, guard): (Option<&Queue>, Option<&GuardState>),
    decisions: Vec<Decision>,
) -> bool {
    let mut acted = false;
    for decision in decisions {
        acted |= matches!(decision, Decision::Act { .. });
        // While `stopped_release_after`'s deadline (or its extension) is in force, a release
        // waits on a fresh read: an instance started since the last read is never released
        // for having been stopped.
        if let Decision::Act {
            action: Action::Release,
            ..
        } = &decision
            && w.stopped_release.as_ref().is_some_and(WatchStopped::armed)
            && (w
                .stopped_release
                .as_ref()
                .is_some_and(WatchStopped::snapshot_refused)
                || !super::stopped_release::still_stopped(w, (alerts, guard)).await
                || !super::stopped_release::final_snapshot_ready(w, alerts).await)
        {
            continue;
        }
        if carry_out(w, alerts, decision).await {
            break;
        }
    }
    acted
}

/// Does what a decision says; true when the instance is gone.
async fn carry_out(w: &mut Watch, alerts: Option<&Queue>, decision: Decision) -> bool {
    let now = Timestamp::now();
    match decision {
        Decision::Alert { warn, key, text } => {
            let level = if warn {
                EventLevel::Warn
            } else {
                EventLevel::Info
            };
            record(w, EventRecord::alert(now, level, text.clone()));
            let level = if warn { Level::Warn } else { Level::Info };
            notify(w, alerts, level, &key, &text);
            false
        }
        Decision::Interrupted { at } => {
            let env = [("GPUMETER_INTERRUPT_AT", at.to_string())];
            hook(w, "on_interrupt", &w.hooks.on_interrupt.clone(), &env).await;
            false
        }
        Decision::Act { action, reason } => {
            let env = [("GPUMETER_ACTION", action.label().to_string())];
            hook(w, "before_action", &w.hooks.before_action.clone(), &env).await;
            let result = w.provider.perform(&action).await;
            let (level, text, gone) = match &result {
                Ok(r) if r.confirmed => (
                    Level::Done,
                    crate::t!(
                        "wd-action-done",
                        action = verb(&action),
                        reason = reason.as_str(),
                        summary = r.summary.as_str()
                    ),
                    action == Action::Release,
                ),
                Ok(r) => (
                    Level::Error,
                    crate::t!(
                        "wd-action-not-confirmed",
                        action = verb(&action),
                        reason = reason.as_str(),
                        summary = r.summary.as_str()
                    ),
                    false,
                ),
                Err(e) => (
                    Level::Error,
                    crate::t!(
                        "wd-action-failed",
                        action = verb(&action),
                        reason = reason.as_str(),
                        error = e.shown(),
                        kind = e.kind_label(),
                        fix = e.shown_fix()
                    ),
                    false,
                ),
            };
            // The event's text says why and what the read-back showed, for the cockpit's log;
            // the request and the answer stay in their columns for `report`.
            let mut event = EventRecord::action(now, &action, &result);
            event.text.clone_from(&text);
            record(w, event);
            notify(w, alerts, level, action.label(), &text);
            gone
        }
    }
}

/// Lets go of the guard row, and of `stopped_release_after`: nothing enforces them now.
fn leave(w: &mut Watch, pid: u32) {
    let _ = w.ledger.release_watchdog(&w.instance, pid, (w.wall)());
    super::stopped_release::publish(w, false);
}

/// Publishes the idle rule this watchdog enforces in the guard row, and its
/// `stopped_release_after`, for the cockpit, `status` and `watchdog --status`.
fn publish_rules(w: &mut Watch, pid: u32, now: Timestamp) {
    super::stopped_release::publish(w, true);
    let after = w.idle.rule.window;
    if let Err(e) = w
        .ledger
        .set_idle_rule(&w.instance, pid, after, w.on_idle, now)
    {
        say(&crate::t!("watchdog-ledger", error = e.to_string()));
    }
}

/// What each hook did with the alerts since the last look, as events: delivered, failed or
/// dropped (a rate limit holding one back is not worth a line).
fn record_webhooks(w: &mut Watch, reports: &std::sync::mpsc::Receiver<Report>) {
    while let Ok(report) = reports.try_recv() {
        let now = Timestamp::now();
        let text = format!("webhook {}", report.shown());
        let event = match &report {
            Report::Outcome(Outcome::Held { .. }) => continue,
            Report::Outcome(Outcome::Sent { .. }) => EventRecord::note(now, text),
            _ => EventRecord::alert(now, EventLevel::Warn, text),
        };
        record(w, event);
    }
}

fn ended_note(ended: &Ended, pid: u32) -> String {
    let why = match ended {
        Ended::AlreadyGuarded(Some(other)) => {
            crate::t!("wd-end-other-pid", pid = other.to_string())
        }
        Ended::AlreadyGuarded(None) => crate::t!("wd-end-other").into_owned(),
        Ended::Released => crate::t!("wd-end-released").into_owned(),
        Ended::Stopped => crate::t!("wd-end-stopped").into_owned(),
        Ended::Unwatched => crate::t!("wd-end-unwatched").into_owned(),
        Ended::LedgerGone(why) => why.to_string(),
    };
    crate::t!("wd-ended", pid = pid.to_string(), why = why)
}

/// An action's verb in the user's language (`release`, `释放`).
fn verb(action: &Action) -> String {
    crate::ui::words::verb(action).into_owned()
}

pub(super) fn record(w: &mut Watch, mut event: EventRecord) {
    event.instance = Some(w.instance.clone());
    if let Err(e) = w.ledger.record_event(event) {
        say(&crate::t!("watchdog-ledger", error = e.to_string()));
    }
}

/// Says and records that a guard (`what`: budget, balance) can no longer be checked, and why.
pub(super) fn no_longer_checked(
    w: &mut Watch,
    what: &str,
    why: &dyn std::fmt::Display,
    now: Timestamp,
) {
    let text = crate::t!("wd-no-longer-checked", what = what, why = why.to_string());
    say(&text);
    record(w, EventRecord::alert(now, EventLevel::Error, text));
}

/// Logs `text` and queues it for the webhooks; returns at once.
pub(super) fn notify(w: &Watch, alerts: Option<&Queue>, level: Level, key: &str, text: &str) {
    say(text);
    if let Some(alerts) = alerts {
        let title = format!("gpumeter: {}", w.instance);
        alerts.push(Alert::new(level, key, title, text, Timestamp::now()));
    }
}

/// Runs hook `name`, telling it which hook runs, for which instance, and `env` besides (when
/// the notice says the instance goes, which action comes), so one script can serve several.
async fn hook(w: &mut Watch, name: &str, argv: &[String], env: &[(&str, String)]) {
    if argv.is_empty() {
        return;
    }
    let mut env = env.to_vec();
    env.push(("GPUMETER_HOOK", name.to_string()));
    env.push(("GPUMETER_INSTANCE", w.instance.clone()));
    let text = match run_hook(argv, w.hooks.timeout, &env).await {
        Ok(_) => crate::t!("wd-hook-finished", name = name),
        Err(e) => crate::t!("wd-hook-failed", name = name, error = e.to_string()),
    };
    record(w, EventRecord::note(Timestamp::now(), text.clone()));
    say(&text);
}

/// One line of the watchdog's log (its stderr: a file when detached, the terminal with
/// `--foreground`), with no control character of a provider's or a path's getting through.
pub(super) fn say(text: &str) {
    eprintln!("watchdog: {}", gpumeter_core::text::printable(text));
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;
    use crate::ledger::LedgerError;

    #[test]
    fn a_busy_ledger_never_counts_towards_leaving_and_a_lost_one_does() {
        let busy = LedgerError::Busy {
            path: PathBuf::from("ledger.sqlite"),
            waited: Duration::from_secs(5),
        };
        let read_only = LedgerError::ReadOnly {
            path: PathBuf::from("ledger.sqlite"),
        };
        assert!(!counts_as_lost(&busy));
        assert!(counts_as_lost(&read_only));
    }
}
