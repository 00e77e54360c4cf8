//! What NVML can see of one card beyond the cockpit's readings: the facts that tell a shared,
//! sliced, capped or degraded card from a dedicated one. Every reading that can fail is a
//! [`Metric`]: a card or driver that does not offer a reading says so, and unknown is never
//! read as fine.

use serde::Serialize;

use super::Metric;

/// One GPU's facts, read once by `verify` (NVML at the edge, the simulator in the demo).
/// The model, memory, MIG, vGPU, utilisation, processes and compute capability come from the
/// same index's [`crate::telemetry::GpuSample`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GpuFacts {
    pub index: u32,
    pub compute_mode: Metric<ComputeMode>,
    /// The power limit in force after every limiter (NVML's enforced limit).
    pub power_limit_w: Metric<f64>,
    /// The limit the card ships with.
    pub power_default_limit_w: Metric<f64>,
    /// The highest limit that may be set.
    pub power_max_limit_w: Metric<f64>,
    /// NVML's clock-event (throttle) reason bits, as read while the benchmark ran when it ran
    /// (`nvmlClocksEventReason*`: 0x4 power cap, 0x8 HW slowdown, 0x20 SW thermal, 0x40 HW
    /// thermal, 0x80 power brake, ...).
    pub clock_event_reasons: Metric<u64>,
    pub sm_clock_max_mhz: Metric<u32>,
    /// The PCIe link now (it drops at idle to save power, so read it under load).
    pub pcie_gen: Metric<u32>,
    pub pcie_width: Metric<u32>,
    /// The most the link can do: the lower of the card's and the slot's.
    pub pcie_gen_max: Metric<u32>,
    pub pcie_width_max: Metric<u32>,
    pub ecc_enabled: Metric<bool>,
    /// Since the driver loaded.
    pub ecc_corrected_volatile: Metric<u64>,
    pub ecc_uncorrected_volatile: Metric<u64>,
    /// Pages retired for errors (cards before Ampere).
    pub retired_pages: Metric<u64>,
    pub retired_pages_pending: Metric<bool>,
    /// Rows remapped for errors (Ampere and later).
    pub remapped_rows: Metric<RemappedRows>,
}

impl GpuFacts {
    /// A card of which none of these facts could be read, each for the same reason.
    pub fn unavailable(index: u32, why: crate::telemetry::Unavailable) -> Self {
        GpuFacts {
            index,
            compute_mode: Metric::Unavailable(why),
            power_limit_w: Metric::Unavailable(why),
            power_default_limit_w: Metric::Unavailable(why),
            power_max_limit_w: Metric::Unavailable(why),
            clock_event_reasons: Metric::Unavailable(why),
            sm_clock_max_mhz: Metric::Unavailable(why),
            pcie_gen: Metric::Unavailable(why),
            pcie_width: Metric::Unavailable(why),
            pcie_gen_max: Metric::Unavailable(why),
            pcie_width_max: Metric::Unavailable(why),
            ecc_enabled: Metric::Unavailable(why),
            ecc_corrected_volatile: Metric::Unavailable(why),
            ecc_uncorrected_volatile: Metric::Unavailable(why),
            retired_pages: Metric::Unavailable(why),
            retired_pages_pending: Metric::Unavailable(why),
            remapped_rows: Metric::Unavailable(why),
        }
    }
}

/// NVML's compute mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ComputeMode {
    /// Any number of processes may share the card.
    Default,
    ExclusiveThread,
    /// No process may create a context.
    Prohibited,
    /// One process (one context) at a time.
    ExclusiveProcess,
}

/// `nvmlDeviceGetRemappedRows`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RemappedRows {
    pub corrected: u32,
    pub uncorrected: u32,
    /// A remap waits for the next GPU reset.
    pub pending: bool,
    /// The remapper has failed before: the card is out of spare rows.
    pub failure: bool,
}
