//! Which keys apply to the instance as it is now. The footer, the help and `update` ask the
//! same rule the command line asks ([`crate::cloud::nothing_to_do`]), so a key that has
//! nothing to do is neither offered nor acted on.

use std::borrow::Cow;

use super::keymap::{Binding, Intent, bindings};
use super::state::App;
use crate::cloud::{Action, nothing_to_do};
use crate::meter::InstanceState;
use crate::t;

/// The instance's state as the latest inventory lists it; released when it lists none after
/// a release the cockpit saw or the ledger recorded; `None` before the first inventory, or
/// when it lists no instance never seen (the provider decides then).
pub fn instance_state(app: &App) -> Option<InstanceState> {
    let inventory = app.cloud.inventory.as_ref()?;
    match &inventory.instance {
        Some(i) => Some(i.state),
        None => app.spend.released_at().map(|_| InstanceState::Released),
    }
}

/// The action a key asks the provider (or the guard) for, to judge against the state.
fn action_of(intent: Intent) -> Option<Action> {
    match intent {
        Intent::Release => Some(Action::Release),
        Intent::Stop => Some(Action::Stop),
        Intent::Start => Some(Action::Start),
        Intent::Extend | Intent::ExtendPrompt => Some(Action::SetDeadline { at: None }),
        _ => None,
    }
}

/// Why `intent` does nothing now, in one line for the events; `None` when it applies.
pub fn not_now(intent: Intent, app: &App) -> Option<Cow<'static, str>> {
    let no_resources = app
        .cloud
        .inventory
        .as_ref()
        .is_none_or(|i| i.resources.is_empty());
    match intent {
        Intent::Details if no_resources => return Some(t!("not-now-no-resource-to-show")),
        Intent::Cleanup if no_resources => return Some(t!("not-now-no-resource-to-delete")),
        _ => {}
    }
    let acts_on_cloud = matches!(
        intent,
        Intent::Release | Intent::Stop | Intent::Start | Intent::SnapshotClean
    );
    if acts_on_cloud && super::welcome::nothing_to_guard(app) {
        return Some(t!("not-now-no-provider"));
    }
    if intent == Intent::Start {
        if !app.cloud.capabilities.start {
            return Some(t!("not-now-cannot-start"));
        }
        if instance_state(app).is_none() {
            return Some(t!("not-now-not-known-stopped"));
        }
    }
    let action = action_of(intent)?;
    let state = instance_state(app)?;
    let why = nothing_to_do(&action, Some(state))?;
    Some(nothing_to_do_said(&action, state).unwrap_or(Cow::Borrowed(why)))
}

/// [`nothing_to_do`]'s reason in the cockpit's language; the command line keeps the core's
/// English inside its own sentences.
fn nothing_to_do_said(action: &Action, state: InstanceState) -> Option<Cow<'static, str>> {
    Some(match (action, state) {
        (Action::Release, InstanceState::Released) => t!("not-now-already-released"),
        (Action::Stop, InstanceState::Released) => t!("not-now-released-nothing-to-stop"),
        (Action::Stop, InstanceState::Stopped) => t!("not-now-already-stopped"),
        (Action::Start, InstanceState::Running) => t!("not-now-already-running"),
        (Action::Start, InstanceState::Released) => t!("not-now-released-nothing-to-start"),
        (Action::SetDeadline { .. }, InstanceState::Released) => {
            t!("not-now-released-no-deadline")
        }
        _ => return None,
    })
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
