//! What a cloud provider reports and is asked to do: the instance, the resources billed with it,
//! the actions that change them, what came of an action and why a call failed. The adapters
//! that speak each provider's API live at the edge and return these.

use std::collections::BTreeMap;

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::meter::{BillingMode, InstanceState, Resource, ResourceKind};

mod clean;
mod cleanup;
mod discovered;
mod error;
mod exposure;
mod fits;
mod forced_release;
mod key_expiry;
mod kind;
mod seen;
pub(crate) mod snapshots;
mod stopped_release;
mod sweep;
pub use crate::money::Balance;
pub use cleanup::{CleanupFilter, CleanupKind, CleanupPlan, Refusal};
pub use discovered::Discovered;
pub use error::{Auth, ErrorKind, MESSAGE_CHARS, ProviderError};
pub use exposure::{Exposure, Finding, Severity, Sharing, findings, findings_of};
pub use fits::{nothing_to_do, nothing_to_do_shown};
pub use forced_release::{
    ForcedRelease, ForcedReleaseAlert, ForcedReleaseJson, forced_release_of, kept_stopped_for,
};
pub use key_expiry::outlived_keys;
pub use kind::{ProviderKind, UnknownProvider};
pub use seen::{Asked, Seen};
pub use snapshots::{Kept, SnapshotPlan};
pub use stopped_release::{
    ReleaseCountdownJson, ReleasedBy, StoppedClock, StoppedPolicy, StoppedSince, erased_by_release,
    last_shutdown, release_countdown, seen_after_read,
};
pub use sweep::{SweepRow, merge_regions, monthly_total, monthly_totals, rank};

/// The instance the cockpit watches, as the provider describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceInfo {
    pub id: String,
    pub name: String,
    pub provider: String,
    pub region: Option<String>,
    /// The SKU (instance type) to look up in the price sheet.
    pub sku: String,
    pub mode: BillingMode,
    pub state: InstanceState,
    pub created: Timestamp,
    /// The live price per hour where the provider's API reports one.
    pub live_price_per_hour: Option<Decimal>,
    /// State changes the provider reports (or the adapter saw), oldest first.
    pub history: Vec<(Timestamp, InstanceState)>,
}

/// A billable resource linked to the instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkedResource {
    pub id: String,
    pub name: String,
    pub kind: ResourceKind,
    /// The disk class for pricing (`gp3`, `cloud_essd`); `None` for other kinds.
    pub class: Option<String>,
    pub size_gib: Decimal,
    /// The provider's own word for its state (`in-use`, `available`, `completed`, ...).
    pub state: String,
    pub created: Timestamp,
    /// Whether releasing the instance deletes it too.
    pub deleted_with_instance: bool,
    /// For a snapshot: the image that uses it, so snapshot-clean never deletes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backs_image: Option<String>,
    /// The instance (or network interface) it is attached to or associated with; `None` when
    /// nothing uses it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_to: Option<String>,
    /// Whether its data is encrypted and who else may read it, as far as the provider says.
    #[serde(default)]
    pub exposure: Exposure,
    /// For a snapshot or an image: what it was made from, as the provider says (the instance,
    /// or for a snapshot the volume). Only the id: whether it still exists is not asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The provider's tags (labels), key to value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, String>,
}

impl LinkedResource {
    /// One with only what every resource has: no class, not deleted with the instance, nothing
    /// attached, no image, origin or tags, and the exposure unknown.
    pub fn new(
        id: String,
        name: String,
        kind: ResourceKind,
        size_gib: Decimal,
        state: String,
        created: Timestamp,
    ) -> Self {
        LinkedResource {
            id,
            name,
            kind,
            class: None,
            size_gib,
            state,
            created,
            deleted_with_instance: false,
            backs_image: None,
            attached_to: None,
            exposure: Exposure::default(),
            origin: None,
            tags: BTreeMap::new(),
        }
    }

    /// The meter's view of this resource.
    pub fn to_meter(&self) -> Resource {
        Resource {
            id: self.id.clone(),
            kind: self.kind,
            class: self.class.clone(),
            size_gib: self.size_gib,
            created: self.created,
            deleted: None,
            deleted_with_instance: self.deleted_with_instance,
        }
    }
}

/// A deadline the provider holds itself (Alibaba auto-release time, Tencent action timer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldDeadline {
    pub at: Timestamp,
}

/// Everything billed with the instance, read at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inventory {
    /// `None` once the instance is gone (released and no longer listed).
    pub instance: Option<InstanceInfo>,
    pub resources: Vec<LinkedResource>,
    pub deadline: Option<HeldDeadline>,
}

impl Inventory {
    /// The instance's state; released once the provider no longer lists it.
    pub fn instance_state(&self) -> InstanceState {
        self.instance
            .as_ref()
            .map_or(InstanceState::Released, |i| i.state)
    }
}

/// What a provider can do; the cockpit hides the keys for what it cannot, and says why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each is one thing the provider can or cannot do"
)]
pub struct Capabilities {
    pub stop: bool,
    /// A stopped instance can be started again through the provider's API.
    pub start: bool,
    pub snapshots: bool,
    /// The provider can hold a release deadline server-side.
    pub deadline: bool,
}

impl Capabilities {
    /// Nothing but reading: no stop, start, snapshot clean or held deadline.
    pub const NONE: Capabilities = Capabilities {
        stop: false,
        start: false,
        snapshots: false,
        deadline: false,
    };
}

/// A destructive or state-changing request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Action {
    Release,
    Stop,
    /// Start a stopped instance again: compute bills again from then.
    Start,
    /// Delete snapshots beyond the newest `keep` ([`SnapshotPlan`]); take a final one first if
    /// asked. `delete` is what the confirmation promised (set by [`crate::app::Confirm`]): an
    /// adapter whose fresh plan deletes anything else refuses.
    SnapshotClean {
        keep: usize,
        final_snapshot: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        delete: Option<Vec<String>>,
    },
    /// Hold a release deadline at the provider; `None` cancels it.
    SetDeadline {
        at: Option<Timestamp>,
    },
    /// Delete these resources, in this order ([`CleanupPlan::delete`]): exactly what the
    /// confirmation listed. Each is read back.
    Cleanup {
        delete: Vec<LinkedResource>,
    },
}

impl Action {
    pub fn label(&self) -> &'static str {
        match self {
            Action::Release => "release",
            Action::Stop => "stop",
            Action::Start => "start",
            Action::SnapshotClean { .. } => "snapshot-clean",
            Action::SetDeadline { .. } => "set deadline",
            Action::Cleanup { .. } => "cleanup",
        }
    }
}

/// What came of an action, as read back from the provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActionReport {
    pub action: Action,
    /// The provider's read-back shows the action took effect.
    pub confirmed: bool,
    /// One line for the user: what the provider says now.
    pub summary: String,
    /// The calls made, in order (the same list `--dry-run` prints).
    pub calls: Vec<String>,
}
