//! Alibaba Cloud ECS (API 2014-05-26), with VPC for elastic IPs and SLB for load balancers.
//!
//! Calls are RPC style, signed with ACS3-HMAC-SHA256 ([`sign`]), sent through the shared
//! [`Http`](crate::provider::http::Http) layer ([`rpc`]). Every action reads the instance back
//! and reports what DescribeInstances says; stop reads back `StoppedMode` too, because the
//! provider silently falls back from StopCharging to KeepCharging.

mod actions;
mod balancers;
pub mod chain;
mod codes;
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

use std::collections::HashSet;
use std::sync::Mutex;

use jiff::Timestamp;

pub use super::readback::Readback;
pub use super::rpc_cloud::{ChargeMode as StoppedMode, Clock};
pub use credentials::{AlibabaEnv, OwnSettings, Settings};

use super::ProviderKind;
use super::http::HttpPolicy;
use super::rpc_cloud::Common;
use super::{Asked, LinkedResource, ProviderError};
use metadata::Metadata;
use rpc::Client;

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
    common: Common,
    known: Mutex<Known>,
}

impl AlibabaCloud {
    pub fn new(settings: Settings, policy: HttpPolicy) -> Result<Self, ProviderError> {
        let own = settings.own;
        let keys = ram_role::key_store(
            settings.credentials,
            &settings.metadata,
            own.imds_v1_disabled,
            own.oidc,
        )?;
        Ok(AlibabaCloud {
            rpc: Client::new(keys, settings.region, own.endpoints, policy)?,
            metadata: Metadata::new(&settings.metadata)?,
            common: Common::new(ProviderKind::Alibaba, settings.instance_id),
            known: Mutex::new(Known::default()),
        })
    }

    super::rpc_cloud::common_builders!();

    pub fn region(&self) -> &str {
        self.rpc.region()
    }

    /// The instance: from the config or flags, else from the metadata service (asked once).
    pub async fn instance_id(&self) -> Result<String, ProviderError> {
        self.common
            .instance
            .get(|| self.metadata.instance_id())
            .await
    }

    /// When the provider will reclaim this spot instance, if it has said so.
    pub async fn spot_notice(&self) -> Result<Option<Timestamp>, ProviderError> {
        self.metadata.spot_termination().await
    }

    /// The instance id for a plan, without asking anyone.
    fn planned_instance(&self) -> String {
        self.common.instance.planned()
    }

    /// The core's rule for instance `id` when DescribeInstances does not list it: seen by this
    /// data directory or this process, so released; else an error naming the region and the
    /// endpoint asked.
    fn absent(&self, id: &str) -> Result<(), ProviderError> {
        self.common.sightings.absent(&Asked {
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

super::rpc_cloud::rpc_provider!(AlibabaCloud);
