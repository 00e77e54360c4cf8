//! What `estimate --json` prints: money as decimal strings rounded to the cent.

use std::collections::BTreeMap;

use serde::Serialize;

use super::two_decimals;
use crate::commands::Failure;
use crate::meter::estimate::{Estimate, Line, ModeCost, PlanMode};
use crate::money::{Currency, PartialTotalJson};

pub fn pretty(value: &impl Serialize) -> Result<String, Failure> {
    serde_json::to_string_pretty(value)
        .map_err(|e| Failure::bad_input(format!("cannot write JSON: {e}")))
}

#[derive(Debug, Serialize)]
pub struct EstimateJson {
    currency: Currency,
    #[serde(skip_serializing_if = "Option::is_none")]
    sku: Option<String>,
    plan: PlanJson,
    /// Hours in the month that every per-month price used.
    month_hours: u32,
    modes: ModesJson,
    cheapest: Option<PlanMode>,
    break_even_hours_per_month: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct PlanJson {
    pub hours: String,
    pub days: String,
    pub runs_per_day: u32,
    pub gpus: u32,
}

#[derive(Debug, Serialize)]
struct ModesJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    on_demand: Option<ModeJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    monthly: Option<ModeJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mixed: Option<ModeJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spot: Option<ModeJson>,
}

/// One mode: its lines (`null` where a price is unknown, the reason in `unavailable`), the
/// total of what could be priced marked `incomplete`, and the keys of what could not.
#[derive(Debug, Serialize)]
pub struct ModeJson {
    pub compute: Option<String>,
    pub bandwidth: Option<String>,
    pub storage: Option<String>,
    pub extras: Option<String>,
    /// Why each `null` line has no amount: `{"bandwidth": "no price for ..."}`.
    pub unavailable: BTreeMap<&'static str, String>,
    pub total: PartialTotalJson,
    /// The sheet keys a line needed and lacked; the total leaves those lines out.
    pub unknown: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rerun: Option<String>,
    /// Spot with no checkpoint interval: each reclaim restarts the job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_checkpoint: Option<NoCheckpointJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub months: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_demand_days: Option<String>,
    /// The mix's other plans, where it buys any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub years: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weeks: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
}

/// A job restarted at every reclaim: `null` hours and rerun when it would never finish.
#[derive(Debug, Serialize)]
pub struct NoCheckpointJson {
    pub typical_interval_hours: String,
    pub job_hours: String,
    pub jobs: String,
    pub expected_job_hours: Option<String>,
    pub rerun: Option<String>,
    /// The job runs longer than spot usually runs between reclaims: the warning.
    pub outlasts_reclaims: bool,
}

impl From<&ModeCost> for ModeJson {
    fn from(m: &ModeCost) -> Self {
        let c = m.breakdown.cents();
        let known = |line: Line, cents: String| m.line(line).map(|_| cents);
        let mut unavailable = BTreeMap::<&'static str, String>::new();
        for u in &m.unknown {
            let why = format!("no price for {}", u.key);
            unavailable
                .entry(u.line.label())
                .and_modify(|w| *w = format!("{w}; {why}"))
                .or_insert(why);
        }
        ModeJson {
            compute: known(Line::Compute, c.compute),
            bandwidth: known(Line::Bandwidth, c.bandwidth),
            storage: known(Line::Storage, c.storage),
            extras: known(Line::Extras, c.extras),
            unavailable,
            total: m.total().json(),
            unknown: m.unknown.iter().map(|u| u.key).collect(),
            rerun: m.rerun.map(two_decimals),
            no_checkpoint: m.no_checkpoint.map(|r| NoCheckpointJson {
                typical_interval_hours: two_decimals(r.typical_interval_hours),
                job_hours: two_decimals(r.job_hours),
                jobs: r.jobs.normalize().to_string(),
                expected_job_hours: r.expected_job_hours.map(two_decimals),
                rerun: r.rerun.map(two_decimals),
                outlasts_reclaims: r.outlasts_reclaims(),
            }),
            months: m.mix.map(|x| x.months.to_string()),
            on_demand_days: m.mix.map(|x| x.on_demand_days.normalize().to_string()),
            years: m.mix.map(|x| x.years).filter(|n| *n > 0),
            weeks: m.mix.map(|x| x.weeks).filter(|n| *n > 0),
            days: m.mix.map(|x| x.days).filter(|n| *n > 0),
        }
    }
}

impl EstimateJson {
    pub fn new(e: &Estimate, gpus: u32, sku: Option<&str>) -> Self {
        let mode = |m: PlanMode| e.mode(m).map(ModeJson::from);
        EstimateJson {
            currency: e.currency,
            sku: sku.map(str::to_string),
            plan: PlanJson {
                hours: e.plan.hours().normalize().to_string(),
                days: e.plan.days.normalize().to_string(),
                runs_per_day: e.plan.runs_per_day,
                gpus,
            },
            month_hours: e.month_hours,
            modes: ModesJson {
                on_demand: mode(PlanMode::OnDemand),
                monthly: mode(PlanMode::Monthly),
                mixed: mode(PlanMode::Mixed),
                spot: mode(PlanMode::Spot),
            },
            cheapest: e.cheapest,
            break_even_hours_per_month: e.break_even_hours_per_month.map(two_decimals),
        }
    }
}
