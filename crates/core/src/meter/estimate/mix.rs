//! The cheapest mix of subscription plans (years, months, weeks, days) and on-demand hours.
//!
//! A plan covers wall time, used or not; on demand bills the hours used. Years and months are
//! tried count by count (the months as one purchase, which earns the sheet's largest duration
//! discount it reaches); what they leave is covered day by day with weeks, days or on-demand
//! days, whichever is cheapest, in one pass over the days.

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

use super::lines::time_billed;
use super::plan::{Plan, PlanPrices};

/// Hours a daily, weekly and yearly plan covers.
const DAY_HOURS: u32 = 24;
const WEEK_DAYS: usize = 7;
const YEAR_HOURS: u32 = 8760;

/// Plans bought and the days after them paid on demand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mix {
    pub years: u32,
    /// Months bought at once.
    pub months: u32,
    pub weeks: u32,
    pub days: u32,
    pub on_demand_days: Decimal,
    pub compute: Decimal,
}

impl Mix {
    /// How many kinds of purchase it makes: one is no mix.
    fn kinds(&self) -> usize {
        [self.years, self.months, self.weeks, self.days]
            .iter()
            .filter(|n| **n > 0)
            .count()
            + usize::from(!self.on_demand_days.is_zero())
    }
}

/// The price of `months` months bought at once, their duration discount taken off.
pub fn months_price(prices: &PlanPrices, months: impl Into<Decimal>) -> Option<Decimal> {
    let monthly = prices.monthly?;
    let months = months.into();
    let off = prices
        .duration_discounts
        .iter()
        .rev()
        .find(|d| Decimal::from(d.months) <= months)
        .map_or(Decimal::ZERO, |d| d.off);
    Some(monthly * months * (Decimal::ONE - off))
}

/// The cheapest real mix (two kinds of purchase or more, or one plan that is neither months nor
/// hours alone), or `None` when buying only months or only hours is as cheap, or when there is
/// no plan to mix.
pub fn cheapest_mix(prices: &PlanPrices, plan: &Plan) -> Option<Mix> {
    let subscriptions = [prices.monthly, prices.daily, prices.weekly, prices.yearly];
    if subscriptions.iter().all(Option::is_none) || plan.days <= Decimal::ZERO {
        return None;
    }
    let wall_hours = plan.wall_hours();
    let month_hours = prices.month_hours.max(1);
    let tail = Tail::new(prices, plan)?;
    let mut best: Option<Mix> = None;
    let most_years = if prices.yearly.is_some() {
        whole_units(wall_hours, YEAR_HOURS)
    } else {
        0
    };
    for years in 0..=most_years {
        let after_years = (wall_hours - Decimal::from(years * YEAR_HOURS)).max(Decimal::ZERO);
        let most_months = if prices.monthly.is_some() {
            whole_units(after_years, month_hours)
        } else {
            0
        };
        for months in 0..=most_months {
            let rest = (after_years - Decimal::from(months * month_hours)).max(Decimal::ZERO);
            let Some(mut mix) = tail.cover(rest / Decimal::from(DAY_HOURS)) else {
                continue;
            };
            mix.compute += prices.yearly.unwrap_or_default() * Decimal::from(years)
                + months_price(prices, months).unwrap_or_default();
            (mix.years, mix.months) = (years, months);
            if best.is_none_or(|b| mix.compute < b.compute) {
                best = Some(mix);
            }
        }
    }
    let only_hours = prices
        .on_demand_per_hour
        .map(|rate| time_billed(prices, plan, rate, plan.days));
    let only_months = months_price(prices, plan.months(prices.month_hours));
    best.filter(|b| {
        let alone = b.kinds() == 1 && (b.months > 0 || !b.on_demand_days.is_zero());
        !alone
            && only_hours.is_none_or(|h| b.compute < h)
            && only_months.is_none_or(|m| b.compute < m)
    })
}

/// Whole `unit`s that cover `hours`, one more than fit when some are left.
fn whole_units(hours: Decimal, unit: u32) -> u32 {
    (hours / Decimal::from(unit))
        .ceil()
        .to_u32()
        .unwrap_or(u32::MAX)
}

/// The days years and months leave: covered by weeks, days or on-demand days, cheapest first,
/// for every whole number of days up to the plan's.
struct Tail {
    /// `cheapest[d]`: the cheapest (weeks, days, on-demand days, cost) covering `d` days.
    cheapest: Vec<Option<(u32, u32, u32, Decimal)>>,
    daily: Option<Decimal>,
    on_demand_day: Option<Decimal>,
}

impl Tail {
    fn new(prices: &PlanPrices, plan: &Plan) -> Option<Tail> {
        let on_demand_day = prices
            .on_demand_per_hour
            .map(|rate| time_billed(prices, plan, rate, Decimal::ONE));
        let days = usize::try_from(whole_units(plan.wall_hours(), DAY_HOURS)).ok()?;
        let mut cheapest: Vec<Option<(u32, u32, u32, Decimal)>> = vec![None; days + 1];
        cheapest[0] = Some((0, 0, 0, Decimal::ZERO));
        for d in 1..=days {
            let mut best: Option<(u32, u32, u32, Decimal)> = None;
            let mut consider = |candidate: Option<(u32, u32, u32, Decimal)>| {
                if let Some(c) = candidate
                    && best.is_none_or(|b| c.3 < b.3)
                {
                    best = Some(c);
                }
            };
            let before = cheapest[d - 1];
            consider(
                before
                    .zip(prices.daily)
                    .map(|((w, n, o, c), p)| (w, n + 1, o, c + p)),
            );
            consider(
                before
                    .zip(on_demand_day)
                    .map(|((w, n, o, c), p)| (w, n, o + 1, c + p)),
            );
            let week_before = cheapest[d.saturating_sub(WEEK_DAYS)];
            consider(
                week_before
                    .zip(prices.weekly)
                    .map(|((w, n, o, c), p)| (w + 1, n, o, c + p)),
            );
            cheapest[d] = best;
        }
        Some(Tail {
            cheapest,
            daily: prices.daily,
            on_demand_day,
        })
    }

    /// The cheapest cover of `days` (a fraction of the last day on demand where that is
    /// cheaper than a whole day more); `None` when nothing can cover them.
    fn cover(&self, days: Decimal) -> Option<Mix> {
        let whole = days.floor();
        let part = days - whole;
        let at = whole.to_usize()?;
        let mix = |(weeks, n, od, cost): (u32, u32, u32, Decimal), extra_od: Decimal| Mix {
            years: 0,
            months: 0,
            weeks,
            days: n,
            on_demand_days: Decimal::from(od) + extra_od,
            compute: cost,
        };
        let mut best: Option<Mix> = None;
        let mut consider = |m: Option<Mix>| {
            if let Some(m) = m
                && best.is_none_or(|b| m.compute < b.compute)
            {
                best = Some(m);
            }
        };
        let here = self.cheapest.get(at).copied().flatten();
        if part.is_zero() {
            consider(here.map(|c| mix(c, Decimal::ZERO)));
        } else {
            let part_on_demand = here.zip(self.on_demand_day).map(|(c, p)| {
                let mut m = mix(c, part);
                m.compute += p * part;
                m
            });
            consider(part_on_demand);
            consider(here.zip(self.daily).map(|(c, p)| {
                let mut m = mix(c, Decimal::ZERO);
                (m.days, m.compute) = (m.days + 1, m.compute + p);
                m
            }));
            consider(
                self.cheapest
                    .get(at + 1)
                    .copied()
                    .flatten()
                    .map(|c| mix(c, Decimal::ZERO)),
            );
        }
        best
    }
}
