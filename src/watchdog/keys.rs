//! Keys that end before the deadline acts. The watchdog says so in its log once per deadline
//! (at start, and again whenever the deadline or its policy moves), in the words the cockpit
//! and `status` use.

use jiff::Timestamp;

use crate::config::OnExpiry;
use crate::ledger::GuardState;

/// Which armed deadline has been warned about, so a warning is said once, not every tick.
#[derive(Debug, Default)]
pub struct KeysWarned {
    said_for: Option<(Timestamp, OnExpiry)>,
}

impl KeysWarned {
    /// The warning to say now for `guard`'s deadline, acted on with keys that end at
    /// `keys_expire`: `None` when there is nothing to say or it was said for this deadline.
    pub fn check(
        &mut self,
        guard: Option<&GuardState>,
        keys_expire: Option<Timestamp>,
    ) -> Option<String> {
        let guard = guard?;
        let deadline = guard.deadline?;
        let key = (deadline, guard.on_expiry);
        if self.said_for == Some(key) {
            return None;
        }
        let warning =
            crate::provider::outlived_keys(deadline, guard.grace, guard.on_expiry, keys_expire)?;
        self.said_for = Some(key);
        Some(warning)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn row(deadline: &str, on_expiry: OnExpiry) -> GuardState {
        GuardState {
            instance: "i-0abc".into(),
            deadline: Some(deadline.parse().unwrap()),
            on_expiry,
            grace: Duration::from_secs(120),
            provider_held: None,
            snooze_until: None,
            watchdog: None,
            idle: None,
            revision: 1,
            updated: "2026-12-05T10:00:00Z".parse().unwrap(),
            updated_by: "cockpit".into(),
        }
    }

    #[test]
    fn a_deadline_past_the_keys_is_said_once_and_again_when_it_moves() {
        let keys = Some("2026-12-05T17:00:00Z".parse().unwrap());
        let mut warned = KeysWarned::default();
        let first = row("2026-12-05T18:30:00Z", OnExpiry::Release);
        let said = warned.check(Some(&first), keys).expect("warned at start");
        assert!(said.contains("2026-12-05 17:00 UTC"), "{said}");
        assert!(said.contains("release"), "{said}");
        assert_eq!(
            warned.check(Some(&first), keys),
            None,
            "said once per deadline"
        );
        let moved = row("2026-12-05T19:00:00Z", OnExpiry::Stop);
        let said = warned
            .check(Some(&moved), keys)
            .expect("said again when it moves");
        assert!(said.contains("stop"), "{said}");
        let within = row("2026-12-05T16:00:00Z", OnExpiry::Stop);
        assert_eq!(warned.check(Some(&within), keys), None, "keys outlive it");
        assert_eq!(
            warned.check(Some(&moved), None),
            None,
            "keys without an end"
        );
        let alert = row("2026-12-05T20:00:00Z", OnExpiry::Alert);
        assert_eq!(warned.check(Some(&alert), keys), None, "nothing to act on");
    }
}
