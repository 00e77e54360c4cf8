//! The seams between the samplers and what they read: NVML, the simulator, /proc, or a fake.

use std::time::Duration;

use super::sample::{GpuRound, HostSample};

/// Reads every GPU once. Implementations block (NVML is a C library), so the sampler calls them
/// on a thread of their own, never on the async runtime.
pub trait GpuSource: Send {
    /// `at` is the time since sampling started: the simulator's clock. Real sources ignore it.
    fn read(&mut self, at: Duration) -> GpuRound;

    /// Tries again to start after a failure (NVML init). Sources that cannot fail do nothing.
    fn retry(&mut self) {}
}

/// Reads the host once. Rates are computed against the previous read, using `at` (the time since
/// sampling started) rather than a clock, so a source is testable with made-up times.
pub trait HostSource: Send {
    fn read(&mut self, at: Duration) -> HostSample;
}
