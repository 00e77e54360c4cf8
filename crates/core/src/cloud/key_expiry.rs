//! Keys with an end. Keys exported for a few hours (`AWS_CREDENTIAL_EXPIRATION`) cannot stop or
//! release anything once they expire, so a deadline armed past their end is a guard that will
//! fail when it matters. Every surface that shows a deadline (the cockpit, `status`, the
//! watchdog's log) says so in the same words, made here.

use jiff::Timestamp;

use crate::guard::OnExpiry;

/// The warning for a deadline at `deadline` whose policy is `on_expiry`, acted on with keys
/// that stop working at `keys_expire`: `None` when nothing is to be acted on (alert only), the
/// keys have no end, or they outlive the deadline and its `grace`.
pub fn outlived_keys(
    deadline: Timestamp,
    grace: std::time::Duration,
    on_expiry: OnExpiry,
    keys_expire: Option<Timestamp>,
) -> Option<String> {
    let expire = keys_expire?;
    if on_expiry == OnExpiry::Alert {
        return None;
    }
    let acts_by = deadline
        .checked_add(jiff::SignedDuration::try_from(grace).ok()?)
        .ok()?;
    if acts_by < expire {
        return None;
    }
    let verb = match on_expiry {
        OnExpiry::Stop => "stop",
        _ => "release",
    };
    Some(format!(
        "the provider keys expire at {}, before the deadline at {} can {verb} the instance: \
         export fresh keys before then, or the {verb} will fail",
        utc(expire),
        utc(deadline),
    ))
}

fn utc(at: Timestamp) -> String {
    at.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    #[test]
    fn warns_only_when_the_keys_end_before_the_guard_acts() {
        let deadline = at("2026-12-05T18:30:00Z");
        let grace = Duration::from_secs(120);
        let early = Some(at("2026-12-05T17:00:00Z"));
        let said = outlived_keys(deadline, grace, OnExpiry::Release, early).unwrap();
        assert!(
            said.contains("2026-12-05 17:00 UTC") && said.contains("2026-12-05 18:30 UTC"),
            "{said}"
        );
        assert!(said.contains("release"), "{said}");
        let stop = outlived_keys(deadline, grace, OnExpiry::Stop, early).unwrap();
        assert!(stop.contains("can stop"), "{stop}");
        // Inside the grace is still too late: the guard acts at the deadline plus its grace.
        let in_grace = Some(at("2026-12-05T18:31:00Z"));
        assert!(outlived_keys(deadline, grace, OnExpiry::Release, in_grace).is_some());
        let after = Some(at("2026-12-05T18:33:00Z"));
        assert_eq!(
            outlived_keys(deadline, grace, OnExpiry::Release, after),
            None
        );
        assert_eq!(outlived_keys(deadline, grace, OnExpiry::Alert, early), None);
        assert_eq!(
            outlived_keys(deadline, grace, OnExpiry::Release, None),
            None
        );
    }
}
