//! Bill lines and ledgers built by hand for the audit's tests: hourly lines as the providers'
//! hourly exports give them (one line per resource per hour, e.g. AWS CUR at hourly
//! granularity: https://docs.aws.amazon.com/cur/latest/userguide/cur-data-view.html).

use gpumeter_core::audit::{
    AuditLedger, BillFormat, BillLine, ChargeKind, LedgerInstance, LedgerResource, LineSource,
};
use gpumeter_core::meter::ResourceKind;
use gpumeter_core::money::{Currency, Money};
use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

/// The audited span starts here: 2026-05-01T00:00:00Z.
pub fn t0() -> Timestamp {
    "2026-05-01T00:00:00Z".parse().unwrap()
}

/// `hours` after [`t0`] (fractions allowed, in minutes).
pub fn at(hours: f64) -> Timestamp {
    #[expect(clippy::cast_possible_truncation, reason = "whole minutes in a test")]
    let minutes = (hours * 60.0).round() as i64;
    t0() + SignedDuration::from_mins(minutes)
}

pub fn usd(amount: Decimal) -> Money {
    Money::new(amount, Currency::USD)
}

/// One line of `kind` for `id`, charged over `[from, to)` hours after [`t0`].
pub fn line(id: Option<&str>, kind: ChargeKind, from: f64, to: f64, billed: Money) -> BillLine {
    BillLine {
        source: LineSource {
            file: "bill.csv".into(),
            line: 0,
        },
        format: BillFormat::Focus,
        resource_id: id.map(str::to_string),
        service: "AmazonEC2".into(),
        usage: "USE1-BoxUsage:p4d.24xlarge".into(),
        kind,
        region: Some("us-east-1".into()),
        to_region: None,
        start: at(from),
        end: at(to),
        quantity: None,
        unit: None,
        billed,
        list: None,
    }
}

/// Hourly compute lines for `id` from hour `from` to hour `to`, at `rate` an hour, with the
/// hours as their quantity.
pub fn compute_hours(id: &str, from: u32, to: u32, rate: Decimal) -> Vec<BillLine> {
    (from..to)
        .map(|h| {
            let mut l = line(
                Some(id),
                ChargeKind::Compute,
                f64::from(h),
                f64::from(h + 1),
                usd(rate),
            );
            l.quantity = Some(Decimal::ONE);
            l.unit = Some("Hrs".into());
            l
        })
        .collect()
}

/// Numbers the lines as a file would (the header is line 1).
pub fn numbered(mut lines: Vec<BillLine>) -> Vec<BillLine> {
    for (n, l) in lines.iter_mut().enumerate() {
        l.source.line = n as u64 + 2;
    }
    lines
}

/// An instance of `sku` that ran from hour `from` to hour `to`, released at `to` when
/// `released`, metered at `rate` an hour for the hours it ran.
pub fn instance(id: &str, from: f64, to: f64, released: bool, rate: Decimal) -> LedgerInstance {
    let hours = Decimal::try_from(to - from).unwrap();
    LedgerInstance {
        id: id.into(),
        provider: "aws".into(),
        region: Some("us-east-1".into()),
        sku: Some("p4d.24xlarge".into()),
        started: at(from),
        last_seen: at(to),
        released: released.then(|| at(to)),
        metered: Some(usd(rate * hours)),
        rate_per_hour: Some(usd(rate)),
        step_seconds: Some(1),
    }
}

/// A resource seen with `instance` from hour `from`, never seen gone.
pub fn resource(instance: &str, id: &str, kind: ResourceKind, from: f64) -> LedgerResource {
    LedgerResource {
        instance: instance.into(),
        id: id.into(),
        kind,
        created: at(from),
        first_seen: at(from),
        last_seen: at(from),
        gone: None,
        deleted_with_instance: false,
    }
}

pub fn ledger(instances: Vec<LedgerInstance>, resources: Vec<LedgerResource>) -> AuditLedger {
    AuditLedger {
        instances,
        resources,
    }
}

/// The sum of `lines`' billed amounts, each scaled by `share(line)`.
pub fn sum_by(lines: &[BillLine], share: impl Fn(&BillLine) -> Decimal) -> Decimal {
    lines.iter().map(|l| l.billed.amount * share(l)).sum()
}

/// The fraction of `line`'s period after `t`.
pub fn after(line: &BillLine, t: Timestamp) -> Decimal {
    let (s, e) = (line.start.as_second(), line.end.as_second());
    let inside = (e - s.max(t.as_second())).max(0);
    Decimal::from(inside) / Decimal::from(e - s)
}

/// The fraction of `line`'s period inside `[from, to)`.
pub fn within(line: &BillLine, from: Timestamp, to: Timestamp) -> Decimal {
    let (s, e) = (line.start.as_second(), line.end.as_second());
    let inside = (e.min(to.as_second()) - s.max(from.as_second())).max(0);
    Decimal::from(inside) / Decimal::from(e - s)
}
