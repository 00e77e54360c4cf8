//! Keeping the watchdog there: the cockpit starts it, notices when it is gone (its process
//! ended badly, or its heartbeat went stale), starts it again with the same arguments, and
//! gives up loudly when that does not hold: a start that fails, or one that dies again and
//! again within [`RESTART_WINDOW`].
//!
//! A watchdog that ends on purpose (its instance released, `gpumeter watchdog --stop`) clears
//! its claim on the guard row first, and is left ended. Time is an argument; the cockpit's
//! `update` feeds the row as read, the starts and the exits, and turns what this says into
//! effects.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

use super::row::{Watchdog, stale_after};

/// Why a watchdog did not start. The OS's reason arrives as its text: the core's events are
/// compared and cloned, which `std::io::Error` is not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error("{0}")]
    Os(String),
    #[error("this cockpit starts no watchdog")]
    NoWatchdog,
}

impl From<std::io::Error> for StartError {
    fn from(e: std::io::Error) -> Self {
        StartError::Os(e.to_string())
    }
}

/// A watchdog restarted this many times within [`RESTART_WINDOW`] is not started again.
pub const MAX_RESTARTS: usize = 3;
/// The window [`MAX_RESTARTS`] counts in.
pub const RESTART_WINDOW: Duration = Duration::from_secs(600);
/// How long a started watchdog may take to claim the guard row (it asks the provider for the
/// instance first, which can take a retry or two).
pub const START_GRACE: Duration = Duration::from_secs(60);
/// Processes known gone, kept so that a stale row naming one is not taken for alive.
const GONE_KEPT: usize = 8;

/// What the supervisor asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Supervision {
    /// Start the watchdog with the arguments it was first started with: the first time
    /// (`why` is `None`), or again, for `why`.
    Start { why: Option<String> },
    /// No watchdog runs and none will be started: say so on the screen and wherever alerts go.
    GiveUp { why: String },
    /// A watchdog guards the instance again after the supervisor gave up.
    Recovered { pid: u32 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    /// Nothing started yet.
    Unstarted,
    /// A start was asked for and is not answered yet.
    Starting,
    /// Started as `pid` at `at`, and has not claimed the row yet.
    Started { at: Timestamp, pid: u32 },
    /// A live watchdog holds the row.
    Guarding,
    /// The watchdog ended on purpose: it is not started again.
    Ended,
    /// Gave up; only a watchdog that turns up alive ends this.
    Down(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Supervisor {
    stale_after: Duration,
    phase: Phase,
    /// When the watchdog was started again, within the window.
    restarts: Vec<Timestamp>,
    /// Processes known gone and how they ended, newest last.
    gone: Vec<(u32, String)>,
    /// A process of ours that ended by itself, with exit status 0.
    clean: Option<u32>,
    /// Whether the watchdog was started again and has not yet claimed the row.
    again: bool,
}

impl Supervisor {
    /// A supervisor for a watchdog that checks every `interval`.
    pub fn new(interval: Duration) -> Self {
        Supervisor {
            stale_after: stale_after(interval),
            phase: Phase::Unstarted,
            restarts: Vec::new(),
            gone: Vec::new(),
            clean: None,
            again: false,
        }
    }

    /// A heartbeat older than this is a watchdog gone silent.
    pub fn stale_after(&self) -> Duration {
        self.stale_after
    }

    /// Why no watchdog runs, once the supervisor has given up.
    pub fn down(&self) -> Option<&str> {
        match &self.phase {
            Phase::Down(why) => Some(why),
            _ => None,
        }
    }

    /// A restart is under way: asked for, or started and not yet guarding.
    pub fn restarting(&self) -> bool {
        self.again && matches!(self.phase, Phase::Starting | Phase::Started { .. })
    }

    /// Whether process `pid` is known to have ended.
    pub fn is_gone(&self, pid: u32) -> bool {
        self.gone.iter().any(|(p, _)| *p == pid)
    }

    /// Whether `row`'s watchdog is alive at `now`: its lock held, whatever its heartbeat says;
    /// where nobody looked at the lock, a fresh heartbeat from a process not known to have
    /// ended.
    pub fn alive(&self, now: Timestamp, row: &Watchdog) -> bool {
        match row.lock_held {
            Some(held) => held,
            None => row.alive(now, self.stale_after) && !self.is_gone(row.pid),
        }
    }

    /// The first start, asked for at the first tick.
    pub fn tick(&mut self) -> Option<Supervision> {
        if self.phase != Phase::Unstarted {
            return None;
        }
        self.phase = Phase::Starting;
        Some(Supervision::Start { why: None })
    }

    /// The answer to a start: the new process's pid, or why it could not start.
    pub fn started(
        &mut self,
        now: Timestamp,
        result: Result<u32, StartError>,
    ) -> Option<Supervision> {
        match result {
            Ok(pid) => {
                self.phase = Phase::Started { at: now, pid };
                None
            }
            Err(e) => Some(self.give_up(crate::t!("watchdog-cannot-start", error = e.to_string()))),
        }
    }

    /// A watchdog process ended: `failure` says how it ended badly, `None` when it exited by
    /// itself with status 0 (it had nothing to do, or another one guards).
    pub fn ended(&mut self, pid: u32, failure: Option<String>) {
        match failure {
            Some(why) => {
                self.gone.retain(|(p, _)| *p != pid);
                if self.gone.len() == GONE_KEPT {
                    self.gone.remove(0);
                }
                self.gone.push((pid, why));
            }
            None => self.clean = Some(pid),
        }
    }

    /// The guard row's watchdog as last read, at `now`: is it there, and if not, what now.
    pub fn observe(&mut self, now: Timestamp, row: Option<&Watchdog>) -> Option<Supervision> {
        if let Some(w) = row.filter(|w| self.alive(now, w)) {
            self.again = false;
            let was_down = matches!(self.phase, Phase::Down(_));
            self.phase = Phase::Guarding;
            return was_down.then_some(Supervision::Recovered { pid: w.pid });
        }
        match self.phase.clone() {
            Phase::Unstarted | Phase::Starting | Phase::Ended | Phase::Down(_) => None,
            Phase::Started { at, pid } => {
                if self.clean == Some(pid) {
                    // It left by itself before guarding: there was nothing for it to guard.
                    self.phase = Phase::Ended;
                    None
                } else if let Some(why) = self.why_gone(pid) {
                    let why = crate::t!("watchdog-pid-why", pid = pid.to_string(), why = why);
                    Some(self.restart(now, why))
                } else if waited(at, now) >= START_GRACE {
                    let why = crate::t!(
                        "watchdog-did-not-take-up",
                        pid = pid.to_string(),
                        seconds = START_GRACE.as_secs().to_string()
                    );
                    Some(self.restart(now, why))
                } else {
                    None
                }
            }
            Phase::Guarding => match row {
                // It cleared its claim: it ended on purpose.
                None => {
                    self.phase = Phase::Ended;
                    None
                }
                Some(w) => {
                    let why = match self.why_gone(w.pid) {
                        Some(why) => {
                            crate::t!("watchdog-pid-why", pid = w.pid.to_string(), why = why)
                        }
                        None if w.lock_held == Some(false) => {
                            crate::t!("watchdog-lock-free", pid = w.pid.to_string())
                        }
                        None => crate::t!(
                            "watchdog-went-silent",
                            pid = w.pid.to_string(),
                            seconds = waited(w.heartbeat, now).as_secs().to_string()
                        ),
                    };
                    Some(self.restart(now, why))
                }
            },
        }
    }

    fn why_gone(&self, pid: u32) -> Option<String> {
        self.gone
            .iter()
            .rev()
            .find(|(p, _)| *p == pid)
            .map(|(_, why)| why.clone())
    }

    fn restart(&mut self, now: Timestamp, why: String) -> Supervision {
        self.restarts
            .retain(|at| *at <= now && waited(*at, now) < RESTART_WINDOW);
        if self.restarts.len() >= MAX_RESTARTS {
            return self.give_up(crate::t!(
                "watchdog-after-restarts",
                why = why,
                restarts = self.restarts.len().to_string(),
                minutes = (RESTART_WINDOW.as_secs() / 60).to_string()
            ));
        }
        self.restarts.push(now);
        self.phase = Phase::Starting;
        self.again = true;
        Supervision::Start { why: Some(why) }
    }

    fn give_up(&mut self, why: String) -> Supervision {
        self.phase = Phase::Down(why.clone());
        self.again = false;
        Supervision::GiveUp { why }
    }
}

/// How long from `from` to `now`; zero when the clock went back.
fn waited(from: Timestamp, now: Timestamp) -> Duration {
    Duration::try_from(now.duration_since(from).max(SignedDuration::ZERO)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(1_700_000_000 + s).unwrap()
    }

    fn beat(pid: u32, at: i64) -> Watchdog {
        Watchdog::beat(pid, ts(at))
    }

    fn locked(pid: u32, at: i64, held: bool) -> Watchdog {
        Watchdog {
            lock_held: Some(held),
            ..beat(pid, at)
        }
    }

    /// Started at 0 as pid 10, guarding from 1.
    fn guarding() -> Supervisor {
        let mut s = Supervisor::new(Duration::from_secs(5));
        assert_eq!(s.tick(), Some(Supervision::Start { why: None }));
        assert_eq!(s.tick(), None, "started once");
        assert_eq!(s.started(ts(0), Ok(10)), None);
        assert_eq!(s.observe(ts(1), Some(&beat(10, 1))), None);
        s
    }

    #[test]
    fn a_live_heartbeat_is_left_alone() {
        let mut s = guarding();
        assert_eq!(s.observe(ts(15), Some(&beat(10, 12))), None);
        assert_eq!(s.observe(ts(31), Some(&beat(10, 12))), None, "19s old");
        assert!(!s.restarting());
    }

    #[test]
    fn a_stale_heartbeat_is_restarted_and_counted() {
        let mut s = guarding();
        let d = s.observe(ts(32), Some(&beat(10, 12)));
        assert!(
            matches!(&d, Some(Supervision::Start { why: Some(why) }) if why.contains("no check for 20s")),
            "{d:?}"
        );
        assert!(s.restarting());
        assert_eq!(
            s.observe(ts(33), Some(&beat(10, 12))),
            None,
            "one at a time"
        );
        assert_eq!(s.started(ts(33), Ok(11)), None);
        assert_eq!(
            s.observe(ts(34), Some(&beat(10, 12))),
            None,
            "the new one gets time to claim"
        );
        assert_eq!(s.observe(ts(35), Some(&beat(11, 35))), None);
        assert!(!s.restarting());
    }

    #[test]
    fn a_process_gone_is_restarted_before_its_heartbeat_is_stale() {
        let mut s = guarding();
        s.ended(10, Some("was killed (signal: 9 (SIGKILL))".into()));
        assert!(!s.alive(ts(3), &beat(10, 2)));
        let d = s.observe(ts(3), Some(&beat(10, 2)));
        assert_eq!(
            d,
            Some(Supervision::Start {
                why: Some("the watchdog (pid 10) was killed (signal: 9 (SIGKILL))".into())
            })
        );
    }

    #[test]
    fn a_watchdog_that_clears_its_claim_is_left_ended() {
        let mut s = guarding();
        assert_eq!(s.observe(ts(5), None), None);
        assert_eq!(s.observe(ts(500), None), None);
        // A clean exit of the one started, before it claimed: nothing to guard.
        let mut s = Supervisor::new(Duration::from_secs(5));
        s.tick();
        s.started(ts(0), Ok(10));
        s.ended(10, None);
        assert_eq!(s.observe(ts(100), None), None);
    }

    #[test]
    fn one_that_never_claims_is_restarted_after_the_start_grace() {
        let mut s = Supervisor::new(Duration::from_secs(5));
        s.tick();
        s.started(ts(0), Ok(10));
        assert_eq!(s.observe(ts(59), None), None);
        assert!(matches!(
            s.observe(ts(60), None),
            Some(Supervision::Start { why: Some(_) })
        ));
        // One that failed at once is restarted at once.
        let mut s = Supervisor::new(Duration::from_secs(5));
        s.tick();
        s.started(ts(0), Ok(10));
        s.ended(10, Some("ended (exit status: 1)".into()));
        assert!(matches!(
            s.observe(ts(1), None),
            Some(Supervision::Start { why: Some(_) })
        ));
    }

    /// The watchdog `pid` ends at `at`; the supervisor must ask for a new one, which starts as
    /// the next pid. Returns that pid.
    fn die_and_restart(s: &mut Supervisor, pid: u32, at: i64) -> u32 {
        s.ended(pid, Some("ended (exit status: 101)".into()));
        assert!(
            matches!(
                s.observe(ts(at + 2), Some(&beat(pid, at + 1))),
                Some(Supervision::Start { .. })
            ),
            "a restart after the death at {at}"
        );
        s.started(ts(at + 3), Ok(pid + 1));
        pid + 1
    }

    #[test]
    fn dying_again_and_again_gives_up_and_a_live_one_recovers() {
        let mut s = guarding();
        let mut pid = 10;
        for round in 0..3 {
            pid = die_and_restart(&mut s, pid, 100 * round);
            assert_eq!(
                s.observe(ts(100 * round + 4), Some(&beat(pid, 100 * round + 4))),
                None
            );
        }
        s.ended(pid, Some("ended (exit status: 101)".into()));
        let d = s.observe(ts(302), Some(&beat(pid, 301)));
        let Some(Supervision::GiveUp { why }) = d else {
            panic!("{d:?}")
        };
        assert!(why.contains("after 3 restarts in 10 minutes"), "{why}");
        assert!(s.down().is_some());
        assert_eq!(s.observe(ts(400), Some(&beat(pid, 301))), None, "said once");
        assert_eq!(
            s.observe(ts(401), Some(&beat(99, 401))),
            Some(Supervision::Recovered { pid: 99 })
        );
        assert_eq!(s.down(), None);
    }

    #[test]
    fn restarts_outside_the_window_do_not_count() {
        let mut s = guarding();
        let mut pid = 10;
        for round in 0..6 {
            pid = die_and_restart(&mut s, pid, 400 * round);
            s.observe(ts(400 * round + 4), Some(&beat(pid, 400 * round + 4)));
        }
    }

    #[test]
    fn a_start_that_fails_gives_up_at_once() {
        let mut s = Supervisor::new(Duration::from_secs(5));
        s.tick();
        let d = s.started(ts(0), Err(StartError::Os("no such file".into())));
        assert_eq!(
            d,
            Some(Supervision::GiveUp {
                why: "cannot start the watchdog: no such file".into()
            })
        );
        assert_eq!(s.observe(ts(100), None), None);
    }

    #[test]
    fn a_watchdog_holding_its_lock_is_never_restarted_however_late_its_heartbeat() {
        let mut s = guarding();
        // Three hours without a heartbeat the ledger shows (a clock step, a locked ledger).
        assert_eq!(s.observe(ts(10_800), Some(&locked(10, 1, true))), None);
        assert!(!s.restarting());
        // Even one the reaper heard end: whoever holds the lock guards.
        s.ended(10, Some("ended (exit status: 1)".into()));
        assert_eq!(s.observe(ts(10_801), Some(&locked(10, 1, true))), None);
    }

    #[test]
    fn a_free_lock_restarts_at_once_however_fresh_the_heartbeat() {
        let mut s = guarding();
        let d = s.observe(ts(2), Some(&locked(10, 2, false)));
        assert_eq!(
            d,
            Some(Supervision::Start {
                why: Some("the watchdog (pid 10) is gone: nothing holds its lock".into())
            })
        );
    }

    #[test]
    fn a_clock_that_goes_back_restarts_nothing() {
        let mut s = guarding();
        assert_eq!(s.observe(ts(-100), Some(&beat(10, 1))), None);
    }
}
