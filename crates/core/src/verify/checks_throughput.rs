//! What the card did against what it is rated to do: memory bandwidth, FP32, tensor (BF16, FP16)
//! and cuBLAS GEMM throughput, each as measured / rated, and a shortfall said in hours and money.

use super::gpu::Gpu;
use super::money::shortfall;
use super::rated::Rated;
use super::report::{Check, Reading, Verdict, VerifyInput};
use super::{BenchError, BenchErrorKind, Figure, Measured};
use crate::text::one_line;

/// A machine-level check when no benchmark ran at all.
pub(super) fn benchmark(input: &VerifyInput<'_>) -> Option<Check> {
    let error = match input.bench_error {
        Some(e) => Some(e.clone()),
        None if input.measured.is_empty() => None,
        None => return None,
    };
    Some(Check::says(
        "benchmark",
        None,
        Verdict::Warn,
        move || match &error {
            Some(e) => crate::t!("verify-bench-error", error = shown_bench_error(e)),
            None => crate::t!("verify-bench-not-asked").into_owned(),
        },
    ))
}

/// Why the benchmark did not run, in the user's language: the kind said from the catalogue,
/// the driver's own words after it, as `BenchError`'s English `Display` has them.
pub fn shown_bench_error(e: &BenchError) -> String {
    let kind = match e.kind {
        BenchErrorKind::NoDriver => crate::t!("verify-bench-no-driver"),
        BenchErrorKind::NoDevice => crate::t!("verify-bench-no-device"),
        BenchErrorKind::Cuda => crate::t!("verify-bench-cuda"),
        BenchErrorKind::Timeout => crate::t!("verify-bench-timeout"),
    };
    format!("{kind}: {}", one_line(&e.detail, 200))
}

/// One figure to judge: its code, what it is called, what kind of work it stands for.
struct Kind {
    code: &'static str,
    name: Say,
    unit: &'static str,
    /// Decimals shown: bandwidth in whole GB/s, throughput to a tenth of a TFLOPS.
    decimals: usize,
    work: Say,
    /// "the rated memory bandwidth", for a figure the card has no rating of.
    rated: Say,
}

/// A few words from the catalogue.
type Say = fn() -> std::borrow::Cow<'static, str>;

const BANDWIDTH: Kind = Kind {
    code: "memory_bandwidth",
    name: || crate::t!("verify-kind-bandwidth"),
    rated: || crate::t!("verify-kind-rated-bandwidth"),
    unit: "GB/s",
    decimals: 0,
    work: || crate::t!("verify-work-memory"),
};
const FP32: Kind = Kind {
    code: "fp32_throughput",
    name: || crate::t!("verify-kind-fp32"),
    rated: || crate::t!("verify-kind-rated-fp32"),
    unit: "TFLOPS",
    decimals: 1,
    work: || crate::t!("verify-work-fp32"),
};
const BF16: Kind = Kind {
    code: "bf16_throughput",
    name: || crate::t!("verify-kind-bf16"),
    rated: || crate::t!("verify-kind-rated-bf16"),
    unit: "TFLOPS",
    decimals: 1,
    work: || crate::t!("verify-work-training"),
};
const FP16: Kind = Kind {
    code: "fp16_throughput",
    name: || crate::t!("verify-kind-fp16"),
    rated: || crate::t!("verify-kind-rated-fp16"),
    unit: "TFLOPS",
    decimals: 1,
    work: || crate::t!("verify-work-training"),
};
const GEMM: Kind = Kind {
    code: "gemm_throughput",
    name: || crate::t!("verify-kind-gemm"),
    rated: || crate::t!("verify-kind-rated-gemm"),
    unit: "TFLOPS",
    decimals: 1,
    work: || crate::t!("verify-work-training"),
};

pub(super) fn per_gpu(input: &VerifyInput<'_>, gpu: &Gpu<'_>) -> Vec<Check> {
    if input.bench_error.is_some() || input.measured.is_empty() {
        return Vec::new();
    }
    let Some(m) = gpu.measured else {
        return vec![Check::says("benchmark", gpu.at, Verdict::Warn, || {
            crate::t!("verify-bench-no-figures").into_owned()
        })];
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
    let (name, unit) = (kind.name, kind.unit);
    let value = match figure {
        Figure::Measured { value } if value.is_finite() && *value >= 0.0 => *value,
        Figure::Measured { value } => {
            let value = value.to_string();
            return Check::says(kind.code, at, Verdict::Warn, move || {
                crate::t!(
                    "verify-figure-impossible",
                    name = name(),
                    value = value.as_str()
                )
            });
        }
        Figure::NotRun { reason } => {
            return Check::unread(kind.code, at, one_line(reason, 200), kind.name);
        }
        Figure::Failed { reason } => {
            let reason = one_line(reason, 200);
            return Check::says(kind.code, at, Verdict::Warn, move || {
                crate::t!(
                    "verify-figure-failed",
                    name = name(),
                    reason = reason.as_str()
                )
            });
        }
    };
    let measured = Reading::number(value, kind.unit);
    let Some(rated) = rated.filter(|r| r.value > 0.0) else {
        let (model, nvml) = (gpu.model().to_owned(), gpu.name.clone());
        let has_row = gpu.rated.is_some();
        let mut check = Check::unread_says(
            kind.code,
            at,
            move || {
                if has_row {
                    crate::t!(
                        "verify-no-rated-figure",
                        name = name(),
                        model = model.as_str()
                    )
                } else {
                    crate::t!("verify-no-rated-figures", model = nvml.as_str())
                }
            },
            kind.rated,
        );
        check.measured = Some(measured);
        return check;
    };
    if value / rated.value > BEYOND_THE_CARD {
        let (value_s, rated_s, pct) = texts(kind, value, rated.value);
        return Check::says(kind.code, at, Verdict::Warn, move || {
            crate::t!(
                "verify-figure-beyond",
                value = value_s.as_str(),
                unit = unit,
                pct = pct.as_str(),
                rated = rated_s.as_str()
            )
        })
        .measured(measured);
    }
    judged(input, kind, at, value, rated, warn_below)
        .measured(measured)
        .with_ratio()
}

/// The measured figure, the rated one (each to the kind's decimals) and the share in percent.
fn texts(kind: &Kind, value: f64, rated: f64) -> (String, String, String) {
    let d = kind.decimals;
    (
        format!("{value:.d$}"),
        format!("{rated:.d$}"),
        format!("{:.0}", value / rated * 100.0),
    )
}

/// A figure the card can reach, against its rating: a pass, or a shortfall in hours and money.
fn judged(
    input: &VerifyInput<'_>,
    kind: &Kind,
    at: Option<u32>,
    value: f64,
    rated: Rated,
    warn_below: f64,
) -> Check {
    let ratio = value / rated.value;
    let (value_s, rated_s, pct) = texts(kind, value, rated.value);
    let (name, unit) = (kind.name, kind.unit);
    let fail_below = input.thresholds.fail_below;
    let verdict = if ratio < fail_below {
        Verdict::Fail
    } else if ratio < warn_below {
        Verdict::Warn
    } else {
        Verdict::Pass
    };
    let (work, hourly, quality) = (kind.work, input.hourly.copied(), rated.quality);
    let mut check = Check::says(kind.code, at, verdict, move || {
        let mut message = if verdict == Verdict::Pass {
            let args = (value_s.as_str(), unit, pct.as_str(), rated_s.as_str());
            if ratio > 1.0 {
                crate::t!(
                    "verify-figure-pass-boost",
                    value = args.0,
                    unit = args.1,
                    pct = args.2,
                    rated = args.3
                )
            } else {
                crate::t!(
                    "verify-figure-pass",
                    value = args.0,
                    unit = args.1,
                    pct = args.2,
                    rated = args.3
                )
            }
        } else {
            crate::t!(
                "verify-figure-short",
                value = value_s.as_str(),
                unit = unit,
                rated = rated_s.as_str(),
                shortfall = shortfall(ratio, &name(), &work(), hourly.as_ref())
            )
        };
        if let Some(caveat) = quality.caveat() {
            message = crate::t!("verify-caveat", message = message, caveat = caveat);
        }
        message
    })
    .rated(Reading::number(rated.value, kind.unit));
    check.rated_quality = Some(rated.quality);
    check
}
