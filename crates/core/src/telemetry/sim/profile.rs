//! What each simulated model looks like: to NVML when idle and at full load, and to the
//! benchmark when healthy.

/// What a model looks like to NVML when idle and at full load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ModelProfile {
    pub mem_total_mib: u64,
    pub idle_w: f64,
    pub limit_w: f64,
    pub sm_clock_max_mhz: u32,
    pub mem_clock_mhz: u32,
    /// Data-centre cards are passively cooled: NVML reports no fan.
    pub has_fan: bool,
    pub mig_capable: bool,
    pub compute_capability: &'static str,
    /// The highest PCIe generation the card links at (all these cards have 16 lanes).
    pub pcie_gen_max: u32,
    pub has_ecc: bool,
    pub healthy: HealthyFigures,
}

/// What the benchmark measures on a healthy card of a model. These are typical healthy
/// measurements, not the rated table (that lives in `verify`): about 80 % of the rated memory
/// bandwidth (device copies reach 73–90 %, chsasank/device-benchmarks), about 85 % of the dense
/// BF16/FP16 figure (large cuBLAS GEMMs reach 80–87 % on A100/H100, stas00/ml-engineering
/// `compute/accelerator`) and about 90 % of FP32 (an FMA loop). The rated figures they are
/// taken from are NVIDIA's product pages and datasheets (A100, H100, L4, T4), the Ada
/// whitepaper's as llm.c's `mfu.h` lists them (RTX 4090), and an estimate for the A10G, for
/// which NVIDIA publishes no datasheet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct HealthyFigures {
    pub mem_bandwidth_gbs: f64,
    pub fp32_tflops: f64,
    /// `None` where the model has no BF16 tensor cores (before sm_80).
    pub bf16_tflops: Option<f64>,
    /// Tensor cores, FP32 accumulate.
    pub fp16_tflops: f64,
}

const fn healthy(bw: f64, fp32: f64, bf16: Option<f64>, fp16: f64) -> HealthyFigures {
    HealthyFigures {
        mem_bandwidth_gbs: bw,
        fp32_tflops: fp32,
        bf16_tflops: bf16,
        fp16_tflops: fp16,
    }
}

/// Profiles for the common rental models; matched by a substring of the NVML name.
const PROFILES: [(&str, ModelProfile); 7] = [
    (
        "A100-SXM4-80GB",
        profile(81_920, 62.0, 400.0, 1410, 1593, false, true, "8.0").verify(
            4,
            true,
            healthy(1631.0, 17.6, Some(265.0), 265.0),
        ),
    ),
    (
        "A100-SXM4-40GB",
        profile(40_960, 55.0, 400.0, 1410, 1215, false, true, "8.0").verify(
            4,
            true,
            healthy(1244.0, 17.6, Some(265.0), 265.0),
        ),
    ),
    (
        "H100 80GB HBM3",
        profile(81_559, 72.0, 700.0, 1980, 2619, false, true, "9.0").verify(
            5,
            true,
            healthy(2680.0, 60.3, Some(841.0), 841.0),
        ),
    ),
    (
        "L4",
        profile(23_034, 16.0, 72.0, 2040, 6251, false, false, "8.9").verify(
            4,
            true,
            healthy(240.0, 27.3, Some(102.9), 102.9),
        ),
    ),
    (
        "A10G",
        profile(23_028, 25.0, 300.0, 1710, 6251, true, false, "8.6").verify(
            4,
            true,
            healthy(480.0, 31.5, Some(59.5), 59.5),
        ),
    ),
    (
        "RTX 4090",
        profile(24_564, 20.0, 450.0, 2520, 10_501, true, false, "8.9").verify(
            4,
            false,
            healthy(806.0, 74.3, Some(140.4), 140.4),
        ),
    ),
    (
        "T4",
        profile(15_360, 10.0, 70.0, 1590, 5001, false, false, "7.5").verify(
            3,
            true,
            healthy(256.0, 7.3, None, 55.3),
        ),
    ),
];

/// An invented mid-range card for names the table does not know; its figures are no model's.
const GENERIC: ModelProfile = profile(24_576, 30.0, 300.0, 1800, 5000, true, false, "8.0").verify(
    4,
    false,
    healthy(480.0, 27.0, Some(102.0), 102.0),
);

#[expect(clippy::too_many_arguments, reason = "a table row")]
const fn profile(
    mem_total_mib: u64,
    idle_w: f64,
    limit_w: f64,
    sm_clock_max_mhz: u32,
    mem_clock_mhz: u32,
    has_fan: bool,
    mig_capable: bool,
    compute_capability: &'static str,
) -> ModelProfile {
    ModelProfile {
        mem_total_mib,
        idle_w,
        limit_w,
        sm_clock_max_mhz,
        mem_clock_mhz,
        has_fan,
        mig_capable,
        compute_capability,
        pcie_gen_max: 4,
        has_ecc: false,
        healthy: healthy(0.0, 0.0, None, 0.0),
    }
}

impl ModelProfile {
    /// The facts `verify` reads beyond the cockpit's: the PCIe generation, ECC and what a
    /// healthy card of the model measures.
    const fn verify(mut self, pcie_gen_max: u32, has_ecc: bool, healthy: HealthyFigures) -> Self {
        self.pcie_gen_max = pcie_gen_max;
        self.has_ecc = has_ecc;
        self.healthy = healthy;
        self
    }
}

pub(crate) fn model_profile(name: &str) -> ModelProfile {
    PROFILES
        .iter()
        .find(|(key, _)| name.contains(key))
        .map_or(GENERIC, |(_, p)| *p)
}
