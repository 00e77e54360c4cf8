//! The audit itself: each bill line charged within the span is matched to the ledger's
//! instances and resources by resource id and time, and what does not add up becomes a
//! [`Finding`]. Pure: the lines, the ledger and the span come in as arguments.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use jiff::Timestamp;
use rust_decimal::Decimal;

use super::bill::{BillLine, ChargeKind, TransferScope};
use super::findings::{Amounts, Finding, Transfer, Unexplained};
use super::index::{Index, step};
use super::ledger::{AuditLedger, LedgerInstance};
use super::report::{AuditReport, Tolerance};
use super::{compute, leftovers};
use crate::money::Money;

/// Matches `lines` against `ledger` over `span` (`[since, until)`), holding the bill to
/// `tolerance` where it is compared with the meter.
pub fn audit(
    lines: &[BillLine],
    ledger: &AuditLedger,
    span: (Timestamp, Timestamp),
    tolerance: Tolerance,
) -> AuditReport {
    let (since, until) = span;
    let in_span: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            step();
            share(&lines[i], since, until).is_some()
        })
        .collect();
    let mut billed = Amounts::default();
    for &i in &in_span {
        step();
        if let Some(m) = pro_rata(&lines[i], since, until) {
            billed.add(m);
        }
    }
    let index = Index::new(lines, &in_span, ledger);
    let mut findings = Vec::new();
    findings.extend(leftovers::find(lines, &index, ledger, span));
    findings.extend(transfers(lines, &in_span, ledger, span));
    findings.extend(compute::overlaps(lines, &index, ledger, span));
    findings.extend(compute::mismatches(lines, &index, ledger, span, tolerance));
    findings.extend(unexplained(lines, &in_span, &index, span));
    AuditReport {
        since,
        until,
        tolerance,
        lines_read: lines.len(),
        lines_in_span: in_span.len(),
        billed,
        findings,
    }
}

/// The share of `line`'s charge period that falls in `[from, to)`, as a fraction; `None` when
/// none does. A line with no length counts whole when it starts inside.
pub(super) fn share(line: &BillLine, from: Timestamp, to: Timestamp) -> Option<Decimal> {
    let (start, end) = (line.start.as_second(), line.end.as_second());
    let (from, to) = (from.as_second(), to.as_second());
    if end <= start {
        return (from <= start && start < to).then_some(Decimal::ONE);
    }
    let inside = end.min(to) - start.max(from);
    (inside > 0).then(|| Decimal::from(inside) / Decimal::from(end - start))
}

/// What `line` bills within `[from, to)`, pro rata; `None` when nothing of it falls there.
pub(super) fn pro_rata(line: &BillLine, from: Timestamp, to: Timestamp) -> Option<Money> {
    share(line, from, to).map(|s| {
        if s == Decimal::ONE {
            line.billed
        } else {
            line.billed.times(s)
        }
    })
}

/// When `instance` stopped running as far as the ledger knows: its release, or else its last
/// sighting.
pub(super) fn end_of(instance: &LedgerInstance) -> Timestamp {
    instance.released.unwrap_or(instance.last_seen)
}

/// Inter-region and inter-zone transfer lines, summed per scope and pair of regions.
fn transfers(
    lines: &[BillLine],
    in_span: &[usize],
    ledger: &AuditLedger,
    (since, until): (Timestamp, Timestamp),
) -> Vec<Finding> {
    let mut out: Vec<Transfer> = Vec::new();
    let mut groups: HashMap<_, usize> = HashMap::new();
    let mut named = std::collections::HashSet::new();
    for &i in in_span {
        step();
        let line = &lines[i];
        let ChargeKind::Transfer { scope } = line.kind else {
            continue;
        };
        if !matches!(scope, TransferScope::InterRegion | TransferScope::InterZone) {
            continue;
        }
        let Some(amount) = pro_rata(line, since, until) else {
            continue;
        };
        let key = (scope, line.region.as_deref(), line.to_region.as_deref());
        let at = match groups.entry(key) {
            Entry::Occupied(e) => {
                let at = *e.get();
                let t = &mut out[at];
                t.quantity = match (t.quantity.take(), line.quantity, &line.unit) {
                    (Some((sum, unit)), Some(q), Some(u)) if unit == *u => Some((sum + q, unit)),
                    _ => None,
                };
                at
            }
            Entry::Vacant(e) => {
                out.push(Transfer {
                    scope,
                    from_region: line.region.clone(),
                    to_region: line.to_region.clone(),
                    instances: Vec::new(),
                    amounts: Amounts::default(),
                    quantity: line.quantity.zip(line.unit.clone()),
                    lines: Vec::new(),
                });
                *e.insert(out.len() - 1)
            }
        };
        let t = &mut out[at];
        t.amounts.add(amount);
        t.lines.push(i);
        for inst in &ledger.instances {
            step();
            let ran_then = inst.started <= line.end && end_of(inst) > line.start;
            let its_own = line.resource_id.as_deref() == Some(inst.id.as_str());
            let region = inst.region.is_some()
                && (inst.region == line.region || inst.region == line.to_region);
            if (its_own || (region && ran_then)) && named.insert((at, inst.id.as_str())) {
                t.instances.push(inst.id.clone());
            }
        }
    }
    out.into_iter().map(Finding::Transfer).collect()
}

/// Lines whose resource id names nothing the ledger holds: neither an instance nor a resource
/// seen with one. Taxes, support and credits (lines of no resource charged as "other", and
/// negative lines) are the account's, not an instance's, and are left out; so are the
/// transfers between regions, which have a finding of their own.
fn unexplained(
    lines: &[BillLine],
    in_span: &[usize],
    index: &Index,
    (since, until): (Timestamp, Timestamp),
) -> Vec<Finding> {
    let mut out: Vec<Unexplained> = Vec::new();
    let mut groups = HashMap::new();
    for &i in in_span {
        step();
        let line = &lines[i];
        let between = matches!(
            line.kind,
            ChargeKind::Transfer {
                scope: TransferScope::InterRegion | TransferScope::InterZone
            }
        );
        let account = line.resource_id.is_none() && line.kind == ChargeKind::Other;
        if between || account || line.billed.amount.is_sign_negative() {
            continue;
        }
        if line
            .resource_id
            .as_deref()
            .is_some_and(|id| index.knows(id))
        {
            continue;
        }
        let Some(amount) = pro_rata(line, since, until) else {
            continue;
        };
        let key = (line.resource_id.as_deref(), line.service.as_str());
        let at = *groups.entry(key).or_insert_with(|| {
            out.push(Unexplained {
                resource: line.resource_id.clone(),
                service: line.service.clone(),
                amounts: Amounts::default(),
                lines: Vec::new(),
            });
            out.len() - 1
        });
        let u = &mut out[at];
        u.amounts.add(amount);
        u.lines.push(i);
    }
    out.into_iter()
        .filter(|u| u.amounts.0.iter().any(|m| !m.is_zero()))
        .map(Finding::Unexplained)
        .collect()
}
