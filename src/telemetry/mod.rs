//! Live telemetry: what the GPUs and the host are doing, read cheaply, never on the async
//! runtime, and honest about what could not be read.
//!
//! - [`sample`]: the plain data every source produces ([`GpuSample`], [`HostSample`], ...).
//!   Each reading that can fail is a [`Metric`]: a value or an [`Unavailable`] reason.
//! - [`source`]: the [`GpuSource`] and [`HostSource`] traits; [`nvml`], [`host`] and [`sim`]
//!   implement them.
//! - [`sampler`]: one task per source, sending [`Telemetry`] events over tokio mpsc.
//! - [`history`]: bounded rings per metric and window statistics.
//! - [`findings`]: what you paid for against what you got.

pub mod host;
pub mod nvml;
mod procfs;
mod procinfo;
pub mod sampler;
pub mod scenario;
pub mod sim;
mod sim_host;
pub mod source;

pub use gpumeter_core::telemetry::*;
pub use host::{HostConfig, HostReader};
pub use nvml::{NvmlConfig, NvmlSource};
pub use sampler::{SamplerConfig, SamplerHandle, spawn_gpu_sampler, spawn_host_sampler};
pub use scenario::{Scenario, ScenarioError};
pub use sim::{SimConfig, Simulator};
pub use source::{GpuSource, HostSource};

/// The mount points listed in the text of /proc/self/mounts.
pub fn mount_points(text: &str) -> Vec<std::path::PathBuf> {
    procfs::parse_mounts(text)
        .map(|m| std::path::PathBuf::from(m.mount))
        .collect()
}
