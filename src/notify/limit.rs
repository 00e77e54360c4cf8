//! Rate limits per channel (a webhook, or the terminal): the same alert key at most once per
//! `repeat_after`, and at most `per_minute` alerts of any key in a sliding minute.
//!
//! Time is always an argument. A clock that goes backwards lets alerts through rather than
//! holding them: a repeated alert is a nuisance, a lost one is not harmless.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

const MINUTE: SignedDuration = SignedDuration::from_secs(60);

/// Why an alert was held back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Limited {
    /// The same key went out at `since`; it may go again from `until`.
    Repeat { since: Timestamp, until: Timestamp },
    /// The channel has had its `per_minute` alerts in the last minute.
    Busy { per_minute: u32 },
}

impl Limited {
    /// Why it was held, in the user's language.
    pub fn shown(&self) -> String {
        match self {
            Limited::Repeat { since, until } => crate::t!(
                "webhook-held-repeat",
                since = since.to_string(),
                until = until.to_string()
            ),
            Limited::Busy { per_minute } => {
                crate::t!("webhook-held-busy", count = per_minute.to_string())
            }
        }
    }
}

/// [`Limited::shown`] in English.
impl fmt::Display for Limited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::i18n::scoped(crate::i18n::Lang::En, || self.shown()))
    }
}

#[derive(Debug, Clone)]
pub struct RateLimiter {
    repeat_after: SignedDuration,
    per_minute: u32,
    last: HashMap<(usize, String), Timestamp>,
    recent: HashMap<usize, VecDeque<Timestamp>>,
}

impl RateLimiter {
    pub fn new(repeat_after: Duration, per_minute: u32) -> RateLimiter {
        RateLimiter {
            repeat_after: SignedDuration::try_from(repeat_after).unwrap_or(SignedDuration::MAX),
            per_minute,
            last: HashMap::new(),
            recent: HashMap::new(),
        }
    }

    /// Whether `key` may go to `channel` at `now`; when it may, it is counted as sent.
    pub fn admit(&mut self, channel: usize, key: &str, now: Timestamp) -> Result<(), Limited> {
        let repeat_after = self.repeat_after;
        self.last
            .retain(|_, at| *at > now || now.duration_since(*at) < repeat_after);
        if let Some(&since) = self.last.get(&(channel, key.to_string()))
            && since <= now
        {
            return Err(Limited::Repeat {
                since,
                until: since.saturating_add(repeat_after).unwrap_or(Timestamp::MAX),
            });
        }
        let recent = self.recent.entry(channel).or_default();
        recent.retain(|at| *at <= now && now.duration_since(*at) < MINUTE);
        if recent.len() >= self.per_minute as usize {
            return Err(Limited::Busy {
                per_minute: self.per_minute,
            });
        }
        recent.push_back(now);
        self.last.insert((channel, key.to_string()), now);
        Ok(())
    }

    /// Undoes the repeat guard for a send admitted at `at` that then failed, so the next
    /// alert with that key is not held back for one that never arrived. The per-minute count
    /// stands: the attempt did go out.
    pub fn forget(&mut self, channel: usize, key: &str, at: Timestamp) {
        let slot = (channel, key.to_string());
        if self.last.get(&slot) == Some(&at) {
            self.last.remove(&slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(secs: i64) -> Timestamp {
        Timestamp::from_second(1_700_000_000 + secs).unwrap()
    }

    #[test]
    fn the_same_key_waits_for_repeat_after_per_channel() {
        let mut limiter = RateLimiter::new(Duration::from_secs(600), 100);
        assert_eq!(limiter.admit(0, "idle", t(0)), Ok(()));
        assert_eq!(
            limiter.admit(0, "idle", t(599)),
            Err(Limited::Repeat {
                since: t(0),
                until: t(600)
            })
        );
        assert_eq!(limiter.admit(1, "idle", t(1)), Ok(()), "another channel");
        assert_eq!(limiter.admit(0, "budget:80", t(2)), Ok(()), "another key");
        assert_eq!(limiter.admit(0, "idle", t(600)), Ok(()));
    }

    #[test]
    fn each_channel_has_a_sliding_minute_cap() {
        let mut limiter = RateLimiter::new(Duration::from_secs(600), 3);
        for (i, key) in ["a", "b", "c"].into_iter().enumerate() {
            assert_eq!(limiter.admit(0, key, t(i64::try_from(i).unwrap())), Ok(()));
        }
        assert_eq!(
            limiter.admit(0, "d", t(59)),
            Err(Limited::Busy { per_minute: 3 })
        );
        assert_eq!(limiter.admit(1, "d", t(59)), Ok(()), "another channel");
        assert_eq!(limiter.admit(0, "d", t(60)), Ok(()), "a slot has freed");
        assert_eq!(
            limiter.admit(0, "e", t(60)),
            Err(Limited::Busy { per_minute: 3 })
        );
    }

    #[test]
    fn a_held_alert_does_not_use_up_a_slot() {
        let mut limiter = RateLimiter::new(Duration::from_secs(600), 2);
        assert_eq!(limiter.admit(0, "a", t(0)), Ok(()));
        assert!(limiter.admit(0, "a", t(1)).is_err());
        assert!(limiter.admit(0, "a", t(2)).is_err());
        assert_eq!(limiter.admit(0, "b", t(3)), Ok(()));
    }

    #[test]
    fn a_failed_send_can_be_forgotten() {
        let mut limiter = RateLimiter::new(Duration::from_secs(600), 10);
        assert_eq!(limiter.admit(0, "a", t(0)), Ok(()));
        limiter.forget(0, "a", t(5));
        assert!(limiter.admit(0, "a", t(10)).is_err(), "a different send");
        limiter.forget(0, "a", t(0));
        assert_eq!(limiter.admit(0, "a", t(10)), Ok(()));
    }

    #[test]
    fn a_clock_that_goes_back_lets_alerts_through() {
        let mut limiter = RateLimiter::new(Duration::from_secs(600), 1);
        assert_eq!(limiter.admit(0, "a", t(1000)), Ok(()));
        assert_eq!(limiter.admit(0, "a", t(0)), Ok(()));
    }
}
