//! The cards against what was paid for and what they are: the count, the model and the memory
//! against the SKU (the same rules as [`compare_sku`]), the memory against the rated table
//! (software slicing shows a small total even with no SKU named), and whether the table knows
//! the model at all.

use rust_decimal::prelude::ToPrimitive;

use super::gpu::Gpu;
use super::report::{Check, Reading, Verdict, VerifyInput};
use crate::telemetry::findings::MEMORY_TOLERANCE;
use crate::telemetry::metric::u64_to_f64;
use crate::telemetry::{Severity, compare_sku, model_matches};

fn verdict_of(severity: Severity) -> Verdict {
    match severity {
        Severity::Critical => Verdict::Fail,
        Severity::Warning => Verdict::Warn,
        Severity::Info => Verdict::Pass,
    }
}

/// The GPU count, when a SKU is named.
pub(super) fn machine(input: &VerifyInput<'_>) -> Option<Check> {
    let sku = input.sku?;
    let seen = input.reading.gpus.len();
    let finding = compare_sku(sku, input.reading)
        .into_iter()
        .find(|f| f.code.starts_with("gpu_count"));
    let check = match finding {
        None => {
            let model = crate::text::one_line(&sku.gpu_model, 80);
            Check::says("gpu_count", None, Verdict::Pass, move || {
                crate::t!("verify-count-ok", count = seen, model = model.as_str())
            })
        }
        // The finding decides; verify says it in its own words, as the finding does in English.
        Some(f) => {
            let paid = format!(
                "{} × {}",
                sku.gpu_count,
                crate::text::one_line(&sku.gpu_model, 80)
            );
            let lost = input.reading.gpus.iter().filter(|g| g.lost()).count();
            let working = seen.saturating_sub(lost);
            let short = f.code == "gpu_count_short";
            Check::says("gpu_count", None, verdict_of(f.severity), move || {
                match (short, lost) {
                    (true, 0) => {
                        crate::t!("verify-count-short", paid = paid.as_str(), seen = working)
                    }
                    (true, _) => crate::t!(
                        "verify-count-short-working",
                        paid = paid.as_str(),
                        seen = working
                    ),
                    (false, _) => {
                        crate::t!("verify-count-extra", paid = paid.as_str(), seen = working)
                    }
                }
            })
        }
    };
    let count =
        |n: usize| Reading::number(u64_to_f64(u64::try_from(n).unwrap_or(u64::MAX)), "GPUs");
    Some(
        check
            .measured(count(seen))
            .rated(Reading::number(f64::from(sku.gpu_count), "GPUs"))
            .with_ratio(),
    )
}

pub(super) fn per_gpu(input: &VerifyInput<'_>, gpu: &Gpu<'_>) -> Vec<Check> {
    let mut out = Vec::new();
    if let Some(sku) = input.sku {
        out.push(match gpu.sample.name.value() {
            Some(name) => {
                let paid = crate::text::one_line(&sku.gpu_model, 80);
                let (said_paid, seen) = (paid.clone(), gpu.name.clone());
                let check = if model_matches(&sku.gpu_model, name) {
                    Check::says("gpu_model", gpu.at, Verdict::Pass, move || {
                        crate::t!("verify-model-ok", model = seen.as_str())
                    })
                } else {
                    Check::says("gpu_model", gpu.at, Verdict::Fail, move || {
                        crate::t!(
                            "verify-model-wrong",
                            paid = said_paid.as_str(),
                            seen = seen.as_str()
                        )
                    })
                };
                check
                    .measured(Reading::text(gpu.name.clone(), ""))
                    .rated(Reading::text(paid, ""))
            }
            None => Check::unread(
                "gpu_model",
                gpu.at,
                gpu.sample
                    .name
                    .reason()
                    .map_or("no name".into(), |r| r.to_string()),
                || crate::t!("verify-what-model"),
            ),
        });
    }
    out.push(memory(input, gpu));
    if gpu.rated.is_none() {
        let name = gpu.name.clone();
        out.push(Check::unread_says(
            "rated_figures",
            gpu.at,
            move || crate::t!("verify-no-rated-figures", model = name.as_str()),
            || crate::t!("verify-what-rated"),
        ));
    }
    out
}

/// What the memory check says.
#[derive(Debug, Clone, Copy)]
enum MemoryLine {
    ShortOfSku,
    Sliced,
    AsSku,
    Whole,
}

fn memory(input: &VerifyInput<'_>, gpu: &Gpu<'_>) -> Check {
    let Some(mib) = gpu.sample.mem_total_mib.get() else {
        let why = gpu.sample.mem_total_mib.reason().map(|r| r.to_string());
        return Check::unread("gpu_memory", gpu.at, why.unwrap_or_default(), || {
            crate::t!("verify-what-memory")
        });
    };
    let gib = u64_to_f64(mib) / 1024.0;
    let promised = input
        .sku
        .and_then(|s| s.gpu_memory_gib.to_f64())
        .filter(|g| *g > 0.0);
    // NVIDIA's "80 GB" shows in NVML as about 80 GiB less a small reservation.
    let rated = gpu.rated.map(|r| f64::from(r.memory_gb));
    let measured = Reading::number(gib, "GiB");
    let check = |verdict, id: MemoryLine, reference: f64| {
        let (gib, of, model) = (
            format!("{gib:.1}"),
            reference.to_string(),
            gpu.model().to_owned(),
        );
        Check::says("gpu_memory", gpu.at, verdict, move || {
            let (gib, of, model) = (gib.as_str(), of.as_str(), model.as_str());
            match id {
                MemoryLine::ShortOfSku => crate::t!("verify-memory-short-sku", of = of, gib = gib),
                MemoryLine::Sliced => {
                    crate::t!("verify-memory-sliced", gib = gib, of = of, model = model)
                }
                MemoryLine::AsSku => crate::t!("verify-memory-as-sku", gib = gib),
                MemoryLine::Whole => {
                    crate::t!("verify-memory-whole", gib = gib, of = of, model = model)
                }
            }
        })
        .measured(measured.clone())
        .rated(Reading::number(reference, "GiB"))
    };
    let out = match (promised, rated) {
        (Some(p), _) if gib < p * MEMORY_TOLERANCE => {
            check(Verdict::Fail, MemoryLine::ShortOfSku, p)
        }
        (_, Some(r)) if gib < r * MEMORY_TOLERANCE => check(Verdict::Fail, MemoryLine::Sliced, r),
        (Some(p), _) => check(Verdict::Pass, MemoryLine::AsSku, p),
        (None, Some(r)) => check(Verdict::Pass, MemoryLine::Whole, r),
        (None, None) => {
            let mut c = Check::unread_says(
                "gpu_memory",
                gpu.at,
                || crate::t!("verify-memory-no-reference").into_owned(),
                || crate::t!("verify-what-memory-expected"),
            );
            c.measured = Some(measured);
            return c;
        }
    };
    out.with_ratio()
}
