//! The skeleton of a signed-API cloud (Alibaba, Tencent, and the next one like them): each fills
//! in its own calls (how a call is named, sent and described, how its errors read, what its
//! instance states are called) and the generic functions here run the rest, the same way for
//! all of them: the start, stop and release sequences with their read-back ([`actions`]) and
//! the deletes of what an instance leaves behind ([`delete`]), and listings read to their end
//! ([`paging`]). The client that sends the calls ([`caller`]) and the error a call ends in
//! ([`cloud_error`]) are shared too: a cloud names its error codes ([`codes`]), and what each
//! means for a retry and for the user is decided here, once for every cloud.

pub mod actions;
pub mod caller;
pub mod cloud_error;
pub mod codes;
pub mod delete;
pub mod info;
pub mod instance;
pub mod paging;

/// The region ids a DescribeRegions answer lists, in its order, trimmed; an item without one is
/// not a region. A region that takes no new instance may still hold what bills, so every one
/// listed is kept.
pub fn region_names<'a>(ids: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    ids.into_iter()
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(str::to_string)
        .collect()
}

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use async_trait::async_trait;
use jiff::Timestamp;

use super::readback::Readback;
use super::seen::Sightings;
use super::{ProviderError, ProviderKind};
use instance::InstanceId;

pub type Clock = Arc<dyn Fn() -> Timestamp + Send + Sync>;

/// The billing mode a stop asks for, each cloud spelling it in its own [`StoppedMode`] words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeMode {
    /// Compute stops billing; disks, addresses and images go on.
    StopCharging,
    /// Everything goes on billing.
    KeepCharging,
}

impl ChargeMode {
    /// The mode as the cloud whose words are `words` spells it.
    pub fn word(self, words: &StoppedMode) -> &'static str {
        match self {
            ChargeMode::StopCharging => words.stop_charging.0,
            ChargeMode::KeepCharging => words.keep_charging,
        }
    }
}

/// What every signed-API cloud holds alike beside its own client.
pub struct Common {
    pub kind: ProviderKind,
    /// The instance the actions are for.
    pub instance: InstanceId,
    pub readback: Readback,
    /// The mode a stop asks for (stop charging unless set).
    pub stopped_mode: ChargeMode,
    pub clock: Clock,
    /// The resource ids recorded for each instance (the ledger's inventories), by instance id:
    /// after a release they tie the leftovers the provider no longer links.
    pub recorded: BTreeMap<String, BTreeSet<String>>,
    pub sightings: Sightings,
    /// The prepaid term the last inventory read reported (`ExpiredTime`); `None` for a
    /// pay-as-you-go instance, or before the first read.
    pub term: std::sync::Mutex<Option<crate::subscription::Reported>>,
}

impl Common {
    /// The prepaid term the last inventory read reported.
    pub fn term(&self) -> Option<crate::subscription::Reported> {
        self.term.lock().ok().and_then(|t| *t)
    }

    /// Keeps the term an inventory read reported (`None`: the instance is not prepaid, or
    /// gone).
    pub fn note_term(&self, term: Option<crate::subscription::Reported>) {
        if let Ok(mut kept) = self.term.lock() {
            *kept = term;
        }
    }

    /// For `kind`, acting on `instance_id` (else the one the metadata service names).
    pub fn new(kind: ProviderKind, instance_id: Option<String>) -> Self {
        Common {
            kind,
            instance: InstanceId::new(instance_id),
            readback: Readback::default(),
            stopped_mode: ChargeMode::StopCharging,
            clock: Arc::new(Timestamp::now),
            recorded: BTreeMap::new(),
            sightings: Sightings::default(),
            term: std::sync::Mutex::new(None),
        }
    }

    /// Knows the resource ids recorded for each instance, as `(instance, resource, deleted with
    /// the instance)` (the ledger's inventories), so a process that never saw the instance can
    /// still tell its leftovers once it is released.
    pub fn recall(&mut self, ids: impl IntoIterator<Item = (String, String, bool)>) {
        for (instance, id, _) in ids {
            self.recorded.entry(instance).or_default().insert(id);
        }
    }

    pub fn now(&self) -> Timestamp {
        (self.clock)()
    }
}

/// The builder methods of a signed-API cloud that holds its [`Common`] in a field `common`, in
/// its `impl` block: what the ledger recorded, the read-back, the clock and the stop's mode.
macro_rules! common_builders {
    () => {
        /// Knows the resource ids recorded for each instance
        /// ([`Common::recall`](crate::provider::rpc_cloud::Common::recall)).
        #[must_use]
        pub fn recalling(mut self, ids: impl IntoIterator<Item = (String, String, bool)>) -> Self {
            self.common.recall(ids);
            self
        }

        crate::provider::setters::with_setters! {
            with_readback(readback: crate::provider::readback::Readback) in common;
            with_clock(clock: crate::provider::rpc_cloud::Clock) in common;
            /// The mode `stop` asks for (the one that stops the compute bill unless set).
            with_stopped_mode(stopped_mode: crate::provider::rpc_cloud::ChargeMode) in common;
        }
    };
}

pub(crate) use common_builders;

/// `impl Provider` for a signed-API cloud that holds its [`Common`] in a field `common`: its
/// name, capabilities and sightings come from there, deletes from the skeleton's [`delete`],
/// and the rest from the cloud's own methods (`spot_notice`, `plan_calls`, `read_inventory`,
/// `sweep_region`, `discover`, `account_regions`; actions through its `OwnActions`). A macro rather than a
/// generic impl: those methods are written in the cloud's own modules, and a trait would have
/// each cloud forward every one of them again.
macro_rules! rpc_provider {
    ($cloud:ty) => {
        #[async_trait::async_trait]
        impl crate::provider::Provider for $cloud {
            async fn interruption_notice(
                &self,
            ) -> Result<Option<jiff::Timestamp>, crate::provider::ProviderError> {
                self.spot_notice().await
            }

            fn name(&self) -> &'static str {
                self.common.kind.id()
            }

            fn add_seen(&self, seen: &crate::provider::Seen) {
                self.common.sightings.add(seen);
            }

            fn capabilities(&self) -> crate::provider::Capabilities {
                self.common.kind.capabilities()
            }

            fn subscription(&self) -> Option<crate::subscription::Reported> {
                self.common.term()
            }

            fn plan_instance(&self, action: &crate::provider::Action) -> Vec<String> {
                self.plan_calls(action)
            }

            async fn inventory(
                &self,
            ) -> Result<crate::provider::Inventory, crate::provider::ProviderError> {
                self.read_inventory().await
            }

            async fn look(
                &self,
            ) -> Result<crate::provider::refresh::Look, crate::provider::ProviderError> {
                crate::provider::rpc_cloud::look(self).await
            }

            async fn sweep(
                &self,
            ) -> Result<Vec<crate::provider::LinkedResource>, crate::provider::ProviderError> {
                self.sweep_region().await
            }

            async fn instances(
                &self,
            ) -> Result<Vec<crate::provider::Discovered>, crate::provider::ProviderError> {
                self.discover().await
            }

            async fn regions(&self) -> Result<Option<Vec<String>>, crate::provider::ProviderError> {
                self.account_regions().await.map(Some)
            }

            fn delete_plan(&self, resource: &crate::provider::LinkedResource) -> Vec<String> {
                crate::provider::rpc_cloud::delete::plan(self, resource)
            }

            async fn delete(
                &self,
                resource: &crate::provider::LinkedResource,
            ) -> Result<crate::provider::ActionReport, crate::provider::ProviderError> {
                crate::provider::rpc_cloud::delete::delete(self, resource).await
            }

            async fn act(
                &self,
                action: &crate::provider::Action,
            ) -> Result<crate::provider::ActionReport, crate::provider::ProviderError> {
                crate::provider::rpc_cloud::actions::run(self, action).await
            }
        }
    };
}

pub(crate) use rpc_provider;

/// The UTC form both clouds' APIs take for an instant (Alibaba's AutoReleaseTime, Tencent's
/// ActionTime): `2026-01-02T03:04:05Z`.
pub fn format_time(at: jiff::Timestamp) -> String {
    at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// A cloud's error, as the skeleton judges it.
pub trait CallError: std::fmt::Display + Clone + Into<ProviderError> + Send + Sync {
    /// The provider said no to the request itself (not a 5xx, not a lost answer).
    fn is_refusal(&self) -> bool;
    /// The provider's not-found answer for the id.
    fn is_not_found(&self) -> bool;
    /// A refused key: waiting will not make it valid.
    fn is_auth(&self) -> bool;
}

/// An instance as the cloud's DescribeInstances lists it.
pub trait Listed: Send + Sync {
    /// The provider's word for its state.
    fn state(&self) -> &str;
    /// What the provider says a stopped instance still bills (its stopped mode).
    fn stopped_mode(&self) -> &str;
    /// Its state in the core's words, as the inventory reads it.
    fn core_state(&self) -> crate::meter::InstanceState;
}

/// The instance's state from one DescribeInstances: the look between full inventories.
pub async fn look<C: InstanceApi>(cloud: &C) -> Result<super::refresh::Look, ProviderError> {
    let id = cloud.instance_id().await?;
    let listed = cloud.describe_instance(&id).await.map_err(Into::into)?;
    Ok(super::refresh::Look::State(
        listed.as_ref().map(Listed::core_state),
    ))
}

/// The instance actions the skeleton runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    Release,
    Stop,
    Start,
}

/// A cloud's words, as its API spells them.
#[derive(Debug, Clone, Copy)]
pub struct Words {
    /// The call each action sends: release, stop, start.
    pub calls: [&'static str; 3],
    /// The states a start and a stop end in.
    pub running: &'static str,
    pub stopped: &'static str,
    pub stopped_mode: StoppedMode,
}

/// The field that says what a stopped instance still bills, and its values.
#[derive(Debug, Clone, Copy)]
pub struct StoppedMode {
    pub field: &'static str,
    /// The value that stops compute billing, and what still bills then, in a sentence.
    pub stop_charging: (&'static str, fn() -> std::borrow::Cow<'static, str>),
    /// The value that keeps compute billing.
    pub keep_charging: &'static str,
}

impl Words {
    /// Why a stopped instance's compute still bills, as a sweep's state
    /// (`Stopped (KeepCharging): compute still bills`); `None` when its stopped mode stops the
    /// compute bill. A mode left out or spelled otherwise is read as billing: keeping the
    /// charge is the provider's default.
    pub fn still_billing(&self, instance: &impl Listed) -> Option<String> {
        let mode = instance.stopped_mode();
        if mode == self.stopped_mode.stop_charging.0 {
            return None;
        }
        let unstated = crate::t!("rpc-mode-not-stated", field = self.stopped_mode.field);
        let mode = if mode.is_empty() { &unstated } else { mode };
        Some(crate::t!(
            "rpc-stopped-still-bills",
            stopped = self.stopped,
            mode = mode
        ))
    }

    pub fn call(&self, call: Call) -> &'static str {
        let [release, stop, start] = self.calls;
        match call {
            Call::Release => release,
            Call::Stop => stop,
            Call::Start => start,
        }
    }
}

/// What one cloud fills in.
#[async_trait]
pub trait InstanceApi: Send + Sync {
    type Instance: Listed;
    type Error: CallError;
    const WORDS: Words;

    /// What the cloud holds like every other.
    fn common(&self) -> &Common;
    /// The region the cloud's calls go to.
    fn region(&self) -> &str;

    fn readback(&self) -> &Readback {
        &self.common().readback
    }
    /// The instance the actions are for.
    async fn instance_id(&self) -> Result<String, ProviderError>;
    /// One read of instance `id`; `None` when the provider does not list it.
    async fn describe_instance(&self, id: &str) -> Result<Option<Self::Instance>, Self::Error>;
    /// The call for `call` on instance `id`, in the words `--dry-run` prints.
    fn call_line(&self, call: Call, id: &str) -> String;
    /// The read of instance `id`, in those words.
    fn describe_line(&self, id: &str) -> String;
    /// Sends `call` for instance `id`.
    async fn send(&self, call: Call, id: &str) -> Result<(), Self::Error>;
    /// The provider accepted a call for instance `id`: it knows the instance.
    fn saw(&self, id: &str) {
        let common = self.common();
        common
            .sightings
            .saw(common.kind.id(), Some(self.region()), id);
    }
    /// The core's rule for an instance the provider does not list: released if it was seen,
    /// else an error naming where it was looked for.
    fn absent(&self, id: &str) -> Result<(), ProviderError>;
    /// The stopped mode a stop asks for.
    fn asked_mode(&self) -> &'static str {
        self.common().stopped_mode.word(&Self::WORDS.stopped_mode)
    }
    /// Whether a released instance still listed is in the provider's recycle bin, where it no
    /// longer bills compute.
    fn recycled(&self, _instance: &Self::Instance) -> bool {
        false
    }
    /// What the release of `id` left billing, as a note after the summary (`; still billing: ...`).
    async fn leftover_note(&self, id: &str) -> String;

    /// The read-back of instance `id`, in the words `--dry-run` prints.
    fn readback_line(&self, id: &str, until: &str) -> String {
        crate::t!(
            "rpc-read-back-until",
            call = self.describe_line(id),
            until = until
        )
    }
}
