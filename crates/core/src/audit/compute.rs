//! The instances' compute on the bill: instances of one SKU that overlapped, priced from the
//! later one's lines, and each instance's compute against what the meter billed.

use jiff::Timestamp;
use rust_decimal::Decimal;

use super::bill::ChargeKind;
use super::charges::Charge;
use super::findings::{Amounts, Cause, Finding, Mismatch, OverlapCharge};
use super::index::{Index, step};
use super::ledger::{AuditLedger, LedgerInstance};
use super::matching::{end_of, pro_rata, share};
use super::report::Tolerance;
use crate::money::Money;

/// Seconds in an hour.
const HOUR: i64 = 3600;

/// The compute lines in span of `instance` that fall (at least partly) in `[from, to)`.
fn compute_lines<'a>(
    index: &Index<'a>,
    instance: &str,
    from: Timestamp,
    to: Timestamp,
) -> Vec<Charge<'a>> {
    let mut lines = index.lines_of(instance);
    lines.retain(|l| {
        step();
        l.kind == ChargeKind::Compute && share(l, from, to).is_some()
    });
    lines
}

/// The bill's indexes of `lines`.
fn indexes(lines: &[Charge]) -> Vec<usize> {
    lines.iter().map(|l| l.index).collect()
}

/// Pairs of instances of the same provider and SKU (and region, where both are known) that
/// ran at the same time within the span, as the report's overlap finds them; each priced from
/// the later instance's compute lines within the overlap.
pub(super) fn overlaps(
    index: &Index,
    ledger: &AuditLedger,
    (since, until): (Timestamp, Timestamp),
) -> Vec<Finding> {
    let mut out = Vec::new();
    let all = &ledger.instances;
    for (n, a) in all.iter().enumerate() {
        for b in &all[n + 1..] {
            step();
            let same = a.id != b.id
                && a.provider == b.provider
                && a.sku.is_some()
                && a.sku == b.sku
                && (a.region.is_none() || b.region.is_none() || a.region == b.region);
            if !same {
                continue;
            }
            let from = a.started.max(b.started).max(since);
            let to = end_of(a).min(end_of(b)).min(until);
            if to <= from {
                continue;
            }
            let (first, second) = if (b.started, &b.id) > (a.started, &a.id) {
                (a, b)
            } else {
                (b, a)
            };
            let picked = compute_lines(index, &second.id, from, to);
            let mut amounts = Amounts::default();
            for line in &picked {
                if let Some(m) = pro_rata(line, from, to) {
                    amounts.add(m);
                }
            }
            out.push(Finding::Overlap(Box::new(OverlapCharge {
                first: first.id.clone(),
                second: second.id.clone(),
                sku: a.sku.clone().unwrap_or_default(),
                from,
                until: to,
                amounts,
                lines: indexes(&picked),
            })));
        }
    }
    out
}

/// Each instance's compute on the bill against the meter's, where they differ by more than
/// `tolerance`. Lines that start after a release count as leftovers, not here.
pub(super) fn mismatches(
    index: &Index,
    ledger: &AuditLedger,
    (since, until): (Timestamp, Timestamp),
    tolerance: Tolerance,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for inst in &ledger.instances {
        step();
        // A line that starts after the release is a leftover's; one that straddles it bills
        // the hour's usage before it, whole.
        let mut picked = compute_lines(index, &inst.id, since, until);
        picked.retain(|l| inst.released.is_none_or(|r| l.start < r));
        let mut billed = Amounts::default();
        for line in &picked {
            if let Some(m) = pro_rata(line, since, until) {
                billed.add(m);
            }
        }
        for m in billed.0.iter().copied() {
            if inst
                .metered
                .is_none_or(|metered| metered.currency != m.currency)
            {
                out.push(Finding::Mismatch(Box::new(Mismatch {
                    instance: inst.id.clone(),
                    billed: Some(m),
                    metered: None,
                    difference: None,
                    cause: Cause::MissingOnSheet,
                    lines: indexes(&picked),
                })));
            }
        }
        let Some(metered) = inst.metered else {
            continue;
        };
        let found = match billed.get(metered.currency) {
            None if tolerance.agrees(metered.amount, Decimal::ZERO) => None,
            None => Some(Mismatch {
                instance: inst.id.clone(),
                billed: None,
                metered: Some(metered),
                difference: None,
                cause: Cause::NotOnBill,
                lines: Vec::new(),
            }),
            Some(b) if tolerance.agrees(metered.amount, b.amount) => None,
            Some(b) => Some(Mismatch {
                instance: inst.id.clone(),
                billed: Some(b),
                metered: Some(metered),
                difference: Some(Money::new(b.amount - metered.amount, b.currency)),
                cause: cause(inst, &picked, (since, until), b, metered, tolerance),
                lines: indexes(&picked),
            }),
        };
        out.extend(found.map(|m| Finding::Mismatch(Box::new(m))));
    }
    out
}

/// The likely reason `billed` differs from `metered`: at the sheet's rate, would the bill's
/// own hours cost what it charges? If not, the rate changed; if so, the hours differ, by less
/// than a billing step per line (rounding) or by more (hours the meter did not see).
fn cause(
    inst: &LedgerInstance,
    picked: &[Charge],
    (from, to): (Timestamp, Timestamp),
    billed: Money,
    metered: Money,
    tolerance: Tolerance,
) -> Cause {
    let Some(rate) = inst.rate_per_hour.filter(|r| r.currency == billed.currency) else {
        return Cause::MissingOnSheet;
    };
    let Some(bill_hours) = hours(picked, from, to) else {
        return Cause::Unknown;
    };
    if rate.amount.is_zero() || bill_hours.is_zero() {
        return Cause::Unknown;
    }
    if !tolerance.agrees(bill_hours * rate.amount, billed.amount) {
        return Cause::RateChange {
            bill: Money::new(billed.amount / bill_hours, billed.currency),
            sheet: rate,
        };
    }
    let meter_hours = metered.amount / rate.amount;
    let step = Decimal::from(inst.step_seconds.map_or(HOUR, i64::from)) / Decimal::from(HOUR);
    let count = Decimal::from(picked.len().max(1));
    if (bill_hours - meter_hours).abs() < step * count {
        Cause::Rounding {
            bill_hours,
            meter_hours,
        }
    } else {
        Cause::Hours {
            bill_hours,
            meter_hours,
        }
    }
}

/// The hours the lines charge within `[from, to)`, pro rata; `None` when a line gives no
/// quantity in hours or seconds.
fn hours(picked: &[Charge], from: Timestamp, to: Timestamp) -> Option<Decimal> {
    let mut total = Decimal::ZERO;
    for line in picked {
        let per_hour = match line.unit.map(str::trim) {
            Some(u) if is_hours(u) => Decimal::ONE,
            Some(u) if is_seconds(u) => Decimal::from(HOUR),
            _ => return None,
        };
        total += line.quantity? / per_hour * share(line, from, to)?;
    }
    Some(total)
}

/// The units bills give hours in: CUR's `Hrs`, FOCUS's `Hours`, the Chinese exports' `小时`.
fn is_hours(unit: &str) -> bool {
    ["h", "hr", "hrs", "hour", "hours", "小时", "時間"]
        .iter()
        .any(|u| unit.eq_ignore_ascii_case(u))
}

fn is_seconds(unit: &str) -> bool {
    ["s", "sec", "secs", "second", "seconds", "秒"]
        .iter()
        .any(|u| unit.eq_ignore_ascii_case(u))
}
