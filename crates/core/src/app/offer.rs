//! Which keys apply to the instance as it is now. The footer, the help and `update` ask the
//! same rule the command line asks ([`crate::cloud::nothing_to_do`]), so a key that has
//! nothing to do is neither offered nor acted on.

use super::keymap::{Binding, Intent, bindings};
use super::state::App;
use crate::cloud::{Action, nothing_to_do};
use crate::meter::InstanceState;

/// The instance's state as the latest inventory lists it; `None` before the first one, or
/// when it lists no instance (the provider decides then).
pub fn instance_state(app: &App) -> Option<InstanceState> {
    let inventory = app.cloud.inventory.as_ref()?;
    inventory.instance.as_ref().map(|i| i.state)
}

/// The action a key asks the provider (or the guard) for, to judge against the state.
fn action_of(intent: Intent) -> Option<Action> {
    match intent {
        Intent::Release => Some(Action::Release),
        Intent::Stop => Some(Action::Stop),
        Intent::Extend | Intent::ExtendPrompt => Some(Action::SetDeadline { at: None }),
        _ => None,
    }
}

/// Why `intent` does nothing now, in one line for the events; `None` when it applies.
pub fn not_now(intent: Intent, app: &App) -> Option<&'static str> {
    nothing_to_do(&action_of(intent)?, instance_state(app))
}

/// The deadline the meter projects to: none once the instance is released, since nothing
/// happens at it any more.
pub fn live_deadline(app: &App) -> Option<jiff::Timestamp> {
    let gone = nothing_to_do(&Action::SetDeadline { at: None }, instance_state(app)).is_some();
    app.deadline.filter(|_| !gone).map(|d| d.at)
}

/// The bindings to offer now: those in force under `--read-only`, less those the instance's
/// state has no use for.
pub fn offered(app: &App) -> impl Iterator<Item = &'static Binding> + '_ {
    bindings(app.settings.read_only).filter(move |b| not_now(b.intent, app).is_none())
}

/// Whether the key for `intent` is offered now.
pub fn is_offered(intent: Intent, app: &App) -> bool {
    offered(app).any(|b| b.intent == intent)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::demo::demo_app;

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
    fn a_running_instance_is_offered_every_key() {
        let app = in_state(InstanceState::Running);
        let shown = offered_intents(&app);
        for intent in WRITES.into_iter().chain([Intent::SnapshotClean]) {
            assert!(shown.contains(&intent), "{intent:?}");
        }
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
            not_now(Intent::Stop, &app),
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
}
