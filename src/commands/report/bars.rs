//! Spend per day as bars in the terminal: the busy part solid, the idle part shaded, so the
//! idle share of each day is seen at a glance. Cells come from exact decimal amounts.

use gpumeter_core::cell::Cell;
use std::fmt::Write as _;

use rust_decimal::Decimal;

use crate::ledger::report::CurrencySpend;
use crate::money::Money;

/// How wide the longest bar is, in cells.
pub const WIDTH: u32 = 40;

/// `(busy cells, idle cells)` for a day of `total` with `idle` of it idle, on a scale where
/// `max` fills [`WIDTH`]. A day with any spend gets at least one cell; idle never exceeds the day.
pub fn cells(total: Decimal, idle: Decimal, max: Decimal) -> (u32, u32) {
    if max <= Decimal::ZERO || total <= Decimal::ZERO {
        return (0, 0);
    }
    let scale = |amount: Decimal| {
        (amount * Decimal::from(WIDTH) / max)
            .round()
            .try_into()
            .unwrap_or(WIDTH)
    };
    let all: u32 = scale(total).clamp(1, WIDTH);
    let idle: u32 = scale(idle.clamp(Decimal::ZERO, total)).min(all);
    (all - idle, idle)
}

/// The chart for one currency's days, or nothing when no day spent anything.
pub fn chart(s: &CurrencySpend) -> String {
    let max = s
        .days
        .iter()
        .map(|d| d.cost.total().amount)
        .max()
        .unwrap_or_default();
    let mut out = String::new();
    if max <= Decimal::ZERO {
        return out;
    }
    let title = crate::t!("report-chart", currency = s.currency.to_string());
    let _ = writeln!(out, "\n{title}");
    for d in &s.days {
        let total = d.cost.total().amount;
        let (busy, idle) = cells(total, d.idle, max);
        let bar = format!("{}{}", "█".repeat(busy as usize), "░".repeat(idle as usize));
        let share = if total > Decimal::ZERO && d.idle > Decimal::ZERO {
            let pct = (d.idle * Decimal::ONE_HUNDRED / total).round();
            crate::t!("report-chart-idle", pct = pct.to_string())
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{}  {:<width$}  {:>12}{share}",
            d.date,
            Cell(bar),
            Money::new(total, s.currency).cents_string(),
            width = WIDTH as usize
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use rust_decimal::dec;

    use super::*;

    #[test]
    fn the_largest_day_fills_the_width_and_idle_is_its_share() {
        assert_eq!(cells(dec!(990.13), dec!(247.13), dec!(990.13)), (30, 10));
        assert_eq!(cells(dec!(990.13), Decimal::ZERO, dec!(990.13)), (WIDTH, 0));
        assert_eq!(cells(dec!(100), dec!(100), dec!(100)), (0, WIDTH));
    }

    #[test]
    fn small_days_still_show_and_nonsense_stays_in_bounds() {
        assert_eq!(cells(dec!(0.01), Decimal::ZERO, dec!(1000)), (1, 0));
        assert_eq!(cells(Decimal::ZERO, Decimal::ZERO, dec!(10)), (0, 0));
        assert_eq!(
            cells(dec!(10), dec!(50), dec!(10)),
            (0, WIDTH),
            "idle above the day"
        );
        assert_eq!(cells(dec!(10), dec!(-5), dec!(10)), (WIDTH, 0));
        assert_eq!(cells(dec!(10), Decimal::ZERO, Decimal::ZERO), (0, 0));
    }
}
