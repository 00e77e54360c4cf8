//! What the card did against what it is rated to do: memory bandwidth, FP32, tensor (BF16, FP16)
//! and cuBLAS GEMM throughput, each as measured / rated, and a shortfall said in hours and money.

use super::gpu::Gpu;
use super::money::shortfall;
use super::rated::Rated;
use super::report::{Check, Reading, Verdict, VerifyInput};
use super::{Figure, Measured};
use crate::text::one_line;

/// A machine-level check when no benchmark ran at all.
pub(super) fn benchmark(input: &VerifyInput<'_>) -> Option<Check> {
    let message = match input.bench_error {
        Some(e) => format!(
            "no benchmark ({}): the verdict rests on what NVML reports alone",
            one_line(&e.to_string(), 200)
        ),
        None if input.measured.is_empty() => {
            "the benchmark was not run: the verdict rests on what NVML reports alone".to_owned()
        }
        None => return None,
    };
    Some(Check::new("benchmark", None, Verdict::Warn, message))
}

/// One figure to judge: its code, what it is called, what kind of work it stands for.
struct Kind {
    code: &'static str,
    name: &'static str,
    unit: &'static str,
    /// Decimals shown: bandwidth in whole GB/s, throughput to a tenth of a TFLOPS.
    decimals: usize,
    work: &'static str,
}

const BANDWIDTH: Kind = Kind {
    code: "memory_bandwidth",
    name: "memory bandwidth",
    unit: "GB/s",
    decimals: 0,
    work: "memory-bound work",
};
const FP32: Kind = Kind {
    code: "fp32_throughput",
    name: "FP32 throughput",
    unit: "TFLOPS",
    decimals: 1,
    work: "FP32 work",
};
const BF16: Kind = Kind {
    code: "bf16_throughput",
    name: "BF16 throughput",
    unit: "TFLOPS",
    decimals: 1,
    work: "training",
};
const FP16: Kind = Kind {
    code: "fp16_throughput",
    name: "FP16 throughput",
    unit: "TFLOPS",
    decimals: 1,
    work: "training",
};
const GEMM: Kind = Kind {
    code: "gemm_throughput",
    name: "BF16 GEMM (cuBLAS) throughput",
    unit: "TFLOPS",
    decimals: 1,
    work: "training",
};

pub(super) fn per_gpu(input: &VerifyInput<'_>, gpu: &Gpu<'_>) -> Vec<Check> {
    if input.bench_error.is_some() || input.measured.is_empty() {
        return Vec::new();
    }
    let Some(m) = gpu.measured else {
        return vec![Check::new(
            "benchmark",
            gpu.at,
            Verdict::Warn,
            "no benchmark figures for this GPU: its throughput is not known".to_owned(),
        )];
    };
    let t = input.thresholds;
    let warn = t.warn_below;
    let bandwidth_warn = t.bandwidth_warn_below.map_or(warn, |b| b.min(warn));
    let rated = gpu.rated;
    // A row that says the card has no BF16 (Turing, Volta) is judged on FP16 instead.
    let no_bf16 = rated.is_some_and(|r| r.bf16_tflops.is_none());
    let mut out = vec![
        judge(
            input,
            gpu,
            &BANDWIDTH,
            &m.mem_bandwidth_gbs,
            rated.map(|r| r.memory_bandwidth_gbs),
            bandwidth_warn,
        ),
        judge(
            input,
            gpu,
            &FP32,
            &m.fp32_tflops,
            rated.map(|r| r.fp32_tflops),
            warn,
        ),
    ];
    if !no_bf16 {
        out.push(judge(
            input,
            gpu,
            &BF16,
            &m.bf16_tflops,
            rated.and_then(|r| r.bf16_tflops),
            warn,
        ));
    }
    if no_bf16 || m.fp16_tflops.value().is_some() {
        out.push(judge(
            input,
            gpu,
            &FP16,
            &m.fp16_tflops,
            rated.and_then(|r| r.fp16_tflops),
            warn,
        ));
    }
    if !no_bf16 || gemm_ran(m) {
        out.push(judge(
            input,
            gpu,
            &GEMM,
            &m.gemm_bf16_tflops,
            rated.and_then(|r| r.bf16_tflops),
            warn,
        ));
    }
    out
}

/// A figure above this share of the rated peak is a broken measurement, not a fast card: boost
/// clocks take a card a few percent past its rated figures, never half again.
const BEYOND_THE_CARD: f64 = 1.5;

fn gemm_ran(m: &Measured) -> bool {
    !matches!(m.gemm_bf16_tflops, Figure::NotRun { .. })
}

fn judge(
    input: &VerifyInput<'_>,
    gpu: &Gpu<'_>,
    kind: &Kind,
    figure: &Figure,
    rated: Option<Rated>,
    warn_below: f64,
) -> Check {
    let at = gpu.at;
    let value = match figure {
        Figure::Measured { value } if value.is_finite() && *value >= 0.0 => *value,
        Figure::Measured { value } => {
            let message = format!(
                "the benchmark reported an impossible {} ({value})",
                kind.name
            );
            return Check::new(kind.code, at, Verdict::Warn, message);
        }
        Figure::NotRun { reason } => {
            return Check::unread(kind.code, at, one_line(reason, 200), kind.name);
        }
        Figure::Failed { reason } => {
            let message = format!("the {} kernel failed: {}", kind.name, one_line(reason, 200));
            return Check::new(kind.code, at, Verdict::Warn, message);
        }
    };
    let measured = Reading::number(value, kind.unit);
    let Some(rated) = rated.filter(|r| r.value > 0.0) else {
        let why = match gpu.rated {
            Some(_) => format!("no rated {} for {}", kind.name, gpu.model()),
            None => format!("no rated figures for {}", gpu.name),
        };
        let mut check = Check::unread(kind.code, at, why, &format!("the rated {}", kind.name));
        check.measured = Some(measured);
        return check;
    };
    let ratio = value / rated.value;
    if ratio > BEYOND_THE_CARD {
        let message = format!(
            "the benchmark measured {value:.d$} {unit}, {:.0} % of the rated {:.d$} {unit}: more \
             than the card can do, so its timing cannot be trusted",
            ratio * 100.0,
            rated.value,
            unit = kind.unit,
            d = kind.decimals
        );
        return Check::new(kind.code, at, Verdict::Warn, message).measured(measured);
    }
    let fail_below = input.thresholds.fail_below;
    let verdict = if ratio < fail_below {
        Verdict::Fail
    } else if ratio < warn_below {
        Verdict::Warn
    } else {
        Verdict::Pass
    };
    let mut message = if verdict == Verdict::Pass {
        let boost = if ratio > 1.0 {
            " (clocks above the rated boost)"
        } else {
            ""
        };
        format!(
            "{value:.d$} {unit}, {:.0} % of the rated {:.d$} {unit}{boost}",
            ratio * 100.0,
            rated.value,
            unit = kind.unit,
            d = kind.decimals
        )
    } else {
        format!(
            "{value:.d$} {unit} of a rated {:.d$}: {}",
            rated.value,
            shortfall(ratio, kind.name, kind.work, input.hourly),
            unit = kind.unit,
            d = kind.decimals
        )
    };
    if let Some(caveat) = rated.quality.caveat() {
        message.push_str(" (");
        message.push_str(caveat);
        message.push(')');
    }
    let mut check = Check::new(kind.code, at, verdict, message)
        .measured(measured)
        .rated(Reading::number(rated.value, kind.unit))
        .with_ratio();
    check.rated_quality = Some(rated.quality);
    check
}
