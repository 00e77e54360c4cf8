//! The recorder's plain parts: opening the ledger, the rows it writes, and when an inventory
//! is worth recording again.

use std::hash::{BuildHasher as _, BuildHasherDefault, DefaultHasher};
use std::path::PathBuf;
use std::sync::mpsc::{Sender, channel};

use jiff::Timestamp;

use super::{INVENTORY_EVERY, OpenError, Opening};
use crate::app::App;
use crate::ledger::{
    ActionRecord, BillingStep, EventKind, EventLevel, EventRecord, Ledger, LedgerWriter, Notice,
    Outcome, Retention, SessionStart,
};
use crate::meter::ComputeTerms;
use crate::money::Currency;
use crate::provider::{Action, ActionReport, InstanceInfo, Inventory, ProviderError};

/// Opens the ledger and compacts it on a thread of its own, then starts its writer there.
pub(super) fn open(path: PathBuf, notices: Sender<Notice>, now: Timestamp) -> Opening {
    let (tx, rx) = channel();
    let reply = tx.clone();
    let spawned = std::thread::Builder::new()
        .name("gpumeter-ledger-open".into())
        .spawn(move || {
            let result = Ledger::open(&path)
                .map_err(OpenError::from)
                .and_then(|mut ledger| {
                    if let Err(e) = ledger.compact(now, &Retention::default()) {
                        let _ = notices.send(Notice::Failed(e));
                    }
                    LedgerWriter::spawn(ledger, move |n| {
                        let _ = notices.send(n);
                    })
                    .map_err(OpenError::Writer)
                });
            let _ = reply.send(result);
        });
    if let Err(e) = spawned {
        let _ = tx.send(Err(OpenError::Thread(e)));
    }
    rx
}

/// The session for `info`, priced as the meter prices it.
pub(super) fn session_start(app: &App, info: &InstanceInfo) -> SessionStart {
    let pricing = app.spend.pricing.as_ref();
    SessionStart {
        instance: info.id.clone(),
        provider: info.provider.clone(),
        region: info.region.clone(),
        sku: pricing.map_or_else(|| info.sku.clone(), |p| p.sku.name.clone()),
        mode: pricing.map_or(info.mode, |p| p.mode),
        rate_per_hour: match pricing.map(|p| p.terms) {
            Some(ComputeTerms::Hourly { per_hour }) => Some(per_hour),
            Some(ComputeTerms::Committed { .. }) => None,
            None => info.live_price_per_hour,
        },
        currency: pricing
            .map(|p| p.sheet.currency)
            .or_else(|| app.spend.budget.map(|b| b.currency))
            .unwrap_or(Currency::USD),
        at: app.now,
        billing: pricing.map(|p| BillingStep {
            step_seconds: p.sheet.billing.step_seconds,
            minimum_seconds: p.sheet.billing.minimum_seconds,
        }),
    }
}

/// An action, the provider's answer and what came of it, as the read-back says.
pub(super) fn action_event(
    at: Timestamp,
    action: &Action,
    result: &Result<ActionReport, ProviderError>,
) -> EventRecord {
    let (answer, outcome, level) = match result {
        Ok(r) if r.confirmed => (r.summary.clone(), Outcome::Confirmed, EventLevel::Info),
        Ok(r) => (r.summary.clone(), Outcome::Unconfirmed, EventLevel::Warn),
        Err(e) => (e.to_string(), Outcome::Failed, EventLevel::Error),
    };
    EventRecord {
        at,
        session: None,
        instance: None,
        kind: EventKind::Action,
        level,
        text: format!("{}: {answer}", action.label()),
        action: Some(ActionRecord {
            intent: action.label().to_string(),
            request: serde_json::to_string(action).unwrap_or_default(),
            answer,
            outcome,
        }),
        origin: None,
    }
}

/// Records an inventory when its resource set changed, else at most every
/// [`INVENTORY_EVERY`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct InventoryGate {
    pub(super) last: Option<(Timestamp, u64)>,
}

impl InventoryGate {
    pub(super) fn due(&mut self, at: Timestamp, print: u64) -> bool {
        let due = self
            .last
            .is_none_or(|(then, p)| p != print || at.duration_since(then) >= INVENTORY_EVERY);
        if due {
            self.last = Some((at, print));
        }
        due
    }
}

/// The instance's id and state and each resource's id and state, in any order.
pub(super) fn fingerprint(inventory: &Inventory) -> u64 {
    let hasher = BuildHasherDefault::<DefaultHasher>::default();
    let instance = inventory
        .instance
        .as_ref()
        .map_or(0, |i| hasher.hash_one((&i.id, i.state)));
    inventory
        .resources
        .iter()
        .map(|r| hasher.hash_one((&r.id, &r.state)))
        .fold(instance, u64::wrapping_add)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unchanged_inventory_waits_five_minutes_and_a_change_goes_at_once() {
        let t = |s: i64| Timestamp::from_second(1_800_000_000 + s).unwrap();
        let mut gate = InventoryGate::default();
        assert!(gate.due(t(0), 7));
        assert!(!gate.due(t(30), 7));
        assert!(!gate.due(t(299), 7));
        assert!(gate.due(t(300), 7));
        assert!(gate.due(t(330), 8));
        assert!(!gate.due(t(360), 8));
    }
}
