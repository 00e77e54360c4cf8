//! `gpumeter watchdog --status`: every rule the guard row holds, whether or not a deadline is
//! set: the watchdog and its last check, the deadline with its policy and grace, the idle rule
//! the watchdog enforces with how long it has seen the machine idle, and the budget.

use gpumeter_core::zone::{deadline_label, full_label};
use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::config::{BudgetConfig, OnExpiry};
use crate::ledger::GuardState;

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
        Some(w) if alive => format!(
            "watchdog for {instance}: running (pid {}), last check {}s ago",
            w.pid,
            seconds_between(w.heartbeat, now)
        ),
        Some(w) => format!(
            "watchdog for {instance}: NOT running (pid {} last checked at {})",
            w.pid,
            full_label(w.heartbeat, tz)
        ),
        None => format!("watchdog for {instance}: NOT running"),
    });
    lines.push(match guard.deadline {
        Some(at) => format!(
            "deadline: {}, in {}s, then {} after {}s grace",
            deadline_label(at, now, tz),
            seconds_between(now, at),
            word(guard.on_expiry),
            guard.grace.as_secs()
        ),
        None => format!(
            "deadline: none (a deadline would {} after {}s grace)",
            word(guard.on_expiry),
            guard.grace.as_secs()
        ),
    });
    lines.push(match (guard.idle, alive) {
        (Some(idle), true) => {
            let state = match idle.since {
                Some(since) => format!("idle for {}s", seconds_between(since, now).max(0)),
                None => "active now".into(),
            };
            format!(
                "idle rule: {} after {}s idle; {state}",
                word(idle.on_idle),
                idle.after.as_secs()
            )
        }
        (Some(_) | None, false) => "idle rule: none enforced (no watchdog runs)".into(),
        (None, true) => "idle rule: not published by this watchdog (an older build)".into(),
    });
    lines.push(budget_line(budget, alive));
    lines
}

/// What guards each budget: the watchdog keeps both (its alerts and `on_budget`) while it
/// runs; without it the cockpit only shows the month's.
fn budget_line(budget: &BudgetConfig, alive: bool) -> String {
    let currency = budget.currency.map_or_else(
        || "in the price sheet's currency".to_string(),
        |c| c.to_string(),
    );
    let mut parts = Vec::new();
    let then = match budget.on_budget {
        OnExpiry::Alert => String::new(),
        policy => format!(", then {}s", word(policy)),
    };
    if let Some(a) = budget.per_instance {
        parts.push(if alive {
            format!("{a} per instance: the watchdog alerts at 80 and 100 %{then}")
        } else {
            format!("{a} per instance: not enforced (no watchdog runs)")
        });
    }
    if let Some(a) = budget.per_month {
        parts.push(if alive {
            format!("{a} per month: the watchdog alerts at 80 and 100 %{then}")
        } else {
            format!("{a} per month: the cockpit alerts on it; nothing acts (no watchdog runs)")
        });
    }
    if parts.is_empty() {
        return "budget: none".into();
    }
    format!("budget ({currency}): {}", parts.join("; "))
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
