//! The scenario's `[card]` and `[bench]` tables: the state the card was handed over in (another
//! tenant on it, a MIG slice, a lowered power limit, throttling, a narrow PCIe link, memory
//! errors) and how far the benchmark gets on it. Every key defaults to a healthy, dedicated
//! card, so a file without these tables describes one.

use serde::Deserialize;

use super::Broken;

/// The card as rented. Memory in GiB or MiB as named, fractions 0–1.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CardBehaviour {
    /// Memory another tenant holds on each GPU. NVML's used memory is device-wide, so it
    /// counts this whether or not the tenant's processes are listed.
    pub foreign_mem_gib: f64,
    /// Utilisation another tenant adds on each GPU, percent.
    pub foreign_util_pct: f64,
    /// How many of the tenant's processes NVML lists on each GPU: host PIDs without a name,
    /// as a container sees them. 0: none is listed, only the memory and load show.
    pub foreign_processes: u32,
    /// MIG on, and this machine sees one instance of this many MiB (0: MIG off). Ignored on
    /// models without MIG.
    pub mig_slice_mib: u64,
    /// The enforced power limit as a share of the model's default limit.
    pub power_limit_fraction: f64,
    /// NVML's clock-event reason bits while the card is loaded (0x4 SW power cap, 0x8 HW
    /// slowdown, 0x20 SW thermal, 0x40 HW thermal, 0x80 power brake).
    pub clock_event_reasons: u64,
    /// The SM clock under load as a share of the model's maximum.
    pub sm_clock_fraction: f64,
    /// Degrees Celsius above what the load alone would give (a failed fan, a hot rack).
    pub temp_extra_c: f64,
    /// The PCIe link NVML reports as its maximum (the lower of card and slot); 0: the card's.
    pub pcie_gen_max: u32,
    pub pcie_width_max: u32,
    /// The PCIe link now, under load; 0: the maximum.
    pub pcie_gen: u32,
    pub pcie_width: u32,
    /// ECC errors since the driver loaded (on models with ECC).
    pub ecc_corrected: u64,
    pub ecc_uncorrected: u64,
    /// Rows remapped (Ampere and later) or pages retired (before) for uncorrectable errors.
    pub bad_rows: u32,
    /// A remap or retirement waits for the next GPU reset.
    pub bad_rows_pending: bool,
}

impl Default for CardBehaviour {
    fn default() -> Self {
        CardBehaviour {
            foreign_mem_gib: 0.0,
            foreign_util_pct: 0.0,
            foreign_processes: 0,
            mig_slice_mib: 0,
            power_limit_fraction: 1.0,
            clock_event_reasons: 0,
            sm_clock_fraction: 1.0,
            temp_extra_c: 0.0,
            pcie_gen_max: 0,
            pcie_width_max: 0,
            pcie_gen: 0,
            pcie_width: 0,
            ecc_corrected: 0,
            ecc_uncorrected: 0,
            bad_rows: 0,
            bad_rows_pending: false,
        }
    }
}

/// What the benchmark reaches on this card, as a share of what a healthy card of the same
/// model measures (1.0 = healthy; a healthy card itself measures below its rated figures).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BenchReach {
    pub mem_bandwidth: f64,
    pub fp32: f64,
    pub bf16: f64,
    pub fp16: f64,
    /// The cuBLAS BF16 matrix multiply.
    pub gemm: f64,
}

impl Default for BenchReach {
    fn default() -> Self {
        BenchReach {
            mem_bandwidth: 1.0,
            fp32: 1.0,
            bf16: 1.0,
            fp16: 1.0,
            gemm: 1.0,
        }
    }
}

impl CardBehaviour {
    pub(super) fn check(&self) -> Result<(), Broken> {
        if !self.foreign_mem_gib.is_finite() || self.foreign_mem_gib < 0.0 {
            return Err(Broken::Rule(crate::t!(
                "scenario-zero-or-more",
                key = "card.foreign_mem_gib"
            )));
        }
        if !(0.0..=100.0).contains(&self.foreign_util_pct) {
            return Err(Broken::Rule(crate::t!(
                "scenario-between",
                key = "card.foreign_util_pct",
                low = "0",
                high = "100"
            )));
        }
        if self.foreign_processes > 64 {
            return Err(Broken::Rule(crate::t!(
                "scenario-at-most",
                key = "card.foreign_processes",
                high = "64"
            )));
        }
        let shares = [
            ("card.power_limit_fraction", self.power_limit_fraction),
            ("card.sm_clock_fraction", self.sm_clock_fraction),
        ];
        for (key, v) in shares {
            if !(v > 0.0 && v <= 1.0) {
                return Err(Broken::NotShare { key, value: v });
            }
        }
        if !(0.0..=100.0).contains(&self.temp_extra_c) {
            return Err(Broken::Rule(crate::t!(
                "scenario-between",
                key = "card.temp_extra_c",
                low = "0",
                high = "100"
            )));
        }
        if self.pcie_gen_max > 6 || self.pcie_gen > 6 {
            return Err(Broken::Rule(crate::t!("scenario-gen-up-to", high = "6")));
        }
        let widths = [1, 2, 4, 8, 12, 16, 32];
        for (key, w) in [
            ("card.pcie_width", self.pcie_width),
            ("card.pcie_width_max", self.pcie_width_max),
        ] {
            if w != 0 && !widths.contains(&w) {
                return Err(Broken::NotWidth { key, value: w });
            }
        }
        if self.pcie_gen_max != 0 && self.pcie_gen > self.pcie_gen_max {
            return Err(Broken::Rule(crate::t!(
                "scenario-above",
                key = "card.pcie_gen",
                limit = "card.pcie_gen_max"
            )));
        }
        if self.pcie_width_max != 0 && self.pcie_width > self.pcie_width_max {
            return Err(Broken::Rule(crate::t!(
                "scenario-above",
                key = "card.pcie_width",
                limit = "card.pcie_width_max"
            )));
        }
        Ok(())
    }
}

impl BenchReach {
    pub(super) fn check(&self) -> Result<(), Broken> {
        let reach = [
            ("bench.mem_bandwidth", self.mem_bandwidth),
            ("bench.fp32", self.fp32),
            ("bench.bf16", self.bf16),
            ("bench.fp16", self.fp16),
            ("bench.gemm", self.gemm),
        ];
        for (key, v) in reach {
            if !(0.0..=1.5).contains(&v) {
                return Err(Broken::NotReach { key, value: v });
            }
        }
        Ok(())
    }
}
