//! One owner of the guard row: a cockpit that starts reads the row before it writes it, adopts
//! a deadline someone else set there, and asks before it replaces one; read-only never writes.

use gpumeter_core::app::{App, Choice, CloudView, Deadline, Effect, Event, KeyCode, KeyPress};
use gpumeter_core::app::{Level, Mode, Settings, update};
use gpumeter_core::cloud::Inventory;
use gpumeter_core::demo::cloud::DemoState;
use gpumeter_core::demo::{demo_capabilities, fixture_now, guard_state};
use gpumeter_core::guard::{GuardState, OnExpiry};
use gpumeter_core::spend::Spend;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

const INSTANCE: &str = "i-0demo4a100f00d";

/// A cockpit just started with `wanted` as its deadline (`asked`: from its own flags), when the
/// provider's first inventory has named the instance. Returns the effects of that inventory.
fn starting(wanted: Option<(SignedDuration, OnExpiry)>, asked: bool) -> (App, Vec<Effect>) {
    let now = fixture_now();
    let cloud = CloudView::new("demo", demo_capabilities());
    let mut app = App::new(
        now,
        Settings::default(),
        cloud,
        Spend::new(None, None, TimeZone::UTC),
    );
    app.deadline = wanted.map(|(after, policy)| Deadline::new(now + after, policy, now));
    app.guard.asked = asked;
    app.guard.me = "cockpit 2".into();
    let state = DemoState::fresh(now);
    let inventory = Inventory {
        instance: Some(state.instance),
        resources: state.resources,
        deadline: None,
    };
    let effects = update(&mut app, Event::Inventory(Ok(inventory)));
    (app, effects)
}

/// The row the first cockpit left: 8 hours, alert only.
fn first_cockpits_row() -> GuardState {
    let now = fixture_now();
    let mut row = guard_state(
        Some(now + SignedDuration::from_hours(8)),
        5,
        "cockpit 1",
        now,
    );
    row.on_expiry = OnExpiry::Alert;
    row
}

fn policy(app: &App) -> Option<(Timestamp, OnExpiry)> {
    app.deadline.map(|d| (d.at, d.on_expiry))
}

fn saves(effects: &[Effect]) -> Vec<&Effect> {
    effects
        .iter()
        .filter(|e| matches!(e, Effect::SaveGuard { .. }))
        .collect()
}

fn key(app: &mut App, code: KeyCode) -> Vec<Effect> {
    update(app, Event::Key(KeyPress::new(code)))
}

const THIRTY_SECONDS_RELEASE: Option<(SignedDuration, OnExpiry)> =
    Some((SignedDuration::from_secs(30), OnExpiry::Release));

#[test]
fn the_first_inventory_reads_the_guard_row_before_writing_anything() {
    let (mut app, effects) = starting(THIRTY_SECONDS_RELEASE, true);
    assert_eq!(
        effects,
        vec![Effect::LoadGuard {
            instance: INSTANCE.into()
        }]
    );
    assert!(!app.guard.settled);
    assert!(
        saves(&key(&mut app, KeyCode::Char('e'))).is_empty(),
        "not before it is read"
    );
    // No row yet: this cockpit's deadline is the one.
    let (mut app, _) = starting(THIRTY_SECONDS_RELEASE, true);
    let effects = update(&mut app, Event::GuardFound(None));
    assert_eq!(
        effects,
        vec![Effect::SaveGuard {
            instance: INSTANCE.into(),
            deadline: Some(fixture_now() + SignedDuration::from_secs(30)),
            on_expiry: OnExpiry::Release,
            grace: app.settings.grace,
            by: "cockpit 2".into(),
        }]
    );
    assert!(app.guard.settled);
}

#[test]
fn a_second_cockpit_asks_before_replacing_the_first_ones_deadline_and_keeps_it_by_default() {
    let (mut app, _) = starting(THIRTY_SECONDS_RELEASE, true);
    let row = first_cockpits_row();
    let existing = (row.deadline.unwrap(), OnExpiry::Alert);
    let effects = update(&mut app, Event::GuardFound(Some(row)));
    assert!(saves(&effects).is_empty(), "{effects:?}");
    let Mode::GuardChoice(choice) = &app.mode else {
        panic!("asks: {:?}", app.mode);
    };
    assert_eq!(choice.existing, existing);
    assert_eq!(choice.set_by, "cockpit 1");
    assert_eq!(choice.choice, Choice::Cancel, "keeping is the default");
    assert_eq!(
        policy(&app),
        Some(existing),
        "shows what the watchdog enforces"
    );
    // Ticks while it asks write nothing, and the deadline in the row is not run down.
    let tick = update(
        &mut app,
        Event::Tick(fixture_now() + SignedDuration::from_secs(40)),
    );
    assert!(saves(&tick).is_empty());
    let effects = key(&mut app, KeyCode::Enter);
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(app.mode, Mode::Main);
    assert_eq!(policy(&app), Some(existing));
    assert!(app.guard.settled);
    let last = app.events.back().unwrap();
    assert!(last.text.starts_with("kept the deadline"), "{}", last.text);
    // From now on this cockpit writes what the user does, on top of the kept deadline.
    let extended = key(&mut app, KeyCode::Char('e'));
    assert!(matches!(
        saves(&extended)[..],
        [Effect::SaveGuard { deadline: Some(at), on_expiry: OnExpiry::Alert, .. }]
            if *at == existing.0 + SignedDuration::from_hours(1)
    ));
}

#[test]
fn replacing_is_an_explicit_choice_and_then_written() {
    let (mut app, _) = starting(THIRTY_SECONDS_RELEASE, true);
    update(&mut app, Event::GuardFound(Some(first_cockpits_row())));
    assert!(key(&mut app, KeyCode::Right).is_empty());
    let Mode::GuardChoice(choice) = &app.mode else {
        panic!("still asks");
    };
    assert_eq!(choice.choice, Choice::Confirm);
    let wanted = fixture_now() + SignedDuration::from_secs(30);
    let effects = key(&mut app, KeyCode::Enter);
    assert!(matches!(
        saves(&effects)[..],
        [Effect::SaveGuard { deadline: Some(at), on_expiry: OnExpiry::Release, .. }] if *at == wanted
    ));
    assert_eq!(policy(&app), Some((wanted, OnExpiry::Release)));
    let last = app.events.back().unwrap();
    assert_eq!(last.level, Level::Warn);
    assert!(
        last.text.contains("replaced") && last.text.contains("cockpit 1"),
        "{}",
        last.text
    );
}

#[test]
fn without_flags_the_deadline_found_is_adopted_shown_and_not_written() {
    // The config's default deadline is no reason to ask, nor to overwrite.
    let (mut app, _) = starting(THIRTY_SECONDS_RELEASE, false);
    let row = first_cockpits_row();
    let existing = (row.deadline.unwrap(), OnExpiry::Alert);
    let effects = update(&mut app, Event::GuardFound(Some(row)));
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(app.mode, Mode::Main);
    assert_eq!(policy(&app), Some(existing));
    let last = app.events.back().unwrap();
    assert!(last.text.contains("as set by cockpit 1"), "{}", last.text);
    // No deadline of its own at all: the same.
    let (mut app, _) = starting(None, false);
    assert!(update(&mut app, Event::GuardFound(Some(first_cockpits_row()))).is_empty());
    assert_eq!(policy(&app), Some(existing));
}

#[test]
fn a_read_only_cockpit_never_writes_the_row_it_finds_nor_asks() {
    let (mut app, _) = starting(THIRTY_SECONDS_RELEASE, true);
    app.settings.read_only = true;
    let row = first_cockpits_row();
    let existing = (row.deadline.unwrap(), OnExpiry::Alert);
    let effects = update(&mut app, Event::GuardFound(Some(row)));
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(app.mode, Mode::Main);
    assert_eq!(policy(&app), Some(existing));
    let last = app.events.back().unwrap();
    assert_eq!(last.level, Level::Warn);
    assert!(last.text.starts_with("read-only"), "{}", last.text);
}

#[test]
fn the_same_deadline_found_is_neither_asked_about_nor_written_again() {
    let (mut app, _) = starting(Some((SignedDuration::from_hours(8), OnExpiry::Alert)), true);
    let logged = app.logged;
    let effects = update(&mut app, Event::GuardFound(Some(first_cockpits_row())));
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(app.mode, Mode::Main);
    assert_eq!(app.logged, logged);
    assert!(app.guard.settled);
}

#[test]
fn the_question_waits_for_a_dialog_already_open() {
    let (mut app, _) = starting(THIRTY_SECONDS_RELEASE, true);
    key(&mut app, KeyCode::Char('R'));
    assert!(matches!(app.mode, Mode::Confirm(_)));
    update(&mut app, Event::GuardFound(Some(first_cockpits_row())));
    assert!(
        matches!(app.mode, Mode::Confirm(_)),
        "the release dialog keeps the screen"
    );
    key(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.mode, Mode::GuardChoice(_)), "{:?}", app.mode);
}

#[test]
fn another_cockpits_change_moves_the_deadline_and_this_ones_own_does_not() {
    let (mut app, _) = starting(THIRTY_SECONDS_RELEASE, true);
    update(&mut app, Event::GuardFound(None));
    let now = fixture_now();
    let later = now + SignedDuration::from_hours(3);
    let mine = guard_state(Some(later), 2, "cockpit 2", now);
    update(&mut app, Event::Guard(mine));
    assert_eq!(
        app.deadline.unwrap().at,
        now + SignedDuration::from_secs(30)
    );
    let theirs = guard_state(Some(later), 3, "cockpit 1", now);
    update(&mut app, Event::Guard(theirs));
    assert_eq!(policy(&app), Some((later, OnExpiry::Release)));
    assert!(
        app.events.back().unwrap().text.contains("by cockpit 1"),
        "{:?}",
        app.events.back()
    );
}

#[test]
fn a_grace_period_is_not_spent_on_a_deadline_nobody_chose_yet() {
    // While the question is open a key answers it: it does not cancel a grace period.
    let (mut app, _) = starting(THIRTY_SECONDS_RELEASE, true);
    update(&mut app, Event::GuardFound(Some(first_cockpits_row())));
    let effects = key(&mut app, KeyCode::Char('x'));
    assert!(effects.is_empty());
    assert!(matches!(app.mode, Mode::GuardChoice(_)));
}
