//! The bill's runs by resource id, and the ledger's instances and resources by id, built once
//! so that each finding looks its lines up rather than scanning every line of the bill: the
//! audit grows with the lines, not with the lines times the resources.
//!
//! Every loop of the audit counts its turns with [`step`], so that a test can hold the work to
//! the size of the input without timing it.

use hashbrown::{HashMap, HashSet};

use jiff::Timestamp;

use super::charges::{Charge, Charges};
use super::ledger::{AuditLedger, LedgerInstance};
use super::matching::share;

/// The lookups the audit's findings share.
pub(super) struct Index<'a> {
    charges: &'a Charges,
    span: (Timestamp, Timestamp),
    /// The runs that name each resource the ledger holds.
    by_resource: HashMap<&'a str, Vec<usize>>,
    /// The ledger's instances by id (the first, where one repeats).
    instances: HashMap<&'a str, &'a LedgerInstance>,
}

/// Every id the ledger holds, instance or resource.
pub(super) fn known(ledger: &AuditLedger) -> HashSet<&str> {
    let mut known = HashSet::new();
    for id in ledger
        .instances
        .iter()
        .map(|i| &i.id)
        .chain(ledger.resources.iter().map(|r| &r.id))
    {
        step();
        known.insert(id.as_str());
    }
    known
}

impl<'a> Index<'a> {
    pub fn new(
        charges: &'a Charges,
        span: (Timestamp, Timestamp),
        ledger: &'a AuditLedger,
    ) -> Index<'a> {
        let mut instances = HashMap::new();
        for inst in &ledger.instances {
            step();
            instances.entry(inst.id.as_str()).or_insert(inst);
        }
        let known = known(ledger);
        // Only what the ledger holds is looked up by id; the rest is unexplained, read once.
        let mut by_resource: HashMap<&str, Vec<usize>> = HashMap::new();
        for (run, id) in charges.resources() {
            step();
            if known.contains(id) {
                by_resource.entry(id).or_default().push(run);
            }
        }
        Index {
            charges,
            span,
            by_resource,
            instances,
        }
    }

    /// The lines in span that name `resource` (one the ledger holds), in the bill's order.
    pub fn lines_of(&self, resource: &str) -> Vec<Charge<'a>> {
        let (since, until) = self.span;
        let runs = self
            .by_resource
            .get(resource)
            .map_or(&[][..], Vec::as_slice);
        let mut lines: Vec<Charge<'a>> = runs
            .iter()
            .flat_map(|&r| self.charges.run(r))
            .filter(|l| {
                step();
                share(l, since, until).is_some()
            })
            .collect();
        lines.sort_unstable_by_key(|l| l.index);
        lines
    }

    /// The ledger's instance `id`.
    pub fn instance(&self, id: &str) -> Option<&'a LedgerInstance> {
        self.instances.get(id).copied()
    }
}

#[cfg(test)]
thread_local! {
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// One turn of one of the audit's loops.
#[inline]
pub(super) fn step() {
    #[cfg(test)]
    STEPS.with(|s| s.set(s.get() + 1));
}

/// What `f` returns, with the turns its loops took (0 outside tests): for work on a thread
/// of its own, its turns then given to [`add_steps`] on the thread that waited for it.
pub(super) fn tallied<T>(f: impl FnOnce() -> T) -> (T, u64) {
    #[cfg(test)]
    return counting(f);
    #[cfg(not(test))]
    (f(), 0)
}

/// Turns taken on another thread, counted as this thread's.
pub(super) fn add_steps(n: u64) {
    #[cfg(test)]
    STEPS.with(|s| s.set(s.get() + n));
    #[cfg(not(test))]
    let _ = n;
}

/// What `f` returns, with the turns its loops took on this thread.
#[cfg(test)]
pub(super) fn counting<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = STEPS.with(std::cell::Cell::get);
    let out = f();
    (out, STEPS.with(std::cell::Cell::get) - before)
}

#[cfg(test)]
#[path = "index_tests.rs"]
mod tests;
