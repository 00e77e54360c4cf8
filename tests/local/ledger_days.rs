//! The report's per-day spend is the exact sum of each local day's minutes, as a query over the
//! file sums them: several sessions at once, a zone whose offset is not a whole hour, and a
//! window that starts and ends inside a day.

use gpumeter::ledger::query::LeftoverRow;
use gpumeter::ledger::report::build;
use gpumeter::ledger::{GpuMinute, Ledger, MinuteBucket, SessionStart};
use gpumeter::meter::{BillingMode, Breakdown};
use gpumeter::money::{Currency, Money};
use jiff::tz::{Offset, TimeZone};
use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

/// Kathmandu's offset, +05:45: its days begin on a quarter hour that is not a whole hour.
const OFFSET_SECONDS: i32 = 5 * 3600 + 45 * 60;

fn write_three_sessions(path: &std::path::Path, start: Timestamp) {
    let mut ledger = Ledger::open(path).unwrap();
    for (n, offset_minutes, minutes) in [(0_i64, 0, 3 * 1440), (1, 301, 1700), (2, 2000, 977)] {
        let at = start + SignedDuration::from_mins(offset_minutes);
        let session = ledger
            .start_session(&SessionStart {
                instance: format!("i-{n}"),
                provider: "demo".into(),
                region: None,
                sku: "x".into(),
                mode: BillingMode::OnDemand,
                rate_per_hour: None,
                currency: Currency::USD,
                at,
                billing: None,
            })
            .unwrap();
        let mut batch = gpumeter::ledger::Batch::default();
        for m in 0..minutes {
            let i = m * 3 + n;
            batch.minutes.push(MinuteBucket {
                session,
                start: at + SignedDuration::from_mins(m),
                cost: Breakdown {
                    currency: Currency::USD,
                    compute: Decimal::new(41_666_667 + i * 7, 9),
                    bandwidth: Decimal::new(i * 1_234_567 % 999_983, 9),
                    storage: Decimal::new(123_457, 9),
                    extras: Decimal::new(i % 5, 9),
                },
                idle: i % 7 < 2,
                gpu: GpuMinute::default(),
                egress_bytes: 0,
                egress_split: gpumeter_core::traffic::EgressSplit::default(),
                split_cost: gpumeter::ledger::SplitCost::default(),
            });
        }
        ledger.write(&batch).unwrap();
    }
}

/// Each local day's sums of the cost lines and the idle cost, in nano-units, straight from
/// the file.
fn days_in_sql(path: &std::path::Path, since: Timestamp, until: Timestamp) -> Vec<[String; 6]> {
    let c = rusqlite::Connection::open(path).unwrap();
    let mut stmt = c
        .prepare(
            "SELECT date(start + ?3, 'unixepoch'), sum(compute), sum(bandwidth), sum(storage),
                    sum(extras), sum(idle_cost)
             FROM buckets WHERE start >= ?1 AND start < ?2 GROUP BY 1 ORDER BY 1",
        )
        .unwrap();
    let rows = stmt
        .query_map(
            (since.as_second(), until.as_second(), OFFSET_SECONDS),
            |r| {
                let nanos = |i| r.get::<_, i64>(i).map(|n| Decimal::new(n, 9).to_string());
                Ok([
                    r.get(0)?,
                    nanos(1)?,
                    nanos(2)?,
                    nanos(3)?,
                    nanos(4)?,
                    nanos(5)?,
                ])
            },
        )
        .unwrap();
    rows.collect::<Result<_, _>>().unwrap()
}

#[test]
fn each_local_days_spend_is_the_exact_sum_of_its_minutes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    let start: Timestamp = "2026-05-01T00:00:00Z".parse().unwrap();
    write_three_sessions(&path, start);
    let tz = TimeZone::fixed(Offset::from_seconds(OFFSET_SECONDS).unwrap());
    let since = start + SignedDuration::from_mins(7 * 60 + 3);
    let until = start + SignedDuration::from_mins(3 * 1440 - 31);
    let ledger = Ledger::open_read_only(&path).unwrap();
    let rows = ledger.report_rows(since, until).unwrap();
    let price = |_: &LeftoverRow| None::<Money>;
    let report = build(&rows, (since, until), &tz, &price, &[]);
    let days: Vec<[String; 6]> = report.spend[0]
        .days
        .iter()
        .map(|d| {
            let [compute, bandwidth, storage, extras] = d.cost.parts().map(|p| p.to_string());
            [
                d.date.to_string(),
                compute,
                bandwidth,
                storage,
                extras,
                d.idle.to_string(),
            ]
        })
        .collect();
    let expected = days_in_sql(&path, since, until);
    assert_eq!(expected.len(), 4, "the window touches four local days");
    assert_eq!(days, expected);
}
