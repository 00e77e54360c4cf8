//! What `verify` reads of a simulated card: NVML's facts and the benchmark's figures, shaped by
//! the scenario, so every verdict can be reached without a GPU.

use std::time::Duration;

use super::sim::Simulator;
use crate::verify::{GpuFacts, Measured};

impl Simulator {
    /// NVML's verify facts of every simulated GPU at `at`.
    pub fn facts_at(&self, at: Duration) -> Vec<GpuFacts> {
        let _ = at;
        todo!("built with the verify scenarios")
    }

    /// What the benchmark measures on every simulated GPU when run at `at` for `seconds`.
    pub fn bench_at(&self, at: Duration, seconds: f64) -> Vec<Measured> {
        let _ = (at, seconds);
        todo!("built with the verify scenarios")
    }
}
