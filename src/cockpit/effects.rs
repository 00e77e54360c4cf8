//! The one owner of the cockpit's background work: it runs every [`Effect`] `update` returns.
//! It holds the provider, the inventory's refresh signal, the GPU sampler's retry, the guard
//! link to the ledger, the fleet reader, the watchdog's start and the webhooks' queue; answers
//! come back to the loop as [`Event`]s.

use std::cell::OnceCell;
use std::sync::Arc;
use std::sync::mpsc::Sender;

use jiff::Timestamp;
use tokio::sync::{Notify, mpsc};

use super::FleetReader;
use super::guard_link::{Request, Save};
use super::watchdog::StartWatchdog;
use crate::app::{Effect, Event, Level};
use crate::config::NotifyConfig;
use crate::notify::{Alert, Notifier, QUEUE_LEN, Queue};
use crate::provider::Provider;
use crate::telemetry::SamplerHandle;

pub struct EffectRunner<'a> {
    pub provider: Arc<dyn Provider>,
    pub fleet: Option<FleetReader>,
    /// Wakes the inventory task for a read now.
    pub refresh: Arc<Notify>,
    pub gpu_sampler: &'a SamplerHandle,
    /// The guard row's writer; `None` when the cockpit shares no ledger.
    pub guard: Option<Sender<Request>>,
    /// Starts the watchdog; `None` when the cockpit starts none (read-only, tests).
    pub watchdog: Option<StartWatchdog>,
    /// The webhooks, for what only the cockpit can say (its watchdog is gone); `None` sends none.
    pub notify: Option<NotifyConfig>,
    /// The webhooks' queue, started at the first alert.
    pub alerts: OnceCell<Option<Queue>>,
    pub events: mpsc::Sender<Event>,
}

impl EffectRunner<'_> {
    pub fn run(&self, effect: Effect) {
        match effect {
            Effect::RefreshInventory => self.refresh.notify_one(),
            Effect::RetryGpu => self.gpu_sampler.request_retry(),
            Effect::RefreshFleet => {
                let read = self.fleet.clone();
                let tx = self.events.clone();
                tokio::spawn(async move {
                    // Always answered, even by a read that panicked: `update` waits for it.
                    let rows = match read {
                        Some(read) => tokio::spawn(read()).await.unwrap_or_default(),
                        None => Vec::new(),
                    };
                    let _ = tx.send(Event::Fleet(rows)).await;
                });
            }
            Effect::LoadGuard { instance } => {
                if let Some(link) = &self.guard {
                    let _ = link.send(Request::Load(instance));
                } else {
                    // No ledger to share the deadline through: nothing is there to adopt.
                    let tx = self.events.clone();
                    tokio::spawn(async move {
                        let _ = tx.send(Event::GuardFound(None)).await;
                    });
                }
            }
            Effect::SaveGuard {
                instance,
                deadline,
                on_expiry,
                grace,
                by,
            } => {
                if let Some(link) = &self.guard {
                    let _ = link.send(Request::Save(Save {
                        instance,
                        deadline,
                        on_expiry,
                        grace,
                        by,
                    }));
                }
            }
            Effect::StartWatchdog => {
                let result = match &self.watchdog {
                    Some(spawn) => super::watchdog::start(spawn, self.events.clone())
                        .map_err(crate::guard::StartError::from),
                    None => Err(crate::guard::StartError::NoWatchdog),
                };
                let tx = self.events.clone();
                tokio::spawn(async move {
                    let _ = tx.send(Event::WatchdogStarted(result)).await;
                });
            }
            Effect::Notify {
                level,
                key,
                text,
                instance,
            } => self.notify(level, &key, &text, instance.as_deref()),
            Effect::Perform(action) => {
                let provider = Arc::clone(&self.provider);
                let tx = self.events.clone();
                tokio::spawn(async move {
                    let deadline = crate::provider::ACTION_DEADLINE;
                    let result = tokio::time::timeout(deadline, provider.perform(&action))
                        .await
                        .unwrap_or_else(|_| {
                            let why = crate::t!(
                                "event-no-answer-within",
                                seconds = deadline.as_secs().to_string()
                            );
                            Err(crate::provider::ProviderError::unreachable(
                                provider.name(),
                                &why,
                            ))
                        });
                    let _ = tx.send(Event::ActionDone { action, result }).await;
                });
            }
        }
    }
}

impl EffectRunner<'_> {
    /// Queues an alert for the webhooks; the queue is started with the first.
    fn notify(&self, level: Level, key: &str, text: &str, instance: Option<&str>) {
        let queue = self.alerts.get_or_init(|| {
            let config = self.notify.as_ref()?;
            let notifier = Notifier::new(config, instance.map(str::to_string)).ok()?;
            let tx = self.events.clone();
            Some(Queue::start(notifier, QUEUE_LEN, move |report| {
                if report.is_failure() {
                    let _ = tx.try_send(Event::Webhook(report.shown()));
                }
            }))
        });
        if let Some(queue) = queue {
            let cockpit = crate::t!("webhook-from-cockpit");
            let title = format!("gpumeter: {}", instance.unwrap_or(&cockpit));
            queue.push(Alert::new(level, key, title, text, Timestamp::now()));
        }
    }
}
