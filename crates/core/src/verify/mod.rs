//! `gpumeter verify`: did this machine give you the GPU you pay for? What NVML says of each card
//! ([`GpuFacts`], beside the ordinary [`GpuReading`]), what a short benchmark measured
//! ([`Measured`]), against what the card is rated to do ([`rated`]), become checks, each with the
//! measured and the rated value, and one verdict. Pure: readings and prices come in as arguments.
//!
//! [`GpuReading`]: crate::telemetry::GpuReading

mod checks_cuda;
mod checks_health;
mod checks_network;
mod checks_nvml;
mod checks_sku;
mod checks_tenant;
mod checks_throughput;
mod checks_torch;
pub mod compat;
mod gpu;
pub mod money;
pub mod network;
pub mod rated;
pub mod report;
mod said;
mod summary;
pub mod torch;

// The facts and figures are readings, so they live with the other readings in `telemetry`.
pub use crate::telemetry::facts::{ComputeMode, GpuFacts, RemappedRows};
pub use crate::telemetry::measured::{BenchError, BenchErrorKind, Figure, Measured};
pub use checks_throughput::shown_bench_error;
pub use network::{Download, NetworkInput};
pub use rated::{Quality, RatedGpu, rated_for};
pub use report::{Amount, Check, Reading, Thresholds, Verdict, VerifyInput, VerifyReport, assess};
pub use torch::TorchProbe;
