//! The text `estimate --compare` prints: complete offers ranked by converted total, then the
//! incomplete ones apart (their totals are lower bounds), then the ones that could not be
//! converted.

use gpumeter_core::cell::{Cell, truncate};
use std::fmt::Write as _;

use gpumeter_core::text::one_line;
use rust_decimal::Decimal;

use crate::commands::estimate::two_decimals;
use crate::meter::estimate::Plan;
use crate::meter::estimate::compare::{Comparison, Offer, Query};
use crate::meter::estimate::fx::Rates;
use crate::pricing::sheet::STALE_AFTER_DAYS;

pub fn render(c: &Comparison, plan: &Plan, query: &Query, rates: &Rates) -> String {
    let mut out = String::new();
    let gpu = query
        .gpu
        .as_deref()
        .map_or_else(|| "Any GPU".to_string(), |g| one_line(g, 40));
    let _ = writeln!(
        out,
        "{gpu}, at least {} GPU(s), {} h/day for {} days = {} h; totals in {}",
        query.min_gpus,
        plan.hours_per_day.normalize(),
        plan.days.normalize(),
        plan.hours().normalize(),
        c.currency
    );
    for r in &rates.0 {
        let _ = writeln!(out, "Rate: 1 {} = {} {}", r.from, r.rate.normalize(), r.to);
    }
    out.push('\n');
    if c.offers.is_empty() && c.incomplete.is_empty() && c.not_comparable.is_empty() {
        out.push_str("No SKU of any sheet fits.\n");
        return out;
    }
    let _ = writeln!(
        out,
        "{:>3} {:>12}  {:>10}  {:>14}  {:<20} {:<24} {:>4}  {:<10} as of",
        Cell("#"),
        Cell(format!("total {}", c.currency)),
        Cell("per GPU-h"),
        Cell("as priced"),
        Cell("sheet"),
        Cell("sku"),
        Cell("gpus"),
        Cell("mode"),
    );
    for (i, o) in c.offers.iter().enumerate() {
        row(&mut out, &(i + 1).to_string(), o);
    }
    if !c.incomplete.is_empty() {
        out.push_str(
            "\nIncomplete: the sheet lacks a price the plan needs (named after it); each total \
             is at least this much, so none is ranked.\n",
        );
        for o in &c.incomplete {
            row(&mut out, "-", o);
        }
    }
    if !c.not_comparable.is_empty() {
        let _ = writeln!(
            out,
            "\nNot comparable: no rate to {}; give one with --fx FROM:{}=RATE or [fx] rates.",
            c.currency, c.currency
        );
        for o in &c.not_comparable {
            row(&mut out, "-", o);
        }
    }
    if c.offers.iter().any(|o| o.stale) {
        let _ = writeln!(
            out,
            "stale: the sheet's prices are more than {STALE_AFTER_DAYS} days old."
        );
    }
    out.push_str("Ranked by the plan's total (compute + bandwidth + storage + extras), not by hourly price.\n");
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
    let stale = if o.stale { " stale" } else { "" };
    let unknown: Vec<&str> = o.cost.unknown.iter().map(|u| u.key).collect();
    let incomplete = if unknown.is_empty() {
        String::new()
    } else {
        format!("  incomplete: {}", unknown.join(", "))
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
        Cell(o.cost.mode.label()),
        o.as_of,
    );
}
