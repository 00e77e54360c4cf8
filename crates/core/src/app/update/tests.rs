use jiff::tz::TimeZone;

use super::*;
use crate::app::state::{CloudView, Settings};
use crate::cloud::{Capabilities, ErrorKind};
use crate::spend::Spend;

fn app() -> App {
    let cloud = CloudView::new(
        "aws",
        Capabilities {
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
