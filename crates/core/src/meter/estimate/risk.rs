//! What spot's reclaims cost in work done twice.
//!
//! With checkpoints, reclaims arrive at the given rate per day of running (not per calendar
//! day), and each one loses, on average, half a checkpoint interval of compute, or half a run
//! when runs are shorter than the interval. Without checkpoints, each reclaim starts the job
//! over: with reclaims arriving at rate λ an hour, a job of L hours takes (e^{λL} − 1)/λ hours
//! on average to finish (the expected completion time of a job restarted from zero at each
//! failure of a Poisson process). The work done again is paid at the spot price.

use rust_decimal::{Decimal, MathematicalOps};

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
    let per_day = reclaims_per_day(prices, needs)?;
    let reclaims = per_day * plan.hours() / Decimal::from(24);
    let lost_hours = every.min(plan.run_hours()) / Decimal::TWO;
    Ok(Some(reclaims * lost_hours * spot_rate))
}

/// Spot with no checkpoint: each reclaim starts the job over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoCheckpoint {
    /// Hours of running between reclaims on average: 24 over the reclaims a day.
    pub typical_interval_hours: Decimal,
    /// Hours one job runs from start to end: the whole plan when it runs all day (it never
    /// stops), else one run.
    pub job_hours: Decimal,
    /// Jobs in the plan.
    pub jobs: Decimal,
    /// Hours one job takes on average when every reclaim restarts it; `None`: beyond any
    /// number (it would, in practice, never finish).
    pub expected_job_hours: Option<Decimal>,
    /// The expected cost of the hours run again; `None` where `expected_job_hours` is.
    pub rerun: Option<Decimal>,
}

impl NoCheckpoint {
    /// The job runs longer than spot usually lets it: the warning `estimate` gives.
    pub fn outlasts_reclaims(&self) -> bool {
        self.job_hours > self.typical_interval_hours
    }
}

/// Spot with no checkpoint interval given; `None` when one was (see [`rerun_cost`]), nothing
/// runs, or no reclaim rate is known (the estimate then says the risk is not priced, as before
/// this was priced: a spot total never waits on a rate most sheets cannot source).
pub fn no_checkpoint(
    prices: &PlanPrices,
    plan: &Plan,
    needs: &Needs,
    spot_rate: Decimal,
) -> Option<NoCheckpoint> {
    if needs.checkpoint_every_hours.is_some() || plan.hours().is_zero() {
        return None;
    }
    let per_day = reclaims_per_day(prices, needs).ok()?;
    let (job_hours, jobs) = if plan.hours_per_day >= Decimal::from(24) {
        (plan.hours(), Decimal::ONE)
    } else {
        (plan.run_hours(), plan.runs_in(plan.days))
    };
    let typical_interval_hours = if per_day.is_zero() {
        Decimal::MAX
    } else {
        Decimal::from(24) / per_day
    };
    let expected_job_hours = expected_hours(per_day / Decimal::from(24), job_hours);
    let rerun = expected_job_hours.and_then(|expected| {
        (expected - job_hours)
            .checked_mul(jobs)?
            .checked_mul(spot_rate)
    });
    Some(NoCheckpoint {
        typical_interval_hours,
        job_hours,
        jobs,
        expected_job_hours: rerun.and(expected_job_hours),
        rerun,
    })
}

/// (e^{λL} − 1)/λ: the mean hours to finish `job_hours` of work restarted at each reclaim,
/// reclaims arriving `per_hour`; `None` when it overflows.
fn expected_hours(per_hour: Decimal, job_hours: Decimal) -> Option<Decimal> {
    if per_hour.is_zero() {
        return Some(job_hours);
    }
    let exponent = per_hour.checked_mul(job_hours)?;
    Some((exponent.checked_exp()? - Decimal::ONE) / per_hour)
}

fn reclaims_per_day(prices: &PlanPrices, needs: &Needs) -> Result<Decimal, Unknown> {
    needs
        .reclaims_per_day
        .or(prices.reclaims_per_day)
        .ok_or(Unknown {
            line: Line::Compute,
            key: "billing.reclaims_per_day",
        })
}
