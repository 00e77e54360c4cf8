//! The text `estimate` prints: one row a mode, unknown lines named under the table.

use gpumeter_core::cell::Cell;
use std::fmt::Write as _;

use super::prices::Priced;
use super::two_decimals;
use crate::meter::estimate::{Estimate, Line, Mix, ModeCost, PlanMode, PlanPrices};
use crate::pricing::OtherPrice;
use gpumeter_core::text::one_line;
use rust_decimal::Decimal;

pub fn render(e: &Estimate, priced: &Priced) -> String {
    let mut out = String::new();
    let gpus = priced.gpus;
    let count = crate::t!("estimate-gpus", gpus = gpus);
    let what = match priced.sku.as_deref() {
        Some(sku) => crate::t!("estimate-sku-gpus", sku = one_line(sku, 60), count = count),
        None => count,
    };
    let runs = match e.plan.runs_per_day {
        1 => String::new(),
        n => crate::t!("estimate-runs", runs = n),
    };
    let plan = crate::t!(
        "estimate-plan",
        what = what,
        hours_per_day = e.plan.hours_per_day.normalize().to_string(),
        runs = runs,
        days = e.plan.days.normalize().to_string(),
        hours = e.plan.hours().normalize().to_string(),
        currency = e.currency.to_string()
    );
    let _ = writeln!(out, "{plan}\n");
    let _ = writeln!(
        out,
        "{:<11}{:>12}{:>12}{:>12}{:>12}{:>12}",
        Cell(crate::t!("estimate-col-mode")),
        Cell(crate::t!("estimate-col-compute")),
        Cell(crate::t!("estimate-col-bandwidth")),
        Cell(crate::t!("estimate-col-storage")),
        Cell(crate::t!("estimate-col-extras")),
        Cell(crate::t!("estimate-col-total"))
    );
    for m in &e.modes {
        row(&mut out, m, e.cheapest == Some(m.mode));
    }
    for mode in [PlanMode::OnDemand, PlanMode::Monthly, PlanMode::Spot] {
        if e.mode(mode).is_none() {
            let _ = writeln!(
                out,
                "{:<11}{:>12}",
                Cell(mode_shown(mode)),
                Cell(crate::t!("estimate-no-price"))
            );
        }
    }
    out.push('\n');
    notes(&mut out, e, priced);
    out.push_str(&crate::t!("estimate-note"));
    out.push('\n');
    out
}

/// A mode as the table names it, in the user's language (JSON keeps [`PlanMode`]'s own).
pub(in crate::commands::estimate) fn mode_shown(mode: PlanMode) -> std::borrow::Cow<'static, str> {
    match mode {
        PlanMode::OnDemand => crate::t!("estimate-mode-on-demand"),
        PlanMode::Monthly => crate::t!("estimate-mode-monthly"),
        PlanMode::Mixed => crate::t!("estimate-mode-mixed"),
        PlanMode::Spot => crate::t!("estimate-mode-spot"),
    }
}

fn line_shown(line: Line) -> std::borrow::Cow<'static, str> {
    match line {
        Line::Compute => crate::t!("estimate-col-compute"),
        Line::Bandwidth => crate::t!("estimate-col-bandwidth"),
        Line::Storage => crate::t!("estimate-col-storage"),
        Line::Extras => crate::t!("estimate-col-extras"),
    }
}

fn row(out: &mut String, m: &ModeCost, cheapest: bool) {
    let cents = m.breakdown.to_cents();
    let lines = [Line::Compute, Line::Bandwidth, Line::Storage, Line::Extras];
    let cell = |i: usize| {
        if m.unknown.iter().any(|u| u.line == lines[i]) {
            crate::t!("estimate-unknown").into_owned()
        } else {
            cents[i].to_string()
        }
    };
    // An incomplete total is a lower bound, said in the same words as every other surface.
    let total = match m.unknown.len() {
        0 => cents[4].to_string(),
        n => crate::t!("estimate-at-least", total = cents[4].to_string(), count = n),
    };
    let mark = if cheapest {
        crate::t!("estimate-cheapest")
    } else {
        std::borrow::Cow::Borrowed("")
    };
    let _ = writeln!(
        out,
        "{:<11}{:>12}{:>12}{:>12}{:>12}{:>12}{mark}",
        Cell(mode_shown(m.mode)),
        Cell(cell(0)),
        Cell(cell(1)),
        Cell(cell(2)),
        Cell(cell(3)),
        Cell(total),
    );
}

fn notes(out: &mut String, e: &Estimate, priced: &Priced) {
    let sheet = priced.sheet.as_deref().map_or_else(
        || crate::t!("estimate-inline-prices").into_owned(),
        |s| crate::t!("estimate-sheet", sheet = one_line(s, 60)),
    );
    let mut named = Vec::new();
    for u in e.modes.iter().flat_map(|m| &m.unknown) {
        if !named.contains(u) {
            named.push(*u);
            let note = crate::t!(
                "estimate-unknown-note",
                line = line_shown(u.line),
                sheet = sheet.as_str(),
                key = u.key
            );
            let _ = writeln!(out, "{note}");
        }
    }
    if let Some(mix) = e.mode(PlanMode::Mixed).and_then(|m| m.mix) {
        let _ = writeln!(out, "{}", mixed_note(&mix, &priced.prices));
    }
    if !priced.prices.extras.other.is_empty() {
        let each: Vec<String> = priced
            .prices
            .extras
            .other
            .iter()
            .map(|o| match o.price {
                OtherPrice::PerHourUp(p) => crate::t!(
                    "estimate-other-hourly",
                    label = one_line(&o.label, 40),
                    price = p.normalize().to_string()
                ),
                OtherPrice::PerMonth(p) => crate::t!(
                    "estimate-other-monthly",
                    label = one_line(&o.label, 40),
                    price = p.normalize().to_string()
                ),
            })
            .collect();
        let note = crate::t!(
            "estimate-other-note",
            each = each.join(&crate::t!("estimate-list-separator"))
        );
        let _ = writeln!(out, "{note}");
    }
    if let Some(spot) = e.mode(PlanMode::Spot) {
        let _ = writeln!(out, "{}", spot_risk_note(spot));
    }
    if let Some(hours) = e.break_even_hours_per_month {
        let note = crate::t!("estimate-break-even", hours = two_decimals(hours));
        let _ = writeln!(out, "{note}");
    }
}

/// What spot's reclaims cost: half a checkpoint interval each, or, with no checkpoint, the job
/// started over (warned when it runs longer than spot usually lets it), or why it is unpriced.
fn spot_risk_note(spot: &ModeCost) -> String {
    let Some(risk) = spot.no_checkpoint else {
        return match spot.rerun {
            Some(rerun) => crate::t!("estimate-rerun-note", rerun = two_decimals(rerun)),
            None => crate::t!("estimate-rerun-unpriced").to_string(),
        };
    };
    let job = hours(risk.job_hours);
    let interval = hours(risk.typical_interval_hours);
    match (risk.rerun, risk.expected_job_hours) {
        (Some(rerun), Some(expected)) if risk.outlasts_reclaims() => crate::t!(
            "estimate-restart-warning",
            job = job,
            interval = interval,
            rerun = two_decimals(rerun),
            expected = hours(expected)
        ),
        (Some(rerun), Some(expected)) => crate::t!(
            "estimate-restart-note",
            job = job,
            rerun = two_decimals(rerun),
            expected = hours(expected)
        ),
        _ => crate::t!("estimate-restart-never", job = job, interval = interval),
    }
}

/// Hours to the hundredth, without trailing zeros.
fn hours(h: Decimal) -> String {
    h.round_dp(2).normalize().to_string()
}

/// What the cheapest mix buys: each plan, then the days on demand.
fn mixed_note(mix: &Mix, prices: &PlanPrices) -> String {
    let mut plans = Vec::new();
    if mix.years > 0 {
        plans.push(crate::t!("estimate-plan-years", count = mix.years).to_string());
    }
    if mix.months > 0 {
        let off = prices
            .duration_discounts
            .iter()
            .rev()
            .find(|d| d.months <= mix.months)
            .map(|d| (d.off * Decimal::ONE_HUNDRED).normalize().to_string());
        let month_hours = prices.month_hours.to_string();
        plans.push(match off {
            Some(off) => crate::t!(
                "estimate-plan-months-off",
                count = mix.months,
                month_hours = month_hours,
                off = off
            ),
            None => crate::t!(
                "estimate-plan-months",
                count = mix.months,
                month_hours = month_hours
            ),
        });
    }
    if mix.weeks > 0 {
        plans.push(crate::t!("estimate-plan-weeks", count = mix.weeks).to_string());
    }
    if mix.days > 0 {
        plans.push(crate::t!("estimate-plan-days", count = mix.days).to_string());
    }
    let plans = plans.join(&crate::t!("estimate-plan-separator"));
    if mix.on_demand_days.is_zero() {
        crate::t!("estimate-mixed-note-plans-only", plans = plans)
    } else {
        crate::t!(
            "estimate-mixed-note",
            plans = plans,
            days = mix.on_demand_days.normalize().to_string()
        )
    }
}
