//! Times as bills write them: FOCUS and the CUR in UTC (`2026-11-03T10:00:00Z`), the Chinese
//! consoles in local time with no zone (`2026-11-03 10:00:00`), days (`2026-11-03`) and
//! billing months (`2026-11`).

use jiff::civil::{Date, DateTime};
use jiff::tz::Offset;
use jiff::{Span, Timestamp};

/// What one time field covers: an instant (`end` is `None`), or a whole day or month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Period {
    pub start: Timestamp,
    /// The exclusive end, for a day or a month.
    pub end: Option<Timestamp>,
}

/// Reads `value`; a value with no zone or offset is local time at `offset_hours` from UTC.
pub(super) fn parse_time(value: &str, offset_hours: i8) -> Option<Period> {
    let value = value.trim();
    // A separator of slashes (`2026/11/03`), as spreadsheets save the Chinese exports.
    let value = if value.contains('/') {
        std::borrow::Cow::Owned(value.replace('/', "-"))
    } else {
        std::borrow::Cow::Borrowed(value)
    };
    if value.ends_with(['Z', 'z']) || has_offset(&value) {
        let start: Timestamp = value.parse().ok()?;
        return Some(Period { start, end: None });
    }
    let offset = Offset::from_hours(offset_hours).ok()?;
    let at = |dt: DateTime| offset.to_timestamp(dt).ok();
    if value.len() > 10 {
        let dt: DateTime = value.parse().ok()?;
        return Some(Period {
            start: at(dt)?,
            end: None,
        });
    }
    let (date, span) = if value.len() == 10 {
        (value.parse::<Date>().ok()?, Span::new().days(1))
    } else {
        let (year, month) = value.split_once('-')?;
        if month.len() != 2 {
            return None;
        }
        let date = Date::new(year.parse().ok()?, month.parse().ok()?, 1).ok()?;
        (date, Span::new().months(1))
    };
    let end = date.checked_add(span).ok()?;
    Some(Period {
        start: at(date.to_datetime(jiff::civil::Time::midnight()))?,
        end: Some(at(end.to_datetime(jiff::civil::Time::midnight()))?),
    })
}

/// Whether a date-time ends in an offset such as `+08:00` or `-0500` (after the time part).
fn has_offset(value: &str) -> bool {
    let Some(t) = value.find(['T', 't', ' ']) else {
        return false;
    };
    value[t..].contains(['+', '-'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn reads_utc_local_days_and_months() {
        let p = parse_time("2026-11-03T10:00:00Z", 8).unwrap();
        assert_eq!(p.start, ts("2026-11-03T10:00:00Z"));
        let p = parse_time("2026-11-03T10:00:00.000+08:00", 0).unwrap();
        assert_eq!(p.start, ts("2026-11-03T02:00:00Z"));
        let p = parse_time("2026-11-03 10:00:00", 8).unwrap();
        assert_eq!(p.start, ts("2026-11-03T02:00:00Z"));
        let p = parse_time("2026/11/03", 8).unwrap();
        assert_eq!(p.start, ts("2026-11-02T16:00:00Z"));
        assert_eq!(p.end, Some(ts("2026-11-03T16:00:00Z")));
        let p = parse_time("2026-12", 0).unwrap();
        assert_eq!(p.end, Some(ts("2027-01-01T00:00:00Z")));
        for bad in [
            "",
            "abc",
            "2026-13",
            "2026-1",
            "2026-11-32",
            "10:00",
            "2026-11-03T25:00Z",
        ] {
            assert_eq!(parse_time(bad, 8), None, "{bad}");
        }
    }
}
