//! Accrual: what an instance and its resources have cost from creation up to an instant.
//!
//! Pure: the instant is an argument. Every line sums whole seconds per price first and divides
//! once at the end, so cutting an interval anywhere gives exactly the same amount.

use jiff::Timestamp;
use rust_decimal::Decimal;

use super::breakdown::Breakdown;
use super::lifecycle::{InstanceState, Interval};
use super::usage::{ComputeTerms, Resource, ResourceKind, Usage};
use crate::pricing::Sheet;
use crate::pricing::sheet::OtherPrice;

const SECONDS_PER_HOUR: i64 = 3600;

/// The meter's reading at one instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accrual {
    /// The exact cost so far.
    pub accrued: Breakdown,
    /// What the provider bills so far, each run of compute rounded up to the billing step and
    /// the minimum. Never less than `accrued`.
    pub billed: Breakdown,
    /// How fast each line grows now, per hour.
    pub burn_per_hour: Breakdown,
    /// What the sheet cannot price, each naming the resource or line and the missing key
    /// ("snapshot snap-0a: storage.snapshot_per_gib_month unknown"). Left out of every amount,
    /// so while it is not empty the total is incomplete.
    pub unpriced: Vec<String>,
    /// The bandwidth line's egress by destination.
    pub egress: super::bandwidth::EgressByClass,
}

/// Prices `usage` under `sheet` from the instance's creation up to `at`.
pub fn accrue(sheet: &Sheet, usage: &Usage, at: Timestamp) -> Accrual {
    let intervals = usage.lifecycle.intervals_until(at);
    let mut accrued = Breakdown::zero(sheet.currency);
    let mut burn = Breakdown::zero(sheet.currency);
    let mut unpriced = Vec::new();

    let state_now = usage.lifecycle.state_at(at);
    let compute = compute_cost(sheet, usage.terms, &intervals, state_now);
    accrued.compute = compute.accrued;
    burn.compute = compute.burn_per_hour;
    unpriced.extend(no_gpu_unpriced(sheet, usage.terms, &intervals));

    let bandwidth = super::bandwidth::bandwidth_cost(sheet, usage, &intervals, at);
    accrued.bandwidth = bandwidth.cost.accrued;
    burn.bandwidth = bandwidth.cost.burn_per_hour;
    unpriced.extend(bandwidth.unknown);

    for resource in &usage.resources {
        let end = resource_end(resource, usage, at);
        match price_resource(sheet, resource, &intervals, end, at, state_now) {
            Ok((line, amount, per_hour)) => {
                *line_mut(&mut accrued, line) += amount;
                *line_mut(&mut burn, line) += per_hour;
            }
            Err(key) => unpriced.push(super::unpriced::resource(
                resource.kind,
                &resource.id,
                &key.to_string(),
            )),
        }
    }

    let extras = instance_extras(sheet, usage, &intervals, at);
    if usage.licenses > 0 && sheet.extras.license_per_hour.is_none() {
        unpriced.push(super::unpriced::licence());
    }
    accrued.extras += extras.accrued;
    burn.extras += extras.burn_per_hour;

    let mut billed = accrued;
    billed.compute = compute.billed;
    Accrual {
        accrued,
        billed,
        burn_per_hour: burn,
        unpriced,
        egress: bandwidth.egress,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    Storage,
    Extras,
}

fn line_mut(b: &mut Breakdown, line: Line) -> &mut Decimal {
    match line {
        Line::Storage => &mut b.storage,
        Line::Extras => &mut b.extras,
    }
}

pub(crate) struct LineCost {
    pub accrued: Decimal,
    pub billed: Decimal,
    pub burn_per_hour: Decimal,
}

fn compute_cost(
    sheet: &Sheet,
    terms: ComputeTerms,
    intervals: &[Interval],
    state_now: Option<InstanceState>,
) -> LineCost {
    let per_hour = match terms {
        ComputeTerms::Committed { amount } => {
            // Bought with the instance: nothing is committed before it exists.
            let amount = if state_now.is_none() {
                Decimal::ZERO
            } else {
                amount
            };
            return LineCost {
                accrued: amount,
                billed: amount,
                burn_per_hour: Decimal::ZERO,
            };
        }
        ComputeTerms::Hourly { per_hour } => per_hour,
    };
    let share = sheet.billing.stop_policy.compute_share();
    // No price for the no-GPU mode leaves its seconds out and says so (`unpriced`).
    let no_gpu_per_hour = sheet.billing.no_gpu_per_hour.unwrap_or_default();
    let step = i64::from(sheet.billing.step_seconds.max(1));
    let minimum = i64::from(sheet.billing.minimum_seconds);
    let mut seconds = Seconds::default();
    let mut billed = Seconds::default();
    for iv in intervals {
        match iv.state {
            InstanceState::Running => {
                seconds.running += iv.seconds();
                billed.running += round_up(iv.seconds(), step).max(minimum);
            }
            InstanceState::Stopped => {
                seconds.stopped += iv.seconds();
                billed.stopped += round_up(iv.seconds(), step);
            }
            InstanceState::NoGpu => {
                seconds.no_gpu += iv.seconds();
                billed.no_gpu += round_up(iv.seconds(), step);
            }
            InstanceState::Released => {}
        }
    }
    // Multiply before dividing: seconds / 3600 alone is rarely a finite decimal.
    let cost = |s: Seconds| {
        (per_hour * (Decimal::from(s.running) + share * Decimal::from(s.stopped))
            + no_gpu_per_hour * Decimal::from(s.no_gpu))
            / Decimal::from(SECONDS_PER_HOUR)
    };
    let burn_per_hour = match state_now {
        Some(InstanceState::Running) => per_hour,
        Some(InstanceState::Stopped) => per_hour * share,
        Some(InstanceState::NoGpu) => no_gpu_per_hour,
        Some(InstanceState::Released) | None => Decimal::ZERO,
    };
    LineCost {
        accrued: cost(seconds),
        billed: cost(billed),
        burn_per_hour,
    }
}

/// Seconds of compute in each billed state.
#[derive(Debug, Clone, Copy, Default)]
struct Seconds {
    running: i64,
    stopped: i64,
    no_gpu: i64,
}

/// The line `unpriced` names when the instance spent time in the no-GPU mode and the sheet
/// has no price for it.
fn no_gpu_unpriced(sheet: &Sheet, terms: ComputeTerms, intervals: &[Interval]) -> Option<String> {
    let hourly = matches!(terms, ComputeTerms::Hourly { .. });
    let used = intervals.iter().any(|iv| iv.state == InstanceState::NoGpu);
    (hourly && used && sheet.billing.no_gpu_per_hour.is_none()).then(super::unpriced::no_gpu)
}

fn round_up(seconds: i64, step: i64) -> i64 {
    (seconds + step - 1) / step * step
}

/// Where a resource stops billing, as seen at `at`.
fn resource_end(resource: &Resource, usage: &Usage, at: Timestamp) -> i64 {
    let mut end = at.as_second();
    if let Some(deleted) = resource.deleted {
        end = end.min(deleted.as_second());
    }
    if resource.deleted_with_instance
        && let Some(released) = usage.lifecycle.released_at(at)
    {
        end = end.min(released.as_second());
    }
    end
}

/// Seconds of `[from, to)` spent in each instance state; time outside the instance's life
/// (before creation or after release) counts as released.
fn seconds_by_state(intervals: &[Interval], from: i64, to: i64) -> [i64; 3] {
    let mut out = [0i64; 3];
    let mut covered = 0;
    for iv in intervals {
        let overlap = (iv.end.min(to) - iv.start.max(from)).max(0);
        covered += overlap;
        // Disks bill the same whether the machine runs with its GPUs or without.
        let state = if iv.state == InstanceState::NoGpu {
            InstanceState::Running
        } else {
            iv.state
        };
        out[state as usize] += overlap;
    }
    out[InstanceState::Released as usize] += (to - from).max(0) - covered;
    out
}

/// (line, accrued, burn per hour) for one resource, or the sheet key its price is missing at.
fn price_resource(
    sheet: &Sheet,
    r: &Resource,
    intervals: &[Interval],
    end: i64,
    at: Timestamp,
    state_now: Option<InstanceState>,
) -> Result<(Line, Decimal, Decimal), Unpriced> {
    let start = r.created.as_second();
    let [running, stopped, gone] = seconds_by_state(intervals, start, end);
    let alive_now = start <= at.as_second() && end == at.as_second();
    let month_seconds = Decimal::from(i64::from(sheet.billing.month_hours) * SECONDS_PER_HOUR);
    let hour = Decimal::from(SECONDS_PER_HOUR);
    let per_month_storage = |price: Decimal, price_stopped: Decimal| {
        let weighted =
            price * Decimal::from(running + gone) + price_stopped * Decimal::from(stopped);
        let burn = if state_now == Some(InstanceState::Stopped) {
            price_stopped
        } else {
            price
        };
        (
            r.size_gib * weighted / month_seconds,
            r.size_gib * burn * hour / month_seconds,
        )
    };
    let (line, (amount, burn)) = match r.kind {
        // An instance's compute is metered as the instance, never as a resource of another.
        ResourceKind::StoppedInstance => return Err(Unpriced::Compute(r.id.clone())),
        ResourceKind::SystemDisk | ResourceKind::DataDisk => {
            let class = r.class.as_deref().unwrap_or("default");
            let price = sheet
                .storage
                .disk
                .get(class)
                .ok_or_else(|| Unpriced::Disk(class.to_owned()))?;
            let stopped_price = price.when_stopped.unwrap_or(price.per_gib_month);
            (
                Line::Storage,
                per_month_storage(price.per_gib_month, stopped_price),
            )
        }
        ResourceKind::Snapshot => {
            let p = known(sheet.storage.snapshot, "storage.snapshot_per_gib_month")?;
            (Line::Storage, per_month_storage(p, p))
        }
        ResourceKind::Image => {
            let p = known(sheet.storage.image, "storage.image_per_gib_month")?;
            (Line::Storage, per_month_storage(p, p))
        }
        ResourceKind::NetworkVolume => {
            let p = known(
                sheet.storage.network_volume,
                "storage.network_volume_per_gib_month",
            )?;
            (Line::Storage, per_month_storage(p, p))
        }
        ResourceKind::PublicIp => {
            let attached = known(
                sheet.extras.public_ip_attached_per_hour,
                "extras.public_ip_attached_per_hour",
            )?;
            // A left-out idle price is unknown, not the attached one (pricing/README).
            let idle = known(
                sheet.extras.public_ip_idle_per_hour,
                "extras.public_ip_idle_per_hour",
            )?;
            let amount =
                (attached * Decimal::from(running) + idle * Decimal::from(stopped + gone)) / hour;
            let burn = if state_now.is_some_and(InstanceState::is_up) {
                attached
            } else {
                idle
            };
            (Line::Extras, (amount, burn))
        }
        ResourceKind::LoadBalancer => {
            let p = known(
                sheet.extras.load_balancer_per_hour,
                "extras.load_balancer_per_hour",
            )?;
            (
                Line::Extras,
                (p * Decimal::from(running + stopped + gone) / hour, p),
            )
        }
    };
    Ok((line, amount, if alive_now { burn } else { Decimal::ZERO }))
}

fn known(price: Option<Decimal>, key: &'static str) -> Result<Decimal, Unpriced> {
    price.ok_or(Unpriced::Key(key))
}

/// Where the sheet holds no price for a resource, named as the sheet's key.
#[derive(Debug, thiserror::Error)]
enum Unpriced {
    #[error("{0}")]
    Key(&'static str),
    #[error("storage.disk.{0}")]
    Disk(String),
    /// An instance's compute is metered as the instance, never as a resource of another.
    #[error("compute of {0}")]
    Compute(String),
}

/// Licences, boot fees and fixed bandwidth: extras tied to the instance itself.
fn instance_extras(
    sheet: &Sheet,
    usage: &Usage,
    intervals: &[Interval],
    at: Timestamp,
) -> LineCost {
    let hour = Decimal::from(SECONDS_PER_HOUR);
    let running: i64 = intervals
        .iter()
        .filter(|iv| iv.state.is_up())
        .map(Interval::seconds)
        .sum();
    let running_now = usage
        .lifecycle
        .state_at(at)
        .is_some_and(InstanceState::is_up);
    let mut cost = LineCost {
        accrued: Decimal::ZERO,
        billed: Decimal::ZERO,
        burn_per_hour: Decimal::ZERO,
    };
    if let (Some(price), true) = (sheet.extras.license_per_hour, usage.licenses > 0) {
        let per_hour = price * Decimal::from(usage.licenses);
        cost.accrued += per_hour * Decimal::from(running) / hour;
        if running_now {
            cost.burn_per_hour += per_hour;
        }
    }
    if let Some(fee) = sheet.extras.boot_fee {
        cost.accrued += fee * Decimal::from(usage.lifecycle.starts_until(at));
    }
    let other = other_extras(sheet, intervals, running, exists_now(usage, at));
    cost.accrued += other.accrued;
    cost.burn_per_hour += other.burn_per_hour;
    if running_now {
        cost.burn_per_hour += other_per_hour_up(sheet);
    }
    cost.billed = cost.accrued;
    cost
}

/// The sheet's own charges: by the hour while up, by the month while the instance exists.
/// `exists_now`: the monthly ones burn now.
fn other_extras(sheet: &Sheet, intervals: &[Interval], running: i64, exists_now: bool) -> LineCost {
    let hour = Decimal::from(SECONDS_PER_HOUR);
    let month = Decimal::from(i64::from(sheet.billing.month_hours) * SECONDS_PER_HOUR);
    let existing: i64 = intervals
        .iter()
        .filter(|iv| iv.state != InstanceState::Released)
        .map(Interval::seconds)
        .sum();
    let mut cost = LineCost {
        accrued: Decimal::ZERO,
        billed: Decimal::ZERO,
        burn_per_hour: Decimal::ZERO,
    };
    for extra in &sheet.extras.other {
        match extra.price {
            OtherPrice::PerHourUp(p) => cost.accrued += p * Decimal::from(running) / hour,
            OtherPrice::PerMonth(p) => {
                cost.accrued += p * Decimal::from(existing) / month;
                if exists_now {
                    cost.burn_per_hour += p * hour / month;
                }
            }
        }
    }
    cost
}

fn other_per_hour_up(sheet: &Sheet) -> Decimal {
    sheet
        .extras
        .other
        .iter()
        .filter_map(|o| match o.price {
            OtherPrice::PerHourUp(p) => Some(p),
            OtherPrice::PerMonth(_) => None,
        })
        .sum()
}

fn exists_now(usage: &Usage, at: Timestamp) -> bool {
    usage
        .lifecycle
        .state_at(at)
        .is_some_and(|s| s != InstanceState::Released)
}
