//! Auditing a bill whose lines each name a resource of their own: an account's month can hold
//! tens of thousands, and reading and matching must grow with the lines, not with their square.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use gpumeter_core::audit::{AuditLedger, Charges, Tolerance, audit_charges};
use jiff::Timestamp;

/// A FOCUS bill of `lines` hourly disk lines, each for a volume of its own.
fn bill_text(lines: usize) -> String {
    let mut text =
        String::from("BilledCost,ChargePeriodStart,ChargePeriodEnd,BillingCurrency,ResourceId\n");
    for i in 0..lines {
        let hour = i % 48;
        let _ = writeln!(
            text,
            "0.{:02}12,2026-05-{:02}T{:02}:00:00Z,2026-05-{:02}T{:02}:59:59Z,USD,vol-{i:012x}",
            i % 100,
            1 + hour / 24,
            hour % 24,
            1 + hour / 24,
            hour % 24,
        );
    }
    text
}

/// The bill read as `gpumeter audit` reads it: streamed into the fold.
fn fold(bytes: &[u8]) -> Charges {
    let mut charges = Charges::default();
    charges.read("bill.csv", bytes).unwrap();
    charges
}

fn read_and_match(c: &mut Criterion) {
    let mut group = c.benchmark_group("audit_distinct_resources");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(15));
    let span: (Timestamp, Timestamp) = (
        "2026-05-01T00:00:00Z".parse().unwrap(),
        "2026-05-03T00:00:00Z".parse().unwrap(),
    );
    let ledger = AuditLedger::default();
    for lines in [10_000, 80_000] {
        let text = bill_text(lines);
        let read = fold(text.as_bytes());
        assert_eq!(read.lines_read(), lines);
        assert_eq!(
            audit_charges(&read, &ledger, span, Tolerance::default())
                .findings
                .len(),
            lines
        );
        group.bench_with_input(BenchmarkId::from_parameter(lines), &text, |b, text| {
            b.iter(|| {
                let read = fold(black_box(text.as_bytes()));
                audit_charges(&read, &ledger, span, Tolerance::default())
            });
        });
    }
    group.finish();
}

criterion_group!(benches, read_and_match);
criterion_main!(benches);
