//! The lines every mode shares (bandwidth, storage, extras) and compute billed by time.
//! A line the prices cannot price is named in `unknown`, never counted as zero.

use rust_decimal::Decimal;
use serde::Serialize;

use super::plan::{Needs, Plan, PlanPrices};
use crate::pricing::sheet::OtherPrice;

/// Which line of the breakdown an unknown price leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    Compute,
    Bandwidth,
    Storage,
    Extras,
}

impl Line {
    pub fn label(self) -> &'static str {
        match self {
            Line::Compute => "compute",
            Line::Bandwidth => "bandwidth",
            Line::Storage => "storage",
            Line::Extras => "extras",
        }
    }
}

/// A price the plan needs and the sheet lacks: the line it leaves out and the missing key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Unknown {
    pub line: Line,
    pub key: &'static str,
}

impl Unknown {
    /// The line and why it has no amount, as every surface names it.
    pub fn reason(&self) -> String {
        format!("{}: no price for {}", self.line.label(), self.key)
    }
}

/// Bandwidth, storage and extras over the whole plan, and what could not be priced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    pub bandwidth: Decimal,
    pub storage: Decimal,
    /// Licences, public IPs and load balancers: the same in every mode.
    pub extras: Decimal,
    pub unknown: Vec<Unknown>,
}

pub fn shared(prices: &PlanPrices, plan: &Plan, needs: &Needs) -> Shared {
    let mut unknown = Vec::new();
    let mut charge = |line, key, price: Option<Decimal>, amount: Decimal| match price {
        _ if amount.is_zero() => Decimal::ZERO,
        Some(p) => p * amount,
        None => {
            unknown.push(Unknown { line, key });
            Decimal::ZERO
        }
    };
    let month_hours = Decimal::from(prices.month_hours);
    let months_of_plan = plan.wall_hours() / month_hours;
    let free_gb = prices.free_egress_gb_per_month * plan.months(prices.month_hours);
    let billable_gb = (needs.egress_gb - free_gb).max(Decimal::ZERO);
    let mut bandwidth = if needs.egress_gb.is_zero() {
        Decimal::ZERO
    } else {
        charge(
            Line::Bandwidth,
            "network.egress_per_unit",
            prices.egress_per_gb,
            billable_gb,
        )
    };
    let mbps = needs.bandwidth_mbps.or(prices.fixed_bandwidth_mbps);
    bandwidth += match (prices.fixed_bandwidth_per_mbps_month, mbps) {
        (None, None) => Decimal::ZERO,
        (price, Some(mbps)) => charge(
            Line::Bandwidth,
            "network.fixed_bandwidth_per_mbps_month",
            price,
            mbps * months_of_plan,
        ),
        (Some(_), None) => charge(
            Line::Bandwidth,
            "network.fixed_bandwidth_mbps",
            None,
            Decimal::ONE,
        ),
    };
    // A disk bills whether or not the instance runs, so storage covers every hour of the plan.
    let storage = charge(
        Line::Storage,
        "storage.disk",
        prices.storage_per_gb_month,
        needs.storage_gb * months_of_plan,
    );

    let extras = &prices.extras;
    let used = plan.hours();
    let idle = plan.wall_hours() - used;
    let mut extra = Decimal::ZERO;
    // A sheet that prices no licence has none to charge; one asked for by name must be priced.
    let licenses = needs.licenses.unwrap_or(prices.instances);
    if extras.license_per_hour.is_some() || needs.licenses.is_some() {
        extra += charge(
            Line::Extras,
            "extras.license_per_hour",
            extras.license_per_hour,
            Decimal::from(licenses) * used,
        );
    }
    let ips = Decimal::from(needs.public_ips);
    let attached = extras.public_ip_attached_per_hour;
    extra += charge(
        Line::Extras,
        "extras.public_ip_attached_per_hour",
        attached,
        ips * used,
    );
    if attached.is_some() {
        // As the live meter does: an idle IP without its own price bills the attached price.
        let idle_price = extras.public_ip_idle_per_hour.or(attached);
        extra += charge(
            Line::Extras,
            "extras.public_ip_idle_per_hour",
            idle_price,
            ips * idle,
        );
    }
    extra += charge(
        Line::Extras,
        "extras.load_balancer_per_hour",
        extras.load_balancer_per_hour,
        Decimal::from(needs.load_balancers) * plan.wall_hours(),
    );
    extra += other_extras(prices, plan);
    Shared {
        bandwidth,
        storage,
        extras: extra,
        unknown,
    }
}

/// The sheet's own charges for each instance: by the hour of use, or by the month for every
/// hour of the plan (the instance exists between runs, as its disks do).
fn other_extras(prices: &PlanPrices, plan: &Plan) -> Decimal {
    let months_of_plan = plan.wall_hours() / Decimal::from(prices.month_hours);
    let each: Decimal = prices
        .extras
        .other
        .iter()
        .map(|o| match o.price {
            OtherPrice::PerHourUp(p) => p * plan.hours(),
            OtherPrice::PerMonth(p) => p * months_of_plan,
        })
        .sum();
    each * Decimal::from(prices.instances)
}

/// Compute at `rate` per hour over `days` of the plan: each run rounded up to the billing
/// step, then to the minimum.
pub fn time_billed(prices: &PlanPrices, plan: &Plan, rate: Decimal, days: Decimal) -> Decimal {
    let run_seconds = plan.run_hours() * Decimal::from(3600);
    let step = Decimal::from(prices.step_seconds.max(1));
    let billed = ((run_seconds / step).ceil() * step).max(Decimal::from(prices.minimum_seconds));
    rate * plan.runs_in(days) * billed / Decimal::from(3600)
}

/// Boot fees over the plan: one per start of each instance, where the sheet charges one.
pub fn boot_fees(prices: &PlanPrices, plan: &Plan) -> Decimal {
    prices.extras.boot_fee.unwrap_or_default()
        * plan.starts_in(plan.days)
        * Decimal::from(prices.instances)
}
