//! Keys that fit the instance's state, and the events' scrolling, through `update`.

use std::time::Duration;

use gpumeter_core::app::{App, Event, Focus, KeyCode, KeyPress, Level, Mode, update};
use gpumeter_core::demo::demo_app;
use gpumeter_core::meter::InstanceState;

fn app() -> App {
    demo_app(Duration::from_secs(3 * 3600))
}

fn ch(app: &mut App, c: char) -> usize {
    update(app, Event::Key(KeyPress::new(KeyCode::Char(c)))).len()
}

fn in_state(state: InstanceState) -> App {
    let mut app = app();
    let mut inventory = app.cloud.inventory.clone().expect("the demo inventory");
    if let Some(i) = inventory.instance.as_mut() {
        i.state = state;
        i.history.push((app.now, state));
    }
    if state == InstanceState::Released {
        inventory.resources.retain(|r| !r.deleted_with_instance);
    }
    update(&mut app, Event::Inventory(Ok(inventory)));
    app
}

#[test]
fn after_a_release_release_stop_and_extend_say_why_and_do_nothing() {
    let mut app = in_state(InstanceState::Released);
    let deadline = app.deadline;
    for (c, why) in [
        ('R', "already released"),
        ('S', "nothing to stop"),
        ('e', "no deadline to move"),
        ('E', "no deadline to move"),
    ] {
        let logged = app.logged;
        assert_eq!(ch(&mut app, c), 0, "{c}");
        assert_eq!(app.mode, Mode::Main, "{c} opens nothing");
        assert_eq!(app.logged, logged + 1, "{c} logs one line");
        let last = app.events.back().expect("a line");
        assert!(last.text.contains(why), "{c}: {}", last.text);
        assert_eq!(last.level, Level::Info);
    }
    assert_eq!(app.deadline, deadline);
    // Snapshots outlive the instance: cleaning them still opens its dialog.
    ch(&mut app, 'C');
    assert!(matches!(app.mode, Mode::Confirm(_)));
}

/// A provider that stops listing an instance once it is released (as many platforms' CLIs
/// do): the cockpit saw the release confirmed, so `R` says it is done and asks nothing, and
/// what the instance cost stays.
#[test]
fn a_release_the_provider_forgets_is_not_offered_again() {
    use gpumeter_core::cloud::{Action, ActionReport};
    let mut app = app();
    let now = app.now;
    update(&mut app, Event::Tick(now));
    let before = app.spend.account().expect("an account").total.known;
    let report = ActionReport {
        action: Action::Release,
        confirmed: true,
        summary: "terminated".into(),
        calls: Vec::new(),
    };
    update(
        &mut app,
        Event::ActionDone {
            action: Action::Release,
            result: Ok(report),
        },
    );
    let mut gone = app.cloud.inventory.clone().expect("the demo inventory");
    gone.instance = None;
    gone.resources.retain(|r| !r.deleted_with_instance);
    update(&mut app, Event::Inventory(Ok(gone)));
    let logged = app.logged;
    assert_eq!(ch(&mut app, 'R'), 0);
    assert_eq!(app.mode, Mode::Main, "R opens no second release");
    assert_eq!(app.logged, logged + 1);
    let last = app.events.back().expect("a line");
    assert!(last.text.contains("already released"), "{}", last.text);
    let later = app.now + jiff::SignedDuration::from_hours(1);
    update(&mut app, Event::Tick(later));
    let account = app.spend.account().expect("an account");
    assert!(account.total.known.amount >= before.amount);
    assert!(account.released.is_some());
    assert!(account.burn_per_hour.compute.is_zero());
    assert!(
        account
            .total
            .unknown
            .iter()
            .all(|u| !u.starts_with("instance")),
        "{:?}",
        account.total.unknown
    );
}

/// Right after the provider confirms a release, before any listing says so (EC2 still lists
/// the instance as it was for a moment), the burn has no compute and compute stops accruing.
#[test]
fn right_after_a_confirmed_release_the_burn_has_no_compute() {
    use gpumeter_core::cloud::{Action, ActionReport};
    let mut app = app();
    let now = app.now;
    update(&mut app, Event::Tick(now));
    let running = app.spend.account().expect("an account");
    assert!(!running.burn_per_hour.compute.is_zero(), "the demo runs");
    let report = ActionReport {
        action: Action::Release,
        confirmed: true,
        summary: "terminated".into(),
        calls: Vec::new(),
    };
    update(
        &mut app,
        Event::ActionDone {
            action: Action::Release,
            result: Ok(report),
        },
    );
    let later = now + jiff::SignedDuration::from_mins(10);
    update(&mut app, Event::Tick(later));
    let after = app.spend.account().expect("an account");
    assert_eq!(after.released, Some(now));
    assert!(after.burn_per_hour.compute.is_zero(), "{after:?}");
    assert_eq!(after.accrued.compute, running.accrued.compute);
}

#[test]
fn after_a_release_the_meter_projects_to_no_deadline() {
    let running = app();
    assert!(
        running
            .spend
            .reading
            .as_ref()
            .is_some_and(|r| r.at_deadline.is_some())
    );
    let mut app = in_state(InstanceState::Released);
    let now = app.now;
    update(
        &mut app,
        Event::Tick(now + jiff::SignedDuration::from_secs(1)),
    );
    let reading = app.spend.reading.as_ref().expect("a reading");
    assert!(reading.at_deadline.is_none());
}

#[test]
fn a_stopped_instance_is_not_stopped_again_but_can_be_released() {
    let mut app = in_state(InstanceState::Stopped);
    ch(&mut app, 'S');
    assert_eq!(app.mode, Mode::Main);
    assert!(
        app.events
            .back()
            .is_some_and(|e| e.text.contains("already stopped"))
    );
    ch(&mut app, 'R');
    assert!(matches!(app.mode, Mode::Confirm(_)));
}

#[test]
fn events_scroll_back_keep_their_place_and_g_returns_to_the_newest() {
    let mut app = app();
    for i in 0..600 {
        app.log(Level::Info, format!("line {i}"));
    }
    assert_eq!(app.events.len(), 500, "bounded history");
    app.focus = Focus::Events;
    let key = |app: &mut App, code| update(app, Event::Key(KeyPress::new(code)));
    key(&mut app, KeyCode::PageUp);
    assert_eq!(app.events_scroll, 10);
    ch(&mut app, 'k');
    assert_eq!(app.events_scroll, 11);
    app.log(Level::Info, "news");
    assert_eq!(
        app.events_scroll, 12,
        "the view stays on the lines it showed"
    );
    ch(&mut app, 'g');
    assert_eq!(app.events_scroll, 499);
    key(&mut app, KeyCode::PageDown);
    assert_eq!(app.events_scroll, 489);
    ch(&mut app, 'G');
    assert_eq!(app.events_scroll, 0);
}

#[test]
fn s_starts_a_stopped_instance_after_asking_and_does_nothing_while_it_runs() {
    use gpumeter_core::app::Effect;
    use gpumeter_core::cloud::Action;
    let mut running = in_state(InstanceState::Running);
    assert_eq!(ch(&mut running, 's'), 0);
    assert!(
        matches!(running.mode, Mode::Main),
        "no dialog while it runs"
    );
    let mut app = in_state(InstanceState::Stopped);
    ch(&mut app, 's');
    let Mode::Confirm(confirm) = &app.mode else {
        panic!("s on a stopped instance asks first: {:?}", app.mode)
    };
    assert_eq!(confirm.action, Action::Start);
    let effects = update(&mut app, Event::Key(KeyPress::new(KeyCode::Char('y'))));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Perform(Action::Start))),
        "{effects:?}"
    );
}
