//! Times in the user's zone: which zone that is and where it came from, the zone named
//! beside a deadline, and the instant a clock time (`--release-at 18:30`) means.
//!
//! The zone is resolved once at the edge and passed in; nothing here reads `TZ`, the system
//! zone or the clock. JSON and CSV never use it: they stay UTC.

use jiff::civil::{Date, Time};
use jiff::tz::{AmbiguousOffset, TimeZone};
use jiff::{Timestamp, ZonedDateTime};

/// Where the zone times are shown in came from, for `doctor` and for errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneSource {
    /// The config file's `timezone`.
    Setting,
    /// The `TZ` environment variable.
    Env,
    /// A `TZ` that names no zone this machine knows: UTC stands in, and says why.
    EnvNotUnderstood,
    /// The system's zone (`/etc/localtime`), or UTC where it cannot be read.
    System,
}

impl ZoneSource {
    pub fn describe(self) -> &'static str {
        match self {
            ZoneSource::Setting => "the config's `timezone`",
            ZoneSource::Env => "TZ",
            ZoneSource::EnvNotUnderstood => "TZ, which names no zone this machine knows",
            ZoneSource::System => "the system zone",
        }
    }
}

/// The zone every time on screen and in text output is shown in.
#[derive(Debug, Clone, PartialEq)]
pub struct UserZone {
    pub tz: TimeZone,
    pub source: ZoneSource,
}

impl UserZone {
    /// UTC, as on a cloud image with nothing set; what tests and the demo pin.
    pub fn utc() -> Self {
        UserZone {
            tz: TimeZone::UTC,
            source: ZoneSource::System,
        }
    }

    /// `Asia/Shanghai (from TZ)`: the zone and where it came from, one line.
    pub fn describe(&self) -> String {
        let name = self.tz.iana_name().map_or_else(
            || "an unnamed zone".to_string(),
            |n| crate::text::one_line(n, 60),
        );
        format!("{name} (from {})", self.source.describe())
    }

    /// [`UserZone::describe`] in the user's language, for text a person reads.
    pub fn shown(&self) -> String {
        let name = self.tz.iana_name().map_or_else(
            || crate::t!("zone-unnamed").into_owned(),
            |n| crate::text::one_line(n, 60),
        );
        let source = match self.source {
            ZoneSource::Setting => crate::t!("zone-from-setting"),
            ZoneSource::Env => crate::t!("zone-from-env"),
            ZoneSource::EnvNotUnderstood => crate::t!("zone-from-env-not-understood"),
            ZoneSource::System => crate::t!("zone-from-system"),
        };
        crate::t!("zone-described", name = name, source = source)
    }
}

/// The zone as a clock in it shows at `at`, named where the abbreviation alone is ambiguous:
/// `CST (Asia/Shanghai)`, `EDT (America/New_York)`, `+04 (Asia/Dubai)`, or just `UTC`.
/// Abbreviations are what `date` prints and what people say, but `CST` is China, the US
/// Central and Cuba; the IANA name settles it and is what the `timezone` setting takes.
pub fn zone_label(at: Timestamp, tz: &TimeZone) -> String {
    let zoned = at.to_zoned_datetime(tz.clone());
    label_of(&zoned)
}

fn label_of(zoned: &ZonedDateTime) -> String {
    let abbreviation = crate::text::one_line(&zoned.strftime("%Z").to_string(), 12);
    match zoned.time_zone().iana_name() {
        Some(name) if !is_plain_utc(name) && name != abbreviation => {
            format!("{abbreviation} ({})", crate::text::one_line(name, 60))
        }
        _ => abbreviation,
    }
}

fn is_plain_utc(name: &str) -> bool {
    matches!(
        name,
        "UTC" | "Etc/UTC" | "Etc/Universal" | "Universal" | "Zulu" | "Etc/Zulu"
    )
}

/// `18:30 CST (Asia/Shanghai)` on `now`'s local day, `2028-02-03 01:16 UTC` on any other: a
/// deadline with its zone named beside it.
pub fn deadline_label(at: Timestamp, now: Timestamp, tz: &TimeZone) -> String {
    format!(
        "{} {}",
        crate::app::deadline::when(at, now, tz),
        zone_label(at, tz)
    )
}

/// `2027-03-14 18:30:05 EDT (America/New_York)`: a full time for text output.
pub fn full_label(at: Timestamp, tz: &TimeZone) -> String {
    let zoned = at.to_zoned_datetime(tz.clone());
    format!(
        "{} {}",
        zoned.strftime("%Y-%m-%d %H:%M:%S"),
        label_of(&zoned)
    )
}

/// The instant a clock time means, and what to tell the user when that day's clock skips or
/// repeats it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockInstant {
    pub at: Timestamp,
    /// Set when the time falls in a daylight-saving gap or fold on that day.
    pub note: Option<String>,
}

/// The next instant after `now` at which a clock in `tz` shows `time`: today's if still ahead,
/// else tomorrow's.
///
/// A deadline is a limit on spending, so it is the first instant the clock reaches `time`: a
/// time the clocks skip (02:30 on a spring-forward day) is the moment they jump past it
/// (03:00), and a time they show twice (01:30 on a fall-back day) is the first of the two.
pub fn next_clock_time(now: Timestamp, time: Time, tz: &TimeZone) -> ClockInstant {
    let today = tz.to_datetime(now).date();
    if let Some(found) = on_day(today, time, tz).filter(|c| c.at > now) {
        return found;
    }
    today
        .tomorrow()
        .ok()
        .and_then(|day| on_day(day, time, tz))
        .unwrap_or(ClockInstant {
            at: now,
            note: None,
        })
}

fn on_day(day: Date, time: Time, tz: &TimeZone) -> Option<ClockInstant> {
    let wanted = day.to_datetime(time);
    let ambiguous = tz.to_ambiguous_timestamp(wanted);
    let (at, how) = match ambiguous.offset() {
        AmbiguousOffset::Unambiguous { .. } => {
            return Some(ClockInstant {
                at: ambiguous.compatible().ok()?,
                note: None,
            });
        }
        // The earlier reading lies before the gap; the transition after it is the jump.
        AmbiguousOffset::Gap { .. } => {
            let before = ambiguous.earlier().ok()?;
            (tz.following(before).next()?.timestamp(), "skips")
        }
        AmbiguousOffset::Fold { .. } => (ambiguous.earlier().ok()?, "twice"),
    };
    let shown = at.to_zoned_datetime(tz.clone());
    let zone = tz
        .iana_name()
        .map_or_else(|| crate::t!("zone-this-zone").into_owned(), str::to_string);
    let note = crate::t!(
        "zone-clock-moved",
        how = how,
        time = time.strftime("%H:%M").to_string(),
        day = day.to_string(),
        zone = zone,
        at = shown.strftime("%H:%M").to_string(),
        label = label_of(&shown)
    );
    Some(ClockInstant {
        at,
        note: Some(note),
    })
}

#[cfg(test)]
mod tests;
