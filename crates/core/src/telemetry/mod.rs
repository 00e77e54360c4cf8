//! What the GPUs and the host report, as plain data: the sources that read them (NVML, /proc,
//! the simulator) and the samplers that keep their beat live at the edge.
//!
//! - [`sample`]: the readings ([`GpuSample`], [`HostSample`], ...). Each reading that can fail
//!   is a [`Metric`]: a value or an [`Unavailable`] reason.
//! - [`stamped`]: a reading with its instant, and the [`Telemetry`] the samplers send.
//! - [`history`]: bounded rings per metric and window statistics.
//! - [`findings`]: what you paid for against what you got; [`memory_full`]: memory about to run out.
//! - [`facts`] and [`measured`]: what `verify` reads of a card beyond the cockpit's readings,
//!   and what its benchmark measured.
//! - [`source`]: the seams the samplers read through; [`sim`] is the seeded simulator behind
//!   the demo and the tests, driven by a [`scenario`].

pub mod facts;
pub mod findings;
pub mod history;
pub mod measured;
pub mod memory_full;
pub mod metric;
pub mod sample;
pub mod scenario;
pub mod sim;
mod sim_host;
mod sim_verify;
pub mod source;
pub mod stamped;

pub use findings::{
    CpuBoundRule, Expectations, Finding, Severity, assess, check_cuda, compare_sku, cpu_bound,
    model_matches,
};
pub use history::{GpuSeries, HistoryConfig, HostSeries, Series, TelemetryHistory, WindowStats};
pub use memory_full::{MemoryFull, MemoryFullRule, full_gpus, memory_full};
pub use metric::{Metric, Unavailability, Unavailable};
pub use sample::{
    CudaVersion, DiskUsage, DriverInfo, GPU_LOST, GpuProcess, GpuReading, GpuRound, GpuSample,
    GpuUnavailable, GpuUnavailableKind, HostSample, LoadAvg, Memory, MigInfo, NetInterface,
    ProcessKind, Virtualization, power_weighted_load,
};
pub use scenario::{Scenario, ScenarioError};
pub use sim::{SimConfig, Simulator};
pub use source::{GpuSource, HostSource};
pub use stamped::{Stamped, Telemetry};
