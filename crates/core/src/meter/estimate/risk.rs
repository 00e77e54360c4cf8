//! What spot's reclaims cost in work done twice.
//!
//! The model: reclaims arrive at the given rate per day of running (not per calendar day), and
//! each one loses, on average, half a checkpoint interval of compute, or half a run when runs
//! are shorter than the interval. That work is paid again at the spot price.

use rust_decimal::Decimal;

use super::lines::{Line, Unknown};
use super::plan::{Needs, Plan, PlanPrices};

/// The expected rerun cost, `Ok(None)` when no checkpoint interval was given, or the
/// missing reclaim rate.
pub fn rerun_cost(
    prices: &PlanPrices,
    plan: &Plan,
    needs: &Needs,
    spot_rate: Decimal,
) -> Result<Option<Decimal>, Unknown> {
    let Some(every) = needs.checkpoint_every_hours else {
        return Ok(None);
    };
    let per_day = needs
        .reclaims_per_day
        .or(prices.reclaims_per_day)
        .ok_or(Unknown {
            line: Line::Compute,
            key: "billing.reclaims_per_day",
        })?;
    let reclaims = per_day * plan.hours() / Decimal::from(24);
    let lost_hours = every.min(plan.run_hours()) / Decimal::TWO;
    Ok(Some(reclaims * lost_hours * spot_rate))
}
