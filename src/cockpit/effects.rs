//! The one owner of the cockpit's background work: it runs every [`Effect`] `update` returns.
//! It holds the provider, the inventory's refresh signal, the GPU sampler's retry, the guard
//! link to the ledger and the fleet reader; answers come back to the loop as [`Event`]s.

use std::sync::Arc;
use std::sync::mpsc::Sender;

use tokio::sync::{Notify, mpsc};

use super::FleetReader;
use super::guard_link::Save;
use crate::app::{Effect, Event};
use crate::provider::Provider;
use crate::telemetry::SamplerHandle;

pub struct EffectRunner<'a> {
    pub provider: Arc<dyn Provider>,
    pub fleet: Option<FleetReader>,
    /// Wakes the inventory task for a read now.
    pub refresh: Arc<Notify>,
    pub gpu_sampler: &'a SamplerHandle,
    /// The guard row's writer; `None` when the cockpit shares no ledger.
    pub guard: Option<Sender<Save>>,
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
            Effect::SaveGuard {
                instance,
                deadline,
                on_expiry,
                grace,
            } => {
                if let Some(link) = &self.guard {
                    let _ = link.send(Save {
                        instance,
                        deadline,
                        on_expiry,
                        grace,
                    });
                }
            }
            Effect::Perform(action) => {
                let provider = Arc::clone(&self.provider);
                let tx = self.events.clone();
                tokio::spawn(async move {
                    let result = provider.perform(&action).await;
                    let _ = tx.send(Event::ActionDone { action, result }).await;
                });
            }
        }
    }
}
