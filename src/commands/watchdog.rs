//! `gpumeter watchdog [--status | --stop | --install-service]`, and starting one detached from
//! the cockpit.
//!
//! Detached means its own session (setsid), no terminal, stdin from /dev/null and its output in
//! `watchdog.log` in the data directory: a dropped ssh connection or a closed tmux pane does
//! not end it. A reboot does: [`service`] writes the systemd user unit that survives one.

pub(crate) mod service;
mod status;

use std::path::Path;
use std::process::{Child, Command as Process, ExitCode, Stdio};
use std::time::Duration;

use jiff::Timestamp;

use super::context::Context;
use super::{CommandResult, Failure, emit};
use crate::cli::{Cli, WatchdogArgs};
use crate::config::{DurationError, OnExpiry, parse_duration};
use crate::guard::IdleTracker;
use crate::ledger::{Ledger, path_in};
use crate::notify::Notifier;
use crate::telemetry::{HostReader, NvmlConfig, NvmlSource, SimConfig, Simulator, scenario_file};
use crate::watchdog::stopped_release::WatchStopped;
use crate::watchdog::{Ended, Watch, WatchBalance, WatchBudget, stale_after, watch};

/// The watchdog's log, beside the ledger.
pub const LOG_FILE: &str = "watchdog.log";

/// The environment variable `--interval` also reads; the cockpit's watchdog inherits it.
pub const INTERVAL_ENV: &str = "GPUMETER_WATCHDOG_INTERVAL";
/// `--interval`'s default, as `cli.rs` writes it.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(5);
/// The environment variable `--inventory-interval` also reads; the cockpit reads it too.
pub const INVENTORY_ENV: &str = "GPUMETER_INVENTORY_INTERVAL";
/// `--inventory-interval`'s default, as `cli.rs` writes it.
pub const DEFAULT_INVENTORY_INTERVAL: Duration = Duration::from_secs(600);

/// How often a watchdog checks, from text as the user wrote it, held to
/// [`crate::guard::watchdog_interval`]'s bounds.
pub fn parse_interval(text: &str) -> Result<Duration, IntervalTextError> {
    let interval = parse_duration(text)?;
    crate::guard::watchdog_interval(interval).map_err(|reason| IntervalTextError::Bounds {
        text: text.to_owned(),
        reason,
    })
}

/// Why an interval's text was refused.
#[derive(Debug, thiserror::Error)]
pub enum IntervalTextError {
    #[error(transparent)]
    Duration(#[from] DurationError),
    #[error("`{text}` {reason}")]
    Bounds {
        text: String,
        reason: crate::guard::IntervalError,
    },
}

pub fn run(cli: &Cli, args: &WatchdogArgs) -> CommandResult {
    let interval = parse_interval(&args.interval)
        .map_err(|e| Failure::bad_input(format!("--interval (or {INTERVAL_ENV}): {e}")))?;
    let inventory_every = parse_duration(&args.inventory_interval).map_err(|e| {
        Failure::bad_input(format!("--inventory-interval (or {INVENTORY_ENV}): {e}"))
    })?;
    if args.dry_run && !args.install_service && !args.uninstall_service {
        return Err(Failure::bad_input(crate::t!("wd-dry-run-needs-service")));
    }
    let ctx = Context::load(cli)?;
    super::refuse_gpus_without_demo(args.gpus, ctx.demo)?;
    if args.install_service || args.uninstall_service {
        return service::run(cli, &ctx, args);
    }
    let provider = ctx.provider()?;
    let instance = super::block_on(provider.inventory())?
        .map_err(|e| Failure::provider(super::EXIT_FAILED, provider.name(), &e))?
        .instance
        .map(|i| i.id)
        .ok_or_else(|| Failure::failed(crate::t!("wd-no-instance")))?;
    let ledger_path = path_in(&ctx.data_dir, ctx.demo);
    if args.status {
        return status(
            &ledger_path,
            &instance,
            interval,
            &ctx.config.budget,
            &ctx.config.user_zone().tz,
        );
    }
    if args.stop {
        return stop(&ledger_path, &instance);
    }
    if !args.foreground {
        // A new session: no controlling terminal, so closing the terminal sends it no SIGHUP.
        // Fails only when already a session leader, which is just as good.
        let _ = rustix::process::setsid();
    }
    let ledger = Ledger::open(&ledger_path).map_err(|e| Failure::failed(e.shown()))?;
    if let Some(warning) = crate::files::open_to_others(&ctx.data_dir) {
        let line = crate::t!("wd-warning", warning = warning);
        super::emit_err(&format!("gpumeter: {line}"));
    }
    let idle = idle_config(&ctx, args)?;
    let tracker = IdleTracker::new(idle.rule());
    let notifier = Notifier::new(&ctx.config.notify, Some(instance.clone())).ok();
    let budget = budget(&ctx, provider.as_ref());
    let balance = balance(&ctx, provider.as_ref());
    let w = Watch {
        instance,
        provider,
        ledger,
        interval,
        inventory_every: inventory_interval(ctx.demo, inventory_every, interval),
        idle: tracker,
        on_idle: idle.on_idle,
        hooks: ctx.config.hooks.clone(),
        notifier,
        started_by: ctx
            .demo
            .then(rustix::process::getppid)
            .flatten()
            .map(|p| p.as_raw_nonzero().get().cast_unsigned()),
        wall: std::sync::Arc::new(Timestamp::now),
        budget,
        balance,
        released_after_stopped_days: kept_stopped_days(&ctx),
        stopped_release: idle.stopped_release_after.map(|after| {
            WatchStopped::new(after).with_final_snapshot(idle.stopped_release_snapshot)
        }),
    };
    // One thread: the loop waits on its interval, the ledger and the provider in turn.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::failed(crate::t!("err-runtime", error = e.to_string())))?;
    let ended = if ctx.demo {
        let sim = simulator(args)?;
        runtime.block_on(watch(w, sim.clone(), sim))
    } else {
        let host = HostReader::new(ctx.host_config());
        runtime.block_on(watch(w, NvmlSource::new(NvmlConfig::default()), host))
    }
    .map_err(|e| Failure::failed(e.to_string()))?;
    match ended {
        Ended::AlreadyGuarded(Some(pid)) => {
            emit(&crate::t!("wd-already-guarded-pid", pid = pid.to_string()));
        }
        Ended::AlreadyGuarded(None) => emit(&crate::t!("wd-already-guarded")),
        Ended::LedgerGone(why) => return Err(Failure::failed(why.to_string())),
        Ended::Released => emit(&crate::t!("wd-ended-released")),
        Ended::Stopped => emit(&crate::t!("wd-ended-stopped")),
        Ended::Unwatched => emit(&crate::t!("wd-ended-unwatched")),
    }
    Ok(ExitCode::SUCCESS)
}

/// `[budget] per_instance` and `per_month` with the instance's pricing, for the watchdog to
/// keep. A budget it cannot price is said in its log; the deadline and the idle rule are
/// guarded all the same.
fn budget(ctx: &Context, provider: &dyn crate::provider::Provider) -> Option<WatchBudget> {
    let config = &ctx.config.budget;
    if config.per_instance.is_none() && config.per_month.is_none() {
        return None;
    }
    let cannot = |why: &str| {
        let line = crate::t!("wd-budget-unchecked", why = why);
        super::emit_err(&format!("gpumeter: {line}"));
    };
    let pricing = match ctx.pricing_with(provider) {
        Ok(Some(pricing)) => pricing,
        Ok(None) => {
            cannot(&crate::t!("wd-budget-no-sheet"));
            return None;
        }
        Err(e) => {
            cannot(&e.message);
            return None;
        }
    };
    if let Err(e) = config.check_currency(&pricing.sheet) {
        cannot(&e.to_string());
        return None;
    }
    let currency = pricing.sheet.currency;
    let mut budget = WatchBudget::new(pricing, config.on_budget);
    if let Some(limit) = config.instance_limit(currency) {
        budget = budget.per_instance(limit);
    }
    if let Some(limit) = config.month_limit(currency) {
        // The user's zone, as the cockpit counts the month: both then say the same level.
        let (now, tz) = (jiff::Timestamp::now(), ctx.config.user_zone().tz);
        match ctx.spent_this_month(currency, now, &tz) {
            Some(spent) => budget = budget.per_month(limit, spent, tz),
            None => cannot(&crate::t!("wd-budget-no-month-start")),
        }
    }
    Some(budget)
}

/// The balance guard: `[budget] balance_floor` and `on_balance`, with the instance's pricing
/// for its burn where a sheet prices it. A provider with no balance leaves it idle.
fn balance(ctx: &Context, provider: &dyn crate::provider::Provider) -> Option<WatchBalance> {
    let config = &ctx.config.budget;
    let pricing = ctx.pricing_with(provider).ok().flatten();
    if let Some(p) = &pricing
        && config.check_currency(&p.sheet).is_err()
    {
        // Said once already by the budget's check, when a budget is set; the floor goes too.
        return None;
    }
    let currency = config
        .currency
        .or(pricing.as_ref().map(|p| p.sheet.currency));
    let floor = config.balance_floor.map(|amount| (amount, currency));
    (floor.is_some() || pricing.is_some())
        .then(|| WatchBalance::new(floor, config.on_balance, pricing))
}

/// How often the watchdog asks the cloud for the inventory: never more often than it checks,
/// and every check for the demo, whose cloud is a file on this machine and costs nothing.
fn inventory_interval(demo: bool, asked: Duration, interval: Duration) -> Duration {
    if demo { interval } else { asked.max(interval) }
}

/// How often the cockpit and `serve` ask the cloud while nothing happens, as the watchdog
/// does: what they read from `GPUMETER_INVENTORY_INTERVAL` (an empty one is unset, as for the
/// flag), refused there as the watchdog the cockpit starts would refuse it. The demo's cloud,
/// a file on this machine, is read at the pace they set for it.
pub fn inventory_interval_from_env() -> Result<Duration, Failure> {
    match std::env::var(INVENTORY_ENV) {
        Ok(text) if !text.is_empty() => crate::config::parse_duration(&text)
            .map_err(|e| Failure::bad_input(format!("{INVENTORY_ENV}: {e}"))),
        Ok(_) | Err(std::env::VarError::NotPresent) => Ok(DEFAULT_INVENTORY_INTERVAL),
        Err(std::env::VarError::NotUnicode(_)) => Err(Failure::bad_input(crate::t!(
            "err-env-not-utf8",
            name = INVENTORY_ENV
        ))),
    }
}

pub fn parse_policy(text: &str) -> Result<OnExpiry, UnknownPolicy> {
    match text {
        "alert" => Ok(OnExpiry::Alert),
        "stop" => Ok(OnExpiry::Stop),
        "release" => Ok(OnExpiry::Release),
        other => Err(UnknownPolicy(other.to_owned())),
    }
}

#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not one of alert, stop, release")]
pub struct UnknownPolicy(String);

fn simulator(args: &WatchdogArgs) -> Result<Simulator, Failure> {
    let scenario = scenario_file::resolve(&args.scenario)
        .map_err(|e| Failure::bad_input(format!("--scenario: {e}")))?;
    let mut config = SimConfig::new(scenario);
    config.gpu_count = args.gpus.unwrap_or(crate::cli::DEMO_GPUS);
    Simulator::new(config).map_err(|e| Failure::bad_input(format!("--gpus: {e}")))
}

fn status(
    ledger_path: &Path,
    instance: &str,
    interval: Duration,
    budget: &crate::config::BudgetConfig,
    tz: &jiff::tz::TimeZone,
) -> CommandResult {
    let ledger = Ledger::open_read_only(ledger_path).map_err(|e| Failure::failed(e.shown()))?;
    let guard = ledger
        .guard(instance)
        .map_err(|e| Failure::failed(e.shown()))?;
    let now = Timestamp::now();
    let Some(guard) = guard else {
        emit(&crate::t!("wd-never-guarded", instance = instance));
        return Ok(ExitCode::from(super::EXIT_FAILED));
    };
    // The same answer status and serve give: the lock first, the heartbeat only where the
    // lock cannot be looked at.
    let mut guard = guard;
    let seen =
        crate::watchdog::liveness::watchdog_of(ledger_path, &guard, stale_after(interval), now);
    let alive = seen.is_some_and(|(_, alive)| alive);
    if let (Some((pid, true)), Some(w)) = (seen, guard.watchdog.as_mut()) {
        w.pid = pid;
    }
    let mut lines = status::lines(instance, &guard, alive, budget, now, tz);
    lines.push(stopped_release_line(&ledger, instance, alive));
    emit(&lines.join("\n"));
    Ok(if alive {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::EXIT_FAILED)
    })
}

/// `stopped_release_after` as the live watchdog publishes it, or that none enforces it.
fn stopped_release_line(ledger: &Ledger, instance: &str, alive: bool) -> String {
    let published = ledger
        .stopped_release_after(instance)
        .ok()
        .flatten()
        .filter(|_| alive);
    match published.and_then(|a| jiff::SignedDuration::try_from(a).ok()) {
        Some(after) => crate::t!(
            "sr-watchdog-status",
            after = crate::ui::text::short_duration(after)
        ),
        None => crate::t!("sr-watchdog-status-none").into_owned(),
    }
}

fn stop(ledger_path: &Path, instance: &str) -> CommandResult {
    let ledger = Ledger::open_read_only(ledger_path).map_err(|e| Failure::failed(e.shown()))?;
    let Some(w) = ledger
        .guard(instance)
        .ok()
        .flatten()
        .and_then(|g| g.watchdog)
    else {
        emit(&crate::t!("wd-none-guards", instance = instance));
        return Ok(ExitCode::SUCCESS);
    };
    let pid = rustix::process::Pid::from_raw(i32::try_from(w.pid).unwrap_or(0))
        .ok_or_else(|| Failure::failed(crate::t!("wd-bad-pid", pid = w.pid.to_string())))?;
    match rustix::process::kill_process(pid, rustix::process::Signal::TERM) {
        Ok(()) => emit(&crate::t!("wd-asked-to-stop", pid = w.pid.to_string())),
        Err(e) => emit(&crate::t!(
            "wd-not-running",
            pid = w.pid.to_string(),
            error = e.to_string()
        )),
    }
    Ok(ExitCode::SUCCESS)
}

/// The flags that aim a watchdog at what this command line targets: `--provider`,
/// `--instance` and `--region`, where given; and `--lang`, so its log and alerts are in the
/// language the user asked for.
pub fn target_args(cli: &Cli) -> Vec<String> {
    let mut args = Vec::new();
    if let Some(lang) = cli.lang {
        args.extend(["--lang".into(), lang.tag().to_string()]);
    }
    let target = cli.target();
    if let Some(cloud) = target.cloud {
        args.extend(["--provider".into(), format!("{cloud:?}").to_lowercase()]);
    }
    if let Some(instance) = target.instance {
        args.extend(["--instance".into(), instance]);
    }
    if let Some(region) = target.region {
        args.extend(["--region".into(), region]);
    }
    args
}

/// Starts `gpumeter watchdog` detached, with the same global flags (one that finds another
/// already guarding the instance leaves it in charge and exits 0). Its output goes to
/// [`LOG_FILE`] in `data_dir`. The caller reaps the child.
pub fn spawn_detached(data_dir: &Path, passthrough: &[String]) -> std::io::Result<Child> {
    let exe = std::env::current_exe()?;
    let log = crate::files::open_private(
        &data_dir.join(LOG_FILE),
        std::fs::OpenOptions::new().create(true).append(true),
    )?;
    let err = log.try_clone()?;
    // A process group of its own from its first instant (it starts its own session only once
    // it has read its context): a signal to the cockpit's group, as `timeout` or a key sends
    // one, does not reach the watchdog that is to outlive the cockpit.
    std::os::unix::process::CommandExt::process_group(
        Process::new(exe).arg("watchdog").args(passthrough),
        0,
    )
    .stdin(Stdio::null())
    .stdout(log)
    .stderr(err)
    .spawn()
}

/// The config's idle rule with `--idle-after`, `--on-idle` and `--stopped-release-after` over
/// it.
fn idle_config(ctx: &Context, args: &WatchdogArgs) -> Result<crate::config::IdleConfig, Failure> {
    let mut idle = ctx.config.idle.clone();
    if let Some(after) = &args.idle_after {
        idle.after = parse_duration(after)
            .map_err(|e| Failure::bad_input(format!("--idle-after: {}", e.shown())))?;
    }
    if let Some(policy) = &args.on_idle {
        idle.on_idle =
            parse_policy(policy).map_err(|e| Failure::bad_input(format!("--on-idle: {e}")))?;
    }
    if let Some(after) = &args.stopped_release_after {
        idle.stopped_release_after =
            Some(parse_positive(after).map_err(|e| {
                Failure::bad_input(format!("--stopped-release-after: {}", e.shown()))
            })?);
    }
    Ok(idle)
}

/// A duration over zero: a policy that releases at once is no policy.
pub(crate) fn parse_positive(text: &str) -> Result<Duration, DurationError> {
    match parse_duration(text)? {
        d if d.is_zero() => Err(DurationError::Zero(text.to_owned())),
        d => Ok(d),
    }
}

/// The sheet's `released_after_stopped_days`, where it states them.
fn kept_stopped_days(ctx: &Context) -> Option<u32> {
    ctx.region_sheet()
        .ok()
        .flatten()
        .and_then(|s| s.billing.released_after_stopped_days)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::inventory_interval;

    #[test]
    fn the_cloud_is_never_asked_more_often_than_the_watchdog_checks_and_the_demo_at_every_check() {
        let (s, m) = (Duration::from_secs(5), Duration::from_secs(600));
        assert_eq!(inventory_interval(false, m, s), m);
        assert_eq!(inventory_interval(false, Duration::from_secs(1), s), s);
        assert_eq!(inventory_interval(true, m, s), s);
    }
}
