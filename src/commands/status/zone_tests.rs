//! `status` in two zones: the JSON is the same bytes whatever the zone, the text names it.

use std::time::Duration;

use gpumeter_core::cloud::{HeldDeadline, Inventory};
use gpumeter_core::demo::cloud::DemoState;
use gpumeter_core::demo::{demo_pricing, demo_simulator, fixture_now};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use super::{StatusReport, cloud, output};

/// The demo's status at the fixture instant, with a deadline the provider holds.
fn report(deadline: Timestamp) -> StatusReport {
    let now = fixture_now();
    let sim = demo_simulator("training");
    let at = Duration::from_secs(600);
    let mut report = StatusReport::new(now, "demo", Ok(sim.gpus_at(at)), sim.host_at(at), vec![]);
    let state = DemoState::fresh(now);
    let inventory = Inventory {
        instance: Some(state.instance),
        resources: state.resources,
        deadline: Some(HeldDeadline { at: deadline }),
    };
    report.cloud = cloud::describe(
        &inventory,
        demo_pricing().as_ref(),
        &crate::spend::Recorded::default(),
        (None, None),
        now,
    );
    report
}

fn zone(name: &str) -> TimeZone {
    TimeZone::get(name).expect("the tz database (tzdata) is installed")
}

#[test]
fn status_json_is_byte_identical_in_every_zone() {
    let report = report(fixture_now() + SignedDuration::from_mins(90));
    let utc = output(&report, true, &TimeZone::UTC).unwrap();
    for name in ["Asia/Shanghai", "America/New_York", "Asia/Kolkata"] {
        assert_eq!(output(&report, true, &zone(name)).unwrap(), utc, "{name}");
    }
    let v: serde_json::Value = serde_json::from_str(&utc).unwrap();
    let at = v["deadline"]["at"].as_str().unwrap();
    assert!(at.ends_with('Z'), "JSON times are UTC RFC 3339: {at}");
    assert_eq!(
        at.parse::<Timestamp>().unwrap(),
        fixture_now() + SignedDuration::from_mins(90)
    );
}

#[test]
fn status_text_shows_the_deadline_and_the_time_in_the_zone_named() {
    let deadline = fixture_now() + SignedDuration::from_mins(90);
    let report = report(deadline);
    let shanghai = zone("Asia/Shanghai");
    let text = output(&report, false, &shanghai).unwrap();
    let local = deadline.to_zoned_datetime(shanghai.clone());
    let line = text.lines().find(|l| l.starts_with("deadline")).unwrap();
    let day = if local.date() == fixture_now().to_zoned_datetime(shanghai.clone()).date() {
        String::new()
    } else {
        format!("{} ", local.strftime("%Y-%m-%d"))
    };
    assert!(
        line.starts_with(&format!(
            "deadline  {day}{} CST (Asia/Shanghai), in 5400 s",
            local.strftime("%H:%M")
        )),
        "{line}"
    );
    let header = text.lines().next().unwrap();
    let now_local = fixture_now().to_zoned_datetime(shanghai);
    assert!(
        header.contains(&format!(
            "{} CST (Asia/Shanghai)",
            now_local.strftime("%Y-%m-%d %H:%M:%S")
        )),
        "{header}"
    );
    let utc = output(&report, false, &TimeZone::UTC).unwrap();
    assert!(
        utc.lines()
            .any(|l| l.starts_with("deadline  ") && l.contains(" UTC, in 5400 s")),
        "{utc}"
    );
    assert!(!utc.contains("(UTC)"), "{utc}");
}
