//! A reading with the instant it was asked for, and what the samplers send the cockpit.

use std::time::Duration;

use jiff::Timestamp;

use super::sample::{GpuRound, HostSample};

/// A reading with the time it was asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Stamped<T> {
    /// Since the sampler started, on the runtime's monotonic clock: the axis of the history.
    pub at: Duration,
    /// Wall-clock time, for display and the ledger.
    pub time: Timestamp,
    pub value: T,
}

/// What the samplers send. The app's event type takes it through `From<Telemetry>`.
#[derive(Debug, Clone, PartialEq)]
pub enum Telemetry {
    Gpu(Stamped<GpuRound>),
    Host(Stamped<HostSample>),
}
