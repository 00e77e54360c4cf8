//! `gpumeter watchdog --status`: every rule the guard row holds, whether or not a deadline is
//! set: the watchdog and its last check, the deadline with its policy and grace, the idle rule
//! the watchdog enforces with how long it has seen the machine idle, and the budget.

use gpumeter_core::zone::{deadline_label, full_label};
use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::config::{BudgetConfig, OnExpiry};
use crate::ledger::GuardState;

use crate::t;

fn word(policy: OnExpiry) -> &'static str {
    match policy {
        OnExpiry::Alert => "alert",
        OnExpiry::Stop => "stop",
        OnExpiry::Release => "release",
    }
}

fn seconds_between(from: Timestamp, to: Timestamp) -> i64 {
    to.as_second() - from.as_second()
}

/// The lines `--status` prints for `instance`'s row at `now`, times in `tz`; `alive` is
/// whether its watchdog's process runs with a fresh heartbeat.
pub fn lines(
    instance: &str,
    guard: &GuardState,
    alive: bool,
    budget: &BudgetConfig,
    now: Timestamp,
    tz: &TimeZone,
) -> Vec<String> {
    let mut lines = Vec::new();
    lines.push(match guard.watchdog {
        Some(w) if alive => t!(
            "wd-status-running",
            instance = instance,
            pid = w.pid.to_string(),
            seconds = seconds_between(w.heartbeat, now).to_string()
        ),
        Some(w) => t!(
            "wd-status-not-running-since",
            instance = instance,
            pid = w.pid.to_string(),
            at = full_label(w.heartbeat, tz)
        ),
        None => t!("wd-status-not-running", instance = instance),
    });
    let grace = guard.grace.as_secs().to_string();
    lines.push(match guard.deadline {
        Some(at) => t!(
            "wd-status-deadline",
            at = deadline_label(at, now, tz),
            seconds = seconds_between(now, at).to_string(),
            policy = word(guard.on_expiry),
            grace = grace
        ),
        None => t!(
            "wd-status-no-deadline",
            policy = word(guard.on_expiry),
            grace = grace
        ),
    });
    lines.push(match (guard.idle, alive) {
        (Some(idle), true) => {
            let state = match idle.since {
                Some(since) => t!(
                    "wd-status-idle-for",
                    seconds = seconds_between(since, now).max(0).to_string()
                ),
                None => t!("wd-status-active").into_owned(),
            };
            t!(
                "wd-status-idle-rule",
                policy = word(idle.on_idle),
                after = idle.after.as_secs().to_string(),
                state = state
            )
        }
        (Some(_) | None, false) => t!("wd-status-idle-none").into_owned(),
        (None, true) => t!("wd-status-idle-unpublished").into_owned(),
    });
    lines.push(budget_line(budget, alive));
    lines
}

/// What guards each budget: the watchdog keeps both (its alerts and `on_budget`) while it
/// runs; without it the cockpit only shows the month's.
fn budget_line(budget: &BudgetConfig, alive: bool) -> String {
    let currency = budget.currency.map_or_else(
        || t!("wd-budget-sheet-currency").into_owned(),
        |c| c.to_string(),
    );
    let mut parts = Vec::new();
    let then = match budget.on_budget {
        OnExpiry::Alert => String::new(),
        policy => t!("wd-budget-then", policy = word(policy)),
    };
    if let Some(a) = budget.per_instance {
        let amount = a.to_string();
        parts.push(if alive {
            t!("wd-budget-instance", amount = amount, then = then.as_str())
        } else {
            t!("wd-budget-instance-unenforced", amount = amount)
        });
    }
    if let Some(a) = budget.per_month {
        let amount = a.to_string();
        parts.push(if alive {
            t!("wd-budget-month", amount = amount, then = then.as_str())
        } else {
            t!("wd-budget-month-unenforced", amount = amount)
        });
    }
    if parts.is_empty() {
        return t!("wd-budget-none").into_owned();
    }
    t!(
        "wd-budget",
        currency = currency,
        parts = parts.join(&*t!("wd-budget-separator"))
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::ledger::IdleArmed;

    #[test]
    fn an_idle_rule_alone_is_named_with_how_long_it_has_been_idle() {
        let now = Timestamp::from_second(1_780_000_000).unwrap();
        let mut row = gpumeter_core::demo::guard_state(None, 3, "watchdog", now);
        row.idle = Some(IdleArmed {
            after: Duration::from_secs(1800),
            on_idle: OnExpiry::Stop,
            since: Some(now - jiff::SignedDuration::from_secs(720)),
        });
        let said = lines(
            "i-1",
            &row,
            true,
            &BudgetConfig::default(),
            now,
            &TimeZone::UTC,
        )
        .join("\n");
        assert!(
            said.contains("running (pid 4242), last check 0s ago"),
            "{said}"
        );
        assert!(said.contains("deadline: none"), "{said}");
        assert!(
            said.contains("idle rule: stop after 1800s idle; idle for 720s"),
            "{said}"
        );
        assert!(said.contains("budget: none"), "{said}");
        assert!(!said.contains("no deadline"), "{said}");
    }

    #[test]
    fn the_deadline_is_in_the_zone_given_with_the_zone_named() {
        let now: Timestamp = "2027-06-01T02:00:00Z".parse().unwrap();
        let row = gpumeter_core::demo::guard_state(
            Some("2027-06-01T10:30:00Z".parse().unwrap()),
            3,
            "watchdog",
            now,
        );
        let shanghai = TimeZone::get("Asia/Shanghai").expect("tzdata is installed");
        let said = lines("i-1", &row, true, &BudgetConfig::default(), now, &shanghai);
        let deadline = said.iter().find(|l| l.starts_with("deadline")).unwrap();
        assert!(
            deadline.starts_with("deadline: 18:30 CST (Asia/Shanghai), in 30600s"),
            "{deadline}"
        );
        let utc = lines(
            "i-1",
            &row,
            true,
            &BudgetConfig::default(),
            now,
            &TimeZone::UTC,
        );
        assert!(
            utc.iter().any(|l| l.starts_with("deadline: 10:30 UTC,")),
            "{utc:?}"
        );
    }

    #[test]
    fn both_budgets_are_the_watchdog_s_while_it_runs() {
        let budget = BudgetConfig {
            per_instance: Some(rust_decimal::Decimal::from(500)),
            per_month: Some(rust_decimal::Decimal::from(900)),
            on_budget: OnExpiry::Stop,
            ..BudgetConfig::default()
        };
        assert_eq!(
            budget_line(&budget, true),
            "budget (in the price sheet's currency): 500 per instance: the watchdog alerts at \
             80 and 100 %, then stops; 900 per month: the watchdog alerts at 80 and 100 %, \
             then stops"
        );
        let down = budget_line(&budget, false);
        assert!(
            down.contains("500 per instance: not enforced (no watchdog runs)"),
            "{down}"
        );
        assert!(
            down.contains("900 per month: the cockpit alerts on it; nothing acts"),
            "{down}"
        );
    }
}
