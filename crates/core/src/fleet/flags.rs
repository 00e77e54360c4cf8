//! Flags and order: which rows need a look, and the most expensive first.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::{Flag, FleetRow};

/// Idle this long (every GPU and the CPU) and a running instance is flagged.
pub const IDLE_AFTER_S: f64 = 30.0 * 60.0;

/// Sets each row's flags from the row itself and its neighbours.
pub fn flag(rows: &mut [FleetRow]) {
    // Running instances by account, provider and name: two or more is an overlap.
    let mut named: HashMap<(&str, &str, &str), usize> = HashMap::new();
    for row in rows.iter().filter(|r| r.running()) {
        if let Some(name) = &row.name {
            *named
                .entry((&row.origin.account, &row.origin.provider, name))
                .or_default() += 1;
        }
    }
    let twins: Vec<bool> = rows
        .iter()
        .map(|row| {
            row.running()
                && row.name.as_ref().is_some_and(|name| {
                    named[&(
                        row.origin.account.as_str(),
                        row.origin.provider.as_str(),
                        name.as_str(),
                    )] > 1
                })
        })
        .collect();
    for i in 0..rows.len() {
        let row = &rows[i];
        let mut flags = Vec::new();
        if row.error.is_some() {
            flags.push(Flag::Unreachable);
        }
        if row.running() && !row.reporting.reporting() {
            flags.push(Flag::Forgotten);
        }
        if row.running() && row.reporting.idle_s.is_some_and(|s| s >= IDLE_AFTER_S) {
            flags.push(Flag::Idle);
        }
        if twins[i] {
            flags.push(Flag::Overlap);
        }
        let left_billing = row
            .leftover_monthly
            .is_some_and(|m| m > rust_decimal::Decimal::ZERO);
        if row.error.is_none() && !row.running() && (left_billing || !row.leftovers.is_empty()) {
            flags.push(Flag::Leftovers);
        }
        if row.error.is_none() && row.currency.is_none() {
            flags.push(Flag::Unpriced);
        }
        rows[i].flags = flags;
    }
}

/// The most expensive first (a month of burn plus a month of leftovers); rows whose cost is
/// unknown after those whose cost is known; then by account and instance id.
pub fn sort_by_cost(rows: &mut [FleetRow]) {
    rows.sort_by(|a, b| {
        let by_cost = match (a.monthly_equivalent(), b.monthly_equivalent()) {
            (Some(x), Some(y)) => y.cmp(&x),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        by_cost
            .then_with(|| a.origin.account.cmp(&b.origin.account))
            .then_with(|| a.origin.instance_id.cmp(&b.origin.instance_id))
    });
}
