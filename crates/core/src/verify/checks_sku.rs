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
    let (verdict, message) = finding.map_or_else(
        || {
            (
                Verdict::Pass,
                format!("{seen} × {} as the SKU states", sku.gpu_model),
            )
        },
        |f| (verdict_of(f.severity), f.message),
    );
    let count =
        |n: usize| Reading::number(u64_to_f64(u64::try_from(n).unwrap_or(u64::MAX)), "GPUs");
    Some(
        Check::new(
            "gpu_count",
            None,
            verdict,
            crate::text::one_line(&message, 200),
        )
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
                let (verdict, message) = if model_matches(&sku.gpu_model, name) {
                    (Verdict::Pass, format!("{} as the SKU states", gpu.name))
                } else {
                    (
                        Verdict::Fail,
                        format!("paying for {paid}, NVML reports {}", gpu.name),
                    )
                };
                Check::new("gpu_model", gpu.at, verdict, message)
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
                "the GPU's model",
            ),
        });
    }
    out.push(memory(input, gpu));
    if gpu.rated.is_none() {
        out.push(Check::unread(
            "rated_figures",
            gpu.at,
            format!("no rated figures for {}", gpu.name),
            "what the card is rated for",
        ));
    }
    out
}

fn memory(input: &VerifyInput<'_>, gpu: &Gpu<'_>) -> Check {
    let Some(mib) = gpu.sample.mem_total_mib.get() else {
        let why = gpu.sample.mem_total_mib.reason().map(|r| r.to_string());
        return Check::unread(
            "gpu_memory",
            gpu.at,
            why.unwrap_or_default(),
            "the memory total",
        );
    };
    let gib = u64_to_f64(mib) / 1024.0;
    let promised = input
        .sku
        .and_then(|s| s.gpu_memory_gib.to_f64())
        .filter(|g| *g > 0.0);
    // NVIDIA's "80 GB" shows in NVML as about 80 GiB less a small reservation.
    let rated = gpu.rated.map(|r| f64::from(r.memory_gb));
    let measured = Reading::number(gib, "GiB");
    let check = |verdict, message| {
        Check::new("gpu_memory", gpu.at, verdict, message).measured(measured.clone())
    };
    let out = match (promised, rated) {
        (Some(p), _) if gib < p * MEMORY_TOLERANCE => check(
            Verdict::Fail,
            format!("the SKU promises {p} GiB per GPU, NVML reports {gib:.1} GiB"),
        )
        .rated(Reading::number(p, "GiB")),
        (_, Some(r)) if gib < r * MEMORY_TOLERANCE => check(
            Verdict::Fail,
            format!(
                "NVML reports {gib:.1} GiB of a {r} GB {}: the memory is sliced (software slicing, a MIG or vGPU profile)",
                gpu.model()
            ),
        )
        .rated(Reading::number(r, "GiB")),
        (Some(p), _) => check(Verdict::Pass, format!("{gib:.1} GiB, as the SKU states"))
            .rated(Reading::number(p, "GiB")),
        (None, Some(r)) => check(
            Verdict::Pass,
            format!("{gib:.1} GiB, the whole of a {r} GB {}", gpu.model()),
        )
        .rated(Reading::number(r, "GiB")),
        (None, None) => {
            let mut c = Check::unread(
                "gpu_memory",
                gpu.at,
                "neither a SKU nor the rated table gives this card's memory",
                "the memory the card should have",
            );
            c.measured = Some(measured);
            return c;
        }
    };
    out.with_ratio()
}
