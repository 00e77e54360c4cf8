//! The keys offered per instance state (running, stopped, released) and under --read-only.

use std::time::Duration;

use gpumeter_core::app::{App, Intent, not_now, offered};
use gpumeter_core::demo::demo_app;
use gpumeter_core::meter::InstanceState;

fn in_state(state: InstanceState) -> App {
    let mut app = demo_app(Duration::from_secs(600));
    if let Some(i) = app
        .cloud
        .inventory
        .as_mut()
        .and_then(|i| i.instance.as_mut())
    {
        i.state = state;
    }
    app
}

fn offered_intents(app: &App) -> Vec<Intent> {
    offered(app).map(|b| b.intent).collect()
}

const WRITES: [Intent; 4] = [
    Intent::Release,
    Intent::Stop,
    Intent::Extend,
    Intent::ExtendPrompt,
];

#[test]
fn a_running_instance_is_offered_every_key_but_start() {
    let app = in_state(InstanceState::Running);
    let shown = offered_intents(&app);
    for intent in WRITES.into_iter().chain([Intent::SnapshotClean]) {
        assert!(shown.contains(&intent), "{intent:?}");
    }
    assert!(!shown.contains(&Intent::Start));
    assert_eq!(
        not_now(Intent::Start, &app).as_deref(),
        Some("the instance is already running")
    );
}

#[test]
fn start_is_offered_only_for_a_stopped_instance_a_provider_can_start() {
    let mut app = in_state(InstanceState::Stopped);
    assert!(offered_intents(&app).contains(&Intent::Start));
    app.cloud.capabilities.start = false;
    assert!(!offered_intents(&app).contains(&Intent::Start));
    assert!(not_now(Intent::Start, &app).is_some());
    let mut released = in_state(InstanceState::Released);
    released.cloud.capabilities.start = true;
    assert!(!offered_intents(&released).contains(&Intent::Start));
    let mut read_only = in_state(InstanceState::Stopped);
    read_only.settings.read_only = true;
    assert!(
        !offered_intents(&read_only).contains(&Intent::Start),
        "starting writes"
    );
}

#[test]
fn a_stopped_instance_is_not_offered_stop() {
    let app = in_state(InstanceState::Stopped);
    let shown = offered_intents(&app);
    assert!(!shown.contains(&Intent::Stop));
    for intent in [Intent::Release, Intent::Extend, Intent::ExtendPrompt] {
        assert!(shown.contains(&intent), "{intent:?}");
    }
    assert_eq!(
        not_now(Intent::Stop, &app).as_deref(),
        Some("the instance is already stopped")
    );
}

#[test]
fn a_released_instance_is_offered_nothing_that_acts_on_it() {
    let app = in_state(InstanceState::Released);
    let shown = offered_intents(&app);
    for intent in WRITES {
        assert!(!shown.contains(&intent), "{intent:?}");
        assert!(not_now(intent, &app).is_some(), "{intent:?}");
    }
    // Snapshots outlive the instance: cleaning them still applies.
    assert!(shown.contains(&Intent::SnapshotClean));
    assert!(shown.contains(&Intent::Quit));
}

#[test]
fn read_only_offers_nothing_that_writes() {
    let mut app = in_state(InstanceState::Running);
    app.settings.read_only = true;
    let shown = offered_intents(&app);
    for intent in WRITES.into_iter().chain([Intent::SnapshotClean]) {
        assert!(!shown.contains(&intent), "{intent:?}");
    }
    assert!(shown.contains(&Intent::Help));
}

#[test]
fn why_a_key_does_nothing_is_said_in_the_language_shown() {
    use gpumeter_core::i18n::{Lang, scoped};
    let released = in_state(InstanceState::Released);
    let stopped = in_state(InstanceState::Stopped);
    let said = |app: &App, intent| scoped(Lang::ZhCn, || not_now(intent, app));
    assert_eq!(
        said(&released, Intent::Release).as_deref(),
        Some("实例已经释放")
    );
    assert_eq!(
        said(&stopped, Intent::Stop).as_deref(),
        Some("实例已经关机")
    );
    assert_eq!(
        not_now(Intent::Stop, &stopped).as_deref(),
        Some("the instance is already stopped")
    );
}
