//! Charges that outlived what the ledger saw: a released instance's own lines after its
//! release, a resource's lines after its instance's release or after it was seen gone, and the
//! lines of a resource recorded with an instance the ledger holds nothing else of.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::findings::{Amounts, Finding, Leftover, LeftoverWhy};
use super::index::{Index, step};
use super::ledger::{AuditLedger, LedgerResource};
use super::matching::{pro_rata, share};
use crate::meter::ResourceKind;
use crate::money::Money;

/// Every leftover charge among the lines in span, one finding per resource.
pub(super) fn find(
    index: &Index,
    ledger: &AuditLedger,
    span: (Timestamp, Timestamp),
) -> Vec<Finding> {
    let mut out = Vec::new();
    for inst in &ledger.instances {
        step();
        if let Some(released) = inst.released {
            let left = Cutoff {
                resource: &inst.id,
                kind: None,
                instance: &inst.id,
                why: LeftoverWhy::AfterRelease,
                at: Some(released),
                whole: true,
                ended: true,
            };
            out.extend(left.charges(index, span));
        }
    }
    let mut by_id: BTreeMap<&str, Vec<&LedgerResource>> = BTreeMap::new();
    for r in &ledger.resources {
        step();
        by_id.entry(r.id.as_str()).or_default().push(r);
    }
    for rows in by_id.values() {
        if let Some(left) = cutoff(index, rows) {
            out.extend(left.charges(index, span));
        }
    }
    out
}

/// From when one resource should bill no more, and why.
struct Cutoff<'a> {
    resource: &'a str,
    kind: Option<ResourceKind>,
    instance: &'a str,
    why: LeftoverWhy,
    /// `None`: the whole span (its instance is gone from the ledger).
    at: Option<Timestamp>,
    /// Only lines that start after the cutoff count, each whole: an instance's hour that
    /// straddles its release bills usage before it (its quantity says how much), while a
    /// disk or a snapshot bills the hour evenly and counts pro rata.
    whole: bool,
    /// The cutoff is the resource's own end (see [`Leftover::ended`]).
    ended: bool,
}

/// The resource's cutoff over all the rows the ledger holds of it (one per instance it was
/// seen with): none while any of them says it belongs to a running instance and is not gone;
/// otherwise the latest of theirs.
fn cutoff<'a>(index: &Index, rows: &[&'a LedgerResource]) -> Option<Cutoff<'a>> {
    let mut best: Option<Cutoff<'a>> = None;
    for r in rows {
        step();
        let instance = index.instance(&r.instance);
        let candidate = match (instance.and_then(|i| i.released), r.gone, instance) {
            (Some(released), Some(gone), _) if gone < released => {
                (LeftoverWhy::AfterGone, Some(gone), true)
            }
            (Some(released), gone, _) => (
                LeftoverWhy::AfterRelease,
                Some(released),
                gone.is_some() || r.deleted_with_instance,
            ),
            (None, Some(gone), _) => (LeftoverWhy::AfterGone, Some(gone), true),
            (None, None, Some(_)) => return None,
            (None, None, None) => (LeftoverWhy::InstanceGone, None, false),
        };
        let later = best.as_ref().is_none_or(|b| match (b.at, candidate.1) {
            (Some(b), Some(c)) => c > b,
            (None, Some(_)) => true,
            _ => false,
        });
        if later {
            best = Some(Cutoff {
                resource: &r.id,
                kind: Some(r.kind),
                instance: &r.instance,
                why: candidate.0,
                at: candidate.1,
                whole: false,
                ended: candidate.2,
            });
        }
    }
    best
}

impl Cutoff<'_> {
    /// The resource's lines charged after the cutoff, as one finding; none when there are
    /// none or they sum to nothing.
    fn charges(&self, index: &Index, (since, until): (Timestamp, Timestamp)) -> Option<Finding> {
        let from = self.at.map_or(since, |at| at.max(since));
        let (mut amounts, mut refunded) = (Amounts::default(), Amounts::default());
        let mut picked = Vec::new();
        let mut first: Option<Timestamp> = None;
        for line in index.lines_of(self.resource) {
            step();
            // A refund is dated when given, often over the whole month: it counts whole
            // against the charges whenever its period reaches past the cutoff.
            if line.billed.amount.is_sign_negative() && !line.billed.is_zero() {
                if line.end > from || line.start >= from {
                    refunded.add(line.billed);
                    picked.push(line.index);
                }
                continue;
            }
            if share(&line, from, until).is_none() || (self.whole && line.start < from) {
                continue;
            }
            if let Some(m) = pro_rata(&line, from, until) {
                amounts.add(m);
            }
            picked.push(line.index);
            first = Some(first.map_or(line.start, |f| f.min(line.start)));
        }
        if first.is_none() || amounts.0.iter().all(Money::is_zero) {
            return None;
        }
        amounts.add_all(&refunded);
        Some(Finding::Leftover(Box::new(Leftover {
            resource: self.resource.to_string(),
            kind: self.kind,
            instance: self.instance.to_string(),
            why: self.why,
            released: self.at,
            since: first.map_or(from, |f| f.max(from)),
            amounts,
            refunded,
            ended: self.ended,
            lines: picked,
        })))
    }
}
