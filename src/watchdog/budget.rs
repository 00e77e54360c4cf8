//! The budget as the watchdog keeps it: the instance's spend, computed as the cockpit computes
//! it (the core's [`Spend`] over the provider's inventory and the metered bytes), checked
//! against `[budget] per_instance` at every check. The 80 and 100 % crossings go to the
//! webhooks once each, saying the level reached, and are kept in the ledger so a watchdog that
//! starts again does not send them again. At 100 %, `on_budget = "stop"` or `"release"` sets
//! the deadline to now: the deadline's own path then gives the grace period (the cockpit's
//! banner, any key or `gpumeter extend` keeps the instance) and the confirmed action.

use jiff::Timestamp;

use super::run::{Watch, record, say};
use crate::app::Level;
use crate::config::OnExpiry;
use crate::guard::budget::{
    LIMIT_THRESHOLD, WATCHDOG_THRESHOLDS, alert_key, crossed_text, deadline_at_limit,
};
use crate::guard::{BudgetAlert, BudgetWatch, DEFAULT_GRACE};
use crate::ledger::budget::PER_INSTANCE;
use crate::ledger::{Change, EventLevel, EventRecord, GuardPolicy, GuardState};
use crate::money::Money;
use crate::notify::Queue;
use crate::provider::Inventory;
use crate::spend::{Pricing, Spend};
use crate::telemetry::HostSample;

/// The instance's budget, its spend, and what to do at the limit.
#[derive(Debug, Clone)]
pub struct WatchBudget {
    spend: Spend,
    watch: BudgetWatch,
    on_budget: OnExpiry,
}

impl WatchBudget {
    /// A budget of `limit` for the instance priced by `pricing`.
    pub fn new(pricing: Pricing, limit: Money, on_budget: OnExpiry) -> Self {
        WatchBudget {
            spend: Spend::new(Some(pricing), Some(limit), jiff::tz::TimeZone::UTC),
            watch: BudgetWatch::new(limit).with_thresholds(&WATCHDOG_THRESHOLDS, &[]),
            on_budget,
        }
    }

    pub fn limit(&self) -> Money {
        self.watch.limit
    }

    pub fn on_budget(&self) -> OnExpiry {
        self.on_budget
    }

    /// Counts the metered interfaces' bytes, as the cockpit does, for what egress costs.
    pub fn record_bytes(&mut self, at: Timestamp, tx_total: u64, rx_total: u64) {
        self.spend.record_bytes(at, tx_total, rx_total);
    }

    /// Spend by `now` from a fresh inventory, and the crossings it makes: `(threshold, level,
    /// text)`, the highest only when several are crossed at once.
    fn check(
        &mut self,
        inventory: &Inventory,
        now: Timestamp,
    ) -> Result<Vec<(u32, u32, String)>, crate::money::CurrencyMismatch> {
        self.spend.record_inventory(inventory, now);
        self.spend.recompute(Some(inventory), now, None);
        let Some(reading) = &self.spend.reading else {
            return Ok(Vec::new());
        };
        let spent = reading.accrual.accrued.total();
        let burn = reading.accrual.burn_per_hour.total();
        Ok(self
            .watch
            .check(spent, burn, now)?
            .into_iter()
            .filter_map(|alert| match alert {
                BudgetAlert::Crossed {
                    threshold,
                    level,
                    spent,
                    limit,
                } => Some((threshold, level, crossed_text("", level, spent, limit))),
                // Said by the cockpit; the watchdog sends crossings only, each once for good.
                BudgetAlert::Forecast { .. } => None,
            })
            .collect())
    }
}

/// Counts a host sample's metered bytes, as the cockpit does, for what egress costs.
pub(super) fn record_host(w: &mut Watch, at: Timestamp, host: &HostSample) {
    if let Some(budget) = w.budget.as_mut() {
        let rx = host.net.iter().map(|n| n.rx_bytes).sum();
        budget.record_bytes(at, host.tx_bytes_total(), rx);
    }
}

/// Takes the crossings an earlier watchdog sent for this limit as said.
pub(super) fn restore(w: &mut Watch) {
    let Some(budget) = w.budget.as_mut() else {
        return;
    };
    match w
        .ledger
        .budget_said(&w.instance, PER_INSTANCE, budget.watch.limit)
    {
        Ok(said) => {
            budget.watch =
                BudgetWatch::new(budget.watch.limit).with_thresholds(&WATCHDOG_THRESHOLDS, &said);
        }
        Err(e) => say(&format!("ledger: {e}")),
    }
}

/// The deadline the budget set at its limit, and why, for the guardian to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct LimitDeadline {
    pub deadline: Timestamp,
    pub why: String,
}

/// Checks the budget against `inventory` at `now`: sends each new crossing, keeps it as said,
/// and at the limit sets the deadline `on_budget` asks for (returned).
pub(super) fn check(
    w: &mut Watch,
    alerts: Option<&Queue>,
    inventory: &Inventory,
    guard: Option<&GuardState>,
    now: Timestamp,
) -> Option<LimitDeadline> {
    let budget = w.budget.as_mut()?;
    let (limit, on_budget) = (budget.watch.limit, budget.on_budget);
    let crossings = match budget.check(inventory, now) {
        Ok(crossings) => crossings,
        Err(e) => {
            w.budget = None;
            let text = format!("budget: {e}; the watchdog no longer checks it");
            say(&text);
            record(w, EventRecord::alert(now, EventLevel::Error, text));
            return None;
        }
    };
    // Nothing new: the ledger already holds what was said, and is not written at every check.
    if crossings.is_empty() {
        return None;
    }
    let crossed = budget.watch.crossed().to_vec();
    let mut set = None;
    for (threshold, _, mut text) in crossings {
        if threshold >= LIMIT_THRESHOLD
            && let Some(deadline) = limit_deadline(w, on_budget, guard, now)
        {
            set = Some(LimitDeadline {
                deadline,
                why: text.clone(),
            });
            text = format!(
                "{text}; on_budget: {} after the grace period unless extended",
                word(on_budget),
            );
        }
        record(w, EventRecord::alert(now, EventLevel::Warn, text.clone()));
        super::run::notify(w, alerts, Level::Warn, &alert_key(threshold), &text);
    }
    if let Err(e) = w
        .ledger
        .mark_budget_said(&w.instance, PER_INSTANCE, limit, &crossed, now)
    {
        say(&format!("ledger: {e}"));
    }
    set
}

/// Sets the deadline to `now` with `on_budget` as its policy, unless a deadline that acts has
/// already come: the deadline set, if it is.
fn limit_deadline(
    w: &mut Watch,
    on_budget: OnExpiry,
    guard: Option<&GuardState>,
    now: Timestamp,
) -> Option<Timestamp> {
    let current = guard.and_then(|g| g.deadline.map(|d| (d, g.on_expiry)));
    let at = deadline_at_limit(on_budget, current, now)?;
    let grace = guard.map_or(DEFAULT_GRACE, |g| g.grace);
    let policy = GuardPolicy {
        deadline: Some(at),
        on_expiry: on_budget,
        grace,
    };
    let by = format!("watchdog {} (budget)", std::process::id());
    let change = Change { at: now, by: &by };
    if let Err(e) = w.ledger.set_policy(&w.instance, &policy, change) {
        say(&format!("ledger: {e}; the budget cannot set the deadline"));
        return None;
    }
    Some(at)
}

fn word(policy: OnExpiry) -> &'static str {
    match policy {
        OnExpiry::Alert => "alert",
        OnExpiry::Stop => "stop",
        OnExpiry::Release => "release",
    }
}
