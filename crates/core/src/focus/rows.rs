//! One FOCUS row per session, cost line and hour of the ledger.
//!
//! Why hours: the meter keeps minutes, and an hour is the finest period the clouds' own exports
//! use (AWS CUR hourly granularity), so compute keeps the meter's precision where it matters;
//! storage, bandwidth and extras use the same hour so that every row of one instance lines up
//! with its compute row and the sum over any span of whole hours is the ledger's sum.
//!
//! What the ledger does not know stays NULL (`None`), never `0` or a placeholder. The only
//! made-up value is `BillingAccountId`, which the specification forbids to be NULL and the
//! ledger does not record: it is `gpumeter:<provider>`, the ledger's view of the account that
//! paid that provider. `SkuPriceId`, which the validator requires on usage rows, is gpumeter's
//! own name for the price the meter applied (`<sku>:<line>:<mode>`), as the ledger keeps no
//! provider price id.
//!
//! Column rules: <https://github.com/FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec/tree/v1.0/specification/columns>.

use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

use super::columns::Column;
use super::format::{decimal, instant, json_object, month_of};
use crate::cloud::ProviderKind;
use crate::money::Currency;

/// Bytes in a (decimal) gigabyte: the unit bandwidth rows are counted in.
pub(super) const BYTES_PER_GB: i64 = 1_000_000_000;

/// A session of the ledger: one instance watched from `started` to `ended`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FocusSession {
    pub id: i64,
    pub instance: String,
    /// The provider as the ledger names it (`aws`, `alibaba`, `demo`).
    pub provider: String,
    pub region: Option<String>,
    pub sku: String,
    /// The billing mode as the ledger stores it (`on_demand`, `spot`, `monthly`,
    /// `compute_units`).
    pub mode: String,
    /// The on-demand (list) price per instance-hour, where the sheet or the session knows it.
    pub list_per_hour: Option<Decimal>,
    pub currency: Currency,
    pub started: Timestamp,
    pub ended: Timestamp,
}

/// The ledger's sums for one session over one hour (`start` is on the hour).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FocusHour {
    pub session: i64,
    pub start: Timestamp,
    /// Compute, bandwidth, storage, extras, in the session's currency.
    pub cost: [Decimal; 4],
    pub egress_bytes: i64,
    /// Of `egress_bytes`, those sent to the intranet and to other regions.
    pub split_bytes: [i64; 2],
    /// What they cost, within the bandwidth line.
    pub split_cost: [Decimal; 2],
}

/// One row: a value (or NULL) for every [`Column`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FocusRow(Vec<Option<String>>);

impl FocusRow {
    fn new() -> FocusRow {
        FocusRow(vec![None; Column::ALL.len()])
    }

    pub(super) fn set(&mut self, column: Column, value: impl Into<String>) {
        self.0[column.index()] = Some(value.into());
    }

    pub(super) fn set_opt(&mut self, column: Column, value: Option<String>) {
        self.0[column.index()] = value;
    }

    /// The value of `column`; `None` is NULL.
    pub fn get(&self, column: Column) -> Option<&str> {
        self.0[column.index()].as_deref()
    }

    /// Every value, in the header's order.
    pub fn values(&self) -> &[Option<String>] {
        &self.0
    }
}

/// The four cost lines of a session, as FOCUS sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Line {
    Compute,
    Bandwidth,
    Storage,
    Extras,
}

impl Line {
    const ALL: [Line; 4] = [Line::Compute, Line::Bandwidth, Line::Storage, Line::Extras];

    fn service_category(self) -> &'static str {
        match self {
            Line::Compute => "Compute",
            Line::Bandwidth => "Networking",
            Line::Storage => "Storage",
            Line::Extras => "Other",
        }
    }

    fn service_name(self) -> &'static str {
        match self {
            Line::Compute => "GPU instances",
            Line::Bandwidth => "Data transfer",
            Line::Storage => "Instance storage",
            Line::Extras => "Instance extras (public IPs, licences)",
        }
    }

    fn slug(self) -> &'static str {
        match self {
            Line::Compute => "compute",
            Line::Bandwidth => "bandwidth",
            Line::Storage => "storage",
            Line::Extras => "extras",
        }
    }
}

/// The rows for `hours` of `sessions`, clipped to `[since, until)`: one per session, hour and
/// cost line that cost anything. Hours of a session not in `sessions` are left out.
pub fn build(
    sessions: &[FocusSession],
    hours: &[FocusHour],
    since: Timestamp,
    until: Timestamp,
) -> Vec<FocusRow> {
    let mut rows = Vec::new();
    for hour in hours {
        let Some(session) = sessions.iter().find(|s| s.id == hour.session) else {
            continue;
        };
        let from = hour.start.max(since);
        let to = (hour.start + SignedDuration::from_hours(1)).min(until);
        if from >= to {
            continue;
        }
        for (line, cost) in Line::ALL.into_iter().zip(hour.cost) {
            if line == Line::Bandwidth
                && let Some(split) = super::traffic_rows::rows(session, hour, cost, (from, to))
            {
                rows.extend(split);
                continue;
            }
            if cost.is_zero() {
                continue;
            }
            rows.push(row(session, hour, line, cost, (from, to)));
        }
    }
    rows
}

pub(super) fn row(
    session: &FocusSession,
    hour: &FocusHour,
    line: Line,
    cost: Decimal,
    (from, to): (Timestamp, Timestamp),
) -> FocusRow {
    let mut r = FocusRow::new();
    let provider = provider_name(&session.provider);
    let (period_start, period_end) = month_of(from);
    r.set(
        Column::BillingAccountId,
        format!("gpumeter:{}", session.provider),
    );
    r.set(Column::BillingCurrency, session.currency.as_str());
    r.set(Column::BillingPeriodStart, instant(period_start));
    r.set(Column::BillingPeriodEnd, instant(period_end));
    r.set(Column::ChargePeriodStart, instant(from));
    r.set(Column::ChargePeriodEnd, instant(to));
    r.set(Column::ChargeCategory, "Usage");
    r.set(Column::LegacyChargeType, "Usage");
    r.set(Column::ChargeFrequency, "Usage-Based");
    r.set(Column::PricingCategory, pricing_category(&session.mode));
    r.set(Column::ServiceCategory, line.service_category());
    r.set(Column::ServiceName, line.service_name());
    for column in [
        Column::ProviderName,
        Column::PublisherName,
        Column::InvoiceIssuerName,
        Column::LegacyProvider,
        Column::LegacyPublisher,
        Column::LegacyInvoiceIssuer,
    ] {
        r.set(column, provider);
    }
    for column in [Column::ResourceId, Column::LegacyResourceId] {
        r.set(column, session.instance.as_str());
    }
    r.set(Column::ResourceType, "Instance");
    r.set_opt(Column::RegionId, session.region.clone());
    r.set(
        Column::ChargeDescription,
        format!(
            "{} {} of {} ({})",
            session.sku,
            line.slug(),
            session.instance,
            mode_label(&session.mode)
        ),
    );
    r.set(
        Column::Tags,
        json_object(&[
            ("gpumeter-session", &session.id.to_string()),
            ("gpumeter-billing-mode", &session.mode),
        ]),
    );
    for column in [
        Column::BilledCost,
        Column::EffectiveCost,
        Column::ContractedCost,
    ] {
        r.set(column, decimal(cost));
    }
    let (quantity, unit) = quantity(session, hour, line, (from, to));
    if line == Line::Compute {
        r.set(Column::SkuId, session.sku.as_str());
    }
    // The ledger records no provider price id; this names the price the meter applied: the
    // line of that instance type in that billing mode.
    r.set(
        Column::SkuPriceId,
        format!("{}:{}:{}", session.sku, line.slug(), session.mode),
    );
    let list_price = (line == Line::Compute)
        .then_some(session.list_per_hour)
        .flatten();
    r.set_opt(Column::ListUnitPrice, list_price.map(decimal));
    // The meter prices at the sheet's list prices, so the list cost is what it accrued unless a
    // list price differs from the rate paid (spot): then price times quantity.
    let list_cost = match (list_price, quantity) {
        (Some(price), Some(q)) if session.mode == "spot" => (price * q).round_dp(9),
        _ => cost,
    };
    r.set(Column::ListCost, decimal(list_cost));
    for (q, u) in [
        (Column::PricingQuantity, Column::PricingUnit),
        (Column::ConsumedQuantity, Column::ConsumedUnit),
    ] {
        r.set_opt(q, quantity.map(decimal));
        r.set_opt(u, quantity.and(unit).map(str::to_string));
    }
    r
}

/// How much of what the row prices was used in `[from, to)`, and its unit: instance-hours for
/// compute (the session's time inside the period), gigabytes sent for bandwidth. Storage and
/// extras: the ledger keeps their cost but not their quantity.
fn quantity(
    session: &FocusSession,
    hour: &FocusHour,
    line: Line,
    (from, to): (Timestamp, Timestamp),
) -> (Option<Decimal>, Option<&'static str>) {
    match line {
        Line::Compute => {
            let seconds = to.min(session.ended).as_second() - from.max(session.started).as_second();
            let hours = (seconds > 0).then(|| Decimal::from(seconds) / Decimal::from(3600));
            (hours.map(|h| h.round_dp(9)), Some("Hours"))
        }
        Line::Bandwidth => {
            let gb = (hour.egress_bytes > 0)
                .then(|| Decimal::from(hour.egress_bytes) / Decimal::from(BYTES_PER_GB));
            (gb, Some("GB"))
        }
        Line::Storage | Line::Extras => (None, None),
    }
}

/// FOCUS 1.0 pricing categories: on-demand is `Standard`, spot's provider-set price `Dynamic`.
fn pricing_category(mode: &str) -> &'static str {
    match mode {
        "on_demand" | "compute_units" => "Standard",
        "spot" => "Dynamic",
        _ => "Other",
    }
}

pub(super) fn mode_label(mode: &str) -> &str {
    match mode {
        "on_demand" => "on-demand",
        "compute_units" => "compute units",
        other => other,
    }
}

/// The provider's own name for itself, where the ledger's short name is one gpumeter knows.
fn provider_name(provider: &str) -> &str {
    ProviderKind::from_id(provider).map_or(provider, |kind| kind.display_name())
}
