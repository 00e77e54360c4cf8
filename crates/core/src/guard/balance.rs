//! The balance guard, for clouds that bill a prepaid balance (AutoDL's wallet): when the cash
//! runs out at the current burn, alerts as that comes within 24, 6 and 1 hours and at the
//! `[budget] balance_floor`, and whether the floor is reached, where `on_balance` acts through
//! the deadline's path as `on_budget` does ([`super::budget::deadline_at_limit`]).
//!
//! Only the cash counts: vouchers are drawn first, but what they may pay for is the provider's
//! rule, so the cash alone is the figure that cannot be wrong the dangerous way. The burn is
//! the account's where every running instance was priced; where only this instance's is
//! known it is a lower bound of the account's, and the run-out time an upper bound: both are
//! said so ([`BurnScope`]).

use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;
use serde::Serialize;

use crate::money::Balance;
use crate::money::{CurrencyMismatch, Money};

/// Hours of burn left at which an alert is sent, each once.
pub const DEFAULT_HOURS_LEFT: [u32; 3] = [24, 6, 1];

/// Whose burn the balance is drawn down by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BurnScope {
    /// Every running instance of the account.
    Account,
    /// A lower bound: this instance alone (the account's others unknown), or the account
    /// less the running instances no price was found for.
    ThisInstance,
}

/// What draws the balance down, an hour ([`Burn::account`], [`Burn::this_instance`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Burn {
    pub per_hour: Money,
    pub scope: BurnScope,
    /// Where the account's instances were listed, how many running ones no price was found
    /// for; `None` where only this instance is known.
    pub uncounted: Option<usize>,
}

impl Burn {
    /// "" for the whole account's, or what the figure leaves out.
    pub fn note(&self) -> String {
        match (self.scope, self.uncounted) {
            (BurnScope::Account, _) => String::new(),
            // Fluent trims the space that sets the note off from the amount.
            (BurnScope::ThisInstance, Some(n)) => {
                format!(" {}", crate::t!("burn-uncounted", count = n))
            }
            (BurnScope::ThisInstance, None) => format!(" {}", crate::t!("burn-this-instance-only")),
        }
    }

    /// "≥ " where the burn is a lower bound, for the amount.
    pub fn at_least(&self) -> &'static str {
        match self.scope {
            BurnScope::Account => "",
            BurnScope::ThisInstance => "≥ ",
        }
    }

    /// "≤ " where the run-out time is an upper bound, for the time left.
    pub fn at_most(&self) -> &'static str {
        match self.scope {
            BurnScope::Account => "",
            BurnScope::ThisInstance => "≤ ",
        }
    }
}

/// When `available` reaches zero at `burn` from `now`: `now` when nothing is left, `None` when
/// nothing burns (it never runs out at this rate).
pub fn runs_out_at(
    available: Money,
    burn: Money,
    now: Timestamp,
) -> Result<Option<Timestamp>, CurrencyMismatch> {
    available.checked_cmp(&burn)?;
    if available.amount <= Decimal::ZERO {
        return Ok(Some(now));
    }
    if burn.amount <= Decimal::ZERO {
        return Ok(None);
    }
    // Rounded down: a forecast of when money runs out is never later than the sum says.
    let seconds = (available.amount * Decimal::from(3600) / burn.amount).floor();
    let seconds = i64::try_from(seconds).unwrap_or(i64::MAX);
    Ok(Some(
        now.checked_add(SignedDuration::from_secs(seconds))
            .unwrap_or(Timestamp::MAX),
    ))
}

/// The balance at one reading, with when it runs out: what every surface shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceOutlook {
    pub balance: Balance,
    pub burn: Burn,
    /// `None` when nothing burns now.
    pub runs_out_at: Option<Timestamp>,
}

impl BalanceOutlook {
    pub fn new(balance: Balance, burn: Burn, now: Timestamp) -> Result<Self, CurrencyMismatch> {
        let runs_out_at = runs_out_at(balance.available, burn.per_hour, now)?;
        Ok(BalanceOutlook {
            balance,
            burn,
            runs_out_at,
        })
    }

    /// Time left at `now`, none below zero; `None` when it never runs out at this burn.
    pub fn left(&self, now: Timestamp) -> Option<SignedDuration> {
        self.runs_out_at
            .map(|at| at.duration_since(now).max(SignedDuration::ZERO))
    }
}

/// An alert of the balance guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BalanceAlert {
    /// Less than `hours` of burn is left: it runs out at `at`.
    HoursLeft {
        hours: u32,
        at: Timestamp,
        available: Money,
        burn: Burn,
    },
    /// The cash is at or under the floor.
    Floor { available: Money, floor: Money },
}

impl BalanceAlert {
    /// The one wording of the alert, in the cockpit's log and the watchdog's webhooks, in the
    /// user's language.
    pub fn text(&self) -> String {
        match self {
            BalanceAlert::HoursLeft {
                hours,
                available,
                burn,
                ..
            } => crate::t!(
                "balance-alert-hours-left",
                hours = hours.to_string(),
                available = available.to_string(),
                at_least = burn.at_least(),
                burn = burn.per_hour.to_string(),
                note = burn.note()
            ),
            BalanceAlert::Floor { available, floor } => crate::t!(
                "balance-alert-floor",
                available = available.to_string(),
                floor = floor.to_string()
            ),
        }
    }

    /// The key its webhook alert carries, so each is sent once.
    pub fn key(&self) -> String {
        match self {
            BalanceAlert::HoursLeft { hours, .. } => format!("balance:{hours}h"),
            BalanceAlert::Floor { .. } => "balance:floor".into(),
        }
    }
}

/// Thresholds of time left and the floor, each said once until a top-up raises the cash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceWatch {
    pub floor: Option<Money>,
    pub hours_left: Vec<u32>,
    said: Vec<u32>,
    floor_said: bool,
    last: Option<Money>,
}

impl BalanceWatch {
    pub fn new(floor: Option<Money>) -> Self {
        BalanceWatch {
            floor,
            hours_left: DEFAULT_HOURS_LEFT.to_vec(),
            said: Vec::new(),
            floor_said: false,
            last: None,
        }
    }

    /// Whether `available` is at or under the floor (never without one).
    pub fn at_floor(&self, available: Money) -> Result<bool, CurrencyMismatch> {
        match self.floor {
            Some(floor) => Ok(available.checked_cmp(&floor)?.is_le()),
            None => Ok(false),
        }
    }

    /// The alerts due at this reading: the fewest hours left crossed (a jump past several
    /// says the lowest only), and the floor. Cash that rose since the last reading (a top-up)
    /// lets each be said again.
    pub fn check(
        &mut self,
        outlook: &BalanceOutlook,
        now: Timestamp,
    ) -> Result<Vec<BalanceAlert>, CurrencyMismatch> {
        let available = outlook.balance.available;
        if let Some(floor) = self.floor {
            available.checked_cmp(&floor)?;
        }
        if let Some(last) = self.last
            && available.checked_cmp(&last)?.is_gt()
        {
            self.said.clear();
            self.floor_said = false;
        }
        self.last = Some(available);
        let mut out = Vec::new();
        if let Some(at) = outlook.runs_out_at {
            let left = at.duration_since(now);
            let mut lowest = None;
            for &h in &self.hours_left {
                let within = left <= SignedDuration::from_hours(i64::from(h));
                if within && !self.said.contains(&h) {
                    self.said.push(h);
                    lowest = Some(lowest.map_or(h, |l: u32| l.min(h)));
                }
            }
            if let Some(hours) = lowest {
                out.push(BalanceAlert::HoursLeft {
                    hours,
                    at,
                    available,
                    burn: outlook.burn,
                });
            }
        }
        if !self.floor_said
            && let Some(floor) = self.floor
            && self.at_floor(available)?
        {
            self.floor_said = true;
            out.push(BalanceAlert::Floor { available, floor });
        }
        Ok(out)
    }
}

#[cfg(test)]
#[path = "balance_tests.rs"]
mod tests;
