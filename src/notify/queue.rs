//! The webhooks' own queue: alerts go in and the caller moves on; a task of their own sends
//! them one after another, each bounded by [`Notifier::bound`]. A receiver that hangs holds
//! up only the alerts behind it, never the watchdog's release or the cockpit's frame. The
//! queue is bounded and keeps the newest: when it is full, the oldest waiting alert is dropped
//! (and reported), since what is said last is what matters now.

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use jiff::Timestamp;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use super::{Alert, Notifier, Outcome};

/// Alerts waiting to be sent, at most.
pub const QUEUE_LEN: usize = 16;

/// What became of a queued alert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// What one webhook did with it.
    Outcome(Outcome),
    /// Dropped unsent to make room for a newer alert.
    Dropped { key: String },
    /// Never sent: there was no runtime to send it from.
    NoRuntime { key: String },
}

impl Report {
    /// Whether it is worth telling the user: anything but a send or a rate limit.
    pub fn is_failure(&self) -> bool {
        match self {
            Report::Outcome(o) => o.is_failure(),
            Report::Dropped { .. } | Report::NoRuntime { .. } => true,
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Report::Outcome(o) => o.fmt(f),
            Report::Dropped { key } => write!(
                f,
                "webhooks: dropped the alert {key} unsent: {QUEUE_LEN} newer ones were waiting"
            ),
            Report::NoRuntime { key } => write!(f, "webhooks: {key} not sent: no async runtime"),
        }
    }
}

type Reporter = Arc<dyn Fn(Report) + Send + Sync>;

struct Shared {
    waiting: Mutex<VecDeque<Alert>>,
    wake: Notify,
    closed: AtomicBool,
    capacity: usize,
}

/// The queue and its sending task. Dropping it leaves the task to finish what is queued;
/// [`Queue::close`] waits for that, within a bound.
pub struct Queue {
    shared: Arc<Shared>,
    report: Reporter,
    worker: Option<JoinHandle<()>>,
}

impl fmt::Debug for Queue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Queue")
            .field("capacity", &self.shared.capacity)
            .finish_non_exhaustive()
    }
}

impl Queue {
    /// Starts the sending task on the current tokio runtime. `report` hears what became of
    /// every alert at every hook, from that task.
    pub fn start(
        notifier: Notifier,
        capacity: usize,
        report: impl Fn(Report) + Send + Sync + 'static,
    ) -> Queue {
        let shared = Arc::new(Shared {
            waiting: Mutex::new(VecDeque::new()),
            wake: Notify::new(),
            closed: AtomicBool::new(false),
            capacity: capacity.max(1),
        });
        let report: Reporter = Arc::new(report);
        let worker = tokio::runtime::Handle::try_current().ok().map(|runtime| {
            let (shared, report) = (Arc::clone(&shared), Arc::clone(&report));
            runtime.spawn(send_all(notifier, shared, report))
        });
        Queue {
            shared,
            report,
            worker,
        }
    }

    /// Queues `alert` and returns at once.
    pub fn push(&self, alert: Alert) {
        if self.worker.is_none() {
            (self.report)(Report::NoRuntime { key: alert.key });
            return;
        }
        let dropped = {
            let mut waiting = self
                .shared
                .waiting
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let dropped = (waiting.len() >= self.shared.capacity)
                .then(|| waiting.pop_front())
                .flatten();
            waiting.push_back(alert);
            dropped
        };
        self.shared.wake.notify_one();
        if let Some(old) = dropped {
            (self.report)(Report::Dropped { key: old.key });
        }
    }

    /// Alerts waiting, not counting the one being sent.
    pub fn waiting(&self) -> usize {
        self.shared
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Lets what is queued go out for at most `limit`, then stops the task.
    pub async fn close(mut self, limit: Duration) {
        self.shared.closed.store(true, Ordering::SeqCst);
        self.shared.wake.notify_one();
        if let Some(mut worker) = self.worker.take()
            && tokio::time::timeout(limit, &mut worker).await.is_err()
        {
            worker.abort();
        }
    }
}

impl Drop for Queue {
    /// The task finishes what is queued, then ends.
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::SeqCst);
        self.shared.wake.notify_one();
    }
}

async fn send_all(notifier: Notifier, shared: Arc<Shared>, report: Reporter) {
    let bound = notifier.bound();
    loop {
        let next = shared
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front();
        match next {
            Some(alert) => {
                let sending = notifier.send(&alert, Timestamp::now());
                for outcome in sending.outcomes_within(bound).await {
                    report(Report::Outcome(outcome));
                }
            }
            None if shared.closed.load(Ordering::SeqCst) => break,
            None => shared.wake.notified().await,
        }
    }
}
