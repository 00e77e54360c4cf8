//! The text `estimate` prints: one row a mode, unknown lines named under the table.

use gpumeter_core::cell::Cell;
use std::fmt::Write as _;

use super::prices::Priced;
use super::two_decimals;
use crate::meter::estimate::{Estimate, Line, ModeCost, PlanMode};
use gpumeter_core::text::one_line;

pub fn render(e: &Estimate, priced: &Priced) -> String {
    let mut out = String::new();
    let gpus = priced.gpus;
    let count = format!("{gpus} GPU{}", if gpus == 1 { "" } else { "s" });
    let what = match priced.sku.as_deref() {
        Some(sku) => format!("{} ({count})", one_line(sku, 60)),
        None => count,
    };
    let runs = match e.plan.runs_per_day {
        1 => String::new(),
        n => format!(" in {n} runs"),
    };
    let _ = writeln!(
        out,
        "{what}, {} h/day{runs} for {} days = {} h, in {}\n",
        e.plan.hours_per_day.normalize(),
        e.plan.days.normalize(),
        e.plan.hours().normalize(),
        e.currency
    );
    let _ = writeln!(
        out,
        "{:<11}{:>12}{:>12}{:>12}{:>12}{:>12}",
        Cell("mode"),
        Cell("compute"),
        Cell("bandwidth"),
        Cell("storage"),
        Cell("extras"),
        Cell("total")
    );
    for m in &e.modes {
        row(&mut out, m, e.cheapest == Some(m.mode));
    }
    for mode in [PlanMode::OnDemand, PlanMode::Monthly, PlanMode::Spot] {
        if e.mode(mode).is_none() {
            let _ = writeln!(out, "{:<11}{:>12}", Cell(mode.label()), Cell("no price"));
        }
    }
    out.push('\n');
    notes(&mut out, e, priced);
    out.push_str(NOTE);
    out
}

fn row(out: &mut String, m: &ModeCost, cheapest: bool) {
    let cents = m.breakdown.to_cents();
    let lines = [Line::Compute, Line::Bandwidth, Line::Storage, Line::Extras];
    let cell = |i: usize| {
        if m.unknown.iter().any(|u| u.line == lines[i]) {
            "unknown".to_string()
        } else {
            cents[i].to_string()
        }
    };
    // An incomplete total is a lower bound, said in the same words as every other surface.
    let total = match m.unknown.len() {
        0 => cents[4].to_string(),
        n => format!("≥ {} + {n} unknown", cents[4]),
    };
    let mut mark = String::new();
    if cheapest {
        mark.push_str("  <- cheapest");
    }
    let _ = writeln!(
        out,
        "{:<11}{:>12}{:>12}{:>12}{:>12}{:>12}{mark}",
        Cell(m.mode.label()),
        Cell(cell(0)),
        Cell(cell(1)),
        Cell(cell(2)),
        Cell(cell(3)),
        Cell(total),
    );
}

fn notes(out: &mut String, e: &Estimate, priced: &Priced) {
    let sheet = priced.sheet.as_deref().map_or_else(
        || "the inline prices".to_string(),
        |s| format!("sheet `{}`", one_line(s, 60)),
    );
    let mut named = Vec::new();
    for u in e.modes.iter().flat_map(|m| &m.unknown) {
        if !named.contains(u) {
            named.push(*u);
            let _ = writeln!(
                out,
                "Unknown: {} has no price in {sheet} ({}); an incomplete total leaves it out.",
                u.line.label(),
                u.key
            );
        }
    }
    if let Some(mix) = e.mode(PlanMode::Mixed).and_then(|m| m.mix) {
        let _ = writeln!(
            out,
            "Mixed: {} month(s) of {} h, then {} day(s) on demand.",
            mix.months.normalize(),
            e.month_hours,
            mix.on_demand_days.normalize()
        );
    }
    if let Some(rerun) = e.mode(PlanMode::Spot).and_then(|m| m.rerun) {
        let _ = writeln!(
            out,
            "Spot compute includes {} of expected reruns: each reclaim loses half a checkpoint \
             interval of work on average.",
            two_decimals(rerun)
        );
    }
    if let Some(hours) = e.break_even_hours_per_month {
        let _ = writeln!(
            out,
            "Break-even: the monthly subscription is cheaper above {} hours of use a month.",
            two_decimals(hours)
        );
    }
}

const NOTE: &str = "\
Note: spot capacity can be reclaimed at any moment; use it only for work that resumes from a
checkpoint. A monthly commitment is paid up front and cannot be refunded if you stop early.
";
