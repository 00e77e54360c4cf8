//! What `verify` reads of a simulated card: NVML's facts and the benchmark's figures, shaped by
//! the scenario's `[card]` and `[bench]`, so every verdict can be reached without a GPU. The
//! card's state also shapes the ordinary readings (`gpus_at`) through the functions here: a
//! shared card's used memory and utilisation, a MIG slice's memory, a capped card's limit.

use std::time::Duration;

use super::facts::{ComputeMode, GpuFacts, RemappedRows};
use super::measured::{Figure, Measured};
use super::metric::{Metric, Unavailable, f64_to_u64};
use super::sample::{GpuProcess, MigInfo, ProcessKind};
use super::sim::{Simulator, Stream, pct};

const MIB_PER_GIB: f64 = 1024.0;
/// The benchmark's run-to-run spread: ± this share of each figure.
const BENCH_NOISE: f64 = 0.01;
/// Where the other tenant's host PIDs start: far from our own (4200 and up).
const FOREIGN_PID_BASE: u32 = 31_000;

impl Simulator {
    /// NVML's verify facts of every simulated GPU at `at`. The card's state holds for the whole
    /// run, so every `at` gives the same facts; they are read as under load (the PCIe link and
    /// the clock-event reasons as they are while the benchmark runs).
    pub fn facts_at(&self, at: Duration) -> Vec<GpuFacts> {
        let _ = at;
        let p = self.profile();
        let c = &self.config().scenario.card;
        let ecc = |n: u64| {
            if p.has_ecc {
                Metric::Value(n)
            } else {
                Metric::Unavailable(Unavailable::Unsupported)
            }
        };
        let ampere_or_later = p
            .compute_capability
            .split('.')
            .next()
            .and_then(|major| major.parse::<u32>().ok())
            .is_some_and(|major| major >= 8);
        // NVML: remapped rows are NOT_SUPPORTED while MIG is on; pages retire only before Ampere.
        let remaps = p.has_ecc && ampere_or_later && self.mig_slice_mib().is_none();
        let retires = p.has_ecc && !ampere_or_later;
        let unsupported = Metric::Unavailable(Unavailable::Unsupported);
        let (gen_max, width_max) = self.pcie_max();
        let gen_now = if c.pcie_gen == 0 {
            gen_max
        } else {
            c.pcie_gen.min(gen_max)
        };
        let width_now = if c.pcie_width == 0 {
            width_max
        } else {
            c.pcie_width.min(width_max)
        };
        (0..self.config().gpu_count)
            .map(|index| GpuFacts {
                index,
                compute_mode: Metric::Value(ComputeMode::Default),
                power_limit_w: Metric::Value(self.enforced_limit_w()),
                power_default_limit_w: Metric::Value(p.limit_w),
                power_max_limit_w: Metric::Value(p.limit_w),
                clock_event_reasons: Metric::Value(c.clock_event_reasons),
                sm_clock_max_mhz: Metric::Value(p.sm_clock_max_mhz),
                pcie_gen: Metric::Value(gen_now),
                pcie_width: Metric::Value(width_now),
                pcie_gen_max: Metric::Value(gen_max),
                pcie_width_max: Metric::Value(width_max),
                ecc_enabled: if p.has_ecc {
                    Metric::Value(true)
                } else {
                    Metric::Unavailable(Unavailable::Unsupported)
                },
                ecc_corrected_volatile: ecc(c.ecc_corrected),
                ecc_uncorrected_volatile: ecc(c.ecc_uncorrected),
                retired_pages: if retires {
                    Metric::Value(u64::from(c.bad_rows))
                } else {
                    unsupported
                },
                retired_pages_pending: if retires {
                    Metric::Value(c.bad_rows_pending)
                } else {
                    Metric::Unavailable(Unavailable::Unsupported)
                },
                remapped_rows: if remaps {
                    Metric::Value(RemappedRows {
                        corrected: 0,
                        uncorrected: c.bad_rows,
                        pending: c.bad_rows_pending,
                        failure: false,
                    })
                } else {
                    Metric::Unavailable(Unavailable::Unsupported)
                },
            })
            .collect()
    }

    /// What the benchmark measures on every simulated GPU when run at `at` for `seconds`: a
    /// healthy card of the model's figures, times the scenario's reach, with a little seeded
    /// noise.
    pub fn bench_at(&self, at: Duration, seconds: f64) -> Vec<Measured> {
        let healthy = self.profile().healthy;
        let reach = &self.config().scenario.bench;
        let no_bf16 = || Figure::NotRun {
            reason: format!(
                "no BF16 tensor cores before sm_80 (this card is sm_{})",
                self.profile().compute_capability.replace('.', "")
            ),
        };
        (0..self.config().gpu_count)
            .map(|index| {
                let figure = |k: u32, healthy: f64, reach: f64| Figure::Measured {
                    value: healthy
                        * reach
                        * (1.0 + self.jitter(Stream::Bench, index * 8 + k, at, BENCH_NOISE)),
                };
                Measured {
                    index,
                    pci_bus_id: Some(cuda_bus_id(index)),
                    mem_bandwidth_gbs: figure(0, healthy.mem_bandwidth_gbs, reach.mem_bandwidth),
                    fp32_tflops: figure(1, healthy.fp32_tflops, reach.fp32),
                    bf16_tflops: healthy
                        .bf16_tflops
                        .map_or_else(no_bf16, |h| figure(2, h, reach.bf16)),
                    fp16_tflops: figure(3, healthy.fp16_tflops, reach.fp16),
                    // Measured in the demo: it stands for a machine where cuBLAS can be loaded.
                    gemm_bf16_tflops: healthy
                        .bf16_tflops
                        .map_or_else(no_bf16, |h| figure(4, h, reach.gemm)),
                    sm_clock_mhz: Some(self.loaded_sm_clock_mhz()),
                    seconds,
                }
            })
            .collect()
    }

    /// The power limit in force: the model's default times the scenario's cap.
    pub(super) fn enforced_limit_w(&self) -> f64 {
        self.profile().limit_w * self.config().scenario.card.power_limit_fraction
    }

    /// The SM clock under load.
    pub(super) fn loaded_sm_clock_mhz(&self) -> u32 {
        let fraction = self.config().scenario.card.sm_clock_fraction;
        pct(f64::from(self.profile().sm_clock_max_mhz) * fraction)
    }

    /// The MIG instance this machine sees, when MIG is on (and the model has it).
    fn mig_slice_mib(&self) -> Option<u64> {
        let p = self.profile();
        let slice = self.config().scenario.card.mig_slice_mib;
        (p.mig_capable && slice > 0).then(|| slice.min(p.mem_total_mib))
    }

    pub(super) fn mig_info(&self) -> Metric<MigInfo> {
        if !self.profile().mig_capable {
            return Metric::Unavailable(Unavailable::Unsupported);
        }
        let slice = self.mig_slice_mib();
        Metric::Value(MigInfo {
            enabled: slice.is_some(),
            instance_mem_total_mib: slice.into_iter().collect(),
        })
    }

    /// The memory NVML reports as the total: the slice's under MIG, else the card's.
    pub(super) fn mem_total_mib(&self) -> u64 {
        self.mig_slice_mib().unwrap_or(self.profile().mem_total_mib)
    }

    /// Memory another tenant holds on each GPU.
    pub(super) fn foreign_mem_mib(&self) -> u64 {
        let gib = self.config().scenario.card.foreign_mem_gib;
        f64_to_u64(gib * MIB_PER_GIB).min(self.mem_total_mib())
    }

    /// The other tenant's processes as NVML lists them from inside a container: host PIDs
    /// with no name, command line or user, the tenant's memory split between them.
    pub(super) fn foreign_processes(&self, index: u32) -> Vec<GpuProcess> {
        let count = self.config().scenario.card.foreign_processes;
        if count == 0 {
            return Vec::new();
        }
        let share = self.foreign_mem_mib() / u64::from(count);
        (0..count)
            .map(|k| GpuProcess {
                pid: FOREIGN_PID_BASE + index * 64 + k,
                kind: ProcessKind::Compute,
                used_mem_mib: Metric::Value(share),
                name: None,
                cmdline: None,
                user: None,
            })
            .collect()
    }

    /// The PCIe link's maximum as NVML reports it: the lower of the card's and the slot's.
    fn pcie_max(&self) -> (u32, u32) {
        const CARD_WIDTH: u32 = 16;
        let c = &self.config().scenario.card;
        let card_gen = self.profile().pcie_gen_max;
        let lower = |slot: u32, card: u32| if slot == 0 { card } else { slot.min(card) };
        (
            lower(c.pcie_gen_max, card_gen),
            lower(c.pcie_width_max, CARD_WIDTH),
        )
    }
}

/// The PCI bus id of simulated GPU `index` as CUDA writes it (`0000:10:00.0`); NVML writes the
/// same device with an eight-digit domain (`00000000:10:00.0`).
fn cuda_bus_id(index: u32) -> String {
    format!("0000:{:02X}:00.0", 0x10 + index * 0x10)
}
