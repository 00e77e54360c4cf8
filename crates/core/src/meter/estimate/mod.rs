//! The pre-rental budget: one plan priced on-demand, monthly, as a mix of the two, and spot,
//! side by side; and the same plan across every sheet ([`compare`](mod@compare)).
//!
//! - [`plan`]: the plan, what it needs, the prices it runs on.
//! - [`lines`]: bandwidth, storage and extras; compute billed per run; unknown lines.
//! - [`mix`]: the cheapest mix of months and on-demand days.
//! - [`risk`]: spot's expected rerun cost.
//! - [`fx`]: exchange rates the user gives; [`compare`](mod@compare): one plan, every offer.

pub mod compare;
pub mod fx;
pub mod lines;
pub mod mix;
pub mod plan;
pub mod risk;

use rust_decimal::Decimal;
use serde::Serialize;

use super::breakdown::Breakdown;
use crate::money::{Currency, Money, PartialTotal};

pub use lines::{Line, Unknown};
pub use mix::Mix;
pub use plan::{INLINE_MONTH_HOURS, Needs, Plan, PlanPrices, only_disk_price};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanMode {
    OnDemand,
    Monthly,
    /// Subscription months with the rest of the plan on demand.
    Mixed,
    Spot,
}

impl PlanMode {
    pub const ALL: [PlanMode; 4] = [
        PlanMode::OnDemand,
        PlanMode::Monthly,
        PlanMode::Mixed,
        PlanMode::Spot,
    ];

    pub fn label(self) -> &'static str {
        match self {
            PlanMode::OnDemand => "on-demand",
            PlanMode::Monthly => "monthly",
            PlanMode::Mixed => "mixed",
            PlanMode::Spot => "spot",
        }
    }
}

/// One mode's cost. `breakdown.compute` includes `rerun`; the total leaves out `unknown`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModeCost {
    pub mode: PlanMode,
    pub breakdown: Breakdown,
    /// Spot only: the expected cost of work redone after reclaims.
    pub rerun: Option<Decimal>,
    /// Spot only, with no checkpoint interval: each reclaim restarts the job (the cost of that
    /// is in `rerun` where it is a number).
    pub no_checkpoint: Option<risk::NoCheckpoint>,
    pub mix: Option<Mix>,
    pub unknown: Vec<Unknown>,
}

impl ModeCost {
    pub fn is_complete(&self) -> bool {
        self.unknown.is_empty()
    }

    /// The line's amount, `None` when a price it needs is unknown: a line with a gap in it is
    /// not a number, whatever part of it was priced.
    pub fn line(&self, line: Line) -> Option<Decimal> {
        if self.unknown.iter().any(|u| u.line == line) {
            return None;
        }
        Some(match line {
            Line::Compute => self.breakdown.compute,
            Line::Bandwidth => self.breakdown.bandwidth,
            Line::Storage => self.breakdown.storage,
            Line::Extras => self.breakdown.extras,
        })
    }

    /// What is priced, and each unknown named with its reason.
    pub fn total(&self) -> PartialTotal {
        PartialTotal {
            known: self.breakdown.total(),
            unknown: self.unknown.iter().map(Unknown::reason).collect(),
        }
    }

    /// The total per GPU-hour of use, `None` when nothing runs; a lower bound when incomplete.
    pub fn per_gpu_hour(&self, plan: &Plan, gpus: u32) -> Option<Money> {
        let gpu_hours = plan.hours() * Decimal::from(gpus);
        if gpu_hours.is_zero() {
            return None;
        }
        let total = self.breakdown.total();
        Some(Money::new(total.amount / gpu_hours, total.currency))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Estimate {
    pub plan: Plan,
    pub currency: Currency,
    pub month_hours: u32,
    /// Each priced mode, in the order of [`PlanMode::ALL`]; a mode with no price is absent.
    pub modes: Vec<ModeCost>,
    pub cheapest: Option<PlanMode>,
    /// Hours a month above which the subscription is cheaper than on-demand.
    pub break_even_hours_per_month: Option<Decimal>,
}

impl Estimate {
    pub fn mode(&self, mode: PlanMode) -> Option<&ModeCost> {
        self.modes.iter().find(|m| m.mode == mode)
    }
}

pub fn estimate(prices: &PlanPrices, plan: Plan, needs: &Needs) -> Estimate {
    let shared = lines::shared(prices, &plan, needs);
    // Every mode starts the plan's runs, so every mode pays their boot fees.
    let extras = shared.extras + lines::boot_fees(prices, &plan);
    let cost = |mode, compute: Decimal| ModeCost {
        mode,
        breakdown: Breakdown {
            currency: prices.currency,
            compute,
            bandwidth: shared.bandwidth,
            storage: shared.storage,
            extras,
        },
        rerun: None,
        no_checkpoint: None,
        mix: None,
        unknown: shared.unknown.clone(),
    };
    let mut modes = Vec::new();
    if let Some(rate) = prices.on_demand_per_hour {
        let compute = lines::time_billed(prices, &plan, rate, plan.days);
        modes.push(cost(PlanMode::OnDemand, compute));
    }
    if let Some(compute) = mix::months_price(prices, plan.months(prices.month_hours)) {
        modes.push(cost(PlanMode::Monthly, compute));
    }
    if let Some(mix) = mix::cheapest_mix(prices, &plan) {
        modes.push(ModeCost {
            mix: Some(mix),
            ..cost(PlanMode::Mixed, mix.compute)
        });
    }
    if let Some(rate) = prices.spot_per_hour {
        let mut spot = cost(
            PlanMode::Spot,
            lines::time_billed(prices, &plan, rate, plan.days),
        );
        match risk::rerun_cost(prices, &plan, needs, rate) {
            Ok(rerun) => {
                spot.breakdown.compute += rerun.unwrap_or_default();
                spot.rerun = rerun;
            }
            Err(unknown) => spot.unknown.insert(0, unknown),
        }
        if let Some(risk) = risk::no_checkpoint(prices, &plan, needs, rate) {
            spot.breakdown.compute += risk.rerun.unwrap_or_default();
            spot.rerun = risk.rerun;
            spot.no_checkpoint = Some(risk);
        }
        modes.push(spot);
    }
    // Only modes that leave out the same lines compare: a mode with a gap of its own (spot's
    // unknown reruns) could cost anything, so it is never called the cheapest; nor is a job
    // that reclaims would, in practice, never let finish.
    let never_finishes = |m: &ModeCost| m.no_checkpoint.is_some_and(|r| r.rerun.is_none());
    let cheapest = modes
        .iter()
        .filter(|m| m.unknown == shared.unknown && !never_finishes(m))
        .min_by_key(|m| m.breakdown.total().amount)
        .map(|m| m.mode);
    let break_even_hours_per_month = match (prices.monthly, prices.on_demand_per_hour) {
        (Some(monthly), Some(rate)) if !rate.is_zero() => Some(monthly / rate),
        _ => None,
    };
    Estimate {
        plan,
        currency: prices.currency,
        month_hours: prices.month_hours,
        modes,
        cheapest,
        break_even_hours_per_month,
    }
}

#[cfg(test)]
mod tests;
