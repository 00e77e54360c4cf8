//! Budgets: warnings as spend crosses 50, 80 and 100 % of a limit, and a forecast ("at this
//! rate the budget is gone at 03:12") before it is crossed.

use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

use super::expiry::OnExpiry;
use crate::meter::InstanceState;
use crate::money::{CurrencyMismatch, Money};

/// Percentages of the limit that warn by default.
pub const DEFAULT_THRESHOLDS: [u32; 3] = [50, 80, 100];
/// A forecast warns when the budget would run out within this long.
pub const DEFAULT_HORIZON: SignedDuration = SignedDuration::from_hours(1);
/// The crossings the watchdog sends to the webhooks, each once per limit.
pub const WATCHDOG_THRESHOLDS: [u32; 2] = [80, 100];
/// The threshold at which `on_budget` acts.
pub const LIMIT_THRESHOLD: u32 = 100;

/// "budget: 95% used (190.00 USD of 200.00 USD)": the one wording of a crossing, in the
/// cockpit's log and in the watchdog's alerts, in the user's language. `scope` is "" or
/// `budget-this-month` (" this month").
pub fn crossed_text(scope: &str, level: u32, spent: Money, limit: Money) -> String {
    crate::t!(
        "event-budget-crossed",
        scope = scope,
        level = level.to_string(),
        spent = spent.to_string(),
        limit = limit.to_string()
    )
}

/// The key a crossing's webhook alert carries: one per threshold, so each is sent once.
pub fn alert_key(threshold: u32) -> String {
    format!("budget:{threshold}")
}

/// The deadline a budget that reached its limit sets, so that `on_budget` acts through the
/// deadline's own path: the grace period and its banner first (a key or `gpumeter extend`
/// keeps the instance), then the action, read back. `None` with `on_budget = "alert"`, when
/// the instance `state` already is where the action would take it (a stop of a stopped or
/// released instance, a release of a released one: there is nothing to confirm), and when a
/// deadline that acts has already come: that one goes ahead.
pub fn deadline_at_limit(
    on_budget: OnExpiry,
    state: InstanceState,
    current: Option<(Timestamp, OnExpiry)>,
    now: Timestamp,
) -> Option<Timestamp> {
    let done = match on_budget {
        OnExpiry::Alert => true,
        OnExpiry::Stop => !state.is_up(),
        OnExpiry::Release => state == InstanceState::Released,
    };
    if done {
        return None;
    }
    match current {
        Some((at, policy)) if at <= now && policy != OnExpiry::Alert => None,
        _ => Some(whole_second_from(now)),
    }
}

/// `now` rounded up to a whole second: the ledger keeps a deadline in whole seconds, and one
/// rounded down could leave less than the grace period, or none, for the banner.
fn whole_second_from(now: Timestamp) -> Timestamp {
    let second = now.as_second() + i64::from(now.subsec_nanosecond() > 0);
    Timestamp::from_second(second).unwrap_or(now)
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BudgetAlert {
    /// Spend crossed the `threshold` percentage of the limit and stands at `level` percent
    /// of it: the level is what is said ("95% used"), the threshold only keys the alert.
    Crossed {
        threshold: u32,
        level: u32,
        spent: Money,
        limit: Money,
    },
    /// At the current burn rate the limit is reached at `at`.
    Forecast { at: Timestamp, limit: Money },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetWatch {
    pub limit: Money,
    pub thresholds: Vec<u32>,
    pub horizon: SignedDuration,
    crossed: Vec<u32>,
    forecast_said: bool,
}

impl BudgetWatch {
    pub fn new(limit: Money) -> Self {
        BudgetWatch {
            limit,
            thresholds: DEFAULT_THRESHOLDS.to_vec(),
            horizon: DEFAULT_HORIZON,
            crossed: Vec::new(),
            forecast_said: false,
        }
    }

    /// A watch that warns at `thresholds` only, and takes those in `said` as already said
    /// (by an earlier run that kept them), so a restart does not say them again.
    #[must_use]
    pub fn with_thresholds(mut self, thresholds: &[u32], said: &[u32]) -> Self {
        self.thresholds = thresholds.to_vec();
        self.crossed = said.to_vec();
        self
    }

    /// Nothing said yet: a new period (a new month) starts.
    pub fn start_again(&mut self) {
        self.crossed.clear();
        self.forecast_said = false;
    }

    /// The thresholds crossed so far, said or passed over by a jump past them.
    pub fn crossed(&self) -> &[u32] {
        &self.crossed
    }

    /// When spend reaches the limit at `burn_per_hour` from `now`; `None` if it never will.
    pub fn exhausted_at(
        &self,
        spent: Money,
        burn_per_hour: Money,
        now: Timestamp,
    ) -> Result<Option<Timestamp>, CurrencyMismatch> {
        let left = self.limit.checked_sub(spent)?;
        burn_per_hour.checked_cmp(&self.limit)?;
        if left.amount <= Decimal::ZERO {
            return Ok(Some(now));
        }
        if burn_per_hour.amount <= Decimal::ZERO {
            return Ok(None);
        }
        let seconds = (left.amount * Decimal::from(3600) / burn_per_hour.amount).ceil();
        let seconds = i64::try_from(seconds).unwrap_or(i64::MAX);
        Ok(now.checked_add(SignedDuration::from_secs(seconds)).ok())
    }

    /// The alerts due now; each threshold and the forecast are said once.
    pub fn check(
        &mut self,
        spent: Money,
        burn_per_hour: Money,
        now: Timestamp,
    ) -> Result<Vec<BudgetAlert>, CurrencyMismatch> {
        spent.checked_cmp(&self.limit)?;
        let mut out = Vec::new();
        let percent_spent = if self.limit.amount.is_zero() {
            Decimal::from(100)
        } else {
            spent.amount * Decimal::from(100) / self.limit.amount
        };
        let mut newest = None;
        for t in &self.thresholds {
            if percent_spent >= Decimal::from(*t) && !self.crossed.contains(t) {
                self.crossed.push(*t);
                newest = Some(*t);
            }
        }
        // Crossing several at once (a late start) says only the highest.
        if let Some(threshold) = newest {
            out.push(BudgetAlert::Crossed {
                threshold,
                level: level_of(percent_spent),
                spent,
                limit: self.limit,
            });
        }
        if !self.forecast_said
            && percent_spent < Decimal::from(100)
            && let Some(at) = self.exhausted_at(spent, burn_per_hour, now)?
            && at.duration_since(now) <= self.horizon
        {
            self.forecast_said = true;
            out.push(BudgetAlert::Forecast {
                at,
                limit: self.limit,
            });
        }
        Ok(out)
    }
}

/// The whole percentage reached, rounded down so that it never claims a level not yet reached.
fn level_of(percent: Decimal) -> u32 {
    use rust_decimal::prelude::ToPrimitive;
    percent.floor().to_u32().unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::Currency;
    use rust_decimal::dec;

    const RUNNING: InstanceState = InstanceState::Running;

    fn usd(d: Decimal) -> Money {
        Money::new(d, Currency::USD)
    }

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    #[test]
    fn thresholds_are_said_once_and_a_jump_says_only_the_highest() {
        let mut w = BudgetWatch::new(usd(dec!(100)));
        assert!(
            w.check(usd(dec!(10)), usd(dec!(0)), ts(0))
                .unwrap()
                .is_empty()
        );
        let a = w.check(usd(dec!(50)), usd(dec!(0)), ts(1)).unwrap();
        assert!(matches!(
            a[..],
            [BudgetAlert::Crossed {
                threshold: 50,
                level: 50,
                ..
            }]
        ));
        assert!(
            w.check(usd(dec!(60)), usd(dec!(0)), ts(2))
                .unwrap()
                .is_empty()
        );
        let a = w.check(usd(dec!(120)), usd(dec!(0)), ts(3)).unwrap();
        assert!(matches!(
            a[..],
            [BudgetAlert::Crossed {
                threshold: 100,
                level: 120,
                ..
            }]
        ));
    }

    #[test]
    fn a_crossing_says_the_level_reached_not_the_threshold() {
        let mut w = BudgetWatch::new(usd(dec!(200)));
        // 80 % passed between two checks: the spend stands at 95.995 %.
        let a = w.check(usd(dec!(191.99)), usd(dec!(0)), ts(0)).unwrap();
        assert_eq!(
            a,
            [BudgetAlert::Crossed {
                threshold: 80,
                level: 95,
                spent: usd(dec!(191.99)),
                limit: usd(dec!(200)),
            }]
        );
        // Just under the limit is not yet 100 %.
        let a = w.check(usd(dec!(199.999)), usd(dec!(0)), ts(1)).unwrap();
        assert!(a.is_empty(), "{a:?}");
    }

    #[test]
    fn thresholds_said_by_an_earlier_run_are_not_said_again() {
        let limit = usd(dec!(100));
        let mut w = BudgetWatch::new(limit).with_thresholds(&[80, 100], &[80]);
        assert!(
            w.check(usd(dec!(90)), usd(dec!(0)), ts(0))
                .unwrap()
                .is_empty()
        );
        let a = w.check(usd(dec!(100)), usd(dec!(0)), ts(1)).unwrap();
        assert!(matches!(
            a[..],
            [BudgetAlert::Crossed {
                threshold: 100,
                level: 100,
                ..
            }]
        ));
        assert_eq!(w.crossed(), [80, 100]);
        // 50 is not among these thresholds: it is never said.
        let mut w = BudgetWatch::new(limit).with_thresholds(&[80, 100], &[]);
        assert!(
            w.check(usd(dec!(60)), usd(dec!(0)), ts(0))
                .unwrap()
                .is_empty()
        );
        // A jump past both says the highest and counts both as crossed.
        let a = w.check(usd(dec!(130)), usd(dec!(0)), ts(1)).unwrap();
        assert!(matches!(
            a[..],
            [BudgetAlert::Crossed { threshold: 100, .. }]
        ));
        assert_eq!(w.crossed(), [80, 100]);
    }

    #[test]
    fn the_forecast_warns_within_the_horizon() {
        let mut w = BudgetWatch::new(usd(dec!(100)));
        // 40 left at 20 an hour: two hours away, outside the default hour.
        assert!(
            w.check(usd(dec!(60)), usd(dec!(20)), ts(0))
                .unwrap()
                .iter()
                .all(|a| !matches!(a, BudgetAlert::Forecast { .. }))
        );
        // 10 left at 20 an hour: gone in 30 minutes.
        let a = w.check(usd(dec!(90)), usd(dec!(20)), ts(0)).unwrap();
        assert!(
            a.contains(&BudgetAlert::Forecast {
                at: ts(1800),
                limit: usd(dec!(100))
            }),
            "{a:?}"
        );
        assert_eq!(
            w.exhausted_at(usd(dec!(90)), usd(dec!(0)), ts(0)).unwrap(),
            None
        );
    }

    #[test]
    fn the_limit_sets_a_deadline_now_unless_one_that_acts_has_come() {
        let now = ts(1000);
        assert_eq!(deadline_at_limit(OnExpiry::Alert, RUNNING, None, now), None);
        assert_eq!(
            deadline_at_limit(OnExpiry::Stop, RUNNING, None, now),
            Some(now)
        );
        // A later deadline, or one that only alerts, gives way to the budget's.
        let later = Some((ts(5000), OnExpiry::Release));
        assert_eq!(
            deadline_at_limit(OnExpiry::Release, RUNNING, later, now),
            Some(now)
        );
        let alert_only = Some((ts(900), OnExpiry::Alert));
        assert_eq!(
            deadline_at_limit(OnExpiry::Stop, RUNNING, alert_only, now),
            Some(now)
        );
        // A deadline in its grace period that releases goes ahead as it is.
        let due = Some((ts(900), OnExpiry::Release));
        assert_eq!(deadline_at_limit(OnExpiry::Stop, RUNNING, due, now), None);
    }

    #[test]
    fn the_limit_sets_no_deadline_for_what_the_instance_already_is() {
        let now = ts(1000);
        let stop = |state| deadline_at_limit(OnExpiry::Stop, state, None, now);
        assert_eq!(stop(InstanceState::Stopped), None);
        assert_eq!(stop(InstanceState::Released), None);
        let release = |state| deadline_at_limit(OnExpiry::Release, state, None, now);
        // A stopped instance's disks still bill: the release still has work to do.
        assert_eq!(release(InstanceState::Stopped), Some(now));
        assert_eq!(release(InstanceState::Released), None);
    }

    #[test]
    fn the_limit_deadline_is_the_next_whole_second_so_the_grace_is_whole() {
        let now = ts(1000) + SignedDuration::from_millis(900);
        assert_eq!(
            deadline_at_limit(OnExpiry::Stop, RUNNING, None, now),
            Some(ts(1001))
        );
    }

    #[test]
    fn a_budget_in_another_currency_is_an_error() {
        let mut w = BudgetWatch::new(Money::new(dec!(100), Currency::CNY));
        assert!(w.check(usd(dec!(1)), usd(dec!(1)), ts(0)).is_err());
    }
}
