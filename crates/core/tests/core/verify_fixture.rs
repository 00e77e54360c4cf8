//! Machines built by hand for the verify checks: a healthy card to start from, changed one fact
//! at a time by each test.

use gpumeter_core::money::{Currency, Money};
use gpumeter_core::pricing::Sku;
use gpumeter_core::telemetry::{
    CudaVersion, DriverInfo, GpuProcess, GpuReading, GpuSample, Metric, MigInfo, ProcessKind,
    Unavailable, Virtualization,
};
use gpumeter_core::verify::{
    BenchError, Check, ComputeMode, Figure, GpuFacts, Measured, NetworkInput, RatedGpu,
    RemappedRows, Thresholds, TorchProbe, VerifyInput, VerifyReport, assess, rated_for,
};
use rust_decimal::Decimal;

/// What a healthy card measures of its rating in these tests (large GEMMs reach 80–87 %).
pub const HEALTHY: f64 = 0.85;

pub struct Machine {
    pub reading: GpuReading,
    pub idle: Vec<GpuReading>,
    pub facts: Vec<GpuFacts>,
    pub measured: Vec<Measured>,
    pub bench_error: Option<BenchError>,
    pub sku: Option<Sku>,
    pub hourly: Option<Money>,
    pub require_cuda: Option<CudaVersion>,
    pub thresholds: Thresholds,
    pub torch: Option<TorchProbe>,
    pub network: Option<NetworkInput>,
}

pub fn row(name: &str) -> &'static RatedGpu {
    rated_for(name, None).unwrap_or_else(|| panic!("{name} is in the rated table"))
}

pub fn sample(index: u32, name: &str, mem_total_mib: u64) -> GpuSample {
    let mut s = GpuSample::unavailable(index, Unavailable::Unsupported);
    s.name = Metric::Value(name.to_owned());
    s.pci_bus_id = Metric::Value(format!("00000000:{:02X}:00.0", 0x17 + index));
    s.mem_total_mib = Metric::Value(mem_total_mib);
    s.mem_used_mib = Metric::Value(4);
    s.util_pct = Metric::Value(0);
    s.mig = Metric::Value(MigInfo {
        enabled: false,
        instance_mem_total_mib: Vec::new(),
    });
    s.virtualization = Metric::Value(Virtualization::BareMetal);
    s.processes = Metric::Value(Vec::new());
    s.compute_capability = match rated_for(name, Some(mem_total_mib)) {
        Some(r) => Metric::Value(format!(
            "{}.{}",
            r.compute_capability.0, r.compute_capability.1
        )),
        None => Metric::Value("9.0".to_owned()),
    };
    s
}

pub fn process(pid: u32, mib: u64, ours: bool) -> GpuProcess {
    GpuProcess {
        pid,
        kind: ProcessKind::Compute,
        used_mem_mib: Metric::Value(mib),
        name: ours.then(|| "python3".to_owned()),
        cmdline: None,
        user: None,
    }
}

/// The facts of a dedicated, healthy card of `rated`'s model.
pub fn facts(index: u32, rated: Option<&RatedGpu>) -> GpuFacts {
    let power = rated
        .and_then(|r| r.board_power_w)
        .map_or(300.0, |p| p.value);
    let (generation, width) = rated
        .and_then(|r| r.pcie)
        .map_or((4, 16), |l| (l.generation, l.width));
    let mut f = GpuFacts::unavailable(index, Unavailable::Unsupported);
    f.compute_mode = Metric::Value(ComputeMode::Default);
    f.power_limit_w = Metric::Value(power);
    f.power_default_limit_w = Metric::Value(power);
    f.power_max_limit_w = Metric::Value(power);
    f.clock_event_reasons = Metric::Value(0);
    f.sm_clock_max_mhz = Metric::Value(1410);
    f.pcie_gen = Metric::Value(generation);
    f.pcie_width = Metric::Value(width);
    f.pcie_gen_max = Metric::Value(generation);
    f.pcie_width_max = Metric::Value(width);
    f.ecc_enabled = Metric::Value(true);
    f.ecc_corrected_volatile = Metric::Value(0);
    f.ecc_uncorrected_volatile = Metric::Value(0);
    f.retired_pages_pending = Metric::Value(false);
    f.remapped_rows = Metric::Value(RemappedRows {
        corrected: 0,
        uncorrected: 0,
        pending: false,
        failure: false,
    });
    f
}

fn figure(rated: Option<f64>, share: f64, missing: &str) -> Figure {
    match rated {
        Some(r) => Figure::Measured { value: r * share },
        None => Figure::NotRun {
            reason: missing.to_owned(),
        },
    }
}

/// What the benchmark measures on a card reaching `share` of every rated figure.
pub fn measured(index: u32, rated: &RatedGpu, share: f64) -> Measured {
    let bf16 = rated.bf16_tflops.map(|r| r.value);
    Measured {
        index,
        pci_bus_id: Some(format!("0000:{:02X}:00.0", 0x17 + index)),
        mem_bandwidth_gbs: Figure::Measured {
            value: rated.memory_bandwidth_gbs.value * share,
        },
        fp32_tflops: Figure::Measured {
            value: rated.fp32_tflops.value * share,
        },
        bf16_tflops: figure(bf16, share, "no BF16 tensor cores before sm_80"),
        fp16_tflops: figure(rated.fp16_tflops.map(|r| r.value), share, "not run"),
        gemm_bf16_tflops: figure(bf16, share, "no BF16 tensor cores before sm_80"),
        sm_clock_mhz: Some(1410),
        seconds: 20.0,
    }
}

pub fn sku(model: &str, count: u32, gib: u32) -> Sku {
    Sku {
        name: "test.sku".into(),
        gpu_model: model.into(),
        gpu_count: count,
        gpu_memory_gib: Decimal::from(gib),
        on_demand_per_hour: None,
        spot_per_hour: None,
        monthly: None,
        daily: None,
        weekly: None,
        yearly: None,
        compute_units: None,
    }
}

impl Machine {
    /// `count` healthy cards NVML names `name`, each reporting `mib` of memory, benchmarked at
    /// [`HEALTHY`], three idle readings with nothing running.
    pub fn healthy(name: &str, mib: u64, count: u32) -> Self {
        let rated = rated_for(name, Some(mib));
        let gpus: Vec<GpuSample> = (0..count).map(|i| sample(i, name, mib)).collect();
        let reading = GpuReading {
            driver: DriverInfo {
                driver_version: Metric::Value("580.65.06".into()),
                cuda_version: Metric::Value(CudaVersion {
                    major: 13,
                    minor: 0,
                }),
            },
            gpus,
        };
        Machine {
            idle: vec![reading.clone(); 3],
            reading,
            facts: (0..count).map(|i| facts(i, rated)).collect(),
            measured: rated.map_or_else(Vec::new, |r| {
                (0..count).map(|i| measured(i, r, HEALTHY)).collect()
            }),
            bench_error: None,
            sku: None,
            hourly: None,
            require_cuda: None,
            thresholds: Thresholds::default(),
            torch: None,
            network: None,
        }
    }

    pub fn a100() -> Self {
        Machine::healthy("NVIDIA A100-SXM4-80GB", 81_920, 1)
    }

    pub fn hourly(mut self, amount: Decimal) -> Self {
        self.hourly = Some(Money::new(amount, Currency::USD));
        self
    }

    /// Changes GPU 0 in the round and in every idle reading.
    pub fn gpu0(mut self, change: impl Fn(&mut GpuSample)) -> Self {
        change(&mut self.reading.gpus[0]);
        for r in &mut self.idle {
            change(&mut r.gpus[0]);
        }
        self
    }

    pub fn report(&self) -> VerifyReport {
        assess(&VerifyInput {
            reading: &self.reading,
            idle: &self.idle,
            facts: &self.facts,
            measured: &self.measured,
            bench_error: self.bench_error.as_ref(),
            sku: self.sku.as_ref(),
            hourly: self.hourly.as_ref(),
            require_cuda: self.require_cuda,
            thresholds: &self.thresholds,
            torch: self.torch.as_ref(),
            network: self.network.as_ref(),
        })
    }
}

/// The one check with `code` on `gpu`.
pub fn check<'a>(report: &'a VerifyReport, code: &str, gpu: Option<u32>) -> &'a Check {
    let found: Vec<&Check> = report
        .checks
        .iter()
        .filter(|c| c.code == code && c.gpu == gpu)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one {code} check on {gpu:?}: {:#?}",
        report.checks
    );
    found[0]
}

pub fn number(reading: Option<&gpumeter_core::verify::Reading>) -> f64 {
    match reading.map(|r| &r.value) {
        Some(gpumeter_core::verify::Amount::Number(n)) => *n,
        other => panic!("expected a number, got {other:?}"),
    }
}

pub fn text(reading: Option<&gpumeter_core::verify::Reading>) -> String {
    match reading.map(|r| &r.value) {
        Some(gpumeter_core::verify::Amount::Text(t)) => t.clone(),
        other => panic!("expected text, got {other:?}"),
    }
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}
