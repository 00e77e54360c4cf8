//! The cheapest mix of subscription months and on-demand days for a plan.

use rust_decimal::Decimal;

use super::lines::time_billed;
use super::plan::{Plan, PlanPrices};

/// Months bought and the days after them paid on demand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mix {
    pub months: Decimal,
    pub on_demand_days: Decimal,
    pub compute: Decimal,
}

/// The cheapest real mix (at least one month and some days on demand), or `None` when buying
/// only months or only hours is as cheap, or when either price is missing.
pub fn cheapest_mix(prices: &PlanPrices, plan: &Plan) -> Option<Mix> {
    let (monthly, rate) = (prices.monthly?, prices.on_demand_per_hour?);
    let month_days = Decimal::from(prices.month_hours) / Decimal::from(24);
    let all_months = plan.months(prices.month_hours);
    let only_hours = time_billed(prices, plan, rate, plan.days);
    let only_months = monthly * all_months;
    let mut best: Option<Mix> = None;
    let mut months = Decimal::ONE;
    while months < all_months {
        let on_demand_days = (plan.days - months * month_days).max(Decimal::ZERO);
        let compute = monthly * months + time_billed(prices, plan, rate, on_demand_days);
        if best.is_none_or(|b| compute < b.compute) {
            best = Some(Mix {
                months,
                on_demand_days,
                compute,
            });
        }
        months += Decimal::ONE;
    }
    best.filter(|b| b.compute < only_hours && b.compute < only_months)
}
