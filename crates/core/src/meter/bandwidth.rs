//! The bandwidth line: metered egress and ingress with a monthly free allowance, or a
//! fixed-bandwidth plan billed by time.

use std::collections::BTreeMap;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use rust_decimal::Decimal;

use super::accrue::LineCost;
use super::lifecycle::{InstanceState, Interval};
use super::usage::Usage;
use crate::pricing::Sheet;

/// Egress over this many seconds before the instant sets the bandwidth burn rate.
pub const BURN_WINDOW_SECONDS: i64 = 300;

#[derive(Default, Clone, Copy)]
struct MonthBytes {
    egress: u64,
    ingress: u64,
}

/// The calendar month (UTC) a sample falls in: the free allowance resets with it.
fn month_of(at: Timestamp) -> (i16, i8) {
    let d = TimeZone::UTC.to_datetime(at);
    (d.year(), d.month())
}

/// The bandwidth line, and what of it the sheet cannot price (counted as nothing, and named).
pub(crate) struct BandwidthCost {
    pub cost: LineCost,
    pub unknown: Vec<String>,
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
    let unit_bytes = Decimal::from(net.unit.bytes());
    let free_bytes = net.free_egress_per_month * unit_bytes;

    let mut months: BTreeMap<(i16, i8), MonthBytes> = BTreeMap::new();
    let mut recent_egress: u64 = 0;
    for t in usage.traffic.iter().filter(|t| t.at <= at) {
        let m = months.entry(month_of(t.at)).or_default();
        m.egress = m.egress.saturating_add(t.egress_bytes);
        m.ingress = m.ingress.saturating_add(t.ingress_bytes);
        if at.as_second() - t.at.as_second() < BURN_WINDOW_SECONDS {
            recent_egress = recent_egress.saturating_add(t.egress_bytes);
        }
    }
    let mut accrued = Decimal::ZERO;
    let mut billable_egress = Decimal::ZERO;
    for m in months.values() {
        let billable = (Decimal::from(m.egress) - free_bytes).max(Decimal::ZERO);
        billable_egress += billable;
        accrued += billable * egress_price / unit_bytes;
        accrued += Decimal::from(m.ingress) * net.ingress_per_unit / unit_bytes;
    }

    if net.egress_per_unit.is_none() && billable_egress > Decimal::ZERO {
        unknown.push(super::unpriced::egress());
    }

    // Only the recent bytes beyond this month's allowance are being paid for.
    let beyond_allowance = months.get(&month_of(at)).map_or(Decimal::ZERO, |m| {
        (Decimal::from(m.egress) - free_bytes).max(Decimal::ZERO)
    });
    let billable_recent = Decimal::from(recent_egress).min(beyond_allowance);
    let mut burn = billable_recent * egress_price * Decimal::from(3600)
        / (unit_bytes * Decimal::from(BURN_WINDOW_SECONDS));

    let mbps = usage.fixed_bandwidth_mbps.or(net.fixed_bandwidth_mbps);
    if net.fixed_bandwidth_per_mbps_month.is_some() && mbps.is_none() {
        unknown.push(super::unpriced::fixed_bandwidth());
    }
    if let (Some(price), Some(mbps)) = (net.fixed_bandwidth_per_mbps_month, mbps) {
        let existing: i64 = intervals
            .iter()
            .filter(|iv| iv.state != InstanceState::Released)
            .map(Interval::seconds)
            .sum();
        let month_seconds = Decimal::from(i64::from(sheet.billing.month_hours) * 3600);
        accrued += mbps * price * Decimal::from(existing) / month_seconds;
        if usage
            .lifecycle
            .state_at(at)
            .is_some_and(|s| s != InstanceState::Released)
        {
            burn += mbps * price * Decimal::from(3600) / month_seconds;
        }
    }
    BandwidthCost {
        cost: LineCost {
            accrued,
            billed: accrued,
            burn_per_hour: burn,
        },
        unknown,
    }
}
