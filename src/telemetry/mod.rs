//! Live telemetry: what the GPUs and the host are doing, read cheaply, never on the async
//! runtime, and honest about what could not be read.
//!
//! - [`sample`]: the plain data every source produces ([`GpuSample`], [`HostSample`], ...).
//!   Each reading that can fail is a [`Metric`]: a value or an [`Unavailable`] reason.
//! - [`source`]: the [`GpuSource`] and [`HostSource`] traits, in the core with the seeded
//!   simulator ([`sim`]); [`nvml`] and [`host`] implement them for the real machine.
//! - [`nvml_facts`]: what `verify` reads of each card beyond the ordinary round.
//! - [`scenario_file`]: a scenario by name or from a file.
//! - [`sampler`]: one task per source, sending [`Telemetry`] events over tokio mpsc.
//! - [`history`]: bounded rings per metric and window statistics.
//! - [`findings`]: what you paid for against what you got.
//! - [`sockets`]: the bytes each TCP socket sent, by destination, for traffic by class.

pub mod host;
pub mod nvml;
pub mod nvml_facts;
mod procfs;
mod procinfo;
pub mod sampler;
pub mod scenario_file;
pub mod sockets;

pub use gpumeter_core::telemetry::*;
pub use host::{HostConfig, HostReader};
pub use nvml::{NvmlConfig, NvmlSource};
pub use sampler::{SamplerConfig, SamplerHandle, spawn_gpu_sampler, spawn_host_sampler};

/// The mount points listed in the text of /proc/self/mounts.
pub fn mount_points(text: &str) -> Vec<std::path::PathBuf> {
    procfs::parse_mounts(text)
        .map(|m| std::path::PathBuf::from(m.mount))
        .collect()
}
