//! The bandwidth line: egress priced by where it went (internet with a monthly free allowance,
//! intranet, other regions) and ingress, or a fixed-bandwidth plan billed by time.

use std::collections::BTreeMap;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use rust_decimal::Decimal;

use super::accrue::LineCost;
use super::lifecycle::{InstanceState, Interval};
use super::usage::Usage;
use crate::pricing::Sheet;
use crate::traffic::TrafficClass;

/// Egress over this many seconds before the instant sets the bandwidth burn rate.
pub const BURN_WINDOW_SECONDS: i64 = 300;

/// The bytes sent to one class of destination and what they cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClassCost {
    pub bytes: u64,
    pub accrued: Decimal,
    pub burn_per_hour: Decimal,
}

/// Egress by destination: the bandwidth line's bytes, split. Fixed-bandwidth plans and ingress
/// are in the line but in no class.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EgressByClass {
    pub internet: ClassCost,
    pub intranet: ClassCost,
    pub cross_region: ClassCost,
}

impl EgressByClass {
    pub fn get(&self, class: TrafficClass) -> &ClassCost {
        match class {
            TrafficClass::Internet => &self.internet,
            TrafficClass::Intranet => &self.intranet,
            TrafficClass::CrossRegion => &self.cross_region,
        }
    }

    fn get_mut(&mut self, class: TrafficClass) -> &mut ClassCost {
        match class {
            TrafficClass::Internet => &mut self.internet,
            TrafficClass::Intranet => &mut self.intranet,
            TrafficClass::CrossRegion => &mut self.cross_region,
        }
    }
}

#[derive(Default, Clone, Copy)]
struct MonthBytes {
    internet: u64,
    intranet: u64,
    cross_region: u64,
    ingress: u64,
}

/// The calendar month (UTC) a sample falls in: the free allowance resets with it.
fn month_of(at: Timestamp) -> (i16, i8) {
    let d = TimeZone::UTC.to_datetime(at);
    (d.year(), d.month())
}

/// The bandwidth line, what of it the sheet cannot price (counted as nothing, and named), and
/// its egress by destination.
pub(crate) struct BandwidthCost {
    pub cost: LineCost,
    pub unknown: Vec<String>,
    pub egress: EgressByClass,
}

pub(crate) fn bandwidth_cost(
    sheet: &Sheet,
    usage: &Usage,
    intervals: &[Interval],
    at: Timestamp,
) -> BandwidthCost {
    let net = &sheet.network;
    let mut unknown = Vec::new();
    let egress_price = net.egress_per_unit.unwrap_or(Decimal::ZERO);
    // Not stated: other regions are priced as the internet, never as less than they may cost.
    let cross_region_price = net.cross_region_per_unit.unwrap_or(egress_price);
    let unit_bytes = Decimal::from(net.unit.bytes());
    let free_bytes = net.free_egress_per_month * unit_bytes;

    let mut months: BTreeMap<(i16, i8), MonthBytes> = BTreeMap::new();
    let mut recent = MonthBytes::default();
    for t in usage.traffic.iter().filter(|t| t.at <= at) {
        let split = t.split.within(t.egress_bytes);
        let internet = t.egress_bytes - split.intranet - split.cross_region;
        let m = months.entry(month_of(t.at)).or_default();
        for (sum, bytes) in [
            (&mut m.internet, internet),
            (&mut m.intranet, split.intranet),
            (&mut m.cross_region, split.cross_region),
            (&mut m.ingress, t.ingress_bytes),
        ] {
            *sum = sum.saturating_add(bytes);
        }
        if at.as_second() - t.at.as_second() < BURN_WINDOW_SECONDS {
            recent.internet = recent.internet.saturating_add(internet);
            recent.intranet = recent.intranet.saturating_add(split.intranet);
            recent.cross_region = recent.cross_region.saturating_add(split.cross_region);
        }
    }
    let per_byte = |price: Decimal, bytes: Decimal| bytes * price / unit_bytes;
    let mut egress = EgressByClass::default();
    let mut accrued = Decimal::ZERO;
    let mut billable_internet = Decimal::ZERO;
    for m in months.values() {
        let billable = (Decimal::from(m.internet) - free_bytes).max(Decimal::ZERO);
        billable_internet += billable;
        for (class, bytes, cost) in [
            (
                TrafficClass::Internet,
                m.internet,
                per_byte(egress_price, billable),
            ),
            (
                TrafficClass::Intranet,
                m.intranet,
                per_byte(net.intranet_per_unit, Decimal::from(m.intranet)),
            ),
            (
                TrafficClass::CrossRegion,
                m.cross_region,
                per_byte(cross_region_price, Decimal::from(m.cross_region)),
            ),
        ] {
            let line = egress.get_mut(class);
            line.bytes = line.bytes.saturating_add(bytes);
            line.accrued += cost;
            accrued += cost;
        }
        accrued += per_byte(net.ingress_per_unit, Decimal::from(m.ingress));
    }

    let cross_region_unpriced =
        net.cross_region_per_unit.is_none() && egress.cross_region.bytes > 0;
    if net.egress_per_unit.is_none() && (billable_internet > Decimal::ZERO || cross_region_unpriced)
    {
        unknown.push(super::unpriced::egress());
    }

    // Only the recent internet bytes beyond this month's allowance are being paid for.
    let beyond_allowance = months.get(&month_of(at)).map_or(Decimal::ZERO, |m| {
        (Decimal::from(m.internet) - free_bytes).max(Decimal::ZERO)
    });
    let per_hour = Decimal::from(3600) / Decimal::from(BURN_WINDOW_SECONDS);
    egress.internet.burn_per_hour = per_byte(
        egress_price,
        Decimal::from(recent.internet).min(beyond_allowance),
    ) * per_hour;
    egress.intranet.burn_per_hour =
        per_byte(net.intranet_per_unit, Decimal::from(recent.intranet)) * per_hour;
    egress.cross_region.burn_per_hour =
        per_byte(cross_region_price, Decimal::from(recent.cross_region)) * per_hour;
    let mut burn = egress.internet.burn_per_hour
        + egress.intranet.burn_per_hour
        + egress.cross_region.burn_per_hour;

    let (fixed_accrued, fixed_burn) = fixed_bandwidth(sheet, usage, intervals, at, &mut unknown);
    accrued += fixed_accrued;
    burn += fixed_burn;
    BandwidthCost {
        cost: LineCost {
            accrued,
            billed: accrued,
            burn_per_hour: burn,
        },
        unknown,
        egress,
    }
}

/// A fixed-bandwidth plan: its Mbps at its monthly price, for as long as the instance exists.
fn fixed_bandwidth(
    sheet: &Sheet,
    usage: &Usage,
    intervals: &[Interval],
    at: Timestamp,
    unknown: &mut Vec<String>,
) -> (Decimal, Decimal) {
    let net = &sheet.network;
    let mbps = usage.fixed_bandwidth_mbps.or(net.fixed_bandwidth_mbps);
    if net.fixed_bandwidth_per_mbps_month.is_some() && mbps.is_none() {
        unknown.push(super::unpriced::fixed_bandwidth());
    }
    let (Some(price), Some(mbps)) = (net.fixed_bandwidth_per_mbps_month, mbps) else {
        return (Decimal::ZERO, Decimal::ZERO);
    };
    let existing: i64 = intervals
        .iter()
        .filter(|iv| iv.state != InstanceState::Released)
        .map(Interval::seconds)
        .sum();
    let month_seconds = Decimal::from(i64::from(sheet.billing.month_hours) * 3600);
    let accrued = mbps * price * Decimal::from(existing) / month_seconds;
    let exists_now = usage
        .lifecycle
        .state_at(at)
        .is_some_and(|s| s != InstanceState::Released);
    let burn = if exists_now {
        mbps * price * Decimal::from(3600) / month_seconds
    } else {
        Decimal::ZERO
    };
    (accrued, burn)
}

/// What the internet egress in `usage` has cost by `at` (after each month's allowance).
pub fn internet_egress_cost(sheet: &Sheet, usage: &Usage, at: Timestamp) -> Decimal {
    bandwidth_cost(sheet, usage, &[], at)
        .egress
        .internet
        .accrued
}
