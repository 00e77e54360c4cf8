//! The pre-rental budget: one plan priced on-demand, monthly and spot, side by side.

use rust_decimal::Decimal;
use serde::Serialize;

use super::breakdown::Breakdown;
use crate::money::Currency;

/// Days in a subscription month for plans (a plan longer than that buys more months).
pub const PLAN_MONTH_DAYS: u32 = 30;

/// How the user means to rent: so many hours a day for so many days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub hours_per_day: Decimal,
    pub days: Decimal,
}

impl Plan {
    pub fn hours(&self) -> Decimal {
        self.hours_per_day * self.days
    }

    /// Subscription months the plan needs: whole months of 30 days, at least one.
    pub fn months(&self) -> Decimal {
        (self.days / Decimal::from(PLAN_MONTH_DAYS))
            .ceil()
            .max(Decimal::ONE)
    }
}

/// Prices for the whole rental (already multiplied by GPUs or instances), in one currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanPrices {
    pub currency: Currency,
    pub on_demand_per_hour: Option<Decimal>,
    pub spot_per_hour: Option<Decimal>,
    pub monthly: Option<Decimal>,
    pub egress_gb: Decimal,
    pub egress_per_gb: Decimal,
    pub free_egress_gb_per_month: Decimal,
    pub storage_gb: Decimal,
    pub storage_per_gb_month: Decimal,
    /// Hours in the month that storage prices use (730 unless the sheet says otherwise).
    pub month_hours: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanMode {
    OnDemand,
    Monthly,
    Spot,
}

impl PlanMode {
    pub fn label(self) -> &'static str {
        match self {
            PlanMode::OnDemand => "on-demand",
            PlanMode::Monthly => "monthly",
            PlanMode::Spot => "spot",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Estimate {
    pub plan: Plan,
    pub currency: Currency,
    /// Each priced mode, in the order on-demand, monthly, spot; a mode with no price is absent.
    pub modes: Vec<(PlanMode, Breakdown)>,
    pub cheapest: Option<PlanMode>,
    /// Hours a month above which the subscription is cheaper than on-demand.
    pub break_even_hours_per_month: Option<Decimal>,
}

pub fn estimate(prices: &PlanPrices, plan: Plan) -> Estimate {
    let months = plan.months();
    let free_gb = prices.free_egress_gb_per_month * months;
    let bandwidth = (prices.egress_gb - free_gb).max(Decimal::ZERO) * prices.egress_per_gb;
    // A disk bills whether or not the instance runs, so storage covers every day of the plan.
    let storage_hours = plan.days * Decimal::from(24);
    let storage = prices.storage_gb * prices.storage_per_gb_month * storage_hours
        / Decimal::from(prices.month_hours);

    let with_compute = |compute: Decimal| Breakdown {
        currency: prices.currency,
        compute,
        bandwidth,
        storage,
        extras: Decimal::ZERO,
    };
    let mut modes = Vec::new();
    if let Some(rate) = prices.on_demand_per_hour {
        modes.push((PlanMode::OnDemand, with_compute(rate * plan.hours())));
    }
    if let Some(monthly) = prices.monthly {
        modes.push((PlanMode::Monthly, with_compute(monthly * months)));
    }
    if let Some(rate) = prices.spot_per_hour {
        modes.push((PlanMode::Spot, with_compute(rate * plan.hours())));
    }
    let cheapest = modes
        .iter()
        .min_by_key(|(_, b)| b.total().amount)
        .map(|(mode, _)| *mode);
    let break_even_hours_per_month = match (prices.monthly, prices.on_demand_per_hour) {
        (Some(monthly), Some(rate)) if !rate.is_zero() => Some(monthly / rate),
        _ => None,
    };
    Estimate {
        plan,
        currency: prices.currency,
        modes,
        cheapest,
        break_even_hours_per_month,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    fn cny(on_demand: Decimal, monthly: Decimal) -> PlanPrices {
        PlanPrices {
            currency: Currency::CNY,
            on_demand_per_hour: Some(on_demand),
            spot_per_hour: None,
            monthly: Some(monthly),
            egress_gb: Decimal::ZERO,
            egress_per_gb: Decimal::ZERO,
            free_egress_gb_per_month: Decimal::ZERO,
            storage_gb: Decimal::ZERO,
            storage_per_gb_month: Decimal::ZERO,
            month_hours: 730,
        }
    }

    #[test]
    fn the_issue_example_compares_on_demand_and_monthly() {
        let plan = Plan {
            hours_per_day: dec!(8),
            days: dec!(10),
        };
        let e = estimate(&cny(dec!(25), dec!(5000)), plan);
        assert_eq!(e.modes[0].1.total().amount, dec!(2000));
        assert_eq!(e.modes[1].1.total().amount, dec!(5000));
        assert_eq!(e.cheapest, Some(PlanMode::OnDemand));
        assert_eq!(e.break_even_hours_per_month, Some(dec!(200)));
    }

    #[test]
    fn a_plan_longer_than_a_month_buys_more_months() {
        let plan = Plan {
            hours_per_day: dec!(24),
            days: dec!(31),
        };
        assert_eq!(plan.months(), dec!(2));
        let e = estimate(&cny(dec!(25), dec!(5000)), plan);
        assert_eq!(e.modes[1].1.compute, dec!(10000));
        assert_eq!(e.modes[0].1.compute, dec!(18600));
        assert_eq!(e.cheapest, Some(PlanMode::Monthly));
    }

    #[test]
    fn storage_bills_every_day_and_egress_beyond_the_allowance() {
        let mut prices = cny(dec!(10), dec!(1000));
        prices.storage_gb = dec!(730);
        prices.storage_per_gb_month = dec!(1);
        prices.egress_gb = dec!(150);
        prices.egress_per_gb = dec!(0.5);
        prices.free_egress_gb_per_month = dec!(100);
        let plan = Plan {
            hours_per_day: dec!(0),
            days: dec!(1),
        };
        let e = estimate(&prices, plan);
        let on_demand = e.modes[0].1;
        assert_eq!(on_demand.compute, dec!(0));
        // 730 GB for 24 of 730 hours at 1 per GB-month.
        assert_eq!(on_demand.storage, dec!(24));
        assert_eq!(on_demand.bandwidth, dec!(25));
    }

    #[test]
    fn a_mode_without_a_price_is_absent() {
        let mut prices = cny(dec!(10), dec!(1000));
        prices.monthly = None;
        prices.spot_per_hour = Some(dec!(3));
        let e = estimate(
            &prices,
            Plan {
                hours_per_day: dec!(1),
                days: dec!(1),
            },
        );
        let modes: Vec<_> = e.modes.iter().map(|(m, _)| *m).collect();
        assert_eq!(modes, vec![PlanMode::OnDemand, PlanMode::Spot]);
        assert_eq!(e.cheapest, Some(PlanMode::Spot));
        assert_eq!(e.break_even_hours_per_month, None);
    }
}
