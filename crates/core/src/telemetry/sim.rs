//! A deterministic simulator of 1–8 GPUs and their host, driven by a [`Scenario`]. It backs
//! `--demo` and the tests.
//!
//! Every reading is a pure function of (seed, scenario, model, t): the simulator keeps no
//! state between reads and never reads a clock, so the same seed and `t` give the same sample and
//! tests can ask for t = 3 h without waiting. Noise comes from splitmix64 hashed over
//! (seed, stream, whole second): a few lines, stateless, so no `rand` dependency is needed.

mod profile;

use std::time::Duration;

pub(crate) use profile::{ModelProfile, model_profile};

use super::metric::{Metric, Unavailable, f64_to_u64};
use super::sample::{
    DriverInfo, GpuProcess, GpuReading, GpuRound, GpuSample, ProcessKind, Virtualization,
    power_weighted_load,
};
use super::scenario::Scenario;
use super::source::GpuSource;

/// The most GPUs one simulated machine has.
pub const MAX_SIM_GPUS: u32 = 8;

#[derive(Debug, Clone, PartialEq)]
pub struct SimConfig {
    pub seed: u64,
    /// As NVML names it, such as "NVIDIA A100-SXM4-80GB". Unknown names get a generic profile.
    pub gpu_model: String,
    pub gpu_count: u32,
    pub scenario: Scenario,
}

impl SimConfig {
    pub fn new(scenario: Scenario) -> Self {
        SimConfig {
            seed: 42,
            gpu_model: "NVIDIA A100-SXM4-80GB".to_owned(),
            gpu_count: 1,
            scenario,
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("the simulator runs 1 to {MAX_SIM_GPUS} GPUs, not {0}")]
pub struct GpuCountError(pub u32);

/// splitmix64's output function: a good 64-bit mix in a few lines.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Noise channels, so that utilisation and temperature are not the same random number.
#[derive(Clone, Copy)]
pub(super) enum Stream {
    Util = 1,
    Power,
    Temp,
    Pcie,
    Cpu,
    Core,
    Bench,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Simulator {
    config: SimConfig,
    profile: ModelProfile,
}

impl Simulator {
    pub fn new(config: SimConfig) -> Result<Self, GpuCountError> {
        if !(1..=MAX_SIM_GPUS).contains(&config.gpu_count) {
            return Err(GpuCountError(config.gpu_count));
        }
        let profile = model_profile(&config.gpu_model);
        Ok(Simulator { config, profile })
    }

    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    pub(super) fn profile(&self) -> ModelProfile {
        self.profile
    }

    /// Uniform in [0, 1), a pure function of the seed, the stream, the unit and the second.
    pub(super) fn noise(&self, stream: Stream, unit: u32, at: Duration) -> f64 {
        let key = (u64::from(unit) << 8) | stream as u64;
        let h = splitmix64(self.config.seed ^ splitmix64(key ^ splitmix64(at.as_secs())));
        // 52 random mantissa bits under exponent 0 give [1, 2).
        f64::from_bits(0x3FF0_0000_0000_0000 | (h >> 12)) - 1.0
    }

    /// Centred noise in [-amplitude, amplitude).
    pub(super) fn jitter(&self, stream: Stream, unit: u32, at: Duration, amplitude: f64) -> f64 {
        (self.noise(stream, unit, at) * 2.0 - 1.0) * amplitude
    }

    /// Every GPU at `at` seconds after the start.
    pub fn gpus_at(&self, at: Duration) -> GpuReading {
        let driver = &self.config.scenario.driver;
        GpuReading {
            driver: DriverInfo {
                driver_version: Metric::Value(driver.version.clone()),
                cuda_version: self
                    .config
                    .scenario
                    .driver_cuda()
                    .map_or(Metric::Unavailable(Unavailable::Unsupported), Metric::Value),
            },
            gpus: (0..self.config.gpu_count)
                .map(|i| self.gpu_at(i, at))
                .collect(),
        }
    }

    fn util_at(&self, index: u32, at: Duration) -> f64 {
        let g = &self.config.scenario.gpu;
        let secs = at.as_secs();
        // Dips close each cycle, so a run starts busy.
        let in_dip = g.dip_every_s > 0
            && secs % u64::from(g.dip_every_s)
                >= u64::from(g.dip_every_s.saturating_sub(g.dip_length_s));
        let base = if in_dip { g.dip_util_pct } else { g.util_pct };
        let own =
            (base + self.jitter(Stream::Util, index, at, g.util_jitter_pct)).clamp(0.0, 100.0);
        // NVML's utilisation is the share of time any kernel ran, whoever launched it.
        (own + self.config.scenario.card.foreign_util_pct).min(100.0)
    }

    /// A die follows its load with a lag of tens of seconds, not second by second: the mean
    /// utilisation of the last half minute, plus a drift that moves every ten seconds.
    fn temp_at(&self, index: u32, at: Duration) -> f64 {
        const LAG_S: u64 = 30;
        let secs = at.as_secs();
        let first = secs.saturating_sub(LAG_S - 1);
        let mean = (first..=secs)
            .map(|s| self.util_at(index, Duration::from_secs(s)))
            .sum::<f64>()
            / crate::telemetry::metric::u64_to_f64(secs - first + 1);
        let drift = self.jitter(Stream::Temp, index, Duration::from_secs(secs / 10), 1.0);
        32.0 + mean * 0.5 + drift + self.config.scenario.card.temp_extra_c
    }

    /// The memory our own processes hold (the workload's).
    fn own_mem_mib(&self, at: Duration) -> u64 {
        let g = &self.config.scenario.gpu;
        let total = self.mem_total_mib();
        let start = crate::telemetry::metric::u64_to_f64(total) * g.mem_used_fraction;
        let leaked = g.mem_leak_mib_per_min * at.as_secs_f64() / 60.0;
        f64_to_u64(start + leaked).min(total)
    }

    /// The mean power over the scenario's dip cycle, for the energy counter.
    fn mean_power_w(&self) -> f64 {
        let g = &self.config.scenario.gpu;
        let dip_share = if g.dip_every_s > 0 {
            (f64::from(g.dip_length_s) / f64::from(g.dip_every_s)).min(1.0)
        } else {
            0.0
        };
        let util = g.util_pct * (1.0 - dip_share) + g.dip_util_pct * dip_share;
        self.power_for(util, 0.5)
    }

    fn power_for(&self, util_pct: f64, noise: f64) -> f64 {
        let p = self.profile;
        let limit = self.enforced_limit_w();
        p.idle_w + (limit - p.idle_w) * util_pct / 100.0 * (0.85 + 0.1 * noise)
    }

    fn gpu_at(&self, index: u32, at: Duration) -> GpuSample {
        let p = self.profile;
        let util = self.util_at(index, at);
        let util_pct = Metric::Value(pct(util));
        let power_w = Metric::Value(self.power_for(util, self.noise(Stream::Power, index, at)));
        let power_limit_w = Metric::Value(self.enforced_limit_w());
        let own_mem = self.own_mem_mib(at);
        // NVML's used memory is device-wide: another tenant's counts whether listed or not.
        let mem_used = (own_mem + self.foreign_mem_mib()).min(self.mem_total_mib());
        // The driver loaded some hours before the instance was handed over.
        let energy_start = 3_600.0 * p.idle_w * (1.0 + f64::from(index));
        let busy = util > 5.0;
        let pcie = |dir: u32| {
            let n = self.noise(Stream::Pcie, index * 2 + dir, at);
            pct(util) * 120 + f64_to_u32(n * 400.0)
        };
        GpuSample {
            index,
            name: Metric::Value(self.config.gpu_model.clone()),
            uuid: Metric::Value(format!(
                "GPU-5eed{:04x}-0000-4000-8000-{index:012}",
                self.config.seed & 0xffff
            )),
            pci_bus_id: Metric::Value(format!("00000000:{:02X}:00.0", 0x10 + index * 0x10)),
            power_weighted_load_pct: power_weighted_load(&util_pct, &power_w, &power_limit_w),
            util_pct,
            mem_util_pct: Metric::Value(pct(util * 0.6)),
            mem_used_mib: Metric::Value(mem_used),
            mem_total_mib: Metric::Value(self.mem_total_mib()),
            power_w,
            power_limit_w,
            energy_j: Metric::Value(energy_start + self.mean_power_w() * at.as_secs_f64()),
            temp_c: Metric::Value(pct(self.temp_at(index, at))),
            sm_clock_mhz: Metric::Value(if busy {
                self.loaded_sm_clock_mhz()
            } else {
                210
            }),
            mem_clock_mhz: Metric::Value(p.mem_clock_mhz),
            fan_pct: if p.has_fan {
                Metric::Value(pct(30.0 + util * 0.5))
            } else {
                Metric::Unavailable(Unavailable::Unsupported)
            },
            pcie_tx_kib_s: Metric::Value(pcie(0)),
            pcie_rx_kib_s: Metric::Value(pcie(1)),
            mig: self.mig_info(),
            virtualization: Metric::Value(Virtualization::Passthrough),
            compute_capability: Metric::Value(p.compute_capability.to_owned()),
            processes: Metric::Value(self.processes(index, own_mem)),
        }
    }

    /// Our own processes, then the other tenant's that NVML lists.
    fn processes(&self, index: u32, own_mem_mib: u64) -> Vec<GpuProcess> {
        let g = &self.config.scenario.gpu;
        let count = g.processes;
        let foreign = self.foreign_processes(index);
        if count == 0 {
            return foreign;
        }
        // The CUDA context itself takes some memory; the rest is split between the processes.
        let share = own_mem_mib.saturating_sub(500) / u64::from(count);
        let name = g
            .process_cmdline
            .split_whitespace()
            .next()
            .and_then(|exe| exe.rsplit('/').next())
            .map(str::to_owned);
        (0..count)
            .map(|k| GpuProcess {
                pid: 4200 + index * 64 + k,
                kind: ProcessKind::Compute,
                used_mem_mib: Metric::Value(share),
                name: name.clone(),
                cmdline: Some(g.process_cmdline.clone()),
                user: Some(g.process_user.clone()),
            })
            .chain(foreign)
            .collect()
    }
}

impl GpuSource for Simulator {
    fn read(&mut self, at: Duration) -> GpuRound {
        Ok(self.gpus_at(at))
    }
}

/// A percentage (or any small non-negative quantity) as a whole number.
pub(crate) fn pct(x: f64) -> u32 {
    f64_to_u32(x)
}

fn f64_to_u32(x: f64) -> u32 {
    u32::try_from(f64_to_u64(x)).unwrap_or(u32::MAX)
}
