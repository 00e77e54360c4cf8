//! Alibaba Cloud ECS (API 2014-05-26), with VPC for elastic IPs and SLB for load balancers.
//!
//! Calls are RPC style, signed with ACS3-HMAC-SHA256 ([`sign`]), sent through the shared
//! [`Http`](crate::provider::http::Http) layer ([`rpc`]). Every action reads the instance back
//! and reports what DescribeInstances says; stop reads back `StoppedMode` too, because the
//! provider silently falls back from StopCharging to KeepCharging.

mod actions;
mod balancers;
pub mod chain;
pub mod credentials;
mod delete;
mod discover;
mod instance_api;
mod inventory;
pub mod metadata;
pub mod model;
pub mod oidc;
mod plan;
pub mod ram_role;
mod regions;
pub mod rpc;
mod sdk_file;
pub mod sign;
mod snapshots;
mod stopped;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use jiff::Timestamp;

pub use super::readback::Readback;
pub use credentials::{AlibabaEnv, Settings};

use super::ProviderKind;
use super::http::HttpPolicy;
use super::rpc_cloud::instance::InstanceId;
use super::seen::Sightings;
use super::{
    Action, ActionReport, Asked, Capabilities, Discovered, Inventory, LinkedResource, Provider,
    ProviderError, Seen,
};
use metadata::Metadata;
use rpc::Client;

pub type Clock = Arc<dyn Fn() -> Timestamp + Send + Sync>;

/// StopInstance's billing mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoppedMode {
    /// Economical mode: compute stops billing; disks, EIPs and snapshots go on.
    StopCharging,
    /// Standard mode: everything goes on billing.
    KeepCharging,
}

impl StoppedMode {
    pub fn as_str(self) -> &'static str {
        match self {
            StoppedMode::StopCharging => "StopCharging",
            StoppedMode::KeepCharging => "KeepCharging",
        }
    }
}

/// What the adapter saw linked to the instance, so it can still find the leftovers once the
/// instance is gone, and so `--dry-run` can name the exact snapshots it would delete.
#[derive(Debug, Clone, Default)]
struct Known {
    /// Ids of every linked resource seen with the instance.
    linked: HashSet<String>,
    /// What the last inventory listed, for the snapshot-clean plan (a snapshot a custom image
    /// uses says so in `backs_image`).
    resources: Vec<LinkedResource>,
    system_disk: Option<String>,
}

pub struct AlibabaCloud {
    rpc: Client,
    metadata: Metadata,
    instance: InstanceId,
    readback: Readback,
    stopped_mode: StoppedMode,
    clock: Clock,
    known: Mutex<Known>,
    /// The resource ids recorded for each instance (the ledger's inventories), by instance id:
    /// after a release they tie the leftovers the provider no longer links.
    recorded: BTreeMap<String, BTreeSet<String>>,
    sightings: Sightings,
}

impl AlibabaCloud {
    pub fn new(settings: Settings, policy: HttpPolicy) -> Result<Self, ProviderError> {
        let Settings {
            credentials,
            region,
            endpoints,
            instance_id,
            metadata,
            imds_v1_disabled,
            oidc,
        } = settings;
        let keys = ram_role::key_store(credentials, &metadata, imds_v1_disabled, oidc)?;
        Ok(AlibabaCloud {
            rpc: Client::new(keys, region, endpoints, policy)?,
            metadata: Metadata::new(&metadata)?,
            instance: InstanceId::new(instance_id),
            readback: Readback::default(),
            stopped_mode: StoppedMode::StopCharging,
            clock: Arc::new(Timestamp::now),
            known: Mutex::new(Known::default()),
            recorded: BTreeMap::new(),
            sightings: Sightings::default(),
        })
    }

    /// Knows the resource ids recorded for each instance, as `(instance, resource, deleted with
    /// the instance)` (the ledger's inventories), so a process that never saw the instance
    /// can still tell its leftovers once it is released.
    #[must_use]
    pub fn recalling(mut self, ids: impl IntoIterator<Item = (String, String, bool)>) -> Self {
        for (instance, id, _) in ids {
            self.recorded.entry(instance).or_default().insert(id);
        }
        self
    }

    super::setters::with_setters! {
        with_readback(readback: Readback);
        with_clock(clock: Clock);
        /// The mode `stop` asks for (StopCharging unless set).
        with_stopped_mode(stopped_mode: StoppedMode);
    }

    pub fn region(&self) -> &str {
        self.rpc.region()
    }

    /// The instance: from the config or flags, else from the metadata service (asked once).
    pub async fn instance_id(&self) -> Result<String, ProviderError> {
        self.instance.get(|| self.metadata.instance_id()).await
    }

    /// When the provider will reclaim this spot instance, if it has said so.
    pub async fn spot_notice(&self) -> Result<Option<Timestamp>, ProviderError> {
        self.metadata.spot_termination().await
    }

    /// The instance id for a plan, without asking anyone.
    fn planned_instance(&self) -> String {
        self.instance.planned()
    }

    /// The core's rule for instance `id` when DescribeInstances does not list it: seen by this
    /// data directory or this process, so released; else an error naming the region and the
    /// endpoint asked.
    fn absent(&self, id: &str) -> Result<(), ProviderError> {
        self.sightings.absent(&Asked {
            provider: "alibaba",
            instance: id,
            region: Some(self.region()),
            endpoint: self.rpc.ecs_endpoint(),
        })
    }

    fn known(&self) -> Known {
        self.known.lock().map(|k| k.clone()).unwrap_or_default()
    }

    fn remember(&self, update: impl FnOnce(&mut Known)) {
        if let Ok(mut known) = self.known.lock() {
            update(&mut known);
        }
    }
}

#[async_trait]
impl Provider for AlibabaCloud {
    async fn interruption_notice(&self) -> Result<Option<Timestamp>, ProviderError> {
        self.spot_notice().await
    }

    fn name(&self) -> &'static str {
        ProviderKind::Alibaba.id()
    }

    fn add_seen(&self, seen: &Seen) {
        self.sightings.add(seen);
    }

    fn capabilities(&self) -> Capabilities {
        ProviderKind::Alibaba.capabilities()
    }

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        self.plan_calls(action)
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        self.read_inventory().await
    }

    async fn sweep(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        self.sweep_region().await
    }

    async fn instances(&self) -> Result<Vec<Discovered>, ProviderError> {
        self.discover().await
    }

    async fn regions(&self) -> Result<Option<Vec<String>>, ProviderError> {
        self.account_regions().await.map(Some)
    }

    fn delete_plan(&self, resource: &LinkedResource) -> Vec<String> {
        crate::provider::rpc_cloud::delete::plan(self, resource)
    }

    async fn delete(&self, resource: &LinkedResource) -> Result<ActionReport, ProviderError> {
        crate::provider::rpc_cloud::delete::delete(self, resource).await
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        self.run_action(action).await
    }
}
