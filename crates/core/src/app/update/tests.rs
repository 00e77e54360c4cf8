use jiff::tz::TimeZone;

use super::*;
use crate::app::state::{CloudView, Settings};
use crate::cloud::{Capabilities, ErrorKind};
use crate::spend::Spend;

fn app() -> App {
    let cloud = CloudView::new(
        "aws",
        Capabilities {
            start: false,
            stop: true,
            snapshots: true,
            deadline: false,
        },
    );
    let now = Timestamp::from_second(1_800_000_000).unwrap();
    App::new(
        now,
        Settings::default(),
        cloud,
        Spend::new(None, None, TimeZone::UTC),
    )
}

fn empty() -> Inventory {
    Inventory {
        instance: None,
        resources: Vec::new(),
        deadline: None,
    }
}

fn denied() -> ProviderError {
    ProviderError::permission("aws", Some("ec2:TerminateInstances"))
        .with_call("ec2 TerminateInstances")
        .with_code("UnauthorizedOperation")
        .with_message("You are not authorized to perform this operation.")
}

#[test]
fn an_inventory_error_is_kept_typed_until_a_read_succeeds() {
    let mut app = app();
    let refused = ProviderError::refused("aws", "the credentials", &["AWS_ACCESS_KEY_ID"])
        .with_code("AuthFailure");
    update(&mut app, Event::Inventory(Err(refused.clone())));
    assert_eq!(app.cloud.error, Some(refused));
    assert!(matches!(
        app.cloud.error.as_ref().map(ProviderError::kind),
        Some(ErrorKind::Auth(_))
    ));
    assert!(app.dirty);
    update(&mut app, Event::Inventory(Ok(empty())));
    assert_eq!(app.cloud.error, None);
}

#[test]
fn a_failed_action_is_kept_with_its_error_and_logged_fix_first() {
    let mut app = app();
    app.cloud.running = Some((Action::Release, app.now));
    let effects = update(
        &mut app,
        Event::ActionDone {
            action: Action::Release,
            result: Err(denied()),
        },
    );
    assert_eq!(effects, vec![Effect::RefreshInventory]);
    assert_eq!(app.cloud.running, None);
    let failure = app.cloud.failure.clone().expect("the failure is kept");
    assert_eq!(failure.action, Action::Release);
    assert_eq!(failure.error, denied());
    assert_eq!(failure.at, app.now);
    let entry = app.events.back().expect("a log line");
    assert_eq!(entry.level, Level::Error);
    assert!(
        entry.text.starts_with(
            "release failed (permission): the key lacks ec2:TerminateInstances; grant it in IAM. "
        ),
        "{}",
        entry.text
    );
    assert!(
        entry.text.contains("UnauthorizedOperation"),
        "{}",
        entry.text
    );
}

#[test]
fn an_answered_action_clears_the_last_failure() {
    let mut app = app();
    let done = |result| Event::ActionDone {
        action: Action::Stop,
        result,
    };
    update(&mut app, done(Err(denied())));
    assert!(app.cloud.failure.is_some());
    let report = ActionReport {
        action: Action::Stop,
        confirmed: false,
        summary: "still running".into(),
        calls: Vec::new(),
    };
    update(&mut app, done(Ok(report)));
    assert_eq!(app.cloud.failure, None);
}

#[test]
fn the_watchdogs_events_are_logged_at_their_own_time_and_new_ones_ring_and_refresh() {
    let mut app = app();
    let earlier = app.now - SignedDuration::from_mins(5);
    let stop = WatchdogNote {
        at: earlier,
        level: Level::Done,
        text: "stop: done (idle since 12:00:00 UTC); the provider reports stopped".into(),
        action: true,
    };
    let replayed = update(
        &mut app,
        Event::WatchdogNotes {
            notes: vec![stop.clone()],
            replay: true,
        },
    );
    assert!(replayed.is_empty(), "{replayed:?}");
    assert!(
        !app.bell,
        "what happened before the cockpit started does not ring"
    );
    let line = app.events.back().expect("a line");
    assert_eq!(line.at, earlier);
    assert_eq!(line.level, Level::Done);
    assert!(line.text.starts_with(WATCHDOG_PREFIX), "{}", line.text);
    assert!(line.text.contains("the provider reports stopped"));
    assert_eq!(
        app.now,
        earlier + SignedDuration::from_mins(5),
        "the clock stays"
    );

    let fresh = update(
        &mut app,
        Event::WatchdogNotes {
            notes: vec![stop],
            replay: false,
        },
    );
    assert_eq!(fresh, vec![Effect::RefreshInventory]);
    assert!(app.bell);
    assert_eq!(app.events.len(), 2);

    app.bell = false;
    let note = WatchdogNote {
        at: app.now,
        level: Level::Info,
        text: "watchdog 42 guards i-1".into(),
        action: false,
    };
    let said = update(
        &mut app,
        Event::WatchdogNotes {
            notes: vec![note],
            replay: false,
        },
    );
    assert!(said.is_empty(), "a note changes nothing at the provider");
    assert!(!app.bell, "an info line does not ring");
    assert_eq!(app.events.len(), 3);
}

#[test]
fn the_idle_rule_follows_the_samples() {
    let mut app = demo_idle_app();
    let watch = app.idle.as_ref().expect("armed");
    assert!(
        watch.tracker.idle_since().is_some(),
        "the idle scenario is idle"
    );
    let status = crate::app::guards::idle_status(watch, app.now);
    assert!(
        matches!(status, crate::app::IdleStatus::Idle { idle_for, .. } if idle_for.as_secs() >= 50),
        "{status:?}"
    );
    update(&mut app, Event::Key(KeyPress::new(KeyCode::Char('?'))));
    assert!(app.idle.is_some());
}

/// A cockpit armed with an idle stop after 20 minutes, fed a minute of the idle scenario.
fn demo_idle_app() -> App {
    use crate::telemetry::{Stamped, Telemetry};
    let mut app = app();
    let rule = crate::guard::IdleRule {
        window: std::time::Duration::from_secs(1200),
        ..crate::guard::IdleRule::default()
    };
    app.idle = Some(crate::app::IdleWatch::new(rule, OnExpiry::Stop));
    let scenario = crate::telemetry::Scenario::bundled("idle").expect("a bundled scenario");
    let sim = crate::telemetry::Simulator::new(crate::telemetry::SimConfig::new(scenario))
        .expect("a simulator");
    let start = app.now;
    for s in 0..=60u64 {
        let at = std::time::Duration::from_secs(s);
        let time = start + SignedDuration::from_secs(i64::try_from(s).unwrap());
        update(&mut app, Event::Tick(time));
        let host = Telemetry::Host(Stamped {
            at,
            time,
            value: sim.host_at(at),
        });
        update(&mut app, Event::Telemetry(host));
        let gpus = Telemetry::Gpu(Stamped {
            at,
            time,
            value: Ok(sim.gpus_at(at)),
        });
        update(&mut app, Event::Telemetry(gpus));
    }
    app
}
