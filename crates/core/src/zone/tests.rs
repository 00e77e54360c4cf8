use jiff::Timestamp;
use jiff::civil::Time;
use jiff::tz::TimeZone;

use super::*;

fn zone(name: &str) -> TimeZone {
    TimeZone::get(name).expect("the IANA time zone database (tzdata) is installed")
}

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn hm(s: &str) -> Time {
    s.parse().unwrap()
}

#[test]
fn the_label_names_the_zone_where_the_abbreviation_is_ambiguous() {
    let summer = ts("2027-07-01T12:00:00Z");
    assert_eq!(
        zone_label(summer, &zone("Asia/Shanghai")),
        "CST (Asia/Shanghai)"
    );
    assert_eq!(
        zone_label(summer, &zone("America/New_York")),
        "EDT (America/New_York)"
    );
    assert_eq!(
        zone_label(ts("2027-01-15T12:00:00Z"), &zone("America/New_York")),
        "EST (America/New_York)"
    );
    assert_eq!(zone_label(summer, &zone("Asia/Dubai")), "+04 (Asia/Dubai)");
    assert_eq!(zone_label(summer, &TimeZone::UTC), "UTC");
    assert_eq!(zone_label(summer, &zone("Etc/UTC")), "UTC");
}

#[test]
fn a_deadline_label_is_the_local_time_and_its_zone() {
    let tz = zone("Asia/Shanghai");
    let now = ts("2027-06-01T02:00:00Z");
    assert_eq!(
        deadline_label(ts("2027-06-01T10:30:00Z"), now, &tz),
        "18:30 CST (Asia/Shanghai)"
    );
    // 17:00 UTC is already tomorrow in Shanghai.
    assert_eq!(
        deadline_label(ts("2027-06-01T17:00:00Z"), now, &tz),
        "2027-06-02 01:00 CST (Asia/Shanghai)"
    );
    assert_eq!(
        deadline_label(ts("2027-06-01T17:00:00Z"), now, &TimeZone::UTC),
        "17:00 UTC"
    );
    assert_eq!(
        full_label(ts("2027-06-01T17:00:05Z"), &tz),
        "2027-06-02 01:00:05 CST (Asia/Shanghai)"
    );
}

#[test]
fn a_clock_time_is_the_next_one_in_the_zone_given() {
    let now = ts("2027-06-01T12:00:00Z"); // 20:00 in Shanghai, 12:00 in UTC
    let shanghai = zone("Asia/Shanghai");
    let later_today = next_clock_time(now, hm("21:00"), &shanghai);
    assert_eq!(later_today.at, ts("2027-06-01T13:00:00Z"));
    assert_eq!(later_today.note, None);
    // 18:30 has passed in Shanghai: tomorrow's.
    let tomorrow = next_clock_time(now, hm("18:30"), &shanghai);
    assert_eq!(tomorrow.at, ts("2027-06-02T10:30:00Z"));
    // The same words in UTC are today's, eight hours apart from Shanghai's.
    let utc = next_clock_time(now, hm("18:30"), &TimeZone::UTC);
    assert_eq!(utc.at, ts("2027-06-01T18:30:00Z"));
    // Exactly now is not ahead: tomorrow's.
    let at_now = next_clock_time(now, hm("12:00"), &TimeZone::UTC);
    assert_eq!(at_now.at, ts("2027-06-02T12:00:00Z"));
}

#[test]
fn a_time_the_clocks_skip_is_the_moment_they_jump_past_it() {
    // New York springs forward on 2027-03-14: 02:00 EST becomes 03:00 EDT (07:00 UTC).
    let ny = zone("America/New_York");
    let evening_before = ts("2027-03-14T01:00:00Z"); // 20:00 EST on the 13th
    let got = next_clock_time(evening_before, hm("02:30"), &ny);
    assert_eq!(got.at, ts("2027-03-14T07:00:00Z"));
    let note = got.note.expect("a skipped time is explained");
    assert!(
        note.contains("02:30 does not happen on 2027-03-14"),
        "{note}"
    );
    assert!(note.contains("03:00 EDT (America/New_York)"), "{note}");
    // The day after, 02:30 exists again and needs no word.
    let next_day = next_clock_time(ts("2027-03-14T12:00:00Z"), hm("02:30"), &ny);
    assert_eq!(next_day.at, ts("2027-03-15T06:30:00Z"));
    assert_eq!(next_day.note, None);
}

#[test]
fn a_time_the_clocks_show_twice_is_the_first() {
    // New York falls back on 2027-11-07: 01:00–02:00 comes first in EDT, then in EST.
    let ny = zone("America/New_York");
    let evening_before = ts("2027-11-07T00:00:00Z"); // 20:00 EDT on the 6th
    let got = next_clock_time(evening_before, hm("01:30"), &ny);
    assert_eq!(got.at, ts("2027-11-07T05:30:00Z"));
    let note = got.note.expect("a repeated time is explained");
    assert!(note.contains("happens twice"), "{note}");
    assert!(note.contains("01:30 EDT (America/New_York)"), "{note}");
    let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || {
        next_clock_time(evening_before, hm("01:30"), &ny)
            .note
            .unwrap()
    });
    assert!(chinese.contains("会出现两次 01:30"), "{chinese}");
    assert!(
        chinese.contains("01:30 EDT (America/New_York)"),
        "{chinese}"
    );
}

#[test]
fn the_zone_says_where_it_came_from() {
    let setting = UserZone {
        tz: zone("Asia/Shanghai"),
        source: ZoneSource::Setting,
    };
    assert_eq!(
        setting.describe(),
        "Asia/Shanghai (from the config's `timezone`)"
    );
    assert_eq!(UserZone::utc().describe(), "UTC (from the system zone)");
    let unread = UserZone {
        tz: TimeZone::UTC,
        source: ZoneSource::EnvNotUnderstood,
    };
    assert_eq!(
        unread.describe(),
        "UTC (from TZ, which names no zone this machine knows)"
    );
}

#[test]
fn the_zone_is_shown_in_the_users_language_and_reads_as_described_in_english() {
    use crate::i18n::{Lang, scoped};
    for source in [
        ZoneSource::Setting,
        ZoneSource::Env,
        ZoneSource::EnvNotUnderstood,
        ZoneSource::System,
    ] {
        let zone = UserZone {
            tz: zone("Asia/Shanghai"),
            source,
        };
        assert_eq!(scoped(Lang::En, || zone.shown()), zone.describe());
    }
    let chinese = scoped(Lang::ZhCn, || UserZone::utc().shown());
    assert_eq!(chinese, "UTC（来自系统时区）");
}
