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
            return Some(Check::unread("pcie_link", at, why, || {
                crate::t!("verify-what-pcie")
            }));
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
    let slot = card
        .filter(|c| max_gen < c.generation || max_width < c.width)
        .map(|c| (link(max_gen, max_width), link(c.generation, c.width)));
    let under_load = loaded
        .filter(|(g, w)| *g < max_gen || *w < max_width)
        .map(|(g, w)| (link(g, w), link(max_gen, max_width)));
    // The slower of the link under load and the most the link can do.
    let (now_gen, now_width) = loaded
        .filter(|(g, w)| lanes_gen1(*g, *w) < lanes_gen1(max_gen, max_width))
        .unwrap_or((max_gen, max_width));
    let (rated_gen, rated_width) = card.map_or((max_gen, max_width), |c| (c.generation, c.width));
    let now = link(now_gen, now_width);
    let verdict = if slot.is_none() && under_load.is_none() {
        Verdict::Pass
    } else {
        Verdict::Warn
    };
    let mut check = Check::says("pcie_link", at, verdict, move || {
        let mut problems = Vec::new();
        if let Some((runs, can)) = &slot {
            problems.push(crate::t!(
                "verify-pcie-slot",
                runs = runs.as_str(),
                can = can.as_str()
            ));
        }
        if let Some((ran, of)) = &under_load {
            problems.push(crate::t!(
                "verify-pcie-under-load",
                ran = ran.as_str(),
                of = of.as_str()
            ));
        }
        if problems.is_empty() {
            crate::t!("verify-pcie-as-rated", link = now.as_str())
        } else {
            let sep = crate::t!("verify-list-sep");
            crate::t!("verify-pcie-slower", problems = problems.join(&sep))
        }
    })
    .measured(Reading::text(link(now_gen, now_width), ""))
    .rated(Reading::text(link(rated_gen, rated_width), ""));
    check.ratio = Some(lanes_gen1(now_gen, now_width) / lanes_gen1(rated_gen, rated_width));
    check.rated_quality = card.map(|c| c.quality);
    Some(check)
}

fn ecc(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let f = &gpu.facts;
    let uncorrected = f.ecc_uncorrected_volatile.get();
    let errors = uncorrected.filter(|n| *n > 0);
    let rows = f.remapped_rows.get();
    let (remap_pending, remap_failed) = rows.map_or((false, false), |r| (r.pending, r.failure));
    let pages_pending = f.retired_pages_pending.get() == Some(true);
    let failing = errors.is_some() || remap_pending || remap_failed || pages_pending;
    let counted = |c: Check| {
        c.measured(Reading::number(
            uncorrected.map_or(0.0, crate::telemetry::metric::u64_to_f64),
            "errors",
        ))
        .rated(Reading::number(0.0, "errors"))
    };
    if failing {
        return counted(Check::says("ecc", at, Verdict::Fail, move || {
            let mut fails = Vec::new();
            if let Some(n) = errors {
                fails.push(crate::t!("verify-ecc-uncorrected", count = n));
            }
            if remap_pending {
                fails.push(crate::t!("verify-ecc-remap-pending").into_owned());
            }
            if remap_failed {
                fails.push(crate::t!("verify-ecc-remap-failed").into_owned());
            }
            if pages_pending {
                fails.push(crate::t!("verify-ecc-pages-pending").into_owned());
            }
            let sep = crate::t!("verify-list-sep");
            crate::t!("verify-ecc-failing", fails = fails.join(&sep))
        }));
    }
    let expected = gpu.rated.is_some_and(|r| r.ecc_expected);
    match (f.ecc_enabled, uncorrected) {
        (Metric::Value(false), _) if expected => {
            let model = gpu.model().to_owned();
            Check::says("ecc", at, Verdict::Warn, move || {
                crate::t!("verify-ecc-off-expected", model = model.as_str())
            })
        }
        .measured(Reading::text("off", ""))
        .rated(Reading::text("on", "")),
        (Metric::Value(false), _) => Check::says("ecc", at, Verdict::Pass, || {
            crate::t!("verify-ecc-off").into_owned()
        })
        .measured(Reading::text("off", "")),
        (Metric::Value(true), Some(_)) => {
            let corrected = f.ecc_corrected_volatile.get();
            counted(Check::says("ecc", at, Verdict::Pass, move || {
                let corrected = corrected.map_or_else(
                    || crate::t!("verify-ecc-corrected-unread").into_owned(),
                    |n| crate::t!("verify-ecc-corrected", count = n),
                );
                crate::t!("verify-ecc-ok", corrected = corrected)
            }))
        }
        (Metric::Value(true), None) => Check::unread(
            "ecc",
            at,
            f.ecc_uncorrected_volatile
                .reason()
                .unwrap_or(Unavailable::Unsupported),
            || crate::t!("verify-what-ecc-counts"),
        ),
        (Metric::Unavailable(why), _) => {
            Check::unread("ecc", at, why, || crate::t!("verify-what-ecc-mode"))
        }
    }
}
