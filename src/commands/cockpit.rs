//! `gpumeter` with no subcommand: set up the sources, the terminal and the state, run the
//! cockpit, and restore the terminal on every way out.

use std::io::IsTerminal as _;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use gpumeter_core::zone::{UserZone, next_clock_time};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

mod guards;

use super::context::Context;
use super::status::subscription::configured as sub_configured;
use super::watchdog::inventory_interval_from_env;
use super::{CommandResult, Failure};
use crate::app::{App, CloudView, Deadline, Settings};
use crate::cli::{Cli, CockpitArgs};
use crate::cockpit::watchdog::StartWatchdog;
use crate::cockpit::{Sources, run};
use crate::config::Release;
use crate::spend::Spend;
use crate::telemetry::{
    GpuSource, HostReader, HostSource, NvmlConfig, NvmlSource, SamplerConfig, SimConfig, Simulator,
    scenario_file,
};
use crate::terminal::signals::Endings;
use crate::ui::theme::{Theme, no_color_requested};

/// Nothing configured and nothing detected: a welcome, and no watchdog to start.
fn cloud_view(ctx: &Context, provider: &dyn crate::provider::Provider) -> CloudView {
    if ctx.config.instance.provider.is_none() && !ctx.demo {
        CloudView::unconfigured()
    } else {
        CloudView::new(provider.name().to_string(), provider.capabilities())
    }
}

pub fn run_cockpit(cli: &Cli) -> CommandResult {
    // Before anything else: the watchdog this cockpit starts reads it too, and must not die of it.
    let (interval, inventory_every) = (watchdog_interval()?, inventory_interval_from_env()?);
    let ctx = Context::load(cli)?;
    let now = Timestamp::now();
    let zone = ctx.config.user_zone();
    let time_zone = zone.tz.clone();
    let (settings, (deadline, deadline_note)) = flags(cli, &ctx, now, &zone)?;
    let idle = guards::idle_config(&cli.cockpit, &ctx)?;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(Failure::bad_input(crate::t!("err-cockpit-needs-terminal")));
    }
    let provider = ctx.provider()?;
    let pricing = pricing(&ctx, provider.as_ref())?;
    if ctx.demo && cli.cockpit.reset {
        ctx.demo_cloud()
            .reset()
            .map_err(|e| Failure::bad_input(e.to_string()))?;
    }
    let budget = pricing
        .as_ref()
        .and_then(|p| ctx.config.budget.instance_limit(p.sheet.currency));
    let mut app = App::new(
        now,
        settings,
        cloud_view(&ctx, provider.as_ref()),
        Spend::new(pricing, budget, time_zone.clone()),
    );
    app.deadline = deadline;
    // A cockpit started after a release the provider no longer lists keeps what the
    // instance cost and offers no second release.
    ctx.restore_spend(&mut app.spend);
    say_detected(&ctx, provider.as_ref(), &mut app);
    if let Some(note) = deadline_note {
        app.log(crate::app::Level::Info, note);
    }
    app.idle = Some(crate::app::IdleWatch::new(idle.rule(), idle.on_idle));
    app.stopped_release = guards::stopped_release(&ctx, idle.stopped_release_after);
    app.subscription = sub_configured(&ctx, app.spend.pricing.as_ref(), &time_zone);
    // A deadline its own flags ask for is asked about when the shared guard row holds another;
    // the config's is only a default and gives way to the row's.
    let args = &cli.cockpit;
    app.guard.asked =
        args.release_in.is_some() || args.release_at.is_some() || args.on_expiry.is_some();
    app.guard.me = format!("cockpit {}", std::process::id());
    app.budget = app.spend.budget.map(crate::guard::BudgetWatch::new);
    app.month_budget = month_budget(&ctx, app.spend.pricing.as_ref(), now, &time_zone);
    app.checkpoint = ctx.config.checkpoint.path.clone().map(|pattern| {
        crate::app::state::CheckpointView::new(pattern, ctx.config.checkpoint.stale_after)
    });

    let theme = theme(cli, &ctx, &mut app);
    let fleet = fleet_reader(cli, &mut app)?;
    let sampling = SamplerConfig {
        interval: ctx.config.telemetry.refresh,
    };
    let ledger_path = crate::ledger::path_in(&ctx.data_dir, ctx.demo);
    let watchdog = supervise_watchdog(cli, &ctx, &mut app, interval);
    if ctx.demo {
        let gpu = simulator(&cli.cockpit)?;
        let host = gpu.clone();
        drive(
            app,
            Sources {
                gpu,
                host,
                sampling,
                inventory_every: crate::cockpit::DEMO_INVENTORY_EVERY,
                provider,
                on_frame: None,
                ledger: Some(ledger_path.clone()),
                idle: idle.rule(),
                notify: Some(ctx.config.notify.clone()),
                fleet,
                watchdog,
                stop: None,
            },
            &theme,
            true,
        )
    } else {
        let host = HostReader::new(ctx.host_config());
        let gpu = NvmlSource::new(NvmlConfig::default());
        drive(
            app,
            Sources {
                gpu,
                host,
                sampling,
                inventory_every,
                provider,
                on_frame: None,
                ledger: Some(ledger_path.clone()),
                idle: idle.rule(),
                notify: Some(ctx.config.notify.clone()),
                fleet,
                watchdog,
                stop: None,
            },
            &theme,
            false,
        )
    }
}

/// The theme the flags or the config name; what cannot be used is logged, and so is a data
/// directory that lets other users in.
fn theme(cli: &Cli, ctx: &Context, app: &mut App) -> Theme {
    let (theme, warning) = Theme::resolve(
        cli.theme.as_deref().or(ctx.config.ui.theme.as_deref()),
        no_color_requested(cli.no_color, std::env::var_os("NO_COLOR").as_deref()),
    );
    if let Some(warning) = warning {
        app.log(crate::app::Level::Warn, warning.to_string());
    }
    if let Some(warning) = crate::files::open_to_others(&ctx.data_dir) {
        app.log(crate::app::Level::Warn, warning);
    }
    theme
}

/// Every flag of the cockpit, checked before anything is started, read or changed.
fn flags(
    cli: &Cli,
    ctx: &Context,
    now: Timestamp,
    zone: &UserZone,
) -> Result<(Settings, DeadlineAndNote), Failure> {
    super::refuse_gpus_without_demo(cli.cockpit.gpus, ctx.demo)?;
    Ok((settings(cli, ctx)?, deadline(&cli.cockpit, ctx, now, zone)?))
}

/// The instance's pricing; a budget in another currency is refused before anything acts.
fn pricing(
    ctx: &Context,
    provider: &dyn crate::provider::Provider,
) -> Result<Option<crate::spend::Pricing>, Failure> {
    let pricing = ctx.pricing_with(provider)?;
    if let Some(p) = &pricing {
        ctx.config
            .budget
            .check_currency(&p.sheet)
            .map_err(|e| Failure::bad_input(e.to_string()))?;
    }
    Ok(pricing)
}

/// How the cockpit starts its watchdog, unless read-only: at the first tick, and again
/// whenever the supervisor finds it gone.
fn supervise_watchdog(
    cli: &Cli,
    ctx: &Context,
    app: &mut App,
    interval: Duration,
) -> Option<StartWatchdog> {
    if ctx.read_only {
        return None;
    }
    let (dir, args) = (ctx.data_dir.clone(), watchdog_args(cli, ctx));
    app.guard.supervisor = Some(crate::guard::Supervisor::new(interval));
    Some(Arc::new(move || {
        super::watchdog::spawn_detached(&dir, &args)
    }))
}

/// How often the watchdog this cockpit starts will check: what it reads from
/// `GPUMETER_WATCHDOG_INTERVAL` (an empty one is unset, as for the flag), held to the same
/// bounds. The cockpit judges the watchdog's heartbeat by it.
fn watchdog_interval() -> Result<Duration, Failure> {
    use super::watchdog::{DEFAULT_INTERVAL, INTERVAL_ENV, parse_interval};
    match std::env::var(INTERVAL_ENV) {
        Ok(text) if !text.is_empty() => {
            parse_interval(&text).map_err(|e| Failure::bad_input(format!("{INTERVAL_ENV}: {e}")))
        }
        Ok(_) | Err(std::env::VarError::NotPresent) => Ok(DEFAULT_INTERVAL),
        Err(std::env::VarError::NotUnicode(_)) => Err(Failure::bad_input(crate::t!(
            "err-env-not-utf8",
            name = INTERVAL_ENV
        ))),
    }
}

/// What the fleet screen reads besides this instance: `[[fleet]]`, through a context of its own
/// that says nothing under the screen. `None` without `[[fleet]]`.
fn fleet_reader(cli: &Cli, app: &mut App) -> Result<Option<crate::cockpit::FleetReader>, Failure> {
    let Some((link, reader)) = super::fleet::for_cockpit(Context::load(cli)?) else {
        return Ok(None);
    };
    app.fleet_link = link;
    Ok(Some(reader))
}

/// Takes the terminal, runs the cockpit, and gives the terminal back on every way out: a quit,
/// a panic, or a signal that ends the process (which then exits with 128 + its number).
fn drive<G, H>(app: App, mut sources: Sources<G, H>, theme: &Theme, demo: bool) -> CommandResult
where
    G: GpuSource + 'static,
    H: HostSource + 'static,
{
    // One thread: the loop and the provider calls it starts wait on I/O, never on each other;
    // sampling, the ledger and the guard have threads of their own.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::failed(crate::t!("err-runtime", error = e.to_string())))?;
    // Caught before the terminal is taken, so that no moment leaves it raw to a signal.
    let mut endings = {
        let _inside = runtime.enter();
        Endings::catch()
            .map_err(|e| Failure::failed(crate::t!("err-signals", error = e.to_string())))?
    };
    let ended_by = Arc::new(std::sync::OnceLock::new());
    let caught = Arc::clone(&ended_by);
    sources.stop = Some(Box::pin(async move {
        let _ = caught.set(endings.next().await);
    }));
    let mut screen = crate::terminal::take_screen()
        .map_err(|e| Failure::failed(crate::t!("err-terminal-setup", error = e.to_string())))?;
    let theme = theme.clone();
    // The loop runs as a task, not as `block_on`'s own future: a task woken on the runtime's
    // thread is queued there, where waking `block_on`'s future writes to the runtime's eventfd,
    // a syscall and a few bytes of output for every tick, sample and timer.
    let task = runtime.spawn(async move {
        let result = run(&mut screen, app, sources, &theme).await;
        (screen, result)
    });
    let result = match runtime.block_on(task) {
        Ok((screen, result)) => {
            // Show the cursor and reset the attributes, then restore before reporting
            // anything, so the message lands on the normal screen.
            drop(screen);
            result
        }
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(e) => Err(std::io::Error::other(e.to_string())),
    };
    crate::terminal::restore();
    let app = result
        .map_err(|e| Failure::failed(crate::t!("err-terminal-failed", error = e.to_string())))?;
    if let Some(line) = unanswered_line(&app) {
        super::emit_err(&line);
    }
    if let Some(ending) = ended_by.get() {
        super::emit_err(&format!("gpumeter: ended by {}", ending.name()));
    }
    super::emit_err(&format!("gpumeter: {}", guards::guard_line(&app, demo)));
    Ok(ended_by
        .get()
        .map_or(ExitCode::SUCCESS, |e| ExitCode::from(e.exit_status())))
}

/// What to say on the normal screen when the user quit while an action had no answer yet:
/// the provider may still carry it out.
pub fn unanswered_line(app: &App) -> Option<String> {
    let action = app.unanswered_at_quit.as_ref()?;
    let line = crate::t!(
        "cockpit-unanswered-at-quit",
        action = crate::ui::words::verb(action),
        provider = crate::notify::terminal::sanitize(&app.cloud.provider)
    );
    Some(format!("gpumeter: {line}"))
}

/// The monthly budget, with what the ledger recorded this calendar month before this run.
fn month_budget(
    ctx: &Context,
    pricing: Option<&crate::spend::Pricing>,
    now: Timestamp,
    tz: &TimeZone,
) -> Option<crate::app::state::MonthBudget> {
    let currency = pricing?.sheet.currency;
    let limit = ctx.config.budget.month_limit(currency)?;
    Some(crate::app::state::MonthBudget {
        watch: crate::guard::BudgetWatch::new(limit),
        month: ctx.spent_this_month(currency, now, tz)?,
    })
}

/// The cockpit's settings from the flags, over the config file.
fn settings(cli: &Cli, ctx: &Context) -> Result<Settings, Failure> {
    Ok(Settings {
        read_only: ctx.read_only,
        extend_step: SignedDuration::try_from(ctx.config.deadline.extend_step)
            .unwrap_or(SignedDuration::from_hours(1)),
        keep_snapshots: 1,
        cuda_required: ctx.config.telemetry.cuda_required,
        grace: match &cli.cockpit.grace {
            Some(text) => crate::config::parse_duration(text)
                .map_err(|e| Failure::bad_input(format!("--grace: {}", e.shown())))?,
            None => ctx.config.deadline.grace,
        },
    })
}

fn simulator(args: &CockpitArgs) -> Result<Simulator, Failure> {
    let scenario = scenario_file::resolve(args.scenario())
        .map_err(|e| Failure::bad_input(format!("--scenario: {e}")))?;
    let mut config = SimConfig::new(scenario);
    config.gpu_count = args.gpus.unwrap_or(crate::cli::DEMO_GPUS);
    Simulator::new(config).map_err(|e| Failure::bad_input(format!("--gpus: {e}")))
}

/// The deadline, and what the log should say about how its clock time was read.
type DeadlineAndNote = (Option<Deadline>, Option<String>);

/// How far ahead the demo's deadline is when neither the flags nor the config set one.
const DEMO_DEADLINE: std::time::Duration = std::time::Duration::from_secs(2 * 3600);

/// The deadline from `--release-in`/`--release-at`, else the config (else, in the demo,
/// [`DEMO_DEADLINE`]); `None` when none of them says. A clock time is read in the user's
/// zone, and comes with a line for the log saying which zone that was and, on a day the
/// clocks change, what the time was taken to mean.
fn deadline(
    args: &CockpitArgs,
    ctx: &Context,
    now: Timestamp,
    zone: &UserZone,
) -> Result<DeadlineAndNote, Failure> {
    let on_expiry = match args.on_expiry.as_deref() {
        None => ctx.config.deadline.on_expiry,
        Some(text) => super::watchdog::parse_policy(text)
            .map_err(|e| Failure::bad_input(format!("--on-expiry: {e}")))?,
    };
    let release = if let Some(text) = &args.release_in {
        Some(Release::In(crate::config::parse_duration(text).map_err(
            |e| Failure::bad_input(format!("--release-in: {}", e.shown())),
        )?))
    } else if let Some(text) = &args.release_at {
        let time: jiff::civil::Time = text
            .parse()
            .map_err(|_| Failure::bad_input(crate::t!("err-release-at", text = text.as_str())))?;
        Some(Release::At(time))
    } else {
        // The demo opens with a deadline, so the countdown has something to count on the first
        // screen; a real instance gets one only when asked.
        ctx.config
            .deadline
            .release()
            .or(ctx.demo.then_some(Release::In(DEMO_DEADLINE)))
    };
    let (at, note) = match release {
        None => return Ok((None, None)),
        Some(Release::In(d)) => (
            now + SignedDuration::try_from(d).unwrap_or(SignedDuration::ZERO),
            None,
        ),
        Some(Release::At(time)) => {
            let found = next_clock_time(now, time, &zone.tz);
            let read_in = crate::t!(
                "cockpit-release-at-read-in",
                at = time.strftime("%H:%M").to_string(),
                zone = zone.describe()
            );
            let note = found
                .note
                .map_or(read_in.clone(), |n| format!("{read_in}; {n}"));
            (found.at, Some(note))
        }
    };
    Ok((Some(Deadline::new(at, on_expiry, now)), note))
}

/// The flags a detached watchdog needs to guard what this cockpit shows.
fn watchdog_args(cli: &Cli, ctx: &Context) -> Vec<String> {
    let mut args = vec!["--data-dir".to_string(), ctx.data_dir.display().to_string()];
    if let Some(config) = &cli.config {
        args.extend(["--config".into(), config.display().to_string()]);
    }
    if ctx.demo {
        args.extend([
            "--demo".into(),
            "--scenario".into(),
            cli.cockpit.scenario().to_string(),
            "--gpus".into(),
            cli.cockpit
                .gpus
                .unwrap_or(crate::cli::DEMO_GPUS)
                .to_string(),
        ]);
    }
    let idle = [
        ("--idle-after", &cli.cockpit.idle_after),
        ("--on-idle", &cli.cockpit.on_idle),
        (
            "--stopped-release-after",
            &cli.cockpit.stopped_release_after,
        ),
    ];
    for (flag, value) in idle {
        if let Some(value) = value {
            args.extend([flag.to_string(), value.clone()]);
        }
    }
    args.extend(super::watchdog::target_args(cli));
    args
}

/// In the events, when the provider was detected: what the machine said about itself, and what
/// the provider cannot read (the credentials a detected instance still needs), since no panel
/// shows either.
fn say_detected(ctx: &Context, provider: &dyn crate::provider::Provider, app: &mut App) {
    let detected = &ctx.detected;
    if detected.is_none() {
        return;
    }
    if let (Some(cloud), Some(instance)) = (&detected.provider, &detected.instance) {
        let region = detected.region.as_ref().map_or("", |r| r.value.as_str());
        let kind = detected
            .instance_type
            .as_ref()
            .map_or("", |t| t.value.as_str());
        let line = crate::t!(
            "cockpit-found-instance",
            provider = cloud.value.id(),
            instance = instance.value.as_str(),
            region = region,
            kind = kind,
            from = cloud.from.as_str()
        );
        app.log(
            crate::app::Level::Info,
            gpumeter_core::text::one_line(&line, 300),
        );
    }
    for gap in provider.gaps() {
        app.log(crate::app::Level::Warn, gap);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::unanswered_line;
    use crate::app::{Event, KeyCode, KeyPress, update};
    use crate::demo::demo_app;

    #[test]
    fn quitting_past_an_unanswered_action_says_so_on_the_normal_screen() {
        let mut app = demo_app(Duration::from_secs(3600));
        let mut key = |c| update(&mut app, Event::Key(KeyPress::new(KeyCode::Char(c))));
        for c in ['S', 'y', 'q', 'q'] {
            key(c);
        }
        let line = unanswered_line(&app).expect("a line");
        assert!(line.contains("stop had no answer from demo"), "{line}");
        assert!(line.contains("not confirmed"), "{line}");
        let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || unanswered_line(&app));
        let chinese = chinese.expect("a line");
        assert!(chinese.contains("demo 仍未答复关机"), "{chinese}");
        assert!(
            !chinese.contains("answer") && !chinese.contains("stop"),
            "{chinese}"
        );

        let mut idle = demo_app(Duration::from_secs(3600));
        update(&mut idle, Event::Key(KeyPress::new(KeyCode::Char('q'))));
        assert_eq!(unanswered_line(&idle), None);
    }

    /// A cockpit started after a release the provider no longer lists: the ledger's record
    /// gives it the instance and when it went, so it offers no second release.
    #[test]
    fn a_cockpit_started_after_a_release_restores_it_from_the_ledger() {
        use clap::Parser as _;
        use gpumeter_core::meter::{BillingMode, InstanceState};
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.toml");
        std::fs::write(
            &config,
            "[instance]\nprovider = \"command\"\nid = \"i-cmd\"\n\n[command]\n\
             inventory = [\"true\"]\n",
        )
        .unwrap();
        let data = dir.path().join("data");
        let t = |s: i64| jiff::Timestamp::from_second(s).unwrap();
        let listed = crate::provider::InstanceInfo {
            id: "i-cmd".into(),
            name: "trainer".into(),
            provider: "command".into(),
            region: None,
            sku: "A100-80G".into(),
            mode: BillingMode::OnDemand,
            state: InstanceState::Running,
            created: t(0),
            live_price_per_hour: None,
            history: vec![(t(0), InstanceState::Running)],
        };
        let inventory = |instance| crate::provider::Inventory {
            instance,
            resources: Vec::new(),
            deadline: None,
        };
        std::fs::create_dir_all(&data).unwrap();
        let mut ledger = crate::ledger::Ledger::open(crate::ledger::path_in(&data, false)).unwrap();
        ledger
            .saw_inventory("i-cmd", &inventory(Some(listed)), t(600))
            .unwrap();
        ledger
            .saw_inventory("i-cmd", &inventory(None), t(900))
            .unwrap();
        drop(ledger);
        let cli = crate::cli::Cli::try_parse_from([
            "gpumeter".as_ref(),
            "--config".as_ref(),
            config.as_os_str(),
            "--data-dir".as_ref(),
            data.as_os_str(),
        ])
        .unwrap();
        let ctx = super::Context::load(&cli).unwrap();
        let mut app = crate::app::App::new(
            t(3600),
            crate::app::Settings::default(),
            crate::app::CloudView::unconfigured(),
            crate::spend::Spend::new(None, None, jiff::tz::TimeZone::UTC),
        );
        assert_eq!(app.spend.released_at(), None);
        ctx.restore_spend(&mut app.spend);
        assert_eq!(app.spend.released_at(), Some(t(900)));
    }
}
