//! What `verify` reads of each card through NVML beyond the ordinary round ([`GpuFacts`]):
//! compute mode, power limits, clock-event reasons, clocks, the PCIe link, ECC counts and
//! retired pages. Called on the thread that owns the [`NvmlSource`](super::NvmlSource), never on
//! the async runtime. A reading that fails keeps its reason, classified as the ordinary round
//! classifies it (NotSupported and a missing symbol: unsupported).
//!
//! The clock-event reasons and the PCIe link say most while the card works (the link trains
//! down to save power at idle), so they are also sampled while the benchmark runs
//! ([`LoadSample`]) and folded in with [`fold_load`].

use nvml_wrapper::enum_wrappers::device::{
    Clock, ComputeMode as NvmlComputeMode, EccCounter, MemoryError, RetirementCause,
};
use nvml_wrapper::{Device, Nvml};

use super::Metric;
use super::nvml::{kind, metric};
use gpumeter_core::verify::{ComputeMode, GpuFacts, RemappedRows};

/// The facts of every GPU NVML lists; a card that cannot be opened gives its reason for each.
pub fn read_all(nvml: &Nvml) -> Vec<GpuFacts> {
    let Ok(count) = nvml.device_count() else {
        return Vec::new();
    };
    (0..count)
        .map(|i| match nvml.device_by_index(i) {
            Ok(dev) => read_device(&dev, i),
            Err(e) => GpuFacts::unavailable(i, kind(&e)),
        })
        .collect()
}

/// One card's facts, read now.
pub fn read_device(dev: &Device<'_>, index: u32) -> GpuFacts {
    let load = read_load(dev);
    let ecc = |error| metric(dev.total_ecc_errors(error, EccCounter::Volatile));
    GpuFacts {
        index,
        compute_mode: metric(dev.compute_mode()).map(compute_mode),
        power_limit_w: metric(dev.enforced_power_limit()).map(watts),
        power_default_limit_w: metric(dev.power_management_limit_default()).map(watts),
        power_max_limit_w: metric(dev.power_management_limit_constraints())
            .map(|c| watts(c.max_limit)),
        clock_event_reasons: load.clock_event_reasons,
        sm_clock_max_mhz: metric(dev.max_clock_info(Clock::SM)),
        pcie_gen: load.pcie_gen,
        pcie_width: load.pcie_width,
        pcie_gen_max: metric(dev.max_pcie_link_gen()),
        pcie_width_max: metric(dev.max_pcie_link_width()),
        ecc_enabled: metric(dev.is_ecc_enabled()).map(|e| e.currently_enabled),
        ecc_corrected_volatile: ecc(MemoryError::Corrected),
        ecc_uncorrected_volatile: ecc(MemoryError::Uncorrected),
        retired_pages: retired_pages(dev),
        retired_pages_pending: metric(dev.are_pages_pending_retired()),
        remapped_rows: remapped_rows(dev),
    }
}

/// What NVML says of a card at one moment while the benchmark runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadSample {
    pub sm_clock_mhz: Metric<u32>,
    pub clock_event_reasons: Metric<u64>,
    pub pcie_gen: Metric<u32>,
    pub pcie_width: Metric<u32>,
}

/// The clock, the clock-event reasons and the PCIe link of `dev`, now.
pub fn read_load(dev: &Device<'_>) -> LoadSample {
    LoadSample {
        sm_clock_mhz: metric(dev.clock_info(Clock::SM)),
        // The wrapper drops bits it has no name for (the newer board-limit and reliability
        // reasons); the named ones are those the checks read.
        clock_event_reasons: metric(dev.current_throttle_reasons()).map(|r| r.bits()),
        pcie_gen: metric(dev.current_pcie_link_gen()),
        pcie_width: metric(dev.current_pcie_link_width()),
    }
}

/// `facts` as the card showed itself under load: every clock-event reason seen in any sample,
/// and the widest, fastest link seen (a link that never trains up under load is degraded).
/// Without a single readable sample, the facts read before the benchmark stand.
pub fn fold_load(facts: &mut GpuFacts, samples: &[LoadSample]) {
    if let Some(bits) = samples
        .iter()
        .filter_map(|s| s.clock_event_reasons.get())
        .reduce(|a, b| a | b)
    {
        facts.clock_event_reasons = Metric::Value(bits);
    }
    if let Some(gen_) = samples.iter().filter_map(|s| s.pcie_gen.get()).max() {
        facts.pcie_gen = Metric::Value(gen_);
    }
    if let Some(width) = samples.iter().filter_map(|s| s.pcie_width.get()).max() {
        facts.pcie_width = Metric::Value(width);
    }
}

/// The mean SM clock over the samples that read one, MHz.
pub fn mean_sm_clock(samples: &[LoadSample]) -> Option<u32> {
    let clocks: Vec<u64> = samples
        .iter()
        .filter_map(|s| s.sm_clock_mhz.get())
        .map(u64::from)
        .collect();
    let count = u64::try_from(clocks.len()).ok().filter(|n| *n > 0)?;
    u32::try_from(clocks.iter().sum::<u64>() / count).ok()
}

fn compute_mode(mode: NvmlComputeMode) -> ComputeMode {
    match mode {
        NvmlComputeMode::Default => ComputeMode::Default,
        NvmlComputeMode::ExclusiveThread => ComputeMode::ExclusiveThread,
        NvmlComputeMode::Prohibited => ComputeMode::Prohibited,
        NvmlComputeMode::ExclusiveProcess => ComputeMode::ExclusiveProcess,
    }
}

fn watts(milliwatts: u32) -> f64 {
    f64::from(milliwatts) / 1000.0
}

/// Pages retired for either cause (repeated single-bit errors, or one double-bit error).
fn retired_pages(dev: &Device<'_>) -> Metric<u64> {
    let count = |cause| {
        metric(dev.retired_pages(cause)).map(|pages| u64::try_from(pages.len()).unwrap_or(u64::MAX))
    };
    count(RetirementCause::MultipleSingleBitEccErrors)
        .zip(count(RetirementCause::DoubleBitEccError))
        .map(|(single, double)| single.saturating_add(double))
}

/// nvml-wrapper does not wrap `nvmlDeviceGetRemappedRows`: `gpumeter-driver` makes the call.
fn remapped_rows(dev: &Device<'_>) -> Metric<RemappedRows> {
    metric(gpumeter_driver::remapped_rows(dev))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::telemetry::Unavailable;

    fn sample(clock: Option<u32>, reasons: Option<u64>, gen_: Option<u32>) -> LoadSample {
        let m =
            |v: Option<u32>| v.map_or(Metric::Unavailable(Unavailable::Unsupported), Metric::Value);
        LoadSample {
            sm_clock_mhz: m(clock),
            clock_event_reasons: reasons.map_or(
                Metric::Unavailable(Unavailable::Failed("timeout")),
                Metric::Value,
            ),
            pcie_gen: m(gen_),
            pcie_width: m(gen_.map(|g| g * 4)),
        }
    }

    fn idle_facts() -> GpuFacts {
        let mut facts = GpuFacts::unavailable(0, Unavailable::Unsupported);
        facts.clock_event_reasons = Metric::Value(0x1);
        facts.pcie_gen = Metric::Value(1);
        facts.pcie_width = Metric::Value(4);
        facts
    }

    #[test]
    fn load_samples_give_every_reason_seen_and_the_best_link() {
        let mut facts = idle_facts();
        let samples = [
            sample(Some(1410), Some(0x4), Some(3)),
            sample(Some(1200), None, Some(4)),
            sample(None, Some(0x40), None),
        ];
        fold_load(&mut facts, &samples);
        assert_eq!(facts.clock_event_reasons, Metric::Value(0x44));
        assert_eq!(facts.pcie_gen, Metric::Value(4));
        assert_eq!(facts.pcie_width, Metric::Value(16));
        assert_eq!(mean_sm_clock(&samples), Some(1305));
    }

    #[test]
    fn without_a_readable_sample_the_idle_facts_stand() {
        let mut facts = idle_facts();
        let before = facts.clone();
        fold_load(&mut facts, &[sample(None, None, None)]);
        assert_eq!(facts, before);
        fold_load(&mut facts, &[]);
        assert_eq!(facts, before);
        assert_eq!(mean_sm_clock(&[sample(None, None, None)]), None);
        assert_eq!(mean_sm_clock(&[]), None);
    }

    /// On a machine without NVML: no library is lent out. With a driver: one set of facts per
    /// card, in NVML's order, each power limit a real wattage, and a load sample of each card.
    #[test]
    fn every_card_nvml_lists_has_its_facts() {
        use crate::telemetry::{GpuSource as _, NvmlConfig, NvmlSource};
        let mut source = NvmlSource::new(NvmlConfig { read_pcie: false });
        let round = source.read(std::time::Duration::ZERO);
        let Some(nvml) = source.nvml() else {
            assert!(round.is_err(), "a reading without a started library");
            return;
        };
        let reading = round.expect("NVML started, so the round reads");
        let facts = read_all(nvml);
        let indices: Vec<u32> = facts.iter().map(|f| f.index).collect();
        let listed: Vec<u32> = reading.gpus.iter().map(|g| g.index).collect();
        assert_eq!(indices, listed);
        for f in &facts {
            if let Some(w) = f.power_limit_w.get() {
                assert!(w > 1.0 && w < 5000.0, "GPU {}: {w} W", f.index);
            }
            let dev = nvml.device_by_index(f.index).expect("a listed card opens");
            let mut folded = f.clone();
            fold_load(&mut folded, &[read_load(&dev)]);
            assert_eq!(folded.index, f.index);
        }
    }

    #[test]
    fn milliwatts_become_watts() {
        assert!((watts(400_000) - 400.0).abs() < f64::EPSILON);
        assert!((watts(1) - 0.001).abs() < f64::EPSILON);
    }
}
