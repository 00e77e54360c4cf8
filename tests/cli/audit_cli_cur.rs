//! `gpumeter audit --demo` with a legacy AWS Cost and Usage Report this test writes with the
//! demo's ids: the `lineItem/...` columns of the CUR data dictionary
//! (https://docs.aws.amazon.com/cur/latest/userguide/Lineitem-columns.html), hourly lines,
//! resource ids on, a snapshot named by its ARN as CUR gives it, and AWS's usage types
//! (`<R>-EBS:SnapshotUsage`,
//! https://docs.aws.amazon.com/ebs/latest/userguide/ebs-billing-usage-reports.html;
//! `<R>-DataTransfer-Regional-Bytes` for traffic between zones,
//! https://docs.aws.amazon.com/cur/latest/userguide/cur-data-transfers-charges.html).
//!
//! Waits for the bill readers (`audit::read_bill`), like `audit_cli_bills`.

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;
use rust_decimal::dec;
use serde_json::Value;

use super::audit_cli::{audit, json, stderr};

const TRAINING: &str = "i-0demo4a100f00d";

const COLUMNS: &str = "identity/LineItemId,identity/TimeInterval,bill/BillingPeriodStartDate,\
bill/BillingPeriodEndDate,lineItem/LineItemType,lineItem/UsageStartDate,lineItem/UsageEndDate,\
lineItem/ProductCode,lineItem/UsageType,lineItem/Operation,lineItem/AvailabilityZone,\
lineItem/ResourceId,lineItem/UsageAmount,lineItem/CurrencyCode,lineItem/UnblendedCost,\
lineItem/BlendedCost,product/region,pricing/unit";

struct Row {
    start: Timestamp,
    usage_type: &'static str,
    operation: &'static str,
    resource: String,
    amount: Decimal,
    unit: &'static str,
    cost: Decimal,
}

fn csv(rows: &[Row]) -> String {
    use std::fmt::Write as _;
    let t = |t: Timestamp| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string();
    let mut out = format!("{COLUMNS}\n");
    for (n, r) in rows.iter().enumerate() {
        let end = r.start + SignedDuration::from_hours(1);
        let first = TimeZone::UTC.to_datetime(r.start).date().first_of_month();
        let next = first.checked_add(jiff::Span::new().months(1)).unwrap();
        let (month, next) = (format!("{first}T00:00:00Z"), format!("{next}T00:00:00Z"));
        let _ = writeln!(
            out,
            "li{n},{}/{},{month},{next},Usage,{},{},AmazonEC2,{},{},us-east-1a,{},{},USD,{},{},\
             us-east-1,{}",
            t(r.start),
            t(end),
            t(r.start),
            t(end),
            r.usage_type,
            r.operation,
            r.resource,
            r.amount,
            r.cost,
            r.cost,
            r.unit
        );
    }
    out
}

#[test]
fn a_cur_bill_finds_the_snapshot_after_the_release_and_the_traffic_between_zones() {
    let dir = tempfile::tempdir().unwrap();
    let day_back = Timestamp::now() - SignedDuration::from_hours(24);
    let hour = Timestamp::from_second(day_back.as_second().div_euclid(3600) * 3600).unwrap();
    let at = |h: i64| hour + SignedDuration::from_hours(h);
    let snap: Vec<Row> = (2..6)
        .map(|h| Row {
            start: at(h),
            usage_type: "USE1-EBS:SnapshotUsage",
            operation: "CreateSnapshot",
            resource: "arn:aws:ec2:us-east-1:123456789012:snapshot/snap-0b".into(),
            amount: dec!(0.27),
            unit: "GB-Mo",
            cost: dec!(0.0137),
        })
        .collect();
    let zone = Row {
        start: at(-20),
        usage_type: "USE1-DataTransfer-Regional-Bytes",
        operation: "InterZone-Out",
        resource: TRAINING.into(),
        amount: dec!(400),
        unit: "GB",
        cost: dec!(4.00),
    };
    let expected_snap: Decimal = snap.iter().map(|r| r.cost).sum();
    let expected_zone = zone.cost;
    let mut rows = snap;
    rows.push(zone);
    let bill = dir.path().join("cur.csv");
    std::fs::write(&bill, csv(&rows)).unwrap();
    let (since, until) = (at(-30).to_string(), at(8).to_string());
    let out = audit(dir.path(), &bill, (&since, &until), &["--json"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let v = json(&out);
    let findings = v["findings"].as_array().unwrap();
    let amount =
        |f: &Value| -> Decimal { f["amounts"][0]["amount"].as_str().unwrap().parse().unwrap() };
    let left = findings
        .iter()
        .find(|f| f["kind"] == "leftover" && f["resource"] == "snap-0b")
        .unwrap_or_else(|| panic!("no leftover: {v:#}"));
    assert_eq!(amount(left), expected_snap);
    assert_eq!(left["why"], "after_release");
    let zone = findings
        .iter()
        .find(|f| f["kind"] == "transfer" && f["scope"] == "inter_zone")
        .unwrap_or_else(|| panic!("no transfer: {v:#}"));
    assert_eq!(amount(zone), expected_zone);
}
