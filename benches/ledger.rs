//! The ledger at the size the issue asks for: 30 days of 1-second samples from 8 simulated
//! GPUs, aggregated into minute buckets and written to a ledger; then the file size and the
//! time of `report --since 30d` (open, read the rows, build the report).
//!
//! Under `cargo bench` it writes the full 30 days; under `cargo test --benches` (no `--bench`
//! flag) one day, so the test run stays quick. The figures are printed on stderr.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use gpumeter::ledger::query::LeftoverRow;
use gpumeter::ledger::{
    Batch, EventLevel, EventRecord, GpuPoint, Ledger, MinuteAggregator, SessionStart, Tick, report,
};
use gpumeter::meter::{BillingMode, Breakdown};
use gpumeter::money::{Currency, Money};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use rust_decimal::{Decimal, dec};

const GPUS: u32 = 8;

fn days() -> i64 {
    if std::env::args().any(|a| a == "--bench") {
        30
    } else {
        1
    }
}

/// Writes `days` of 1 s ticks from 8 GPUs; returns the path, the end instant and the samples.
fn build_ledger(dir: &std::path::Path, days: i64) -> (std::path::PathBuf, Timestamp, u64) {
    let path = dir.join("ledger.sqlite");
    let mut ledger = Ledger::open(&path).expect("open");
    let start = Timestamp::from_second(1_780_000_020).expect("instant");
    let session = ledger
        .start_session(&SessionStart {
            instance: "i-bench".into(),
            provider: "demo".into(),
            region: None,
            sku: "p4de.24xlarge".into(),
            mode: BillingMode::OnDemand,
            rate_per_hour: Some(dec!(40.96)),
            currency: Currency::USD,
            at: start,
            billing: None,
        })
        .expect("session");
    let zero = Breakdown::zero(Currency::USD);
    let mut agg = MinuteAggregator::new(session, Currency::USD, Some(&zero));
    let per_second = dec!(40.96) / dec!(3600);
    let storage_per_second = dec!(0.219) / dec!(3600);
    let mut energy = [0.0_f64; GPUS as usize];
    let mut batch = Batch::default();
    let mut samples = 0_u64;
    let seconds = days * 86_400;
    for s in 0..seconds {
        let at = start + SignedDuration::from_secs(s);
        let n = Decimal::from(s);
        let accrued = Breakdown {
            compute: per_second * n,
            storage: storage_per_second * n,
            ..zero
        };
        let hour = s / 3600 % 24;
        let idle = (2..8).contains(&hour);
        let gpus: [GpuPoint; GPUS as usize] = std::array::from_fn(|i| {
            let i64_i = i64::try_from(i).unwrap_or(0);
            let wobble = f64::from(u32::try_from((s + i64_i * 13) % 17).unwrap_or(0));
            let (util, power) = if idle {
                (0.0, 60.0 + wobble)
            } else {
                (80.0 + wobble, 320.0 + wobble * 3.0)
            };
            energy[i] += power;
            GpuPoint {
                index: u32::try_from(i).unwrap_or(0),
                util_pct: Some(util),
                power_w: Some(power),
                energy_j: Some(energy[i]),
            }
        });
        samples += u64::from(GPUS);
        let tick = Tick {
            at,
            accrued: Some(&accrued),
            gpus: &gpus,
            egress_bytes: if idle { 0 } else { 250_000 },
            egress_split: gpumeter_core::traffic::EgressSplit::default(),
            egress_accrued: None,
            idle,
        };
        if let Some(bucket) = agg.push(&tick) {
            batch.minutes.push(bucket);
        }
        if s % 3600 == 0 {
            let text = "idle: all GPUs below 3% for 30 minutes";
            batch.events.push(
                EventRecord::alert(at, EventLevel::Warn, text).in_session(session, "i-bench"),
            );
        }
        if batch.minutes.len() == 1440 {
            ledger.write(&batch).expect("write");
            batch = Batch::default();
        }
    }
    batch.minutes.extend(agg.finish());
    ledger.write(&batch).expect("write");
    let end = start + SignedDuration::from_secs(seconds);
    ledger.end_session(session, end).expect("end");
    (path, end, samples)
}

fn report_once(path: &std::path::Path, now: Timestamp) -> report::Report {
    let ledger = Ledger::open_read_only(path).expect("open");
    let since = now - SignedDuration::from_hours(24 * 30);
    let rows = ledger.report_rows(since, now).expect("rows");
    let price = |_: &LeftoverRow| None::<Money>;
    report::build(&rows, (since, now), &TimeZone::UTC, &price, &[])
}

fn file_bytes(path: &std::path::Path) -> u64 {
    let wal = path.with_extension("sqlite-wal");
    let size = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.len());
    size(path) + size(&wal)
}

fn ledger(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let days = days();
    let built = Instant::now();
    let (path, now, samples) = build_ledger(dir.path(), days);
    let build_time = built.elapsed();
    // Checkpoint so the size is the file's own, not the write-ahead log's.
    drop(Ledger::open(&path).expect("reopen"));
    let bytes = file_bytes(&path);
    let timed = Instant::now();
    let report = report_once(&path, now);
    let first = timed.elapsed();
    eprintln!(
        "ledger: {days} d × {GPUS} GPUs = {samples} samples aggregated and written in {:.1} s; \
         file {:.2} MB; report --since 30d (cold) {:.1} ms; total {}",
        build_time.as_secs_f64(),
        f64::from(u32::try_from(bytes / 1000).unwrap_or(u32::MAX)) / 1e3,
        first.as_secs_f64() * 1e3,
        report.spend[0].total.total()
    );
    c.bench_function(&format!("report --since 30d over {days} d"), |b| {
        b.iter(|| black_box(report_once(&path, now)));
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = ledger
}
criterion_main!(benches);
