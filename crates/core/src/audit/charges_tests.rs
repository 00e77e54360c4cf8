use std::io::Read;

use rust_decimal::Decimal;

use super::Charges;
use crate::audit::{BillLine, read_bill};

/// An hourly FOCUS bill written as it is read, never whole: line n charges resource n % ids
/// for hour n / ids.
struct LazyBill {
    lines: usize,
    ids: usize,
    written: usize,
    pending: Vec<u8>,
}

impl LazyBill {
    fn new(lines: usize, ids: usize) -> LazyBill {
        let header = "BilledCost,ChargePeriodStart,ChargePeriodEnd,BillingCurrency,ResourceId,\
                      ConsumedQuantity,ConsumedUnit\n";
        LazyBill {
            lines,
            ids,
            written: 0,
            pending: header.as_bytes().to_vec(),
        }
    }
}

impl Read for LazyBill {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() && self.written < self.lines {
            let (id, hour) = (self.written % self.ids, self.written / self.ids);
            let at = |h: usize| {
                let t =
                    jiff::Timestamp::from_second(1_777_593_600 + 3600 * i64::try_from(h).unwrap())
                        .unwrap();
                t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
            };
            let line = format!(
                "1.25,{},{},USD,vol-{id:08x},1,Hours\n",
                at(hour),
                at(hour + 1)
            );
            self.pending = line.into_bytes();
            self.written += 1;
        }
        let n = self.pending.len().min(buf.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

fn folded(lines: usize, ids: usize) -> Charges {
    let mut charges = Charges::default();
    charges.read("bill.csv", LazyBill::new(lines, ids)).unwrap();
    assert_eq!(charges.lines_read(), lines);
    charges
}

#[test]
fn what_the_fold_keeps_grows_with_the_resources_not_with_the_lines() {
    let (hours_10, hours_200) = (folded(1_000, 100), folded(20_000, 100));
    assert_eq!(hours_10.runs(), 100);
    assert_eq!(
        hours_200.runs(),
        100,
        "twenty times the hours, the same runs"
    );
    assert_eq!(hours_200.names(), hours_10.names());
    let distinct = folded(20_000, 20_000);
    assert_eq!(distinct.runs(), 20_000, "one run a resource");
}

#[test]
fn the_lines_read_back_from_the_runs_are_the_lines_read() {
    // Steady hours, a price change, a gap, a line out of step and a second file.
    let bill = "BilledCost,ChargePeriodStart,ChargePeriodEnd,BillingCurrency,ResourceId,\
                ConsumedQuantity,ConsumedUnit\n\
                1.25,2026-05-01T00:00:00Z,2026-05-01T01:00:00Z,USD,i-1,1,Hours\n\
                0.10,2026-05-01T00:00:00Z,2026-05-01T01:00:00Z,USD,vol-1,,\n\
                1.25,2026-05-01T01:00:00Z,2026-05-01T02:00:00Z,USD,i-1,1,Hours\n\
                0.10,2026-05-01T01:00:00Z,2026-05-01T02:00:00Z,USD,vol-1,,\n\
                # a note\n\
                1.25,2026-05-01T02:00:00Z,2026-05-01T03:00:00Z,USD,i-1,1,Hours\n\
                0.100,2026-05-01T02:00:00Z,2026-05-01T03:00:00Z,USD,vol-1,,\n\
                1.25,2026-05-01T05:00:00Z,2026-05-01T06:00:00Z,USD,i-1,1,Hours\n\
                1.25,2026-05-01T06:00:00Z,2026-05-01T06:00:00Z,USD,i-1,1,Hours\n\
                1.25,2026-05-01T06:00:00Z,2026-05-01T07:00:00Z,USD,i-1,1,Hours\n";
    let mut expected: Vec<BillLine> = read_bill("a.csv", bill.as_bytes()).unwrap();
    expected.extend(read_bill("b.csv", bill.as_bytes()).unwrap());
    let mut charges = Charges::default();
    charges.read("a.csv", bill.as_bytes()).unwrap();
    charges.read("b.csv", bill.as_bytes()).unwrap();
    let mut back: Vec<_> = charges.iter().collect();
    back.sort_unstable_by_key(|c| c.index);
    assert_eq!(back.len(), expected.len());
    let places = charges.locate(&(0..back.len()).collect::<Vec<_>>());
    for (n, (c, l)) in back.iter().zip(&expected).enumerate() {
        assert_eq!(c.index, n);
        assert_eq!(places.get(n), Some((&*l.source.file, l.source.line)));
        assert_eq!((c.start, c.end), (l.start, l.end), "line {n}");
        assert_eq!(c.resource, l.resource_id.as_deref());
        assert_eq!(c.billed, l.billed);
        assert_eq!(c.billed.amount.scale(), l.billed.amount.scale());
        assert_eq!(c.quantity, l.quantity);
        assert_eq!(c.unit, l.unit.as_deref());
    }
    assert!(charges.runs() < back.len(), "{} runs", charges.runs());
    assert_eq!(back[0].quantity, Some(Decimal::ONE));
    // Some of the lines, asked in no order: those and no others are found.
    let some: Vec<usize> = (0..back.len()).rev().step_by(3).collect();
    let picked = charges.locate(&some);
    for (n, l) in expected.iter().enumerate() {
        let want = some
            .contains(&n)
            .then_some((&*l.source.file, l.source.line));
        assert_eq!(picked.get(n), want, "line {n}");
    }
}
