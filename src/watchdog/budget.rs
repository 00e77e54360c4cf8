//! The budget as the watchdog keeps it: the instance's spend, computed as the cockpit computes
//! it (the core's [`Spend`] over the provider's inventory and the metered bytes), checked
//! against `[budget] per_instance` and `per_month` (the ledger's spend this month before the
//! watchdog started, plus the instance's since) at every check. The 80 and 100 % crossings go
//! to the webhooks once each (a month's once that month, whichever watchdog says them), saying
//! the level reached, and are kept in the ledger so a watchdog that starts again does not send
//! them again. At either 100 %, `on_budget = "stop"` or `"release"` sets
//! the deadline to now: the deadline's own path then gives the grace period (the cockpit's
//! banner, any key or `gpumeter extend` keeps the instance) and the confirmed action.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::run::{Watch, record, say};
use crate::app::Level;
use crate::config::OnExpiry;
use crate::guard::budget::{
    LIMIT_THRESHOLD, WATCHDOG_THRESHOLDS, alert_key, crossed_text, deadline_at_limit,
};
use crate::guard::{BudgetAlert, BudgetWatch, DEFAULT_GRACE, MonthSpend};
use crate::ledger::budget::{EVERY_INSTANCE, PER_INSTANCE, per_month};
use crate::ledger::{Change, EventLevel, EventRecord, GuardPolicy, GuardState};
use crate::meter::InstanceState;
use crate::money::{CurrencyMismatch, Money};
use crate::notify::Queue;
use crate::provider::Inventory;
use crate::spend::{Pricing, Spend};
use crate::telemetry::HostSample;

/// The instance's budgets, its spend, and what to do at a limit.
#[derive(Debug, Clone)]
pub struct WatchBudget {
    spend: Spend,
    limits: Vec<Limit>,
    on_budget: OnExpiry,
}

/// One limit the watchdog checks: the instance's life, or the calendar month's.
#[derive(Debug, Clone)]
struct Limit {
    watch: BudgetWatch,
    /// `None` for the instance's life: its spend is the meter's total.
    month: Option<Month>,
}

/// A month's budget: the month's spend, in the user's zone.
#[derive(Debug, Clone)]
struct Month {
    spent: MonthSpend,
    tz: TimeZone,
}

impl Limit {
    /// The ledger's instance and scope for what this limit has said.
    fn kept_as(&self, instance: &str) -> (String, String) {
        match &self.month {
            None => (instance.to_string(), PER_INSTANCE.to_string()),
            Some(m) => (EVERY_INSTANCE.to_string(), per_month(&m.spent.label)),
        }
    }

    /// How a crossing names the limit: "budget: ..." or "budget this month: ...".
    fn scope_word(&self) -> std::borrow::Cow<'static, str> {
        if self.month.is_some() {
            crate::t!("budget-this-month")
        } else {
            std::borrow::Cow::Borrowed("")
        }
    }

    /// The key a crossing's alert carries: the month's are kept apart from the instance's.
    fn alert_key(&self, threshold: u32) -> String {
        match &self.month {
            None => alert_key(threshold),
            Some(m) => format!("{}:{}", alert_key(threshold), m.spent.label),
        }
    }

    /// The spend this limit counts, given the meter's total; a new month starts again.
    fn spent(&mut self, total: Money, now: Timestamp) -> Result<Money, CurrencyMismatch> {
        let Some(month) = self.month.as_mut() else {
            return Ok(total);
        };
        let (spent, turned) = month.spent.spent(total, now, &month.tz)?;
        if turned {
            self.watch.start_again();
        }
        Ok(spent)
    }
}

/// A crossing to say: the limit it belongs to, its threshold, and the text.
struct Crossing {
    limit: usize,
    threshold: u32,
    text: String,
}

impl WatchBudget {
    /// No limit yet for the instance priced by `pricing`, with `on_budget` at a limit.
    pub fn new(pricing: Pricing, on_budget: OnExpiry) -> Self {
        WatchBudget {
            spend: Spend::new(Some(pricing), None, TimeZone::UTC),
            limits: Vec::new(),
            on_budget,
        }
    }

    /// `[budget] per_instance`: a limit on what the instance costs in its life.
    #[must_use]
    pub fn per_instance(mut self, limit: Money) -> Self {
        self.limits.push(Limit {
            watch: BudgetWatch::new(limit).with_thresholds(&WATCHDOG_THRESHOLDS, &[]),
            month: None,
        });
        self
    }

    /// `[budget] per_month`: a limit on the month's spend, `spent` so far by the ledger.
    #[must_use]
    pub fn per_month(mut self, limit: Money, spent: MonthSpend, tz: TimeZone) -> Self {
        self.limits.push(Limit {
            watch: BudgetWatch::new(limit).with_thresholds(&WATCHDOG_THRESHOLDS, &[]),
            month: Some(Month { spent, tz }),
        });
        self
    }

    pub fn on_budget(&self) -> OnExpiry {
        self.on_budget
    }

    /// Counts the metered interfaces' bytes, as the cockpit does, for what egress costs.
    pub fn record_bytes(&mut self, at: Timestamp, host: &HostSample) {
        let rx = host.net.iter().map(|n| n.rx_bytes).sum();
        self.spend
            .record_bytes(at, host.tx_bytes_total(), rx, host.egress_split_total);
    }

    /// Spend by `now` from a fresh inventory, and the crossings it makes, the highest of
    /// each limit only when several are crossed at once.
    fn check(
        &mut self,
        inventory: &Inventory,
        now: Timestamp,
    ) -> Result<Vec<Crossing>, CurrencyMismatch> {
        self.spend.record_inventory(inventory, now);
        self.spend.recompute(Some(inventory), now, None);
        let Some(reading) = &self.spend.reading else {
            return Ok(Vec::new());
        };
        let total = reading.accrual.accrued.total();
        let burn = reading.accrual.burn_per_hour.total();
        let mut crossings = Vec::new();
        for (i, limit) in self.limits.iter_mut().enumerate() {
            let spent = limit.spent(total, now)?;
            for alert in limit.watch.check(spent, burn, now)? {
                // A forecast is the cockpit's to say; the watchdog sends crossings only.
                if let BudgetAlert::Crossed {
                    threshold,
                    level,
                    spent,
                    limit: of,
                } = alert
                {
                    let text = crossed_text(&limit.scope_word(), level, spent, of);
                    crossings.push(Crossing {
                        limit: i,
                        threshold,
                        text,
                    });
                }
            }
        }
        Ok(crossings)
    }
}

/// Counts a host sample's metered bytes, as the cockpit does, for what egress costs.
pub(super) fn record_host(w: &mut Watch, at: Timestamp, host: &HostSample) {
    if let Some(budget) = w.budget.as_mut() {
        budget.record_bytes(at, host);
    }
}

/// Takes the crossings an earlier watchdog sent for each limit as said.
pub(super) fn restore(w: &mut Watch) {
    let Some(budget) = w.budget.as_mut() else {
        return;
    };
    for limit in &mut budget.limits {
        let (instance, scope) = limit.kept_as(&w.instance);
        match w.ledger.budget_said(&instance, &scope, limit.watch.limit) {
            Ok(said) => {
                limit.watch = BudgetWatch::new(limit.watch.limit)
                    .with_thresholds(&WATCHDOG_THRESHOLDS, &said);
            }
            Err(e) => say(&crate::t!("watchdog-ledger", error = e.to_string())),
        }
    }
}

/// The deadline the budget set at its limit, and why, for the guardian to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct LimitDeadline {
    pub deadline: Timestamp,
    pub why: String,
}

/// Checks the budgets against `inventory` at `now`: sends each new crossing, keeps it as
/// said, and at a limit sets the deadline `on_budget` asks for (returned).
pub(super) fn check(
    w: &mut Watch,
    alerts: Option<&Queue>,
    inventory: &Inventory,
    guard: Option<&GuardState>,
    now: Timestamp,
) -> Option<LimitDeadline> {
    let budget = w.budget.as_mut()?;
    let on_budget = budget.on_budget;
    let crossings = match budget.check(inventory, now) {
        Ok(crossings) => crossings,
        Err(e) => {
            w.budget = None;
            super::run::no_longer_checked(w, "budget", &e, now);
            return None;
        }
    };
    // Nothing new: the ledger already holds what was said, and is not written at every check.
    if crossings.is_empty() {
        return None;
    }
    let state = inventory.instance_state();
    let mut set = None;
    for Crossing {
        limit,
        threshold,
        mut text,
    } in crossings
    {
        if threshold >= LIMIT_THRESHOLD
            && set.is_none()
            && let Some(deadline) = limit_deadline(w, (on_budget, "budget"), state, guard, now)
        {
            set = Some(LimitDeadline {
                deadline,
                why: text.clone(),
            });
            text = crate::t!(
                "wd-limit-then",
                text = text,
                rule = "on_budget",
                policy = word(on_budget)
            );
        }
        record(w, EventRecord::alert(now, EventLevel::Warn, text.clone()));
        let Some(budget) = w.budget.as_ref() else {
            continue;
        };
        let limit = &budget.limits[limit];
        let key = limit.alert_key(threshold);
        let (instance, scope) = limit.kept_as(&w.instance);
        let (money, crossed) = (limit.watch.limit, limit.watch.crossed().to_vec());
        super::run::notify(w, alerts, Level::Warn, &key, &text);
        if let Err(e) = w
            .ledger
            .mark_budget_said(&instance, &scope, money, &crossed, now)
        {
            say(&crate::t!("watchdog-ledger", error = e.to_string()));
        }
    }
    set
}

/// Sets the deadline to `now` with `on_budget` as its policy, unless a deadline that acts has
/// already come: the deadline set, if it is. `rule` names the guard in the ledger's change.
pub(super) fn limit_deadline(
    w: &mut Watch,
    (on_budget, rule): (OnExpiry, &str),
    state: InstanceState,
    guard: Option<&GuardState>,
    now: Timestamp,
) -> Option<Timestamp> {
    let current = guard.and_then(|g| g.deadline.map(|d| (d, g.on_expiry)));
    let at = deadline_at_limit(on_budget, state, current, now)?;
    write_deadline(w, (Some(at), on_budget, rule), guard, now).then_some(at)
}

/// Writes the deadline `at` with `policy` into the guard row, keeping its grace period, as
/// the watchdog's `rule`; whether the ledger took it.
pub(super) fn write_deadline(
    w: &mut Watch,
    (at, policy, rule): (Option<Timestamp>, OnExpiry, &str),
    guard: Option<&GuardState>,
    now: Timestamp,
) -> bool {
    let grace = guard.map_or(DEFAULT_GRACE, |g| g.grace);
    let policy = GuardPolicy {
        deadline: at,
        on_expiry: policy,
        grace,
    };
    let by = format!("watchdog {} ({rule})", std::process::id());
    let change = Change { at: now, by: &by };
    if let Err(e) = w.ledger.set_policy(&w.instance, &policy, change) {
        say(&crate::t!(
            "watchdog-ledger-rule",
            error = e.to_string(),
            rule = rule.to_string()
        ));
        return false;
    }
    true
}

pub(super) fn word(policy: OnExpiry) -> &'static str {
    match policy {
        OnExpiry::Alert => "alert",
        OnExpiry::Stop => "stop",
        OnExpiry::Release => "release",
    }
}
