//! What the guards have armed and where they stand: the idle countdown, the policies armed,
//! the grace banner and the line said at quit. Pure: time is an argument, and the text is
//! made here so the screen and the command line say the same thing.

use std::borrow::Cow;
use std::time::Duration;

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use super::deadline::format_remaining;
use super::state::App;
use crate::guard::{Expiry, IdleRule, IdleTracker, OnExpiry, expiry};
use crate::money::Money;
use crate::t;

/// The idle rule the cockpit shows: the one its flags and config arm (which it hands to the
/// watchdog it starts), or the one a live watchdog publishes in the guard row.
#[derive(Debug, Clone, PartialEq)]
pub struct IdleWatch {
    pub on_idle: OnExpiry,
    /// Follows the cockpit's own samples, judged by the same rule as the watchdog's.
    pub tracker: IdleTracker,
    /// The watchdog (its pid) whose published rule this is, when one published it.
    pub enforced_by: Option<u32>,
}

impl IdleWatch {
    pub fn new(rule: IdleRule, on_idle: OnExpiry) -> Self {
        IdleWatch {
            on_idle,
            tracker: IdleTracker::new(rule),
            enforced_by: None,
        }
    }

    pub fn after(&self) -> Duration {
        self.tracker.rule.window
    }
}

/// Where the idle rule stands at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdleStatus {
    /// The instance is stopped (or released): nothing runs, so nothing is idle.
    Stopped { after: Duration, on_idle: OnExpiry },
    /// The instance runs without its GPUs by choice (no-GPU mode): with no GPU nothing is
    /// wasted, and the rule waits until they are back.
    WithoutGpus { after: Duration, on_idle: OnExpiry },
    /// Something works: the idle clock is not running.
    Active { after: Duration, on_idle: OnExpiry },
    /// Idle for `idle_for` of `after`; the policy runs at `acts_at`.
    Idle {
        idle_for: Duration,
        after: Duration,
        acts_at: Timestamp,
        on_idle: OnExpiry,
    },
}

/// The idle rule's standing at `now`.
pub fn idle_status(watch: &IdleWatch, now: Timestamp) -> IdleStatus {
    let (after, on_idle) = (watch.after(), watch.on_idle);
    let Some(since) = watch.tracker.idle_since() else {
        return IdleStatus::Active { after, on_idle };
    };
    let idle_for = Duration::try_from(now.duration_since(since)).unwrap_or_default();
    let window = SignedDuration::try_from(after).unwrap_or(SignedDuration::MAX);
    IdleStatus::Idle {
        idle_for,
        after,
        acts_at: since.saturating_add(window).unwrap_or(since),
        on_idle,
    }
}

/// The idle rule's standing in the cockpit: [`idle_status`], unless the instance is stopped.
pub fn idle_status_of(app: &App, watch: &IdleWatch) -> IdleStatus {
    if super::enforced::is_stopped(app) {
        return IdleStatus::Stopped {
            after: watch.after(),
            on_idle: watch.on_idle,
        };
    }
    if super::enforced::runs_without_gpus(app) {
        return IdleStatus::WithoutGpus {
            after: watch.after(),
            on_idle: watch.on_idle,
        };
    }
    idle_status(watch, app.now)
}

impl IdleStatus {
    /// `idle 12m/30m → stop at 02:14`, `active · idle stop after 30m`, or
    /// `stopped · idle stop after 30m waits for a start`.
    pub fn text(&self, tz: &TimeZone) -> String {
        match *self {
            IdleStatus::Stopped { after, on_idle } => {
                t!("idle-stopped", action = word(on_idle), after = span(after))
            }
            IdleStatus::WithoutGpus { after, on_idle } => {
                t!(
                    "idle-without-gpus",
                    action = word(on_idle),
                    after = span(after)
                )
            }
            IdleStatus::Active { after, on_idle } => {
                t!("idle-active", action = word(on_idle), after = span(after))
            }
            IdleStatus::Idle {
                idle_for,
                after,
                acts_at,
                on_idle,
            } => t!(
                "idle-idle",
                idle_for = span(idle_for),
                after = span(after),
                action = word(on_idle),
                at = clock(acts_at, tz)
            ),
        }
    }
}

/// Every rule armed, and what each does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Armed {
    pub deadline: Option<(Timestamp, OnExpiry)>,
    pub idle: Option<(Duration, OnExpiry)>,
    pub budget: Option<Money>,
}

/// What is armed; a released instance's deadline is not: nothing happens at it any more.
pub fn armed(app: &App) -> Armed {
    let deadline = app.deadline.filter(|_| !super::enforced::is_released(app));
    Armed {
        deadline: deadline.map(|d| (d.at, d.on_expiry)),
        idle: app.idle.as_ref().map(|w| (w.after(), w.on_idle)),
        budget: app.budget.as_ref().map(|b| b.limit),
    }
}

impl Armed {
    /// `armed: deadline 18:30 → release · idle 30m → stop · budget 50.00 USD`.
    pub fn summary(&self, tz: &TimeZone) -> String {
        let mut parts = Vec::new();
        if let Some((at, policy)) = self.deadline {
            parts.push(t!(
                "armed-deadline",
                at = clock(at, tz),
                action = word(policy)
            ));
        }
        if let Some((after, policy)) = self.idle {
            parts.push(t!("armed-idle", after = span(after), action = word(policy)));
        }
        if let Some(limit) = self.budget {
            parts.push(t!("armed-budget", limit = limit.to_string()));
        }
        if parts.is_empty() {
            t!("armed-nothing").into_owned()
        } else {
            t!("armed", rules = parts.join(" · "))
        }
    }

    /// Whether a rule stops or releases the instance by itself: only then is a watchdog
    /// needed with nobody watching.
    pub fn acts(&self) -> bool {
        let acts = |p: OnExpiry| p != OnExpiry::Alert;
        self.deadline.is_some_and(|(_, p)| acts(p)) || self.idle.is_some_and(|(_, p)| acts(p))
    }

    /// `release at 18:30, idle stop after 30m`.
    pub fn duties(&self, tz: &TimeZone) -> String {
        let mut parts = Vec::new();
        if let Some((at, policy)) = self.deadline {
            parts.push(t!(
                "duty-deadline",
                action = word(policy),
                at = clock(at, tz)
            ));
        }
        if let Some((after, policy)) = self.idle {
            parts.push(t!("duty-idle", action = word(policy), after = span(after)));
        }
        if parts.is_empty() {
            t!("duty-none").into_owned()
        } else {
            parts.join(&t!("list-separator"))
        }
    }
}

/// A stop or release waiting out its grace period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraceBanner {
    pub on_expiry: OnExpiry,
    pub left: SignedDuration,
}

/// The banner while the deadline's stop or release waits out its grace period at `now`.
pub fn grace_banner(app: &App, now: Timestamp) -> Option<GraceBanner> {
    let d = app.deadline?;
    if d.on_expiry == OnExpiry::Alert || super::enforced::is_released(app) {
        return None;
    }
    match expiry(d.at, app.settings.grace, now) {
        Expiry::Grace(until) => Some(GraceBanner {
            on_expiry: d.on_expiry,
            left: until.duration_since(now),
        }),
        Expiry::Ahead(_) | Expiry::Due => None,
    }
}

impl GraceBanner {
    /// `STOPPING in 0:28 — any key cancels`.
    pub fn text(&self) -> String {
        let clock = format_remaining(self.left);
        let clock = clock.strip_prefix("0:").unwrap_or(&clock);
        let clock = clock.strip_prefix('0').unwrap_or(clock).to_string();
        match self.on_expiry {
            OnExpiry::Release => t!("grace-releasing", left = clock),
            OnExpiry::Stop | OnExpiry::Alert => t!("grace-stopping", left = clock),
        }
    }
}

/// What to say on the normal screen at quit: who keeps guarding, and what.
pub fn quit_line(app: &App) -> String {
    if super::welcome::nothing_to_guard(app) {
        return t!("quit-no-provider", how = super::welcome::how_to_guard());
    }
    if super::enforced::is_released(app) {
        return t!("quit-released").into_owned();
    }
    let armed = armed(app);
    let tz = &app.spend.time_zone;
    match app.guard.watchdog.filter(|w| w.alive) {
        Some(w) => t!(
            "quit-watchdog-guards",
            pid = w.pid.to_string(),
            duties = armed.duties(tz)
        ),
        None if armed.acts() => t!("quit-unguarded-acts", duties = armed.duties(tz)),
        None => t!("quit-unguarded").into_owned(),
    }
}

/// What a rule does when it fires, in a word: `alert`, `stop`, `release`.
pub(crate) fn word(policy: OnExpiry) -> Cow<'static, str> {
    match policy {
        OnExpiry::Alert => t!("policy-alert"),
        OnExpiry::Stop => t!("policy-stop"),
        OnExpiry::Release => t!("policy-release"),
    }
}

fn clock(at: Timestamp, tz: &TimeZone) -> String {
    at.to_zoned_datetime(tz.clone())
        .strftime("%H:%M")
        .to_string()
}

/// `45s`, `12m`, `1h30m`: whole units, as the idle line counts.
pub(crate) fn span(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s / 60 % 60) {
        (0, 0) => format!("{s}s"),
        (0, m) => format!("{m}m"),
        (h, 0) => format!("{h}h"),
        (h, m) => format!("{h}h{m:02}m"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(1_700_000_000 + s).unwrap()
    }

    fn watch(after: u64, on_idle: OnExpiry) -> IdleWatch {
        let rule = IdleRule {
            window: Duration::from_secs(after),
            ..IdleRule::default()
        };
        IdleWatch::new(rule, on_idle)
    }

    #[test]
    fn the_idle_countdown_runs_while_idle_and_says_when_the_policy_acts() {
        let tz = TimeZone::UTC;
        let mut w = watch(30 * 60, OnExpiry::Stop);
        assert_eq!(
            idle_status(&w, ts(0)).text(&tz),
            "active · idle stop after 30m"
        );
        w.tracker.observe(ts(0), true);
        w.tracker.observe(ts(12 * 60), true);
        let status = idle_status(&w, ts(12 * 60));
        assert_eq!(
            status,
            IdleStatus::Idle {
                idle_for: Duration::from_secs(720),
                after: Duration::from_secs(1800),
                acts_at: ts(1800),
                on_idle: OnExpiry::Stop,
            }
        );
        // 1_700_000_000 is 22:13:20 UTC; 30 minutes later is 22:43.
        assert_eq!(status.text(&tz), "idle 12m/30m → stop at 22:43");
        w.tracker.observe(ts(12 * 60 + 5), false);
        assert!(matches!(
            idle_status(&w, ts(12 * 60 + 5)),
            IdleStatus::Active { .. }
        ));
        let mut short = watch(20, OnExpiry::Release);
        short.tracker.observe(ts(0), true);
        assert_eq!(
            idle_status(&short, ts(7)).text(&tz),
            "idle 7s/20s → release at 22:13"
        );
    }

    #[test]
    fn spans_use_whole_units() {
        assert_eq!(span(Duration::from_secs(45)), "45s");
        assert_eq!(span(Duration::from_secs(90)), "1m");
        assert_eq!(span(Duration::from_secs(5400)), "1h30m");
        assert_eq!(span(Duration::from_secs(7200)), "2h");
    }

    #[test]
    fn the_armed_summary_names_every_rule_and_what_it_does() {
        let tz = TimeZone::UTC;
        let none = Armed {
            deadline: None,
            idle: None,
            budget: None,
        };
        assert_eq!(none.summary(&tz), "nothing armed");
        assert!(!none.acts());
        let alerts = Armed {
            deadline: Some((ts(0), OnExpiry::Alert)),
            idle: Some((Duration::from_secs(1800), OnExpiry::Alert)),
            budget: Some(Money::new(
                rust_decimal::dec!(50),
                crate::money::Currency::USD,
            )),
        };
        assert_eq!(
            alerts.summary(&tz),
            "armed: deadline 22:13 → alert · idle 30m → alert · budget 50.00 USD"
        );
        assert!(!alerts.acts(), "alerts alone need somebody to read them");
        let idle_stop = Armed {
            idle: Some((Duration::from_secs(1800), OnExpiry::Stop)),
            ..alerts.clone()
        };
        assert!(idle_stop.acts());
        assert_eq!(idle_stop.duties(&tz), "alert at 22:13, idle stop after 30m");
    }

    #[test]
    fn the_grace_banner_counts_down_a_stop_or_release_only() {
        let now = ts(0);
        let caps = crate::cloud::Capabilities {
            start: false,
            stop: true,
            snapshots: false,
            deadline: false,
        };
        let cloud = crate::app::CloudView::new("demo", caps);
        let spend = crate::spend::Spend::new(None, None, TimeZone::UTC);
        let mut app = App::new(now, crate::app::Settings::default(), cloud, spend);
        app.deadline = Some(crate::app::Deadline::new(
            now - SignedDuration::from_secs(92),
            OnExpiry::Stop,
            now,
        ));
        let banner = grace_banner(&app, now).expect("in grace");
        assert_eq!(banner.left, SignedDuration::from_secs(28));
        assert_eq!(banner.text(), "STOPPING in 0:28 — any key cancels");
        assert_eq!(
            grace_banner(&app, now + SignedDuration::from_secs(28)),
            None
        );
        if let Some(d) = app.deadline.as_mut() {
            d.on_expiry = OnExpiry::Release;
        }
        let banner = grace_banner(&app, now - SignedDuration::from_secs(60)).unwrap();
        assert_eq!(banner.text(), "RELEASING in 1:28 — any key cancels");
        if let Some(d) = app.deadline.as_mut() {
            d.on_expiry = OnExpiry::Alert;
        }
        assert_eq!(grace_banner(&app, now), None, "alert only: nothing pending");
    }
}
