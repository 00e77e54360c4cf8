//! The cockpit's words for the core's values (a key's meaning, an action's name, what happens
//! at zero), from the message catalogue. The core keeps its English for logs and JSON.

use std::borrow::Cow;

use crate::app::{Binding, Confirm, Intent};
use crate::fleet::FleetRow;
use crate::guard::OnExpiry;
use crate::meter::InstanceState;
use crate::meter::usage::BillingMode;
use crate::provider::Action;
use crate::t;
use crate::telemetry::{GpuUnavailable, GpuUnavailableKind};

/// What a key does, as the help overlay lists it.
pub fn describe(b: &Binding) -> Cow<'static, str> {
    crate::app::keymap::describe(b)
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
    crate::app::confirm::verb(action)
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

/// A row's label in a linked resource's details (the core names rows in English).
pub fn detail_label(label: &'static str) -> Cow<'static, str> {
    match label {
        "id" => t!("details-id"),
        "name" => t!("details-name"),
        "kind" => t!("details-kind"),
        "created" => t!("details-created-label"),
        "size" => t!("details-size"),
        "class" => t!("details-class"),
        "state" => t!("details-state"),
        "attached to" => t!("details-attached-to"),
        "per month" => t!("details-per-month"),
        "on release" => t!("details-on-release"),
        "data" => t!("details-data-label"),
        "backs image" => t!("details-backs-image-label"),
        other => Cow::Borrowed(other),
    }
}

/// An instance's state, as the header and the fleet show it.
pub fn instance_state(state: InstanceState) -> Cow<'static, str> {
    match state {
        InstanceState::Running => t!("state-running"),
        InstanceState::NoGpu => t!("state-no-gpu"),
        InstanceState::Stopped => t!("state-stopped"),
        InstanceState::Released => t!("state-released"),
    }
}

/// How the compute is billed: on demand, spot, monthly or in compute units.
pub fn billing_mode(mode: BillingMode) -> Cow<'static, str> {
    match mode {
        BillingMode::OnDemand => t!("mode-on-demand"),
        BillingMode::Spot => t!("mode-spot"),
        BillingMode::Monthly => t!("mode-monthly"),
        BillingMode::ComputeUnits => t!("mode-compute-units"),
    }
}

/// Why NVML gave no GPU and the library's own words after it, in the user's language.
pub fn gpu_unavailable_said(e: &GpuUnavailable) -> String {
    format!("{}: {}", gpu_unavailable(e.kind), e.detail)
}

/// Why NVML gave no GPU, in a word or two.
pub fn gpu_unavailable(kind: GpuUnavailableKind) -> Cow<'static, str> {
    match kind {
        GpuUnavailableKind::LibraryNotFound => t!("nvml-library-not-found"),
        GpuUnavailableKind::DriverNotLoaded => t!("nvml-driver-not-loaded"),
        GpuUnavailableKind::NoPermission => t!("nvml-no-permission"),
        GpuUnavailableKind::VersionMismatch => t!("nvml-version-mismatch"),
        GpuUnavailableKind::Other => t!("nvml-other"),
    }
}

/// A fleet row's state (the `fleet` command keeps the core's English).
pub fn fleet_state(row: &FleetRow) -> Cow<'static, str> {
    match (row.state, &row.error) {
        (_, Some(_)) => t!("fleet-unreadable"),
        (None, None) if row.origin.instance_id.is_empty() => t!("header-no-instance"),
        (Some(state), _) => instance_state(state),
        (None, _) => t!("state-released"),
    }
}
