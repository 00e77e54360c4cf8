//! The background: samplers, the provider and the ledger feed the collector on their own
//! schedules; the collector publishes a fresh snapshot every second, rendered there once.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};
use tokio::time::MissedTickBehavior;

use super::collect::{Collector, Input, NoInventory};
use super::http::serve_http;
use super::page::Page;
use crate::ledger::Ledger;
use crate::provider::Provider;
use crate::provider::refresh::{Ask, LastRead};
use crate::telemetry::{
    GpuSource, HostSource, SamplerConfig, spawn_gpu_sampler, spawn_host_sampler,
};

/// How often the demo's inventory, a file on this machine, is read; a cloud's is looked at once
/// its inventory interval ([`crate::provider::refresh`]).
pub const DEMO_INVENTORY_EVERY: Duration = Duration::from_secs(30);
/// An inventory read (a look and the full read it may need) that takes longer than this
/// counts as failed.
pub const INVENTORY_TIMEOUT: Duration = Duration::from_secs(20);
/// How often the ledger's guard row is read.
pub const GUARD_INTERVAL: Duration = Duration::from_secs(5);
/// How often the snapshot is rebuilt and rendered.
pub const PUBLISH_INTERVAL: Duration = Duration::from_secs(1);

pub struct ServeSources<G, H> {
    pub gpu: G,
    pub host: H,
    pub sampling: SamplerConfig,
    /// How often the provider is looked at.
    pub inventory_every: Duration,
    pub provider: Arc<dyn Provider>,
    /// The ledger holding the guard table; `None` leaves the guard series out.
    pub ledger: Option<PathBuf>,
}

/// Serves until the listener's task fails or the process is stopped.
pub async fn serve<G, H>(
    listener: TcpListener,
    mut collector: Collector,
    sources: ServeSources<G, H>,
) -> std::io::Result<()>
where
    G: GpuSource + 'static,
    H: HostSource + 'static,
{
    let (tx, mut rx) = mpsc::channel::<Input>(64);
    let _gpu = spawn_gpu_sampler(sources.gpu, sources.sampling, tx.clone())?;
    let _host = spawn_host_sampler(sources.host, sources.sampling, tx.clone())?;
    let inventory = spawn_inventory(sources.provider, sources.inventory_every, tx.clone());
    let (publish, pages) = watch::channel(Page::of(&collector.snapshot(Timestamp::now())));
    let http = tokio::spawn(serve_http(listener, pages));
    let mut every = tokio::time::interval(PUBLISH_INTERVAL);
    every.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let mut guard_every = tokio::time::interval(GUARD_INTERVAL);
    guard_every.set_missed_tick_behavior(MissedTickBehavior::Skip);
    loop {
        tokio::select! {
            Some(input) = rx.recv() => collector.feed(input),
            _ = every.tick() => {
                publish.send_replace(Page::of(&collector.snapshot(Timestamp::now())));
            }
            _ = guard_every.tick(), if sources.ledger.is_some() => {
                if let Some(path) = sources.ledger.clone() {
                    spawn_guard_read(path, collector.instance_id().to_string(), tx.clone());
                }
            }
            else => break,
        }
        if http.is_finished() {
            break;
        }
    }
    inventory.abort();
    http.abort();
    Ok(())
}

/// The full inventory at start, then a look once `every`, and the full inventory again only
/// when the look finds a change.
fn spawn_inventory(
    provider: Arc<dyn Provider>,
    every: Duration,
    tx: mpsc::Sender<Input>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Skip);
        let mut last = LastRead::default();
        loop {
            ticks.tick().await;
            let asked = last.ask(&*provider, Ask::Look);
            let mut fresh = false;
            let input = match tokio::time::timeout(INVENTORY_TIMEOUT, asked).await {
                Err(_) => Input::Inventory(Err(NoInventory::Timeout), Timestamp::now()),
                Ok(None) => Input::Unchanged(Timestamp::now()),
                Ok(Some(read)) => {
                    fresh = read.is_ok();
                    Input::Inventory(read.map_err(NoInventory::from), Timestamp::now())
                }
            };
            if tx.send(input).await.is_err() {
                break;
            }
            // The balance comes with a full inventory only.
            if let Some(balance) = last.balance().filter(|_| fresh)
                && tx
                    .send(Input::Balance(balance.clone(), Timestamp::now()))
                    .await
                    .is_err()
            {
                break;
            }
            if let Some(listed) = last.account().filter(|_| fresh)
                && tx.send(Input::Account(listed.to_vec())).await.is_err()
            {
                break;
            }
        }
    })
}

/// Reads the guard row off the runtime: SQLite may wait on a lock the watchdog holds. With
/// it, whether the watchdog holds its own lock: that, not its heartbeat's age, says it lives.
fn spawn_guard_read(path: PathBuf, instance: String, tx: mpsc::Sender<Input>) {
    tokio::task::spawn_blocking(move || {
        let mut guard = Ledger::open_read_only(&path)
            .ok()
            .and_then(|ledger| ledger.guard(&instance).ok().flatten());
        if let Some(w) = guard.as_mut().and_then(|g| g.watchdog.as_mut()) {
            w.lock_held = crate::watchdog::lock::holder(&path, &instance).held();
        }
        let _ = tx.try_send(Input::Guard(guard));
    });
}
