//! The cockpit's event loop: the only place that waits. Sources (samplers, the provider, the
//! terminal, the clock) send [`Event`]s over one channel; `update` changes the state; the screen
//! is drawn only when something changed, once per burst of events.

use std::io::Write as _;
use std::sync::Arc;
use std::time::Duration;

use crossterm::event::{Event as TermEvent, EventStream};
use futures_util::StreamExt as _;
use jiff::Timestamp;
use ratatui::backend::Backend;
use tokio::sync::{Notify, mpsc};
use tokio::time::MissedTickBehavior;

use crate::app::{App, Effect, Event, update};

pub mod checkpoints;
pub mod effects;
pub mod guard_link;
pub mod keys;
pub mod record;
pub mod watchdog;
use crate::provider::Provider;
use crate::provider::refresh::{Ask, LastRead};
use crate::telemetry::{
    GpuSource, HostSource, SamplerConfig, spawn_gpu_sampler, spawn_host_sampler,
};
use crate::terminal::Screen;
use crate::ui::theme::Theme;

/// How often the clock ticks: the countdown shows seconds.
pub const TICK_INTERVAL: Duration = Duration::from_secs(1);
/// How often the demo's inventory, a file on this machine, is looked at when nothing asked
/// for it; a cloud's is looked at once its inventory interval ([`crate::provider::refresh`]).
pub const DEMO_INVENTORY_EVERY: Duration = Duration::from_secs(30);
/// How long a frame waits for other news of the same second (see the loop); keys never wait.
pub const GATHER: Duration = Duration::from_millis(30);
/// Events queued between the sources and `update`; a slow terminal makes sources wait, not grow.
const QUEUE: usize = 256;

/// Reads the instances of `[[fleet]]` as `gpumeter fleet` does, with its timeouts.
pub type FleetReader = Arc<
    dyn Fn() -> futures_util::future::BoxFuture<'static, Vec<crate::fleet::FleetRow>> + Send + Sync,
>;

/// The sources a cockpit reads from.
pub struct Sources<G, H> {
    pub gpu: G,
    pub host: H,
    /// Called with how long each frame took to draw (benchmarks measure frame times with it).
    pub on_frame: Option<Box<dyn FnMut(Duration) + Send>>,
    pub sampling: SamplerConfig,
    /// How often the provider is looked at when nothing asked for a read.
    pub inventory_every: Duration,
    pub provider: Arc<dyn Provider>,
    /// The ledger the deadline is shared through with the watchdog; `None` shares nothing.
    pub ledger: Option<std::path::PathBuf>,
    /// The idle rule the history's idle minutes are judged by (the config's `[idle]`).
    pub idle: crate::guard::IdleRule,
    /// How warnings reach the user's own terminal (bell, OSC 9/777); `None` only rings the bell.
    pub notify: Option<crate::config::NotifyConfig>,
    /// What the fleet screen reads besides this instance; `None` reads nothing.
    pub fleet: Option<FleetReader>,
    /// Starts the watchdog the cockpit supervises (`App::guard.supervisor` says when);
    /// `None` starts none.
    pub watchdog: Option<watchdog::StartWatchdog>,
    /// Ends the loop at once when it completes, as a second quit does (the signals that end
    /// the cockpit); `None` ends it only from the keys.
    pub stop: Option<futures_util::future::BoxFuture<'static, ()>>,
}

/// Runs the cockpit until the user quits. The terminal is set up and restored by the caller.
pub async fn run<B, G, H>(
    screen: &mut Screen<B>,
    mut app: App,
    sources: Sources<G, H>,
    theme: &Theme,
) -> std::io::Result<App>
where
    B: Backend,
    G: GpuSource + 'static,
    H: HostSource + 'static,
{
    let mut sources = sources;
    let mut draw = |screen: &mut Screen<B>, app: &App| -> std::io::Result<()> {
        let started = std::time::Instant::now();
        screen
            .draw(|area, buf| crate::ui::render(area, buf, app, theme))
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        if let Some(observe) = sources.on_frame.as_mut() {
            observe(started.elapsed());
        }
        Ok(())
    };
    let (tx, mut rx) = mpsc::channel::<Event>(QUEUE);
    let gpu_sampler = spawn_gpu_sampler(sources.gpu, sources.sampling, tx.clone())?;
    let host_sampler = spawn_host_sampler(sources.host, sources.sampling, tx.clone())?;
    let refresh = Arc::new(Notify::new());
    let inventory_task = spawn_inventory(
        Arc::clone(&sources.provider),
        (Arc::clone(&refresh), sources.inventory_every),
        tx.clone(),
    );
    let terminal_task = spawn_terminal_events(tx.clone());
    let clock_task = spawn_clock(tx.clone());
    // The spend history: recorded off the render path, into the same ledger.
    let mut recorder = record::Recorder::start(sources.ledger.clone(), sources.idle);
    let guard = match sources.ledger.take() {
        Some(path) => Some(guard_link::spawn(path, tx.clone())?),
        None => None,
    };

    draw(screen, &app)?;
    app.dirty = false;
    let mut told = app.logged;
    let in_tmux = std::env::var_os("TMUX").is_some();
    let notice_task = spawn_notices(Arc::clone(&sources.provider), tx.clone());
    let checkpoint_task = app
        .checkpoint
        .as_ref()
        .map(|view| checkpoints::spawn(view.pattern.clone(), tx.clone()));
    let runner = effects::EffectRunner {
        provider: Arc::clone(&sources.provider),
        fleet: sources.fleet.clone(),
        refresh: Arc::clone(&refresh),
        gpu_sampler: &gpu_sampler,
        guard,
        watchdog: sources.watchdog.take(),
        notify: sources.notify.clone(),
        alerts: std::cell::OnceCell::new(),
        events: tx.clone(),
    };
    let mut stop = sources
        .stop
        .take()
        .unwrap_or_else(|| Box::pin(std::future::pending()));
    loop {
        let event = tokio::select! {
            biased;
            () = &mut stop => break,
            event = rx.recv() => event,
        };
        let Some(event) = event else { break };
        let (mut effects, resized) = gather(event, &mut rx, &mut app, &mut recorder).await;
        if resized {
            screen.resized();
        }
        for note in recorder.after_update(&app) {
            effects.extend(update(&mut app, note));
        }
        for effect in effects {
            runner.run(effect);
        }
        if app.quit {
            break;
        }
        if app.dirty {
            if std::mem::take(&mut app.bell) {
                alert_terminal(&app, &mut told, sources.notify.as_ref(), in_tmux);
            }
            draw(screen, &app)?;
            app.dirty = false;
        }
    }
    drop(runner);
    for task in [inventory_task, terminal_task, clock_task, notice_task]
        .into_iter()
        .chain(checkpoint_task)
    {
        task.abort();
    }
    gpu_sampler.shutdown().await;
    host_sampler.shutdown().await;
    for note in recorder.close(&app) {
        update(&mut app, note);
    }
    Ok(app)
}

/// Applies `first` and the news that comes with it: whatever is queued already, and, unless a
/// key or a resize asks for a frame at once, what arrives within [`GATHER`]. The clock and the
/// samplers beat once a second each, a few milliseconds apart; gathered, a second costs one
/// frame, not three. Says whether the terminal was resized.
async fn gather(
    first: Event,
    rx: &mut mpsc::Receiver<Event>,
    app: &mut App,
    recorder: &mut record::Recorder,
) -> (Vec<Effect>, bool) {
    let mut effects = Vec::new();
    let mut resized = false;
    let mut absorb = |app: &mut App, event: Event| {
        resized |= matches!(event, Event::Resize);
        let urgent = matches!(event, Event::Key(_) | Event::Resize);
        recorder.saw(&event);
        effects.extend(update(app, event));
        urgent
    };
    let mut urgent = absorb(app, first);
    while let Ok(event) = rx.try_recv() {
        urgent |= absorb(app, event);
    }
    let until = tokio::time::Instant::now() + GATHER;
    while !urgent {
        match tokio::time::timeout_at(until, rx.recv()).await {
            Ok(Some(event)) => urgent |= absorb(app, event),
            Ok(None) | Err(_) => break,
        }
    }
    (effects, resized)
}

/// Rings the bell, and sends each new warning as an OSC notification, which travels through
/// ssh and tmux to the user's own terminal.
fn alert_terminal(
    app: &App,
    told: &mut u64,
    notify: Option<&crate::config::NotifyConfig>,
    in_tmux: bool,
) {
    let fresh = usize::try_from(app.logged.saturating_sub(*told)).unwrap_or(usize::MAX);
    *told = app.logged;
    let mut text = String::new();
    match notify {
        None => text.push('\x07'),
        Some(config) => {
            for entry in app.events.iter().rev().take(fresh).rev() {
                let alert = crate::notify::Alert::new(
                    entry.level,
                    "cockpit",
                    "gpumeter",
                    entry.text.clone(),
                    entry.at,
                );
                text.push_str(&crate::notify::terminal::output(&alert, config, in_tmux));
            }
        }
    }
    let mut out = std::io::stdout();
    // An alert that cannot be written is not worth failing the cockpit for.
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// How often the provider is asked about a spot interruption.
pub const NOTICE_INTERVAL: Duration = Duration::from_secs(5);

fn spawn_notices(
    provider: Arc<dyn Provider>,
    tx: mpsc::Sender<Event>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        if let Some(at) = provider.keys_expire()
            && tx.send(Event::KeysExpire(at)).await.is_err()
        {
            return;
        }
        let mut every = tokio::time::interval(NOTICE_INTERVAL);
        every.set_missed_tick_behavior(MissedTickBehavior::Skip);
        loop {
            every.tick().await;
            if let Ok(Some(at)) = provider.interruption_notice().await
                && tx.send(Event::Interruption(at)).await.is_err()
            {
                break;
            }
        }
    })
}

/// Reads the full inventory at start and whenever `refresh` is notified (after an action, or
/// the watchdog's); between, looks at the instance once `every` and reads it all again only
/// when the look finds a change.
fn spawn_inventory(
    provider: Arc<dyn Provider>,
    (refresh, every): (Arc<Notify>, Duration),
    tx: mpsc::Sender<Event>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Skip);
        let mut last = LastRead::default();
        loop {
            let ask = tokio::select! {
                _ = ticks.tick() => Ask::Look,
                () = refresh.notified() => Ask::Full,
            };
            let Some(result) = last.ask(&*provider, ask).await else {
                continue;
            };
            let fresh = result.is_ok();
            if tx.send(Event::Inventory(result)).await.is_err() {
                break;
            }
            // The balance comes with a full inventory only.
            if let Some(balance) = last.balance().filter(|_| fresh)
                && tx
                    .send(Event::Balance(balance.clone(), Timestamp::now()))
                    .await
                    .is_err()
            {
                break;
            }
            if let Some(listed) = last.account().filter(|_| fresh)
                && tx.send(Event::Account(listed.to_vec())).await.is_err()
            {
                break;
            }
            if let Some(term) = provider.subscription().filter(|_| fresh)
                && tx.send(Event::Subscription(term)).await.is_err()
            {
                break;
            }
        }
    })
}

fn spawn_terminal_events(tx: mpsc::Sender<Event>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut stream = EventStream::new();
        while let Some(Ok(event)) = stream.next().await {
            let event = match event {
                TermEvent::Key(key) => match keys::key_press(&key) {
                    Some(press) => Event::Key(press),
                    None => continue,
                },
                TermEvent::Resize(..) => Event::Resize,
                _ => continue,
            };
            if tx.send(event).await.is_err() {
                break;
            }
        }
    })
}

fn spawn_clock(tx: mpsc::Sender<Event>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(TICK_INTERVAL);
        every.set_missed_tick_behavior(MissedTickBehavior::Skip);
        loop {
            every.tick().await;
            if tx.send(Event::Tick(Timestamp::now())).await.is_err() {
                break;
            }
        }
    })
}
