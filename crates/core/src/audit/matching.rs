//! The audit itself: each bill line charged within the span is matched to the ledger's
//! instances and resources by resource id and time, and what does not add up becomes a
//! [`Finding`]. Pure: the lines, the ledger and the span come in as arguments.

use std::sync::Arc;

use hashbrown::{HashMap, HashSet};

use jiff::Timestamp;
use rust_decimal::Decimal;
use smallvec::SmallVec;

use super::bill::{BillLine, ChargeKind, TransferScope};
use super::charges::{Charge, Charges};
use super::findings::{Amounts, Finding, Transfer, Unexplained};
use super::index::{Index, add_steps, known, step, tallied};
use super::ledger::{AuditLedger, LedgerInstance};
use super::report::{AuditReport, Tolerance};
use super::{compute, leftovers};
use crate::money::Money;

/// Matches `lines` against `ledger` over `span` (`[since, until)`), holding the bill to
/// `tolerance` where it is compared with the meter; the lines are folded first (see
/// [`audit_charges`]).
pub fn audit(
    lines: &[BillLine],
    ledger: &AuditLedger,
    span: (Timestamp, Timestamp),
    tolerance: Tolerance,
) -> AuditReport {
    audit_charges(&Charges::of(lines.iter().cloned()), ledger, span, tolerance)
}

/// Matches the bill folded into `charges` against `ledger` over `span` (`[since, until)`),
/// holding the bill to `tolerance` where it is compared with the meter. The passes over every
/// line are shared between two threads: the sum, the index of the lines by resource and the
/// findings that read it on one, the unexplained lines (as many as the lines, at worst) on
/// the other.
pub fn audit_charges(
    charges: &Charges,
    ledger: &AuditLedger,
    span: (Timestamp, Timestamp),
    tolerance: Tolerance,
) -> AuditReport {
    let (since, until) = span;
    let (findings, (billed, lines_in_span)) = std::thread::scope(|scope| {
        let theirs = scope.spawn(|| {
            tallied(|| {
                let billed = billed(charges, span);
                let index = Index::new(charges, span, ledger);
                let few = [
                    leftovers::find(&index, ledger, span),
                    transfers(charges, ledger, span),
                    compute::overlaps(&index, ledger, span),
                    compute::mismatches(&index, ledger, span, tolerance),
                ];
                (billed, few)
            })
        });
        let mut unexplained = unexplained(charges, &known(ledger), span);
        let ((billed, few), steps) = theirs
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        add_steps(steps);
        // The few go before the many, which are not moved to another list.
        unexplained.splice(0..0, few.into_iter().flatten());
        (unexplained, billed)
    });
    AuditReport {
        since,
        until,
        tolerance,
        lines_read: charges.lines_read(),
        lines_in_span,
        billed,
        findings,
    }
}

/// What the lines bill within `span`, pro rata, and how many bill anything there.
fn billed(charges: &Charges, (since, until): (Timestamp, Timestamp)) -> (Amounts, usize) {
    let mut billed = Amounts::default();
    let mut lines_in_span = 0;
    for line in charges.iter() {
        step();
        if let Some(m) = pro_rata(&line, since, until) {
            lines_in_span += 1;
            billed.add(m);
        }
    }
    (billed, lines_in_span)
}

/// The share of `line`'s charge period that falls in `[from, to)`, as a fraction; `None` when
/// none does. A line with no length counts whole when it starts inside.
pub(super) fn share(line: &Charge, from: Timestamp, to: Timestamp) -> Option<Decimal> {
    let (start, end) = (line.start.as_second(), line.end.as_second());
    let (from, to) = (from.as_second(), to.as_second());
    if end <= start {
        return (from <= start && start < to).then_some(Decimal::ONE);
    }
    // Nearly every line lies wholly inside: its length over itself, without dividing.
    if from <= start && end <= to {
        return Some(Decimal::ONE);
    }
    let inside = end.min(to) - start.max(from);
    (inside > 0).then(|| Decimal::from(inside) / Decimal::from(end - start))
}

/// What `line` bills within `[from, to)`, pro rata; `None` when nothing of it falls there.
pub(super) fn pro_rata(line: &Charge, from: Timestamp, to: Timestamp) -> Option<Money> {
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

/// Lines of one finding as they are met, run by run; put back in the bill's order by
/// [`Gathered::order`].
struct Gathered<T> {
    first: usize,
    finding: T,
}

impl<T> Gathered<T> {
    /// The findings in the order of their first lines, as a reading in the bill's order
    /// meets them.
    fn order(groups: impl IntoIterator<Item = Gathered<T>>) -> Vec<T> {
        let mut all: Vec<Gathered<T>> = groups.into_iter().collect();
        all.sort_unstable_by_key(|g| g.first);
        all.into_iter().map(|g| g.finding).collect()
    }
}

/// Inter-region and inter-zone transfer lines, summed per scope and pair of regions.
fn transfers(
    charges: &Charges,
    ledger: &AuditLedger,
    (since, until): (Timestamp, Timestamp),
) -> Vec<Finding> {
    type Named<'a> = HashMap<&'a str, (usize, usize)>;
    let mut groups: HashMap<_, (Gathered<Transfer>, Named)> = HashMap::new();
    for line in charges.iter() {
        step();
        let ChargeKind::Transfer { scope } = line.kind else {
            continue;
        };
        if !matches!(scope, TransferScope::InterRegion | TransferScope::InterZone) {
            continue;
        }
        let Some(amount) = pro_rata(&line, since, until) else {
            continue;
        };
        let (group, named) = groups
            .entry((scope, line.region, line.to_region))
            .or_insert_with(|| {
                let t = Transfer {
                    scope,
                    from_region: line.region.map(str::to_string),
                    to_region: line.to_region.map(str::to_string),
                    instances: Vec::new(),
                    amounts: Amounts::default(),
                    // The first line's own quantity is added below, as every line's is.
                    quantity: line
                        .quantity
                        .map(|_| Decimal::ZERO)
                        .zip(line.unit.map(str::to_string)),
                    lines: Vec::new(),
                };
                (
                    Gathered {
                        first: line.index,
                        finding: t,
                    },
                    HashMap::new(),
                )
            });
        group.first = group.first.min(line.index);
        let t = &mut group.finding;
        t.quantity = match (t.quantity.take(), line.quantity, line.unit) {
            (Some((sum, unit)), Some(q), Some(u)) if unit == u => Some((sum + q, unit)),
            _ => None,
        };
        t.amounts.add(amount);
        t.lines.push(line.index);
        for (at, inst) in ledger.instances.iter().enumerate() {
            step();
            let ran_then = inst.started <= line.end && end_of(inst) > line.start;
            let its_own = line.resource == Some(inst.id.as_str());
            let region = inst.region.is_some()
                && (inst.region.as_deref() == line.region
                    || inst.region.as_deref() == line.to_region);
            if its_own || (region && ran_then) {
                let seen = named.entry(inst.id.as_str()).or_insert((line.index, at));
                *seen = (*seen).min((line.index, at));
            }
        }
    }
    let gathered = groups.into_values().map(|(mut g, named)| {
        let mut order: Vec<((usize, usize), &str)> =
            named.into_iter().map(|(id, at)| (at, id)).collect();
        order.sort_unstable();
        g.finding.instances = order.into_iter().map(|(_, id)| id.to_string()).collect();
        g.finding.lines.sort_unstable();
        g
    });
    Gathered::order(gathered)
        .into_iter()
        .map(|t| Finding::Transfer(Box::new(t)))
        .collect()
}

/// Lines whose resource id names nothing the ledger holds: neither an instance nor a resource
/// seen with one. Taxes, support and credits (lines of no resource charged as "other", and
/// negative lines) are the account's, not an instance's, and are left out; so are the
/// transfers between regions, which have a finding of their own.
fn unexplained(
    charges: &Charges,
    known: &HashSet<&str>,
    (since, until): (Timestamp, Timestamp),
) -> Vec<Finding> {
    // With a resource to every line, these are as many as the lines.
    let mut findings = Vec::new();
    // By resource and service, their numbers in one key.
    let mut groups: HashMap<u64, usize> = HashMap::new();
    let mut services: HashMap<u32, Arc<str>> = HashMap::new();
    for line in charges.iter() {
        step();
        let between = matches!(
            line.kind,
            ChargeKind::Transfer {
                scope: TransferScope::InterRegion | TransferScope::InterZone
            }
        );
        let account = line.resource.is_none() && line.kind == ChargeKind::Other;
        if between || account || line.billed.amount.is_sign_negative() {
            continue;
        }
        if line.resource.is_some_and(|id| known.contains(id)) {
            continue;
        }
        let Some(amount) = pro_rata(&line, since, until) else {
            continue;
        };
        let (resource, service) = line.keys;
        let key = u64::from(resource.unwrap_or(0)) << 32 | u64::from(service);
        let at = *groups.entry(key).or_insert_with(|| {
            findings.push(Finding::Unexplained(Unexplained {
                resource: line.resource.map(str::to_string),
                service: Arc::clone(
                    services
                        .entry(service)
                        .or_insert_with(|| Arc::from(line.service)),
                ),
                amounts: Amounts::default(),
                lines: SmallVec::new(),
            }));
            findings.len() - 1
        });
        if let Some(Finding::Unexplained(u)) = findings.get_mut(at) {
            u.amounts.add(amount);
            u.lines.push(line.index);
        }
    }
    drop((groups, services));
    findings.retain(
        |f| !matches!(f, Finding::Unexplained(u) if u.amounts.0.iter().all(Money::is_zero)),
    );
    for f in &mut findings {
        if let Finding::Unexplained(u) = f {
            u.lines.sort_unstable();
        }
    }
    // In the order of their first lines, as a reading in the bill's order meets them.
    findings.sort_unstable_by_key(|f| f.lines().first().copied());
    findings
}

#[cfg(test)]
mod tests {
    use jiff::{SignedDuration, Timestamp};
    use rust_decimal::Decimal;

    use super::share;
    use crate::audit::{ChargeKind, charges::Charge};
    use crate::money::{Currency, Money};

    fn hour(h: i64) -> Timestamp {
        Timestamp::UNIX_EPOCH + SignedDuration::from_hours(h)
    }

    fn line(from: i64, to: i64) -> Charge<'static> {
        Charge {
            index: 0,
            resource: None,
            service: "",
            kind: ChargeKind::Other,
            region: None,
            to_region: None,
            unit: None,
            start: hour(from),
            end: hour(to),
            quantity: None,
            billed: Money::new(Decimal::ONE, Currency::USD),
            keys: (None, 1),
        }
    }

    /// A line wholly inside is the share its length over itself gives, to the scale: a
    /// quantity times it prints as before.
    #[test]
    fn a_whole_line_is_the_share_of_its_length_over_itself() {
        let whole = share(&line(2, 5), hour(0), hour(9)).unwrap();
        let divided = Decimal::from(3 * 3600) / Decimal::from(3 * 3600);
        assert_eq!((whole, whole.scale()), (divided, divided.scale()));
        assert_eq!(share(&line(0, 9), hour(0), hour(9)), Some(Decimal::ONE));
        let part = share(&line(2, 6), hour(4), hour(9)).unwrap();
        assert_eq!(part, Decimal::new(5, 1));
        assert_eq!(share(&line(9, 10), hour(0), hour(9)), None);
    }
}
