//! The balance guard as the watchdog keeps it: the prepaid balance read with each full
//! inventory (never between), checked with this instance's burn (the core's
//! [`BalanceWatch`]): under 24, 6 and 1 hours of burn left and at `[budget] balance_floor`,
//! each sent to the webhooks once (keys `balance:24h` ... `balance:floor`) until a top-up. At
//! the floor, `on_balance = "stop"` or `"release"` sets the deadline to now, as `on_budget`
//! does: the grace period and its banner first, then the action, read back.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::budget::{LimitDeadline, limit_deadline, word};
use super::run::{Watch, notify, record};
use crate::app::Level;
use crate::config::OnExpiry;
use crate::guard::{BalanceAlert, BalanceOutlook, BalanceWatch, Burn};
use crate::ledger::{EventLevel, EventRecord, GuardState};
use crate::money::{CurrencyMismatch, Money};
use crate::notify::Queue;
use crate::provider::{Balance, InstanceInfo, Inventory};
use crate::spend::burn_of_account;
use crate::spend::{Pricing, Spend};

/// The floor, what to do at it, and the meter that prices this instance's burn.
#[derive(Debug, Clone)]
pub struct WatchBalance {
    watch: BalanceWatch,
    /// The floor's amount, in the configured or the sheet's currency, else the balance's.
    floor: Option<(rust_decimal::Decimal, Option<crate::money::Currency>)>,
    on_balance: OnExpiry,
    /// `None` where no sheet prices the instance: only the floor is checked. Boxed: the
    /// watchdog's future stays small.
    spend: Option<Box<Spend>>,
}

impl WatchBalance {
    /// `floor` is `[budget] balance_floor` with its currency where one is known before the
    /// balance is read (the config's or the sheet's).
    pub fn new(
        floor: Option<(rust_decimal::Decimal, Option<crate::money::Currency>)>,
        on_balance: OnExpiry,
        pricing: Option<Pricing>,
    ) -> Self {
        WatchBalance {
            watch: BalanceWatch::new(None),
            floor,
            on_balance,
            spend: pricing.map(|p| Box::new(Spend::new(Some(p), None, TimeZone::UTC))),
        }
    }

    /// Whether it stops or releases at a floor, and so keeps the watchdog on duty.
    pub fn acts(&self) -> bool {
        self.floor.is_some() && self.on_balance != OnExpiry::Alert
    }

    /// This instance's burn by the last inventory, with the account's other instances where
    /// they were `listed`.
    fn burn(
        &mut self,
        (inventory, listed): (&Inventory, Option<&[InstanceInfo]>),
        now: Timestamp,
        currency: crate::money::Currency,
    ) -> Burn {
        let this_id = inventory.instance.as_ref().map_or("", |i| i.id.as_str());
        let Some(spend) = self.spend.as_mut() else {
            return Burn::this_instance(Money::zero(currency));
        };
        spend.record_inventory(inventory, now);
        spend.recompute(Some(inventory), now, None);
        let this = spend
            .reading
            .as_ref()
            .map_or(Money::zero(currency), |r| r.accrual.burn_per_hour.total());
        let sheet = spend.pricing.as_ref().map(|p| &p.sheet);
        burn_of_account(this, this_id, sheet, listed)
    }

    fn check(
        &mut self,
        balance: &Balance,
        read: (&Inventory, Option<&[InstanceInfo]>),
        now: Timestamp,
    ) -> Result<Vec<BalanceAlert>, CurrencyMismatch> {
        let currency = balance.available.currency;
        if self.watch.floor.is_none() {
            self.watch.floor = self
                .floor
                .map(|(amount, of)| Money::new(amount, of.unwrap_or(currency)));
        }
        let burn = self.burn(read, now, currency);
        let outlook = BalanceOutlook::new(balance.clone(), burn, now)?;
        self.watch.check(&outlook, now)
    }
}

/// Checks a freshly read `balance`: sends each new alert, and at the floor sets the deadline
/// `on_balance` asks for (returned).
pub(super) fn check(
    w: &mut Watch,
    alerts: Option<&Queue>,
    (balance, inventory, listed): (&Balance, &Inventory, Option<&[InstanceInfo]>),
    guard: Option<&GuardState>,
    now: Timestamp,
) -> Option<LimitDeadline> {
    let guarded = w.balance.as_mut()?;
    let on_balance = guarded.on_balance;
    let said = match guarded.check(balance, (inventory, listed), now) {
        Ok(said) => said,
        Err(e) => {
            w.balance = None;
            super::run::no_longer_checked(w, "balance", &e, now);
            return None;
        }
    };
    let state = inventory.instance_state();
    let mut set = None;
    for alert in said {
        let mut text = alert.text();
        if matches!(alert, BalanceAlert::Floor { .. })
            && let Some(deadline) = limit_deadline(w, (on_balance, "balance"), state, guard, now)
        {
            set = Some(LimitDeadline {
                deadline,
                why: text.clone(),
            });
            text = crate::t!(
                "wd-limit-then",
                text = text,
                rule = "on_balance",
                policy = word(on_balance)
            );
        }
        record(w, EventRecord::alert(now, EventLevel::Warn, text.clone()));
        notify(w, alerts, Level::Warn, &alert.key(), &text);
    }
    set
}
