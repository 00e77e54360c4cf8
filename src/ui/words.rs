//! The cockpit's words for the core's values (a key's meaning, an action's name, what happens
//! at zero), from the message catalogue. The core keeps its English for logs and JSON.

use std::borrow::Cow;

use crate::app::{Binding, Confirm, Intent};
use crate::guard::OnExpiry;
use crate::meter::ResourceKind;
use crate::provider::Action;
use crate::t;

/// What a key does, as the help overlay lists it.
pub fn describe(b: &Binding) -> Cow<'static, str> {
    match b.intent {
        Intent::Help => t!("key-help"),
        Intent::Quit => t!("key-quit"),
        Intent::Close => t!("key-close"),
        Intent::FocusNext => t!("key-focus"),
        Intent::Up => t!("key-up"),
        Intent::Down => t!("key-down"),
        Intent::Left => t!("key-left"),
        Intent::Right => t!("key-right"),
        Intent::Details => t!("key-details"),
        Intent::Processes => t!("key-processes"),
        Intent::Fleet => t!("key-fleet"),
        Intent::Top => t!("key-top"),
        Intent::PageUp => t!("key-page"),
        Intent::Extend => t!("key-extend"),
        Intent::ExtendPrompt => t!("key-extend-prompt"),
        Intent::RetryGpu => t!("key-retry-gpu"),
        Intent::Release => t!("key-release"),
        Intent::Stop => t!("key-stop"),
        Intent::Start => t!("key-start"),
        Intent::SnapshotClean => t!("key-snapshot-clean"),
        Intent::Cleanup => t!("key-cleanup"),
        // Not in the key table on their own (they share a row above).
        Intent::FocusPrev | Intent::Bottom | Intent::PageDown | Intent::Confirm => {
            Cow::Borrowed(b.description)
        }
    }
}

/// The footer's short name for an intent.
pub fn hint(intent: Intent) -> Cow<'static, str> {
    match intent {
        Intent::Help => t!("hint-help"),
        Intent::FocusNext => t!("hint-focus"),
        Intent::Down | Intent::Up => t!("hint-select"),
        Intent::Processes => t!("hint-processes"),
        Intent::ExtendPrompt => t!("hint-extend-by"),
        Intent::Release => t!("hint-release"),
        Intent::Stop => t!("hint-stop"),
        Intent::SnapshotClean => t!("hint-clean-snapshots"),
        Intent::Quit => t!("hint-quit"),
        _ => Cow::Borrowed(""),
    }
}

/// A confirmation's title: a pick of snapshots is a snapshot clean whose action became the
/// deletion of those picked.
pub fn confirm_title(c: &Confirm) -> Cow<'static, str> {
    if c.pick.is_some() {
        return t!("confirm-title-snapshot-clean");
    }
    match &c.action {
        Action::Release => t!("confirm-title-release"),
        Action::Stop => t!("confirm-title-stop"),
        Action::Start => t!("confirm-title-start"),
        Action::SnapshotClean { .. } => t!("confirm-title-snapshot-clean"),
        Action::SetDeadline { .. } => t!("confirm-title-set-deadline"),
        Action::Cleanup { .. } => t!("confirm-title-cleanup"),
    }
}

/// An action's verb on its button.
pub fn verb(action: &Action) -> Cow<'static, str> {
    match action {
        Action::Release => t!("verb-release"),
        Action::Stop => t!("verb-stop"),
        Action::Start => t!("verb-start"),
        Action::SnapshotClean { .. } => t!("verb-snapshot-clean"),
        Action::SetDeadline { .. } => t!("verb-set-deadline"),
        Action::Cleanup { .. } => t!("verb-cleanup"),
    }
}

/// What happens at zero, in full (`long`) or short.
pub fn on_expiry(on: OnExpiry, long: bool) -> Cow<'static, str> {
    match (on, long) {
        (OnExpiry::Alert, true) => t!("expiry-alert-long"),
        (OnExpiry::Alert, false) => t!("expiry-alert"),
        (OnExpiry::Stop, true) => t!("expiry-stop-long"),
        (OnExpiry::Stop, false) => t!("expiry-stop"),
        (OnExpiry::Release, true) => t!("expiry-release-long"),
        (OnExpiry::Release, false) => t!("expiry-release"),
    }
}

/// A kind of resource, as people read it (the JSON keeps its snake-case name).
pub fn resource_kind(kind: ResourceKind) -> Cow<'static, str> {
    match kind {
        ResourceKind::SystemDisk => t!("kind-system-disk"),
        ResourceKind::DataDisk => t!("kind-data-disk"),
        ResourceKind::Snapshot => t!("kind-snapshot"),
        ResourceKind::Image => t!("kind-image"),
        ResourceKind::PublicIp => t!("kind-public-ip"),
        ResourceKind::LoadBalancer => t!("kind-load-balancer"),
        ResourceKind::NetworkVolume => t!("kind-network-volume"),
        ResourceKind::StoppedInstance => t!("kind-stopped-instance"),
    }
}
