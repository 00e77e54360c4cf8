//! Each bill fixture reads in its own format: the count of lines, the kinds, ids and regions,
//! and the amounts summed per kind equal to the file's own amount column, summed here with a
//! plain CSV parse and this file's own reading of the usage column.

use std::collections::{BTreeSet, HashMap};

use gpumeter_core::audit::{BillFormat, BillLine, ChargeKind, TransferScope, read_bill};
use rust_decimal::Decimal;

const CUR: &[u8] = include_bytes!("../../../../tests/fixtures/bills/aws-cur.csv");
const FOCUS: &[u8] = include_bytes!("../../../../tests/fixtures/bills/focus-aws.csv");
const ALIBABA: &[u8] = include_bytes!("../../../../tests/fixtures/bills/alibaba-bill-details.csv");
const TENCENT: &[u8] = include_bytes!("../../../../tests/fixtures/bills/tencent-bill-details.csv");

const fn transfer(scope: TransferScope) -> ChargeKind {
    ChargeKind::Transfer { scope }
}

/// The fixture's rows as header name → value maps, the console's total row left out.
fn rows(bytes: &[u8]) -> Vec<HashMap<String, String>> {
    let text = std::str::from_utf8(bytes)
        .unwrap()
        .trim_start_matches('\u{feff}');
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(Result::unwrap)
        .filter(|r| r.get(0) != Some("合计"))
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The amount column summed per the kind `kind_of` gives each row.
fn sums(
    rows: &[HashMap<String, String>],
    amount: &str,
    kind_of: impl Fn(&HashMap<String, String>) -> ChargeKind,
) -> HashMap<ChargeKind, Decimal> {
    let mut out = HashMap::new();
    for r in rows {
        let value: Decimal = r[amount].parse().unwrap();
        *out.entry(kind_of(r)).or_insert(Decimal::ZERO) += value;
    }
    out
}

fn billed_sums(lines: &[BillLine]) -> HashMap<ChargeKind, Decimal> {
    let mut out = HashMap::new();
    for l in lines {
        *out.entry(l.kind).or_insert(Decimal::ZERO) += l.billed.amount;
    }
    out
}

fn ids(lines: &[BillLine]) -> BTreeSet<&str> {
    lines
        .iter()
        .filter_map(|l| l.resource_id.as_deref())
        .collect()
}

/// The AWS fixtures' kinds, read here from the usage type by this test's own table.
fn aws_kind(usage_type: &str, line_type: &str) -> ChargeKind {
    if line_type != "Usage" {
        return ChargeKind::Other;
    }
    match usage_type {
        "BoxUsage:p4de.24xlarge" | "USE1-SpotUsage:p4de.24xlarge" => ChargeKind::Compute,
        "EBS:VolumeUsage.gp3" => ChargeKind::Disk,
        "EBS:SnapshotUsage" => ChargeKind::Snapshot,
        "USE1-PublicIPv4:IdleAddress" => ChargeKind::PublicIp,
        "USE1-LoadBalancerUsage" => ChargeKind::LoadBalancer,
        "USE1-USW2-AWS-Out-Bytes" => transfer(TransferScope::InterRegion),
        "DataTransfer-Out-Bytes" => transfer(TransferScope::Internet),
        "USE1-DataTransfer-Regional-Bytes" => transfer(TransferScope::InterZone),
        other => panic!("the test has no kind for {other}"),
    }
}

const DEMO_IDS: [&str; 6] = [
    "eipalloc-0d",
    "i-0demo4a100f00d",
    "i-0demo8spot5eed",
    "lb-0api",
    "snap-0a",
    "vol-0data",
];

fn check_aws(lines: &[BillLine], format: BillFormat, fixture: &[u8], amount: &str, kind: &str) {
    let rows = rows(fixture);
    assert_eq!(lines.len(), rows.len());
    assert!(lines.iter().all(|l| l.format == format));
    let expected = sums(&rows, amount, |r| {
        let usage = r
            .get("lineItem/UsageType")
            .or(r.get("x_UsageType"))
            .unwrap();
        let line_type = if r[kind] == "Usage" || r[kind] == "Tax" || r[kind] == "Credit" {
            r[kind].as_str()
        } else {
            panic!("unexpected {}", r[kind])
        };
        aws_kind(usage, line_type)
    });
    assert_eq!(billed_sums(lines), expected);
    assert_eq!(ids(lines), DEMO_IDS.into_iter().collect());
    let cross = lines
        .iter()
        .find(|l| l.kind == transfer(TransferScope::InterRegion))
        .unwrap();
    assert_eq!(cross.region.as_deref(), Some("us-east-1"));
    assert_eq!(cross.to_region.as_deref(), Some("us-west-2"));
    let regions: BTreeSet<_> = lines.iter().filter_map(|l| l.region.as_deref()).collect();
    assert_eq!(regions, BTreeSet::from(["us-east-1"]));
    // Each line's period is its own row's, start before end.
    for (line, row) in lines.iter().zip(&rows) {
        assert!(line.start <= line.end);
        let start = row
            .get("lineItem/UsageStartDate")
            .or(row.get("ChargePeriodStart"))
            .unwrap();
        assert_eq!(line.start, start.parse().unwrap());
        assert_eq!(line.billed.currency.as_str(), "USD");
    }
    // The disk bills after the instance's last compute hour.
    let last_compute = lines
        .iter()
        .filter(|l| l.resource_id.as_deref() == Some("i-0demo4a100f00d"))
        .filter(|l| l.kind == ChargeKind::Compute)
        .map(|l| l.end)
        .max()
        .unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.kind == ChargeKind::Disk && l.start >= last_compute)
    );
}

#[test]
fn aws_cur_reads_every_line_with_its_kind_and_amount() {
    let lines = read_bill("aws-cur.csv", CUR).unwrap();
    check_aws(
        &lines,
        BillFormat::AwsCur,
        CUR,
        "lineItem/UnblendedCost",
        "lineItem/LineItemType",
    );
    // The line numbers are the file's: the header is line 1.
    assert_eq!(lines[0].source.line, 2);
    assert_eq!(
        lines.last().unwrap().source.line,
        u64::try_from(rows(CUR).len() + 1).unwrap()
    );
}

#[test]
fn focus_reads_every_line_with_its_kind_and_amount() {
    let lines = read_bill("focus-aws.csv", FOCUS).unwrap();
    check_aws(
        &lines,
        BillFormat::Focus,
        FOCUS,
        "BilledCost",
        "ChargeCategory",
    );
    let list: Decimal = rows(FOCUS)
        .iter()
        .map(|r| r["ListCost"].parse::<Decimal>().unwrap())
        .sum();
    let read: Decimal = lines.iter().map(|l| l.list.unwrap().amount).sum();
    assert_eq!(read, list);
}

#[test]
fn alibaba_reads_every_line_and_skips_the_total_row() {
    let lines = read_bill("alibaba-bill-details.csv", ALIBABA).unwrap();
    let rows = rows(ALIBABA);
    assert_eq!(lines.len(), rows.len());
    assert!(lines.iter().all(|l| l.format == BillFormat::Alibaba));
    let expected = sums(&rows, "应付金额", |r| {
        if r["账单类型"] == "Refund" {
            return ChargeKind::Other;
        }
        match r["计费项"].as_str() {
            "实例规格" => ChargeKind::Compute,
            "数据盘" => ChargeKind::Disk,
            "快照" => ChargeKind::Snapshot,
            "公网流量" => transfer(TransferScope::Internet),
            "跨地域流量" => transfer(TransferScope::InterRegion),
            other => panic!("the test has no kind for {other}"),
        }
    });
    assert_eq!(billed_sums(&lines), expected);
    let want: BTreeSet<&str> = rows.iter().map(|r| r["实例ID"].as_str()).collect();
    assert_eq!(ids(&lines), want);
    assert!(
        lines
            .iter()
            .all(|l| l.region.as_deref() == Some("cn-hangzhou"))
    );
    assert!(lines.iter().all(|l| l.billed.currency.as_str() == "CNY"));
    // A day of the daily export, in China Standard Time.
    let first = &lines[0];
    assert_eq!(first.start, "2026-11-23T16:00:00Z".parse().unwrap());
    assert_eq!(first.end, "2026-11-24T16:00:00Z".parse().unwrap());
    let list: Decimal = rows
        .iter()
        .map(|r| r["官网价"].parse::<Decimal>().unwrap())
        .sum();
    assert_eq!(
        lines
            .iter()
            .map(|l| l.list.unwrap().amount)
            .sum::<Decimal>(),
        list
    );
}

#[test]
fn tencent_reads_every_component_line() {
    let lines = read_bill("tencent-bill-details.csv", TENCENT).unwrap();
    let rows = rows(TENCENT);
    assert_eq!(lines.len(), rows.len());
    assert!(lines.iter().all(|l| l.format == BillFormat::Tencent));
    let expected = sums(&rows, "优惠后总价", |r| {
        if r["交易类型"] == "退费" {
            return ChargeKind::Other;
        }
        match r["组件类型"].as_str() {
            "CPU" | "内存" => ChargeKind::Compute,
            "系统盘" | "数据盘" => ChargeKind::Disk,
            "快照" => ChargeKind::Snapshot,
            "带宽" => transfer(TransferScope::Internet),
            "跨地域流量" => transfer(TransferScope::InterRegion),
            other => panic!("the test has no kind for {other}"),
        }
    });
    assert_eq!(billed_sums(&lines), expected);
    let want: BTreeSet<&str> = rows.iter().map(|r| r["资源ID"].as_str()).collect();
    assert_eq!(ids(&lines), want);
    assert!(
        lines
            .iter()
            .all(|l| l.region.as_deref() == Some("ap-guangzhou"))
    );
    // 10:00:00 to 10:59:59 local is one whole hour, end exclusive, in UTC.
    let first = &lines[0];
    assert_eq!(first.start, "2026-11-24T02:00:00Z".parse().unwrap());
    assert_eq!(first.end, "2026-11-24T03:00:00Z".parse().unwrap());
}

#[test]
fn the_lines_of_a_file_share_its_name() {
    for (name, bill) in [
        ("a.csv", FOCUS),
        ("b.csv", CUR),
        ("c.csv", ALIBABA),
        ("d.csv", TENCENT),
    ] {
        let lines = read_bill(name, bill).unwrap();
        assert!(lines.len() > 1, "{name}");
        assert_eq!(&*lines[0].source.file, name);
        let first = &lines[0].source.file;
        assert!(
            lines
                .iter()
                .all(|l| std::sync::Arc::ptr_eq(&l.source.file, first)),
            "{name}"
        );
    }
}
