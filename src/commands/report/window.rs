//! `--since` and `--until`: a span back from now (`7d`, `36h`, `1d12h`, `90m`), a local date
//! (`2026-05-01`, midnight), a local date and time (`2026-05-01 18:30`), an RFC 3339 instant,
//! or `now`. Pure: `now` and the time zone are arguments.

use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

/// Why a bound's text was refused.
#[derive(Debug, thiserror::Error)]
pub enum BoundError {
    #[error("`{0}` reaches too far back")]
    TooFarBack(String),
    #[error(
        "`{0}` is not a time: write a span back from now (7d, 36h, 90m), a date \
         (2026-05-01), a local time (2026-05-01 18:30) or an RFC 3339 instant"
    )]
    Malformed(String),
}

impl BoundError {
    /// The refusal in the user's language; `Display` stays English.
    pub fn shown(&self) -> String {
        match self {
            BoundError::TooFarBack(text) => crate::t!("report-too-far-back", text = text.as_str()),
            BoundError::Malformed(text) => crate::t!("report-not-a-time", text = text.as_str()),
        }
    }
}

pub fn parse_bound(text: &str, now: Timestamp, tz: &TimeZone) -> Result<Timestamp, BoundError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("now") {
        return Ok(now);
    }
    if let Some(span) = parse_span(text) {
        return now
            .checked_sub(span)
            .map_err(|_| BoundError::TooFarBack(text.to_owned()));
    }
    if let Ok(t) = text.parse::<Timestamp>() {
        return Ok(t);
    }
    let local = text.parse::<DateTime>().or_else(|_| {
        text.parse::<Date>()
            .map(|d| d.to_datetime(jiff::civil::Time::midnight()))
    });
    local
        .ok()
        .and_then(|dt| tz.to_timestamp(dt).ok())
        .ok_or_else(|| BoundError::Malformed(text.to_owned()))
}

/// `7d`, `1d12h`, `90m`, `45s`: whole numbers, each followed by d, h, m or s.
fn parse_span(text: &str) -> Option<SignedDuration> {
    let mut total: i64 = 0;
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let n: i64 = digits.parse().ok()?;
        digits.clear();
        let unit = match c {
            'd' => 86_400,
            'h' => 3_600,
            'm' => 60,
            's' => 1,
            _ => return None,
        };
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    digits
        .is_empty()
        .then_some(SignedDuration::from_secs(total))
        .filter(|_| !text.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> Timestamp {
        "2026-05-08T14:00:00Z".parse().unwrap()
    }

    #[test]
    fn spans_count_back_from_now() {
        let at = |s| parse_bound(s, now(), &TimeZone::UTC).unwrap().to_string();
        assert_eq!(at("7d"), "2026-05-01T14:00:00Z");
        assert_eq!(at("1d12h"), "2026-05-07T02:00:00Z");
        assert_eq!(at("90m"), "2026-05-08T12:30:00Z");
        assert_eq!(at("now"), "2026-05-08T14:00:00Z");
    }

    #[test]
    fn dates_are_local_midnight() {
        let tz = TimeZone::fixed(jiff::tz::offset(8));
        let t = parse_bound("2026-05-01", now(), &tz).unwrap();
        assert_eq!(t.to_string(), "2026-04-30T16:00:00Z");
        let t = parse_bound("2026-05-01 18:30", now(), &tz).unwrap();
        assert_eq!(t.to_string(), "2026-05-01T10:30:00Z");
        let t = parse_bound("2026-05-01T10:00:00Z", now(), &tz).unwrap();
        assert_eq!(t.to_string(), "2026-05-01T10:00:00Z");
    }

    #[test]
    fn nonsense_is_an_error_that_shows_the_forms() {
        let err = parse_bound("last week", now(), &TimeZone::UTC).unwrap_err();
        assert!(err.to_string().contains("7d"), "{err}");
        assert!(parse_bound("7", now(), &TimeZone::UTC).is_err());
        assert!(parse_bound("", now(), &TimeZone::UTC).is_err());
        assert!(parse_bound("7w", now(), &TimeZone::UTC).is_err());
    }
}
