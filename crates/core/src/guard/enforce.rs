//! Who enforces a deadline now: a live watchdog (its lock held, or a fresh heartbeat), the
//! provider (a release it holds, read back), or nothing. A deadline is shown as armed only
//! while one of the first two holds it; otherwise every surface says "not enforced", why, and
//! what would enforce it. One answer, so the cockpit, `status`, `extend` and `serve` agree.

use serde::Serialize;

/// What the edges know about the guards of one instance at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Holders<'a> {
    /// A provider is configured that can act on the instance.
    pub provider: bool,
    /// The provider holds a release at the deadline, as read back from it.
    pub provider_holds: bool,
    /// The guard row's watchdog, its pid and whether it lives now.
    pub watchdog: Option<(u32, bool)>,
    /// Why the cockpit gave up starting a watchdog, when it did.
    pub down: Option<&'a str>,
}

/// Who holds the deadline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Enforcement {
    /// A live watchdog runs its policy at the deadline.
    Watchdog { pid: u32 },
    /// The provider releases the instance at the deadline by itself.
    Provider,
    /// Nothing acts at the deadline: why and what would, in English as JSON carries them,
    /// and the cause, for saying it in the user's language.
    Nothing {
        reason: String,
        fix: String,
        cause: Unenforced,
    },
}

/// Why nothing enforces a deadline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unenforced {
    NoProvider,
    /// The cockpit gave up starting a watchdog, for this reason.
    Down(String),
    /// The guard row's watchdog, with this pid, is not running.
    NotRunning(u32),
    NoWatchdog,
}

/// The command that starts a watchdog for the configured instance.
pub const START_WATCHDOG: &str = "gpumeter watchdog";

/// Who enforces the deadline, given `h`. A live watchdog comes first: it runs the policy the
/// user chose, where a provider-held deadline only ever releases.
pub fn enforcement(h: &Holders<'_>) -> Enforcement {
    if let Some((pid, true)) = h.watchdog {
        return Enforcement::Watchdog { pid };
    }
    if h.provider_holds {
        return Enforcement::Provider;
    }
    let watchdog_fix = format!("start one with `{START_WATCHDOG}` (or keep the cockpit open)");
    let (reason, fix, cause) = if !h.provider {
        (
            "no provider is configured, so nothing can stop or release the instance".into(),
            "`gpumeter init` writes a config, or pass --provider".into(),
            Unenforced::NoProvider,
        )
    } else if let Some(why) = h.down {
        (
            format!("no watchdog runs: {why}"),
            watchdog_fix,
            Unenforced::Down(why.to_string()),
        )
    } else if let Some((pid, false)) = h.watchdog {
        (
            format!("its watchdog (pid {pid}) is not running"),
            watchdog_fix,
            Unenforced::NotRunning(pid),
        )
    } else {
        (
            "no watchdog runs".into(),
            watchdog_fix,
            Unenforced::NoWatchdog,
        )
    };
    Enforcement::Nothing { reason, fix, cause }
}

impl Unenforced {
    /// Why, and what would enforce it, in the user's language (the cockpit's words; JSON
    /// keeps [`Enforcement::Nothing`]'s English).
    pub fn said(&self) -> (String, String) {
        let watchdog_fix = || crate::t!("unenforced-fix-watchdog", command = START_WATCHDOG);
        match self {
            Unenforced::NoProvider => (
                crate::t!("unenforced-no-provider").into_owned(),
                crate::t!("unenforced-fix-provider").into_owned(),
            ),
            Unenforced::Down(why) => (
                crate::t!("unenforced-down", why = why.clone()),
                watchdog_fix(),
            ),
            Unenforced::NotRunning(pid) => (
                crate::t!("unenforced-not-running", pid = pid.to_string()),
                watchdog_fix(),
            ),
            Unenforced::NoWatchdog => (
                crate::t!("unenforced-no-watchdog").into_owned(),
                watchdog_fix(),
            ),
        }
    }
}

impl Enforcement {
    pub fn is_enforced(&self) -> bool {
        !matches!(self, Enforcement::Nothing { .. })
    }

    /// `watchdog` or `provider`, as JSON names the holder; `None` when nothing holds it.
    pub fn label(&self) -> Option<&'static str> {
        match self {
            Enforcement::Watchdog { .. } => Some("watchdog"),
            Enforcement::Provider => Some("provider"),
            Enforcement::Nothing { .. } => None,
        }
    }

    /// `enforced by the watchdog (pid 42)`, `held by the provider (read back)`, or
    /// `not enforced: no watchdog runs; start one with ...`.
    pub fn text(&self) -> String {
        match self {
            Enforcement::Watchdog { pid } => format!("enforced by the watchdog (pid {pid})"),
            Enforcement::Provider => "held by the provider (read back)".into(),
            Enforcement::Nothing { reason, fix, .. } => format!("not enforced: {reason}; {fix}"),
        }
    }

    /// The JSON fields beside a deadline.
    pub fn json(&self) -> EnforcementJson {
        let (reason, fix) = match self {
            Enforcement::Nothing { reason, fix, .. } => (Some(reason.clone()), Some(fix.clone())),
            _ => (None, None),
        };
        EnforcementJson {
            enforced_by: self.label(),
            watchdog_pid: match self {
                Enforcement::Watchdog { pid } => Some(*pid),
                _ => None,
            },
            not_enforced_reason: reason,
            fix,
        }
    }
}

/// Who enforces a deadline, as `status --json` writes it beside the deadline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EnforcementJson {
    /// `watchdog`, `provider`, or `null` when nothing does.
    pub enforced_by: Option<&'static str>,
    pub watchdog_pid: Option<u32>,
    /// Why nothing enforces it; `null` while something does.
    pub not_enforced_reason: Option<String>,
    /// What would enforce it; `null` while something does.
    pub fix: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIVE: Holders<'static> = Holders {
        provider: true,
        provider_holds: false,
        watchdog: Some((42, true)),
        down: None,
    };

    #[test]
    fn a_live_watchdog_enforces_and_comes_before_the_provider() {
        assert_eq!(enforcement(&LIVE), Enforcement::Watchdog { pid: 42 });
        let both = Holders {
            provider_holds: true,
            ..LIVE
        };
        assert_eq!(enforcement(&both), Enforcement::Watchdog { pid: 42 });
        let json = enforcement(&LIVE).json();
        assert_eq!(json.enforced_by, Some("watchdog"));
        assert_eq!(json.watchdog_pid, Some(42));
        assert_eq!(json.not_enforced_reason, None);
    }

    #[test]
    fn a_dead_watchdog_enforces_nothing_unless_the_provider_holds_it() {
        let dead = Holders {
            watchdog: Some((42, false)),
            ..LIVE
        };
        let e = enforcement(&dead);
        assert!(!e.is_enforced());
        assert_eq!(e.label(), None);
        assert_eq!(
            e.text(),
            "not enforced: its watchdog (pid 42) is not running; \
             start one with `gpumeter watchdog` (or keep the cockpit open)"
        );
        let held = Holders {
            provider_holds: true,
            ..dead
        };
        assert_eq!(enforcement(&held), Enforcement::Provider);
        assert_eq!(enforcement(&held).json().enforced_by, Some("provider"));
    }

    #[test]
    fn no_provider_and_a_supervisor_that_gave_up_say_so() {
        let none = enforcement(&Holders::default());
        let Enforcement::Nothing { reason, fix, .. } = &none else {
            panic!("{none:?}")
        };
        assert!(reason.contains("no provider is configured"), "{reason}");
        assert!(fix.contains("gpumeter init"), "{fix}");
        let json = none.json();
        assert_eq!(json.enforced_by, None);
        assert!(json.not_enforced_reason.is_some() && json.fix.is_some());
        let down = Holders {
            provider: true,
            down: Some("cannot start the watchdog: no such file"),
            ..Holders::default()
        };
        assert_eq!(
            enforcement(&down).text(),
            "not enforced: no watchdog runs: cannot start the watchdog: no such file; \
             start one with `gpumeter watchdog` (or keep the cockpit open)"
        );
        let never = Holders {
            provider: true,
            ..Holders::default()
        };
        assert!(
            enforcement(&never)
                .text()
                .starts_with("not enforced: no watchdog runs;")
        );
    }
}
