//! Where the bytes an instance sends go, and which of them are billed as internet egress.
//!
//! - [`class`]: the destinations the sheets price apart (intranet, cross-region, internet).
//! - [`routes`]: the bundled, sourced list of each provider's internal service ranges.
//! - [`classify`]: an address to its class, for one instance's provider and region.
//! - [`attribute`]: successive per-socket byte counters to bytes sent per class.

pub mod attribute;
pub mod class;
pub mod classify;
pub mod routes;

pub use attribute::Attributor;
pub use class::{EgressSplit, TrafficClass, counter_since};
pub use classify::Classifier;
