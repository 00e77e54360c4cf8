//! The sheet's rules, written down a second time and as plainly as possible: the time from the
//! first event to the instant is cut at every event (a state change, a resource created or
//! deleted), so that inside each piece nothing changes and every line is price × seconds.
//! It reads the lifecycle as the plain list of changes it was built from, never through the
//! engine.

use std::collections::{BTreeMap, BTreeSet};

use gpumeter_core::meter::{ComputeTerms, InstanceState, Resource, ResourceKind, Usage};
use gpumeter_core::pricing::{OtherPrice, Sheet};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use rust_decimal::Decimal;

use InstanceState::{NoGpu, Released, Running, Stopped};

/// What the rules say the meter shows: the four lines (compute, bandwidth, storage, extras)
/// accrued and billed, and what it must name as unpriced.
#[derive(Debug)]
pub struct Expected {
    pub accrued: [Decimal; 4],
    pub billed: [Decimal; 4],
    pub unpriced: BTreeSet<Unpriced>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unpriced {
    Resource(String),
    Egress,
    FixedBandwidth,
    Licence,
    NoGpu,
}

/// The changes that count: in time order, and nothing after a release.
pub fn effective(changes: &[(i64, InstanceState)]) -> Vec<(i64, InstanceState)> {
    let mut out: Vec<(i64, InstanceState)> = Vec::new();
    for &(t, s) in changes {
        if out.last().is_some_and(|&(_, last)| last == Released) {
            break;
        }
        out.push((t, s));
    }
    out
}

/// The instance's state during second `s`; `None` before it was created.
fn state_during(changes: &[(i64, InstanceState)], s: i64) -> Option<InstanceState> {
    changes.iter().rfind(|(t, _)| *t <= s).map(|(_, st)| *st)
}

fn round_up(seconds: i64, step: i64) -> i64 {
    match seconds % step {
        0 => seconds,
        left => seconds - left + step,
    }
}

/// The instance's changes as they count, and when it was released.
struct Life {
    changes: Vec<(i64, InstanceState)>,
    release: Option<i64>,
}

/// Cuts `[first event, at)` at every event: inside each piece nothing changes.
fn pieces(life: &Life, usage: &Usage, at: i64) -> Vec<(i64, i64)> {
    let mut cuts: Vec<i64> = life.changes.iter().map(|(t, _)| *t).collect();
    for r in &usage.resources {
        cuts.push(r.created.as_second());
        cuts.extend(r.deleted.map(Timestamp::as_second));
    }
    cuts.retain(|t| *t < at);
    cuts.push(at);
    cuts.sort_unstable();
    cuts.dedup();
    cuts.windows(2).map(|w| (w[0], w[1])).collect()
}

pub fn expect(sheet: &Sheet, changes: &[(i64, InstanceState)], usage: &Usage, at: i64) -> Expected {
    let changes = effective(changes);
    let without_gpus_before = |at: i64| {
        (0..changes.len()).any(|i| {
            changes[i].1 == NoGpu
                && changes[i].0 < at
                && changes.get(i + 1).is_none_or(|n| n.0 > changes[i].0)
        })
    };
    let no_gpu_unpriced = matches!(usage.terms, ComputeTerms::Hourly { .. })
        && sheet.billing.no_gpu_per_hour.is_none()
        && without_gpus_before(at);
    let release = changes
        .iter()
        .find(|(_, s)| *s == Released)
        .map(|(t, _)| *t);
    let life = Life { changes, release };
    let pieces = pieces(&life, usage, at);
    let (compute, billed_compute) = compute(sheet, usage.terms, &life, &pieces, at);
    let (egress, _) = traffic(sheet, usage, at);
    let accrued = [
        compute,
        fixed_bandwidth(sheet, usage, &life, &pieces) + egress,
        resources(sheet, usage, &life, &pieces, ResourceLine::Storage),
        resources(sheet, usage, &life, &pieces, ResourceLine::Extras)
            + instance_extras(sheet, usage, &life, &pieces, at),
    ];
    let mut billed = accrued;
    billed[0] = billed_compute;
    Expected {
        accrued,
        billed,
        unpriced: {
            let mut named = unpriced_names(sheet, usage, at);
            if no_gpu_unpriced {
                named.insert(Unpriced::NoGpu);
            }
            named
        },
    }
}

/// Compute accrued and billed: running at the rate, stopped at the stop policy's share, running
/// without GPUs at the sheet's no-GPU rate (nothing where it has none); billed, each run rounded
/// up to the step and at least the minimum, each stop and each run without GPUs rounded up to
/// the step.
fn compute(
    sheet: &Sheet,
    terms: ComputeTerms,
    life: &Life,
    pieces: &[(i64, i64)],
    at: i64,
) -> (Decimal, Decimal) {
    let per_hour = match terms {
        ComputeTerms::Hourly { per_hour } => per_hour,
        // Paid at purchase, so there is nothing before the instance exists.
        ComputeTerms::Committed { amount } if at >= life.changes[0].0 => return (amount, amount),
        ComputeTerms::Committed { .. } => return (Decimal::ZERO, Decimal::ZERO),
    };
    let share = sheet.billing.stop_policy.compute_share();
    let no_gpu = sheet.billing.no_gpu_per_hour.unwrap_or_default();
    let step = i64::from(sheet.billing.step_seconds.max(1));
    let minimum = i64::from(sheet.billing.minimum_seconds);
    let (mut accrued, mut billed) = (Decimal::ZERO, Decimal::ZERO);
    let mut bill = |stretch: Option<(InstanceState, i64)>| match stretch {
        Some((Running, len)) => {
            billed += per_hour * Decimal::from(round_up(len, step).max(minimum));
        }
        Some((Stopped, len)) => billed += per_hour * share * Decimal::from(round_up(len, step)),
        Some((NoGpu, len)) => billed += no_gpu * Decimal::from(round_up(len, step)),
        _ => {}
    };
    // The stretch of one state still open: it bills when it ends.
    let mut stretch: Option<(InstanceState, i64)> = None;
    for &(from, to) in pieces {
        let state = state_during(&life.changes, from);
        debug_assert_eq!(state, state_during(&life.changes, to - 1));
        match (stretch, state) {
            (Some((s, len)), Some(now)) if s == now => stretch = Some((s, len + to - from)),
            (_, now) => {
                bill(stretch);
                stretch = now.map(|s| (s, to - from));
            }
        }
        match state {
            Some(Running) => accrued += per_hour * Decimal::from(to - from),
            Some(Stopped) => accrued += per_hour * share * Decimal::from(to - from),
            Some(NoGpu) => accrued += no_gpu * Decimal::from(to - from),
            _ => {}
        }
    }
    bill(stretch);
    (accrued / hour(), billed / hour())
}

fn hour() -> Decimal {
    Decimal::from(3600)
}

fn month(sheet: &Sheet) -> Decimal {
    Decimal::from(i64::from(sheet.billing.month_hours) * 3600)
}

fn mbps(sheet: &Sheet, usage: &Usage) -> Option<Decimal> {
    usage
        .fixed_bandwidth_mbps
        .or(sheet.network.fixed_bandwidth_mbps)
}

/// Per Mbps-month over the instance's existence, stopped time included.
fn fixed_bandwidth(sheet: &Sheet, usage: &Usage, life: &Life, pieces: &[(i64, i64)]) -> Decimal {
    let (Some(price), Some(mbps)) = (
        sheet.network.fixed_bandwidth_per_mbps_month,
        mbps(sheet, usage),
    ) else {
        return Decimal::ZERO;
    };
    let existing: i64 = pieces
        .iter()
        .filter(|(from, _)| {
            matches!(
                state_during(&life.changes, *from),
                Some(Running | Stopped | NoGpu)
            )
        })
        .map(|(from, to)| to - from)
        .sum();
    price * mbps * Decimal::from(existing) / month(sheet)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ResourceLine {
    Storage,
    Extras,
}

/// Linked resources on one line: storage per GiB-month, IPs and load balancers per hour.
fn resources(
    sheet: &Sheet,
    usage: &Usage,
    life: &Life,
    pieces: &[(i64, i64)],
    wanted: ResourceLine,
) -> Decimal {
    let mut sum = Decimal::ZERO;
    for &(from, to) in pieces {
        let state = state_during(&life.changes, from);
        for r in usage
            .resources
            .iter()
            .filter(|r| alive(r, life.release, from))
        {
            let per_hour = matches!(r.kind, ResourceKind::PublicIp | ResourceKind::LoadBalancer);
            // A resource with any price unknown is named, and adds nothing.
            if per_hour != (wanted == ResourceLine::Extras) || unpriced(sheet, r) {
                continue;
            }
            let price = price_of(sheet, r, state).expect("priced");
            let size = if per_hour { Decimal::ONE } else { r.size_gib };
            sum += price * size * Decimal::from(to - from);
        }
    }
    sum / if wanted == ResourceLine::Extras {
        hour()
    } else {
        month(sheet)
    }
}

/// Licences while running (with GPUs or without) and a boot fee on every power-on, into either.
fn instance_extras(
    sheet: &Sheet,
    usage: &Usage,
    life: &Life,
    pieces: &[(i64, i64)],
    at: i64,
) -> Decimal {
    let running: i64 = pieces
        .iter()
        .filter(|(from, _)| matches!(state_during(&life.changes, *from), Some(Running | NoGpu)))
        .map(|(from, to)| to - from)
        .sum();
    let licences = sheet.extras.license_per_hour.unwrap_or_default()
        * Decimal::from(usage.licenses)
        * Decimal::from(running)
        / hour();
    let c = &life.changes;
    let starts = (0..c.len())
        .filter(|&i| {
            c[i].0 <= at && matches!(c[i].1, Running | NoGpu) && (i == 0 || c[i - 1].1 != c[i].1)
        })
        .count();
    licences
        + sheet.extras.boot_fee.unwrap_or_default() * Decimal::from(starts)
        + other(sheet, life, pieces, running)
}

/// The sheet's own charges: per hour while up (`running` seconds), per month while the
/// instance exists (running, stopped or without GPUs).
fn other(sheet: &Sheet, life: &Life, pieces: &[(i64, i64)], running: i64) -> Decimal {
    let existing: i64 = pieces
        .iter()
        .filter(|(from, _)| state_during(&life.changes, *from).is_some_and(|s| s != Released))
        .map(|(from, to)| to - from)
        .sum();
    sheet
        .extras
        .other
        .iter()
        .map(|o| match o.price {
            OtherPrice::PerHourUp(p) => p * Decimal::from(running) / hour(),
            OtherPrice::PerMonth(p) => p * Decimal::from(existing) / month(sheet),
        })
        .sum()
}

fn unpriced_names(sheet: &Sheet, usage: &Usage, at: i64) -> BTreeSet<Unpriced> {
    let mut named = BTreeSet::new();
    if traffic(sheet, usage, at).1 {
        named.insert(Unpriced::Egress);
    }
    if sheet.network.fixed_bandwidth_per_mbps_month.is_some() && mbps(sheet, usage).is_none() {
        named.insert(Unpriced::FixedBandwidth);
    }
    if usage.licenses > 0 && sheet.extras.license_per_hour.is_none() {
        named.insert(Unpriced::Licence);
    }
    for r in usage.resources.iter().filter(|r| unpriced(sheet, r)) {
        named.insert(Unpriced::Resource(r.id.clone()));
    }
    named
}

/// Whether `r` exists during second `s`.
fn alive(r: &Resource, release: Option<i64>, s: i64) -> bool {
    r.created.as_second() <= s
        && r.deleted.is_none_or(|d| s < d.as_second())
        && !(r.deleted_with_instance && release.is_some_and(|t| t <= s))
}

/// The price of `r` while the instance is in `state` (`None`: not created yet): per GiB-month
/// for storage, per hour for IPs and load balancers; `None` where the sheet does not know it.
fn price_of(sheet: &Sheet, r: &Resource, state: Option<InstanceState>) -> Option<Decimal> {
    let s = &sheet.storage;
    let x = &sheet.extras;
    let price = match r.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => {
            let class = s.disk.get(r.class.as_deref().unwrap_or("default"))?;
            // Without GPUs, a disk bills as while running.
            match state {
                Some(Stopped) => class.when_stopped.unwrap_or(class.per_gib_month),
                _ => class.per_gib_month,
            }
        }
        ResourceKind::Snapshot => s.snapshot?,
        ResourceKind::Image => s.image?,
        ResourceKind::NetworkVolume => s.network_volume?,
        ResourceKind::PublicIp if matches!(state, Some(Running | NoGpu)) => {
            x.public_ip_attached_per_hour?
        }
        ResourceKind::PublicIp => x.public_ip_idle_per_hour?,
        ResourceKind::LoadBalancer => x.load_balancer_per_hour?,
        // Metered as the instance, never as a resource: the meter knows no price for it.
        ResourceKind::StoppedInstance => return None,
    };
    Some(price)
}

/// Whether the sheet lacks a price `r` may need, in any state of the instance.
fn unpriced(sheet: &Sheet, r: &Resource) -> bool {
    [Some(Running), Some(Stopped), None]
        .iter()
        .any(|state| price_of(sheet, r, *state).is_none())
}

/// Internet egress beyond each calendar month's (UTC) allowance, intranet and cross-region
/// egress at their own prices (cross-region at the internet's where the sheet states none) and
/// all ingress, as of `at`; and whether billable egress met an unknown price. Of each
/// sample's bytes, the intranet's come first and the cross-region's next, neither beyond what
/// the interface sent; the internet's are what is left.
fn traffic(sheet: &Sheet, usage: &Usage, at: i64) -> (Decimal, bool) {
    let net = &sheet.network;
    let unit = Decimal::from(net.unit.bytes());
    let mut months: BTreeMap<(i16, i8), [Decimal; 4]> = BTreeMap::new();
    for t in usage.traffic.iter().filter(|t| t.at.as_second() <= at) {
        let day = TimeZone::UTC.to_datetime(t.at);
        let month = months.entry((day.year(), day.month())).or_default();
        let intranet = t.split.intranet.min(t.egress_bytes);
        let cross = t.split.cross_region.min(t.egress_bytes - intranet);
        month[0] += Decimal::from(t.egress_bytes - intranet - cross);
        month[1] += Decimal::from(intranet);
        month[2] += Decimal::from(cross);
        month[3] += Decimal::from(t.ingress_bytes);
    }
    let (mut cost, mut unknown) = (Decimal::ZERO, false);
    for [internet, intranet, cross, ingress] in months.values() {
        let billable = (*internet - net.free_egress_per_month * unit).max(Decimal::ZERO);
        match net.egress_per_unit {
            Some(price) => cost += billable * price / unit,
            None => unknown |= billable > Decimal::ZERO,
        }
        cost += *intranet * net.intranet_per_unit / unit;
        match net.cross_region_per_unit.or(net.egress_per_unit) {
            Some(price) => cost += *cross * price / unit,
            None => unknown |= *cross > Decimal::ZERO,
        }
        cost += *ingress * net.ingress_per_unit / unit;
    }
    (cost, unknown)
}

pub fn ts(s: i64) -> Timestamp {
    Timestamp::from_second(s).unwrap()
}
