//! The text `estimate --compare` prints: complete offers ranked by converted total, then the
//! incomplete ones apart (their totals are lower bounds), then the ones that could not be
//! converted.

use gpumeter_core::cell::{Cell, truncate};
use std::fmt::Write as _;

use gpumeter_core::text::one_line;
use rust_decimal::Decimal;

use crate::commands::estimate::table::mode_shown;
use crate::commands::estimate::two_decimals;
use crate::meter::estimate::Plan;
use crate::meter::estimate::compare::{Comparison, Offer, Query};
use crate::meter::estimate::fx::Rates;
use crate::pricing::sheet::STALE_AFTER_DAYS;

pub fn render(c: &Comparison, plan: &Plan, query: &Query, rates: &Rates) -> String {
    let mut out = String::new();
    let gpu = query.gpu.as_deref().map_or_else(
        || crate::t!("compare-any-gpu").into_owned(),
        |g| one_line(g, 40),
    );
    let heading = crate::t!(
        "compare-plan",
        gpu = gpu,
        gpus = query.min_gpus,
        hours_per_day = plan.hours_per_day.normalize().to_string(),
        days = plan.days.normalize().to_string(),
        hours = plan.hours().normalize().to_string(),
        currency = c.currency.to_string()
    );
    let _ = writeln!(out, "{heading}");
    for r in &rates.0 {
        let rate = crate::t!(
            "compare-rate",
            from = r.from.to_string(),
            rate = r.rate.normalize().to_string(),
            to = r.to.to_string()
        );
        let _ = writeln!(out, "{rate}");
    }
    out.push('\n');
    if c.offers.is_empty() && c.incomplete.is_empty() && c.not_comparable.is_empty() {
        let _ = writeln!(out, "{}", crate::t!("compare-nothing-fits"));
        return out;
    }
    let _ = writeln!(
        out,
        "{:>3} {:>12}  {:>10}  {:>14}  {:<20} {:<24} {:>4}  {:<10} {}",
        Cell("#"),
        Cell(crate::t!(
            "compare-col-total",
            currency = c.currency.to_string()
        )),
        Cell(crate::t!("compare-col-per-gpu-hour")),
        Cell(crate::t!("compare-col-as-priced")),
        Cell(crate::t!("compare-col-sheet")),
        Cell(crate::t!("compare-col-sku")),
        Cell(crate::t!("compare-col-gpus")),
        Cell(crate::t!("estimate-col-mode")),
        crate::t!("compare-col-as-of"),
    );
    for (i, o) in c.offers.iter().enumerate() {
        row(&mut out, &(i + 1).to_string(), o);
    }
    if !c.incomplete.is_empty() {
        let _ = writeln!(out, "\n{}", crate::t!("compare-incomplete"));
        for o in &c.incomplete {
            row(&mut out, "-", o);
        }
    }
    if !c.not_comparable.is_empty() {
        let note = crate::t!("compare-not-comparable", currency = c.currency.to_string());
        let _ = writeln!(out, "\n{note}");
        for o in &c.not_comparable {
            row(&mut out, "-", o);
        }
    }
    if c.offers.iter().any(|o| o.stale) {
        let note = crate::t!("compare-stale", days = STALE_AFTER_DAYS);
        let _ = writeln!(out, "{note}");
    }
    let _ = writeln!(out, "{}", crate::t!("compare-ranked"));
    out
}

fn row(out: &mut String, rank: &str, o: &Offer) {
    let at_least = if o.cost.is_complete() { "" } else { "≥ " };
    let shown = |d: Option<Decimal>| {
        d.map_or_else(String::new, |d| format!("{at_least}{}", two_decimals(d)))
    };
    let (converted, per_gpu_hour) = (shown(o.converted_total), shown(o.per_gpu_hour));
    let total = o.cost.breakdown.total().round_cents();
    let as_priced = format!(
        "{at_least}{} {}",
        two_decimals(total.amount),
        total.currency
    );
    let stale = if o.stale {
        crate::t!("compare-stale-mark").into_owned()
    } else {
        String::new()
    };
    let unknown: Vec<&str> = o.cost.unknown.iter().map(|u| u.key).collect();
    let incomplete = if unknown.is_empty() {
        String::new()
    } else {
        crate::t!("compare-incomplete-mark", unknown = unknown.join(", "))
    };
    let _ = writeln!(
        out,
        "{:>3} {:>12}  {:>10}  {:>14}  {:<20} {:<24} {:>4}  {:<10} {}{stale}{incomplete}",
        Cell(rank),
        Cell(converted),
        Cell(per_gpu_hour),
        Cell(as_priced),
        Cell(truncate(&one_line(&o.sheet, 20), 20)),
        Cell(truncate(&one_line(&o.sku, 24), 24)),
        o.gpus,
        Cell(mode_shown(o.cost.mode)),
        o.as_of,
    );
}
