//! The watchdog's decisions, apart from its I/O: given the guard state, the latest idle
//! verdict and any spot notice at an instant, what to say and what to do. Each thing is said
//! or done once per cause (one deadline, one idle stretch, one notice): the warnings 30, 10
//! and 1 minutes before a deadline once each, as the cockpit's countdown says them.
//!
//! Time comes as a [`GuardTime`]: the watchdog's own time, carried by the monotonic clock, and
//! the wall clock. A deadline (wall time) is placed on the watchdog's time when first seen, so
//! a wall-clock step neither brings it nearer nor pushes it away.

use jiff::Timestamp;

use crate::app::Deadline;
use crate::app::deadline::Countdown;
use crate::config::OnExpiry;
use crate::guard::{ArmedDeadline, Expiry, GuardTime, IdleState, IdleTracker, expiry};
use crate::ledger::GuardState;
use crate::provider::Action;
use crate::t;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Tell the user (bell, OSC, webhooks, the ledger's event log).
    Alert {
        warn: bool,
        key: String,
        text: String,
    },
    /// Run the before-action hook, then this action, for this reason.
    Act { action: Action, reason: String },
    /// Run the on-interrupt hook: the provider is about to reclaim the instance.
    Interrupted { at: Timestamp },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Guardian {
    idle: IdleTracker,
    on_idle: OnExpiry,
    /// The deadline as written and where it falls on the watchdog's time.
    armed: Option<ArmedDeadline>,
    /// The deadline being counted down to (on the watchdog's time), and which warnings it has
    /// had.
    countdown: Option<Deadline>,
    grace_said_for: Option<Timestamp>,
    acted_for: Option<Timestamp>,
    notice_said: bool,
    /// A deadline the budget set at its limit (whole seconds, as the ledger keeps it) and why:
    /// its grace line and its action say the budget, not a deadline the user set.
    limit: Option<(i64, String)>,
}

fn action_for(policy: OnExpiry) -> Option<Action> {
    match policy {
        OnExpiry::Alert => None,
        OnExpiry::Stop => Some(Action::Stop),
        OnExpiry::Release => Some(Action::Release),
    }
}

/// An action's verb in the user's language (`release`, `释放`).
fn verb(action: &Action) -> String {
    crate::ui::words::verb(action).into_owned()
}

fn clock(at: Timestamp) -> String {
    at.strftime("%H:%M:%S UTC").to_string()
}

impl Guardian {
    pub fn new(idle: IdleTracker, on_idle: OnExpiry) -> Self {
        Guardian {
            idle,
            on_idle,
            armed: None,
            countdown: None,
            grace_said_for: None,
            acted_for: None,
            notice_said: false,
            limit: None,
        }
    }

    /// The budget reached its limit and set the deadline to `deadline`, saying `why`.
    pub fn limit_reached(&mut self, deadline: Timestamp, why: String) {
        self.limit = Some((deadline.as_second(), why));
    }

    /// Since when the machine has been idle, as the idle rule sees it, on the watchdog's time.
    pub fn idle_since(&self) -> Option<Timestamp> {
        self.idle.idle_since()
    }

    /// Everything due at `now`, on a wall clock that has not stepped.
    pub fn step(
        &mut self,
        now: Timestamp,
        guard: Option<&GuardState>,
        idle: Option<bool>,
        notice: Option<Timestamp>,
    ) -> Vec<Decision> {
        self.step_at(GuardTime::unstepped(now), guard, idle, notice)
    }

    /// Everything due at `t`. `idle` is whether the latest sample was idle (`None` when no
    /// sample arrived: that counts as active).
    pub fn step_at(
        &mut self,
        t: GuardTime,
        guard: Option<&GuardState>,
        idle: Option<bool>,
        notice: Option<Timestamp>,
    ) -> Vec<Decision> {
        let now = t.now;
        let mut out = Vec::new();
        if let Some(g) = guard {
            self.deadline(t, g, &mut out);
            // Written on the wall clock, like the deadline.
            if let Some(until) = g.snooze_until.map(|u| t.from_wall(u)).filter(|u| *u > now) {
                self.idle.snooze(until);
            }
        }
        if let IdleState::Fired(since) = self.idle.observe(now, idle.unwrap_or(false)) {
            let since = t.to_wall(since);
            let text = t!("wd-idle-since", at = clock(since));
            match action_for(self.on_idle) {
                Some(action) => out.push(Decision::Act {
                    action,
                    reason: text,
                }),
                None => out.push(Decision::Alert {
                    warn: true,
                    key: "idle".into(),
                    text,
                }),
            }
        }
        if let (Some(at), false) = (notice, self.notice_said) {
            self.notice_said = true;
            out.push(Decision::Alert {
                warn: true,
                key: "spot".into(),
                text: t!("wd-spot", at = clock(at)),
            });
            out.push(Decision::Interrupted { at });
        }
        out
    }

    fn deadline(&mut self, t: GuardTime, g: &GuardState, out: &mut Vec<Decision>) {
        let Some(written) = g.deadline else {
            self.armed = None;
            self.countdown = None;
            return;
        };
        let armed = ArmedDeadline::keep_or_arm(self.armed, written, t);
        self.armed = Some(armed);
        // Keyed by the deadline as written; counted on the watchdog's time; said on the wall
        // clock as it reads now.
        let (at, now) = (written, t.now);
        let why = self
            .limit
            .as_ref()
            .filter(|(set, _)| *set == written.as_second())
            .map(|(_, why)| why.clone());
        self.warn(t, armed, g.on_expiry, out);
        match expiry(armed.at, g.grace, now) {
            Expiry::Ahead(_) => {}
            Expiry::Grace(until) => {
                if self.grace_said_for != Some(at) {
                    self.grace_said_for = Some(at);
                    let until = t.to_wall(until);
                    let then = match action_for(g.on_expiry) {
                        Some(action) => {
                            t!("wd-action-at", action = verb(&action), at = clock(until))
                        }
                        None => t!("wd-nothing-alert-only").into_owned(),
                    };
                    let reached = why
                        .clone()
                        .unwrap_or_else(|| t!("wd-deadline-reached").into_owned());
                    out.push(Decision::Alert {
                        warn: true,
                        key: "deadline".into(),
                        text: t!("wd-grace", reached = reached, then = then),
                    });
                }
            }
            Expiry::Due => {
                if self.acted_for != Some(at) {
                    self.acted_for = Some(at);
                    let reason = why.unwrap_or_else(|| {
                        t!("wd-deadline-passed", at = clock(t.to_wall(armed.at)))
                    });
                    match action_for(g.on_expiry) {
                        Some(action) => out.push(Decision::Act { action, reason }),
                        None => out.push(Decision::Alert {
                            warn: true,
                            key: "deadline-due".into(),
                            text: t!("wd-keeps-billing", reason = reason),
                        }),
                    }
                }
            }
        }
    }
}

impl Guardian {
    /// The warnings before the deadline at `at`. A deadline seen for the first time (or moved)
    /// is counted down afresh; warnings already behind it then are not said.
    fn warn(
        &mut self,
        t: GuardTime,
        armed: ArmedDeadline,
        policy: OnExpiry,
        out: &mut Vec<Decision>,
    ) {
        let countdown = match &mut self.countdown {
            Some(d) if d.at == armed.at => d,
            slot => slot.insert(Deadline::new(armed.at, policy, t.now)),
        };
        let at = armed.written;
        for said in countdown.tick(t.now) {
            let Countdown::Warn(minutes) = said else {
                continue;
            };
            let then = match action_for(policy) {
                Some(action) => t!("wd-then-unless-extended", action = verb(&action)),
                None => t!("wd-then-alert-only").into_owned(),
            };
            out.push(Decision::Alert {
                warn: true,
                key: format!("deadline:{minutes}m@{}", at.as_second()),
                text: t!(
                    "wd-minutes-left",
                    minutes = minutes,
                    at = clock(t.to_wall(armed.at)),
                    then = then
                ),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::guard::IdleRule;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    fn guard(deadline: i64, on_expiry: OnExpiry) -> GuardState {
        GuardState {
            instance: "i-1".into(),
            deadline: Some(ts(deadline)),
            on_expiry,
            grace: Duration::from_secs(120),
            provider_held: None,
            snooze_until: None,
            watchdog: None,
            idle: None,
            revision: 1,
            updated: ts(0),
            updated_by: "cockpit".into(),
        }
    }

    fn guardian(on_idle: OnExpiry) -> Guardian {
        let rule = IdleRule {
            window: Duration::from_secs(60),
            ..IdleRule::default()
        };
        Guardian::new(IdleTracker::new(rule), on_idle)
    }

    #[test]
    fn the_deadline_warns_in_grace_then_acts_once() {
        let mut g = guardian(OnExpiry::Alert);
        let state = guard(100, OnExpiry::Release);
        assert!(g.step(ts(99), Some(&state), None, None).is_empty());
        let d = g.step(ts(100), Some(&state), None, None);
        assert!(
            matches!(&d[..], [Decision::Alert { key, .. }] if key == "deadline"),
            "{d:?}"
        );
        assert!(g.step(ts(150), Some(&state), None, None).is_empty());
        let d = g.step(ts(220), Some(&state), None, None);
        assert!(
            matches!(
                &d[..],
                [Decision::Act {
                    action: Action::Release,
                    ..
                }]
            ),
            "{d:?}"
        );
        assert!(g.step(ts(221), Some(&state), None, None).is_empty(), "once");
        // An extension is a new deadline: it is guarded afresh.
        let later = guard(400, OnExpiry::Stop);
        assert!(g.step(ts(300), Some(&later), None, None).is_empty());
        let d = g.step(ts(520), Some(&later), None, None);
        // A tick that lands past the grace period acts at once.
        assert!(
            matches!(
                &d[..],
                [Decision::Act {
                    action: Action::Stop,
                    ..
                }]
            ),
            "{d:?}"
        );
    }

    /// Every alert text and action reason the guardian says over an hour's countdown, its
    /// grace and its expiry, under `on_expiry`.
    fn said_over_the_hour(on_expiry: OnExpiry) -> Vec<String> {
        let mut g = guardian(OnExpiry::Alert);
        let state = guard(3600, on_expiry);
        (0..3800)
            .step_by(5)
            .flat_map(|s| g.step(ts(s), Some(&state), None, None))
            .filter_map(|d| match d {
                Decision::Alert { text, .. } => Some(text),
                Decision::Act { reason, .. } => Some(reason),
                Decision::Interrupted { .. } => None,
            })
            .collect()
    }

    #[test]
    fn the_alerts_are_in_the_users_language_and_english_reads_as_before() {
        use crate::i18n::{Lang, scoped};
        let english = scoped(Lang::En, || said_over_the_hour(OnExpiry::Release));
        assert!(
            english.contains(
                &"1 minute left before the deadline (01:00:00 UTC): then release unless extended"
                    .to_string()
            ),
            "{english:?}"
        );
        assert!(
            english.iter().any(|t| t.starts_with("30 minutes left")),
            "{english:?}"
        );
        for policy in [OnExpiry::Release, OnExpiry::Stop, OnExpiry::Alert] {
            let chinese = scoped(Lang::ZhCn, || said_over_the_hour(policy));
            assert!(chinese.len() >= 4, "{chinese:?}");
            for text in &chinese {
                assert!(text.contains("截止时间"), "{text}");
                for word in [
                    "minute", "deadline", "unless", "release", "stop", "alert", "passed", "billing",
                ] {
                    assert!(!text.contains(word), "{word} in {text}");
                }
            }
        }
    }

    #[test]
    fn the_30_10_and_1_minute_warnings_are_said_once_each() {
        let mut g = guardian(OnExpiry::Alert);
        let state = guard(3600, OnExpiry::Release);
        let mut said = Vec::new();
        for s in (0..3600).step_by(5) {
            for d in g.step(ts(s), Some(&state), None, None) {
                let Decision::Alert { key, text, .. } = d else {
                    panic!("{d:?}")
                };
                said.push((s, key, text));
            }
        }
        let keys: Vec<(i64, &str)> = said.iter().map(|(s, k, _)| (*s, k.as_str())).collect();
        assert_eq!(
            keys,
            [
                (1800, "deadline:30m@3600"),
                (3000, "deadline:10m@3600"),
                (3540, "deadline:1m@3600")
            ]
        );
        assert_eq!(
            said[2].2,
            "1 minute left before the deadline (01:00:00 UTC): then release unless extended"
        );
        // A watchdog that starts 20 minutes before says 10 and 1, not 30.
        let mut late = guardian(OnExpiry::Alert);
        let keys: Vec<String> = (2400..3600)
            .flat_map(|s| late.step(ts(s), Some(&state), None, None))
            .filter_map(|d| match d {
                Decision::Alert { key, .. } => Some(key),
                _ => None,
            })
            .collect();
        assert_eq!(keys, ["deadline:10m@3600", "deadline:1m@3600"]);
        // An extension is counted down afresh.
        let later = guard(7200, OnExpiry::Release);
        let d = g.step(ts(3560), Some(&later), None, None);
        assert!(d.is_empty(), "{d:?}");
        let d = g.step(ts(5400), Some(&later), None, None);
        assert!(
            matches!(&d[..], [Decision::Alert { key, .. }] if key == "deadline:30m@7200"),
            "{d:?}"
        );
    }

    /// Steps a guardian every 5 s of monotonic time for `run` seconds, the wall clock jumping
    /// by `jump` seconds at `step_at`; what it decided and when, in monotonic seconds.
    fn through_a_step(
        state: &GuardState,
        run: i64,
        step_at: i64,
        jump: i64,
    ) -> Vec<(i64, Decision)> {
        use crate::guard::{GuardClock, Reading};
        let reading = |mono: i64| Reading {
            wall: ts(mono + if mono >= step_at { jump } else { 0 }),
            mono: Duration::from_secs(mono.unsigned_abs()),
        };
        let mut clock = GuardClock::new(reading(0));
        let mut g = guardian(OnExpiry::Alert);
        let mut said = Vec::new();
        for mono in (0..run).step_by(5) {
            let (t, _) = clock.read(reading(mono));
            said.extend(
                g.step_at(t, Some(state), None, None)
                    .into_iter()
                    .map(|d| (mono, d)),
            );
        }
        said
    }

    #[test]
    fn a_forward_step_never_acts_before_the_warnings_and_the_grace() {
        // Deadline an hour away; NTP moves the wall clock 3 hours forward ten minutes in.
        let state = guard(3600, OnExpiry::Release);
        let said = through_a_step(&state, 4000, 600, 3 * 3600);
        let keys: Vec<(i64, &str)> = said
            .iter()
            .map(|(at, d)| match d {
                Decision::Alert { key, .. } => (*at, key.as_str()),
                Decision::Act { .. } => (*at, "act"),
                Decision::Interrupted { .. } => (*at, "interrupted"),
            })
            .collect();
        assert_eq!(
            keys,
            [
                (1800, "deadline:30m@3600"),
                (3000, "deadline:10m@3600"),
                (3540, "deadline:1m@3600"),
                (3600, "deadline"),
                (3720, "act"),
            ]
        );
        // Said on the wall clock as it reads now: three hours later than written.
        let Decision::Alert { text, .. } = &said[3].1 else {
            panic!("{said:?}")
        };
        assert!(text.contains("release at 04:02:00 UTC"), "{text}");
    }

    #[test]
    fn a_backward_step_never_delays_a_deadline_that_has_passed() {
        // Deadline 100 s away; the wall clock goes back an hour at 50 s.
        let state = guard(100, OnExpiry::Release);
        let said = through_a_step(&state, 400, 50, -3600);
        let acted: Vec<i64> = said
            .iter()
            .filter(|(_, d)| matches!(d, Decision::Act { .. }))
            .map(|(at, _)| *at)
            .collect();
        assert_eq!(acted, [220]);
        assert!(
            said.iter().any(|(at, d)| *at == 100
                && matches!(d, Decision::Alert { key, .. } if key == "deadline")),
            "{said:?}"
        );
    }

    #[test]
    fn a_deadline_written_after_a_step_counts_from_the_stepped_clock() {
        use crate::guard::GuardTime;
        let mut g = guardian(OnExpiry::Alert);
        // The wall clock is an hour ahead of the watchdog's time; the cockpit writes a deadline
        // ten minutes from the wall clock's now.
        let at = |mono: i64| GuardTime {
            now: ts(mono),
            wall: ts(mono + 3600),
        };
        let state = guard(3600 + 600, OnExpiry::Stop);
        assert!(g.step_at(at(0), Some(&state), None, None).is_empty());
        assert!(g.step_at(at(539), Some(&state), None, None).is_empty());
        let d = g.step_at(at(540), Some(&state), None, None);
        assert!(
            matches!(&d[..], [Decision::Alert { text, .. }] if text.contains("(01:10:00 UTC)")),
            "{d:?}"
        );
        assert!(g.step_at(at(599), Some(&state), None, None).is_empty());
        let d = g.step_at(at(600), Some(&state), None, None);
        assert!(
            matches!(&d[..], [Decision::Alert { key, .. }] if key == "deadline"),
            "{d:?}"
        );
        let d = g.step_at(at(720), Some(&state), None, None);
        assert!(matches!(&d[..], [Decision::Act { .. }]), "{d:?}");
    }

    #[test]
    fn a_deadline_the_budget_set_says_the_budget_in_its_grace_line_and_its_action() {
        let mut g = guardian(OnExpiry::Alert);
        let why = "budget: 100% used (10.02 USD of 10.00 USD)".to_string();
        g.limit_reached(ts(100), why.clone());
        let state = guard(100, OnExpiry::Stop);
        let d = g.step(ts(100), Some(&state), None, None);
        assert!(
            matches!(&d[..], [Decision::Alert { key, text, .. }]
                if key == "deadline" && text.starts_with(&format!("{why}: stop at 00:03:40 UTC unless extended"))),
            "{d:?}"
        );
        let d = g.step(ts(220), Some(&state), None, None);
        assert_eq!(
            d,
            [Decision::Act {
                action: Action::Stop,
                reason: why
            }]
        );
        // Extended past it, the deadline is the user's again.
        let later = guard(400, OnExpiry::Stop);
        g.step(ts(400), Some(&later), None, None);
        let d = g.step(ts(520), Some(&later), None, None);
        assert!(
            matches!(&d[..], [Decision::Act { reason, .. }] if reason == "deadline 00:06:40 UTC passed"),
            "{d:?}"
        );
    }

    #[test]
    fn an_alert_only_policy_never_acts() {
        let mut g = guardian(OnExpiry::Alert);
        let state = guard(100, OnExpiry::Alert);
        g.step(ts(100), Some(&state), None, None);
        let d = g.step(ts(300), Some(&state), None, None);
        assert!(matches!(&d[..], [Decision::Alert { .. }]), "{d:?}");
    }

    #[test]
    fn idle_for_the_window_acts_and_no_sample_counts_as_active() {
        let mut g = guardian(OnExpiry::Release);
        for s in 0..60 {
            assert!(g.step(ts(s), None, Some(true), None).is_empty());
        }
        let d = g.step(ts(60), None, Some(true), None);
        assert!(
            matches!(
                &d[..],
                [Decision::Act {
                    action: Action::Release,
                    ..
                }]
            ),
            "{d:?}"
        );
        // A missing sample at 30 s restarts the window at 31 s: nothing fires before 91 s.
        let mut g = guardian(OnExpiry::Release);
        let mut fired = None;
        for s in 0..200 {
            let sample = if s == 30 { None } else { Some(true) };
            if !g.step(ts(s), None, sample, None).is_empty() && fired.is_none() {
                fired = Some(s);
            }
        }
        assert_eq!(fired, Some(91));
    }

    #[test]
    fn a_spot_notice_is_said_once_and_runs_the_hook() {
        let mut g = guardian(OnExpiry::Alert);
        let d = g.step(ts(0), None, None, Some(ts(120)));
        assert!(matches!(
            &d[..],
            [Decision::Alert { .. }, Decision::Interrupted { .. }]
        ));
        assert!(g.step(ts(5), None, None, Some(ts(120))).is_empty());
    }
}
