//! Which actions make sense in the instance's state: nothing releases a released instance
//! twice, stops what is stopped, or moves the deadline of an instance that is gone. The command
//! line and the cockpit's keys ask the same rule.

use super::Action;
use crate::meter::InstanceState;

/// Why `action` has nothing to do on an instance in `state`; `None` when it applies (or the
/// state is unknown: the provider decides then). Snapshots outlive the instance, so cleaning
/// them always applies.
#[must_use]
pub fn nothing_to_do(action: &Action, state: Option<InstanceState>) -> Option<&'static str> {
    reason(action, state).map(|(_, english)| english)
}

/// [`nothing_to_do`]'s reason in the language the user reads.
#[must_use]
pub fn nothing_to_do_shown(action: &Action, state: Option<InstanceState>) -> Option<String> {
    reason(action, state).map(|(id, _)| crate::i18n::lookup(id).into_owned())
}

/// The reason's message id and its English words.
fn reason(action: &Action, state: Option<InstanceState>) -> Option<(&'static str, &'static str)> {
    match (action, state?) {
        (Action::Release, InstanceState::Released) => {
            Some(("err-already-released", "the instance is already released"))
        }
        (Action::Stop, InstanceState::Released) => Some((
            "err-released-nothing-to-stop",
            "the instance is released: there is nothing to stop",
        )),
        (Action::Stop, InstanceState::Stopped) => {
            Some(("err-already-stopped", "the instance is already stopped"))
        }
        (Action::Start, InstanceState::Running) => {
            Some(("err-already-running", "the instance is already running"))
        }
        (Action::Start, InstanceState::Released) => Some((
            "err-released-nothing-to-start",
            "the instance is released: there is nothing to start",
        )),
        (Action::SetDeadline { .. }, InstanceState::Released) => Some((
            "err-released-no-deadline",
            "the instance is released: there is no deadline to move",
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_action_fits_the_states_where_it_does_something() {
        use InstanceState::{Released, Running, Stopped};
        let clean = Action::SnapshotClean {
            keep: 1,
            final_snapshot: false,
            delete: None,
        };
        let deadline = Action::SetDeadline { at: None };
        for action in [&Action::Release, &Action::Stop, &clean, &deadline] {
            assert_eq!(nothing_to_do(action, Some(Running)), None, "{action:?}");
            assert_eq!(nothing_to_do(action, None), None, "{action:?}");
        }
        assert!(nothing_to_do(&Action::Release, Some(Released)).is_some());
        assert_eq!(nothing_to_do(&Action::Release, Some(Stopped)), None);
        assert!(nothing_to_do(&Action::Stop, Some(Released)).is_some());
        assert!(nothing_to_do(&Action::Stop, Some(Stopped)).is_some());
        assert_eq!(nothing_to_do(&Action::Start, Some(Stopped)), None);
        assert!(nothing_to_do(&Action::Start, Some(Running)).is_some());
        assert!(nothing_to_do(&Action::Start, Some(Released)).is_some());
        assert!(nothing_to_do(&deadline, Some(Released)).is_some());
        assert_eq!(nothing_to_do(&deadline, Some(Stopped)), None);
        assert_eq!(nothing_to_do(&clean, Some(Released)), None);
    }

    #[test]
    fn each_reason_reads_the_same_from_the_catalogue_in_english() {
        use crate::i18n::{Lang, has, scoped};
        use InstanceState::{Released, Running, Stopped};
        let deadline = Action::SetDeadline { at: None };
        let actions = [&Action::Release, &Action::Stop, &Action::Start, &deadline];
        let mut seen = 0;
        for action in actions {
            for state in [Released, Running, Stopped] {
                let Some((id, english)) = reason(action, Some(state)) else {
                    continue;
                };
                seen += 1;
                assert!(has(Lang::ZhCn, id), "{id}");
                let shown = scoped(Lang::En, || nothing_to_do_shown(action, Some(state)));
                assert_eq!(shown.as_deref(), Some(english));
            }
        }
        assert_eq!(seen, 6);
    }
}
