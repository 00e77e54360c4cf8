//! What one scrape shows: the latest readings, reduced to plain numbers. The collector builds a
//! fresh one every second, and it is rendered then, once, into the page every scrape answers.

use gpumeter_core::traffic::TrafficClass;
use jiff::Timestamp;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive as _;

use crate::meter::{Breakdown, InstanceState};
use crate::spend::SpendReading;
use crate::telemetry::{GpuSample, HostSample};

/// The labels every series carries. `instance_id`, not `instance`: Prometheus sets `instance`
/// to the scrape target itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Target {
    pub instance_id: String,
    pub provider: String,
}

/// The instance as the provider last described it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceFacts {
    pub sku: String,
    pub region: Option<String>,
    pub state: InstanceState,
}

/// One cost line per component, in the sheet's currency.
#[derive(Debug, Clone, PartialEq)]
pub struct CostFacts {
    pub currency: String,
    /// `(component, amount)` for compute, bandwidth, storage and extras.
    pub accrued: Vec<(&'static str, f64)>,
    pub billed: f64,
    /// Per hour, per component, plus `total`.
    pub burn_per_hour: Vec<(&'static str, f64)>,
    /// What the resources that outlive a release cost per month.
    pub leftover_monthly: f64,
    /// How many resources outlive a release.
    pub leftover_resources: usize,
    /// Lines no sheet prices, left out of the cost so far, the bill and the burn rate: while
    /// above 0 those totals are lower bounds.
    pub accrued_unknown: usize,
    /// Leftovers no sheet prices, left out of `leftover_monthly`.
    pub leftover_unknown: usize,
    /// `(class, bytes, cost)` of egress by destination: internet, intranet, cross_region.
    pub egress: Vec<(&'static str, u64, f64)>,
}

pub const COMPONENTS: [&str; 4] = ["compute", "bandwidth", "storage", "extras"];

impl CostFacts {
    pub fn from_reading(reading: &SpendReading) -> Self {
        let accrual = &reading.accrual;
        let mut burn = parts(&accrual.burn_per_hour);
        burn.push(("total", to_f64(accrual.burn_per_hour.total().amount)));
        CostFacts {
            currency: accrual.accrued.currency.as_str().to_string(),
            accrued: parts(&accrual.accrued),
            billed: to_f64(accrual.billed.total().amount),
            burn_per_hour: burn,
            leftover_monthly: to_f64(reading.leftover_monthly),
            leftover_resources: reading.leftovers.len(),
            accrued_unknown: accrual.unpriced.len(),
            leftover_unknown: reading
                .leftovers
                .iter()
                .filter(|l| l.monthly.is_none())
                .count(),
            egress: TrafficClass::ALL
                .iter()
                .map(|&c| {
                    let line = accrual.egress.get(c);
                    (c.id(), line.bytes, to_f64(line.accrued))
                })
                .collect(),
        }
    }
}

fn parts(b: &Breakdown) -> Vec<(&'static str, f64)> {
    COMPONENTS
        .iter()
        .zip(b.parts())
        .map(|(name, d)| (*name, to_f64(d)))
        .collect()
}

pub(super) fn to_f64(d: Decimal) -> f64 {
    d.to_f64().unwrap_or(0.0)
}

/// The guard state the watchdog and the idle rule report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GuardFacts {
    /// `None` when no watchdog ever registered for the instance.
    pub watchdog_alive: Option<bool>,
    pub heartbeat_age_s: Option<f64>,
}

/// Everything a scrape shows, read at `now`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Snapshot {
    pub now: Option<Timestamp>,
    pub target: Target,
    /// The latest GPU round's samples; empty when no GPU could be read.
    pub gpus: Vec<GpuSample>,
    /// When the GPUs last gave a reading (a failed read does not count).
    pub gpu_time: Option<Timestamp>,
    pub host: Option<HostSample>,
    pub host_time: Option<Timestamp>,
    pub instance: Option<InstanceFacts>,
    /// Whether the last inventory read succeeded; `None` before the first one.
    pub cloud_ok: Option<bool>,
    pub cloud_time: Option<Timestamp>,
    pub cost: Option<CostFacts>,
    pub deadline: Option<Timestamp>,
    /// Seconds every GPU and the CPU have been idle without a break (0 when busy); `None`
    /// when the GPUs cannot be read, since gpumeter never calls unseen work idle.
    pub idle_s: Option<f64>,
    pub guard: Option<GuardFacts>,
    /// Whether a live watchdog or the provider holds the deadline; `None` without one.
    pub deadline_enforced: Option<bool>,
    /// A prepaid balance; `None` where the provider keeps none.
    pub balance: Option<BalanceFacts>,
    /// The GPUs whose memory is full or climbing to full ([`crate::telemetry::memory_full`]).
    pub memory_full: Vec<u32>,
}

/// A prepaid balance as last read, and how long it lasts.
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceFacts {
    pub currency: String,
    /// The cash, as last read.
    pub available: f64,
    /// Seconds until it runs out at the burn; `None` when nothing burns or nothing prices it.
    pub seconds_left: Option<f64>,
    /// Whose burn: `this_instance`, a lower bound of the account's.
    pub scope: &'static str,
}
