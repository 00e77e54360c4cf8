//! The card's health as NVML reports it: the PCIe link against what the card can do, and its
//! memory errors.

use super::gpu::Gpu;
use super::report::{Check, Reading, Verdict};
use crate::telemetry::{Metric, Unavailable};

pub(super) fn per_gpu(gpu: &Gpu<'_>) -> Vec<Check> {
    let mut out: Vec<Check> = pcie(gpu).into_iter().collect();
    out.push(ecc(gpu));
    out
}

/// A link's bandwidth relative to one Gen1 lane: each generation about doubles it.
fn lanes_gen1(generation: u32, width: u32) -> f64 {
    f64::from(width) * 2f64.powi(i32::try_from(generation.saturating_sub(1)).unwrap_or(0))
}

fn link(generation: u32, width: u32) -> String {
    format!("Gen{generation} x{width}")
}

/// `None` where nothing can be compared: the rated table has no link for the card and the
/// link was not read under load.
fn pcie(gpu: &Gpu<'_>) -> Option<Check> {
    let at = gpu.at;
    let f = &gpu.facts;
    let (max_gen, max_width) = match f.pcie_gen_max.zip(f.pcie_width_max) {
        Metric::Value(m) => m,
        Metric::Unavailable(why) => {
            return Some(Check::unread("pcie_link", at, why, "the PCIe link"));
        }
    };
    let card = gpu.rated.and_then(|r| r.pcie);
    // The link drops at idle to save power: only a reading while the benchmark ran says
    // what it does under load.
    let loaded = gpu
        .measured
        .and_then(|_| f.pcie_gen.zip(f.pcie_width).into_value());
    if card.is_none() && loaded.is_none() {
        return None;
    }
    let mut problems = Vec::new();
    if let Some(c) = card
        && (max_gen < c.generation || max_width < c.width)
    {
        problems.push(format!(
            "the slot runs the card at {} (the card can do {})",
            link(max_gen, max_width),
            link(c.generation, c.width)
        ));
    }
    if let Some((g, w)) = loaded
        && (g < max_gen || w < max_width)
    {
        problems.push(format!(
            "under load the link ran at {} of its {}",
            link(g, w),
            link(max_gen, max_width)
        ));
    }
    // The slower of the link under load and the most the link can do.
    let (now_gen, now_width) = loaded
        .filter(|(g, w)| lanes_gen1(*g, *w) < lanes_gen1(max_gen, max_width))
        .unwrap_or((max_gen, max_width));
    let (rated_gen, rated_width) = card.map_or((max_gen, max_width), |c| (c.generation, c.width));
    let (verdict, message) = if problems.is_empty() {
        (
            Verdict::Pass,
            format!("{} as the card is rated", link(now_gen, now_width)),
        )
    } else {
        (
            Verdict::Warn,
            format!("{}: host transfers run slower", problems.join("; ")),
        )
    };
    let mut check = Check::new("pcie_link", at, verdict, message)
        .measured(Reading::text(link(now_gen, now_width), ""))
        .rated(Reading::text(link(rated_gen, rated_width), ""));
    check.ratio = Some(lanes_gen1(now_gen, now_width) / lanes_gen1(rated_gen, rated_width));
    check.rated_quality = card.map(|c| c.quality);
    Some(check)
}

fn ecc(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let f = &gpu.facts;
    let mut fails = Vec::new();
    let uncorrected = f.ecc_uncorrected_volatile.get();
    if let Some(n) = uncorrected.filter(|n| *n > 0) {
        fails.push(format!(
            "{n} uncorrected ECC error{} since the driver loaded",
            if n == 1 { "" } else { "s" }
        ));
    }
    if let Some(rows) = f.remapped_rows.get() {
        if rows.pending {
            fails.push("a row remap waits for a GPU reset".to_owned());
        }
        if rows.failure {
            fails.push("the row remapper has failed: no spare rows left".to_owned());
        }
    }
    if f.retired_pages_pending.get() == Some(true) {
        fails.push("retired pages wait for a GPU reset".to_owned());
    }
    let counted = |c: Check| {
        c.measured(Reading::number(
            uncorrected.map_or(0.0, crate::telemetry::metric::u64_to_f64),
            "errors",
        ))
        .rated(Reading::number(0.0, "errors"))
    };
    if !fails.is_empty() {
        let message = format!("{}: the card's memory is failing", fails.join("; "));
        return counted(Check::new("ecc", at, Verdict::Fail, message));
    }
    let expected = gpu.rated.is_some_and(|r| r.ecc_expected);
    match (f.ecc_enabled, uncorrected) {
        (Metric::Value(false), _) if expected => Check::new(
            "ecc",
            at,
            Verdict::Warn,
            format!(
                "ECC is off on this {}: memory errors go unnoticed",
                gpu.model()
            ),
        )
        .measured(Reading::text("off", ""))
        .rated(Reading::text("on", "")),
        (Metric::Value(false), _) => Check::new(
            "ecc",
            at,
            Verdict::Pass,
            "ECC is off, as this card ships".to_owned(),
        )
        .measured(Reading::text("off", "")),
        (Metric::Value(true), Some(_)) => {
            let corrected = f.ecc_corrected_volatile.get().map_or_else(
                || "corrected errors not read".to_owned(),
                |n| format!("{n} corrected since the driver loaded"),
            );
            counted(Check::new(
                "ecc",
                at,
                Verdict::Pass,
                format!("no uncorrected memory errors ({corrected})"),
            ))
        }
        (Metric::Value(true), None) => Check::unread(
            "ecc",
            at,
            f.ecc_uncorrected_volatile
                .reason()
                .unwrap_or(Unavailable::Unsupported),
            "the ECC error counts",
        ),
        (Metric::Unavailable(why), _) => Check::unread("ecc", at, why, "the ECC mode"),
    }
}
