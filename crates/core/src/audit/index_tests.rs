//! The audit's work grows with the bill, not with its square: the turns of its loops on a bill
//! of 80,000 lines, each naming a resource of its own, are about eight times those on 10,000.

use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

use super::counting;
use crate::audit::{
    AuditLedger, BillFormat, BillLine, ChargeKind, Finding, LedgerInstance, LedgerResource,
    LineSource, Tolerance, TransferScope, audit,
};
use crate::meter::ResourceKind;
use crate::money::{Currency, Money};

fn at(hours: i64) -> Timestamp {
    "2026-05-01T00:00:00Z".parse::<Timestamp>().unwrap() + SignedDuration::from_hours(hours)
}

fn line(n: usize, id: String, kind: ChargeKind) -> BillLine {
    let hour = i64::try_from(n % 48).unwrap();
    BillLine {
        source: LineSource {
            file: "bill.csv".into(),
            line: n as u64 + 2,
        },
        format: BillFormat::Focus,
        resource_id: Some(id),
        service: "AmazonEC2".into(),
        usage: "USE1-EBS:VolumeUsage".into(),
        kind,
        region: Some("us-east-1".into()),
        to_region: Some("us-west-2".into()),
        start: at(hour),
        end: at(hour + 1),
        quantity: Some(Decimal::ONE),
        unit: Some("Hrs".into()),
        billed: Money::new(Decimal::new(125, 2), Currency::USD),
        list: None,
    }
}

/// `n` lines: most a disk of its own the ledger never saw, one in ten a disk the ledger saw
/// with an instance it holds nothing else of (a leftover), a few compute lines of the instances and a few
/// transfers; the ledger grows with the bill.
fn world(n: usize) -> (Vec<BillLine>, AuditLedger) {
    let instances: Vec<LedgerInstance> = (0..n / 1000)
        .map(|k| LedgerInstance {
            id: format!("i-{k}"),
            provider: "aws".into(),
            region: Some("us-east-1".into()),
            sku: Some(format!("p4d-{k}")),
            started: at(0),
            last_seen: at(4),
            released: Some(at(4)),
            metered: Some(Money::new(Decimal::from(4), Currency::USD)),
            rate_per_hour: Some(Money::new(Decimal::ONE, Currency::USD)),
            step_seconds: Some(3600),
        })
        .collect();
    let mut resources = Vec::new();
    let lines = (0..n)
        .map(|i| match i % 100 {
            0 => line(
                i,
                format!("i-{}", (i / 100) % instances.len()),
                ChargeKind::Compute,
            ),
            1 => line(
                i,
                format!("vpc-{i}"),
                ChargeKind::Transfer {
                    scope: TransferScope::InterRegion,
                },
            ),
            k if k % 10 == 5 => {
                let id = format!("vol-{i:08x}");
                resources.push(LedgerResource {
                    instance: format!("i-gone-{i}"),
                    id: id.clone(),
                    kind: ResourceKind::DataDisk,
                    created: at(0),
                    first_seen: at(0),
                    last_seen: at(4),
                    gone: None,
                    deleted_with_instance: false,
                });
                line(i, id, ChargeKind::Disk)
            }
            _ => line(i, format!("vol-{i:08x}"), ChargeKind::Disk),
        })
        .collect();
    (
        lines,
        AuditLedger {
            instances,
            resources,
        },
    )
}

/// The lines found as leftovers or unexplained, the lines that should be (every disk line,
/// and the compute lines charged after their instance's release), and the steps taken.
fn steps(n: usize) -> (usize, usize, u64) {
    let (lines, ledger) = world(n);
    let expected = lines
        .iter()
        .filter(|l| l.kind == ChargeKind::Disk || l.kind == ChargeKind::Compute && l.start >= at(4))
        .count();
    let (report, steps) =
        counting(|| audit(&lines, &ledger, (at(0), at(48)), Tolerance::default()));
    let found = report
        .findings
        .iter()
        .map(|f| match f {
            Finding::Leftover(l) => l.lines.len(),
            Finding::Unexplained(u) => u.lines.len(),
            _ => 0,
        })
        .sum();
    (found, expected, steps)
}

#[test]
fn eighty_thousand_distinct_resources_take_about_eight_times_the_work_of_ten_thousand() {
    let (found_10k, expected_10k, small) = steps(10_000);
    let (found_80k, expected_80k, large) = steps(80_000);
    // Every line that should be found is: the work was done.
    assert!(expected_10k > 9_800, "{expected_10k}");
    assert_eq!(found_10k, expected_10k);
    assert_eq!(found_80k, expected_80k);
    assert!(small >= 10_000, "{small}");
    // Linear is 8 times; the square would be 64.
    assert!(
        large <= small * 10,
        "10k lines: {small} steps, 80k lines: {large} steps"
    );
}

#[test]
fn turns_taken_on_another_thread_count_as_the_waiting_threads() {
    let ((), steps) = counting(|| {
        let (three, taken) = std::thread::spawn(|| {
            super::tallied(|| {
                (0..3).for_each(|_| super::step());
                3
            })
        })
        .join()
        .unwrap();
        assert_eq!(three, 3);
        super::add_steps(taken);
    });
    assert_eq!(steps, 3);
}
