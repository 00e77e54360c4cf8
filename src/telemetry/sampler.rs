//! One sampler per source: a tokio task keeps the beat, a thread of its own does the reading.
//!
//! ```text
//!  tick task (async)  ──(at, time)──▶  reader thread (blocking)  ──Telemetry──▶  app channel
//!  interval, Skip       capacity 1      owns the source: NVML,      tokio mpsc
//!                       try_send        /proc, the simulator        blocking_send
//! ```
//!
//! Sources block (NVML is a C library that can stall for seconds on a sick GPU; statvfs can hang
//! on a dead network mount), so they never run on the runtime. While the reader is busy, ticks
//! are skipped rather than queued: the next reading is the freshest one. If the app falls behind,
//! the reader waits on the full channel and ticks skip too, so nothing piles up in memory.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use jiff::Timestamp;
use tokio::sync::mpsc::{self, error::TrySendError};
use tokio::time::{Instant, MissedTickBehavior};

use super::source::{GpuSource, HostSource};
use super::stamped::{Stamped, Telemetry};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplerConfig {
    pub interval: Duration,
}

impl Default for SamplerConfig {
    fn default() -> Self {
        SamplerConfig {
            interval: Duration::from_secs(1),
        }
    }
}

/// A running sampler. Dropping it stops the beat; the reader thread ends after its current read.
#[derive(Debug)]
pub struct SamplerHandle {
    task: tokio::task::JoinHandle<()>,
    thread: Option<std::thread::JoinHandle<()>>,
    retry: Arc<AtomicBool>,
}

impl SamplerHandle {
    /// Asks the source to try starting again (NVML after a failure) before its next read.
    pub fn request_retry(&self) {
        self.retry.store(true, Ordering::Relaxed);
    }

    /// Stops the beat and waits for the reader thread to finish its current read. If the app
    /// still holds the receiver and has stopped reading it, drop the receiver first.
    pub async fn shutdown(mut self) {
        self.task.abort();
        if let Some(thread) = self.thread.take() {
            // Joining blocks, so it happens off the runtime too.
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
    }
}

impl Drop for SamplerHandle {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts sampling GPUs every `config.interval`. Must be called inside a tokio runtime.
pub fn spawn_gpu_sampler<S, E>(
    mut source: S,
    config: SamplerConfig,
    tx: mpsc::Sender<E>,
) -> io::Result<SamplerHandle>
where
    S: GpuSource + 'static,
    E: From<Telemetry> + Send + 'static,
{
    spawn("gpu", config, tx, move |at, time, retry| {
        if retry {
            source.retry();
        }
        Telemetry::Gpu(Stamped {
            at,
            time,
            value: source.read(at),
        })
    })
}

/// Starts sampling the host every `config.interval`. Must be called inside a tokio runtime.
pub fn spawn_host_sampler<S, E>(
    mut source: S,
    config: SamplerConfig,
    tx: mpsc::Sender<E>,
) -> io::Result<SamplerHandle>
where
    S: HostSource + 'static,
    E: From<Telemetry> + Send + 'static,
{
    spawn("host", config, tx, move |at, time, _| {
        Telemetry::Host(Stamped {
            at,
            time,
            value: source.read(at),
        })
    })
}

fn spawn<E, F>(
    name: &str,
    config: SamplerConfig,
    tx: mpsc::Sender<E>,
    mut read: F,
) -> io::Result<SamplerHandle>
where
    E: From<Telemetry> + Send + 'static,
    F: FnMut(Duration, Timestamp, bool) -> Telemetry + Send + 'static,
{
    let runtime = tokio::runtime::Handle::try_current()
        .map_err(|e| io::Error::other(format!("a sampler needs a tokio runtime: {e}")))?;
    let retry = Arc::new(AtomicBool::new(false));
    let (beat_tx, mut beat_rx) = mpsc::channel::<(Duration, Timestamp)>(1);
    let thread_retry = Arc::clone(&retry);
    let thread = std::thread::Builder::new()
        .name(format!("gpumeter-{name}"))
        .spawn(move || {
            while let Some((at, time)) = beat_rx.blocking_recv() {
                let event = read(at, time, thread_retry.swap(false, Ordering::Relaxed));
                if tx.blocking_send(E::from(event)).is_err() {
                    break;
                }
            }
        })?;
    let interval = config.interval.max(Duration::from_millis(10));
    let task = runtime.spawn(async move {
        let start = Instant::now();
        let mut ticker = tokio::time::interval(interval);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Skip);
        loop {
            let tick = ticker.tick().await;
            match beat_tx.try_send((tick - start, Timestamp::now())) {
                Ok(()) | Err(TrySendError::Full(_)) => {}
                Err(TrySendError::Closed(_)) => break,
            }
        }
    });
    Ok(SamplerHandle {
        task,
        thread: Some(thread),
        retry,
    })
}
