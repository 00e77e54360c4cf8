//! The `timezone` setting: an IANA zone name, checked against the time zone database when the
//! config is read, so a typo is a config error with its line and column, not UTC in silence.

use std::fmt;

use jiff::tz::TimeZone;
use serde::de::{self, Deserializer};

/// A zone the database knows, with the name it was given by.
#[derive(Debug, Clone)]
pub struct ZoneSetting {
    pub name: String,
    pub tz: TimeZone,
}

impl PartialEq for ZoneSetting {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl fmt::Display for ZoneSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// How to find the names, said in every error about one.
pub const HOW_TO_LIST: &str = "`timedatectl list-timezones` lists them, and so does \
     https://en.wikipedia.org/wiki/List_of_tz_database_time_zones";

/// Why a time zone name was refused; each holds the name, cut to one short line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZoneError {
    #[error(
        "`{0}` cannot be looked up: this machine has no time zone database; install the tzdata \
         package, or leave timezone unset for UTC"
    )]
    NoDatabase(String),
    #[error(
        "`{0}` is not a time zone: expected an IANA name such as \"Asia/Shanghai\", \
         \"America/New_York\" or \"UTC\"; {HOW_TO_LIST}"
    )]
    Unknown(String),
}

impl ZoneSetting {
    /// Looks `name` up in the time zone database.
    pub fn parse(name: &str) -> Result<ZoneSetting, ZoneError> {
        let trimmed = name.trim();
        match TimeZone::get(trimmed) {
            Ok(tz) => Ok(ZoneSetting {
                name: trimmed.to_string(),
                tz,
            }),
            Err(_) if jiff::tz::db().is_definitively_empty() => Err(ZoneError::NoDatabase(
                gpumeter_core::text::one_line(name, 60),
            )),
            Err(_) => Err(ZoneError::Unknown(gpumeter_core::text::one_line(name, 60))),
        }
    }
}

pub fn opt_zone<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ZoneSetting>, D::Error> {
    let name: String = serde::Deserialize::deserialize(d)?;
    ZoneSetting::parse(&name)
        .map(Some)
        .map_err(de::Error::custom)
}

/// The zone times are shown in: the `timezone` setting, else `tz_env` (the `TZ` variable,
/// read as the C library reads it), else the system's. A `TZ` nothing can make sense of
/// gives UTC, with a source that says so.
pub fn resolve(
    setting: Option<&ZoneSetting>,
    tz_env: Option<&std::ffi::OsStr>,
) -> gpumeter_core::zone::UserZone {
    use gpumeter_core::zone::{UserZone, ZoneSource};
    if let Some(setting) = setting {
        return UserZone {
            tz: setting.tz.clone(),
            source: ZoneSource::Setting,
        };
    }
    if let Some(value) = tz_env {
        return match from_tz_value(value) {
            Some(tz) => UserZone {
                tz,
                source: ZoneSource::Env,
            },
            None => UserZone {
                tz: TimeZone::UTC,
                source: ZoneSource::EnvNotUnderstood,
            },
        };
    }
    UserZone {
        tz: TimeZone::system(),
        source: ZoneSource::System,
    }
}

/// A `TZ` value as the C library reads it: empty for UTC, `Asia/Shanghai` or `:Asia/Shanghai`,
/// a path ending in `zoneinfo/Asia/Shanghai`, or a POSIX rule such as `CST-8`.
fn from_tz_value(value: &std::ffi::OsStr) -> Option<TimeZone> {
    let text = value.to_str()?;
    if text.is_empty() {
        return Some(TimeZone::UTC);
    }
    let text = text.strip_prefix(':').unwrap_or(text);
    let name = text.rsplit_once("zoneinfo/").map_or(text, |(_, name)| name);
    TimeZone::get(name)
        .ok()
        .or_else(|| TimeZone::posix(text).ok())
}

impl super::Config {
    /// The zone every time is shown in, resolved once at the edge: the one place besides
    /// [`super::Config::default_path`] that reads the environment.
    pub fn user_zone(&self) -> gpumeter_core::zone::UserZone {
        resolve(self.timezone.as_ref(), std::env::var_os("TZ").as_deref())
    }
}
