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

impl Report {
    /// The line as the user reads it, in their language.
    pub fn shown(&self) -> String {
        match self {
            Report::Outcome(o) => o.shown(),
            Report::Dropped { key } => crate::t!(
                "webhook-dropped",
                key = key.as_str(),
                count = QUEUE_LEN.to_string()
            ),
            Report::NoRuntime { key } => crate::t!("webhook-no-runtime", key = key.as_str()),
        }
    }
}

/// [`Report::shown`] in English.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::i18n::scoped(crate::i18n::Lang::En, || self.shown()))
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

#[cfg(test)]
mod tests {
    use jiff::Timestamp;

    use super::super::limit::Limited;
    use super::super::send::HookId;
    use super::*;
    use crate::config::WebhookKind;
    use crate::i18n::{Lang, scoped};

    fn hook() -> HookId {
        HookId {
            kind: WebhookKind::Feishu,
            number: 2,
            host: "open.feishu.cn".into(),
        }
    }

    #[test]
    fn what_became_of_an_alert_is_said_in_the_users_language_and_logged_in_english() {
        let since = Timestamp::from_second(1_800_000_000).unwrap();
        let reports = [
            Report::Outcome(Outcome::Sent {
                hook: hook(),
                key: "idle".into(),
            }),
            Report::Outcome(Outcome::Held {
                hook: hook(),
                key: "idle".into(),
                why: Limited::Repeat {
                    since,
                    until: since + jiff::SignedDuration::from_mins(30),
                },
            }),
            Report::Outcome(Outcome::Held {
                hook: hook(),
                key: "budget:80".into(),
                why: Limited::Busy { per_minute: 6 },
            }),
            Report::Dropped { key: "idle".into() },
            Report::NoRuntime {
                key: "deadline:10m".into(),
            },
        ];
        let english: Vec<String> = reports.iter().map(ToString::to_string).collect();
        assert_eq!(english[0], "webhook feishu #2 (open.feishu.cn): sent idle");
        assert!(english[1].contains(": held idle: already sent at 2027-01-15T08:00:00Z"));
        assert_eq!(
            english[3],
            "webhooks: dropped the alert idle unsent: 16 newer ones were waiting"
        );
        for (report, english) in reports.iter().zip(&english) {
            assert_eq!(&scoped(Lang::En, || report.shown()), english);
            let chinese = scoped(Lang::ZhCn, || report.shown());
            assert_eq!(scoped(Lang::ZhCn, || report.to_string()), *english);
            for word in ["sent", "held", "dropped", "waiting", "already", "a minute"] {
                assert!(!chinese.contains(word), "{word} in {chinese}");
            }
            assert!(
                chinese
                    .chars()
                    .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{chinese}"
            );
        }
    }
}
