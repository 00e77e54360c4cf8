//! `gpumeter serve`: the telemetry, the cost, the deadline and the guards as a Prometheus
//! endpoint. Samplers and the provider are read in the background on their own schedule; each
//! new [`Snapshot`] is rendered once into a [`Page`], and a scrape answers with the newest page,
//! never waiting on NVML or the provider.

pub mod collect;
pub mod exposition;
pub mod http;
pub mod page;
pub mod run;
pub mod snapshot;

pub use collect::{Collector, Input, NoInventory};
pub use exposition::{CONTENT_TYPE, render};
pub use page::Page;
pub use run::{ServeSources, serve};
pub use snapshot::{BalanceFacts, CostFacts, GuardFacts, InstanceFacts, Snapshot, Target};
