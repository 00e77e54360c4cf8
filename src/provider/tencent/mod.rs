//! Tencent Cloud CVM (API 2017-03-12).
//!
//! JSON calls signed with TC3-HMAC-SHA256 ([`sign`]), sent through the shared
//! [`Http`](crate::provider::http::Http) layer ([`api`]). Errors come with HTTP 200 inside
//! `Response.Error`. Every action reads the instance back and reports what DescribeInstances (or
//! DescribeInstancesActionTimer, for the deadline) says; stop reads back `StopChargingMode` too.
//! The release deadline is held by the provider as an instance action timer.

mod actions;
pub mod api;
mod balancers;
pub mod chain;
mod codes;
pub mod credentials;
pub mod cvm_role;
mod delete;
mod discover;
mod instance_api;
mod inventory;
pub mod metadata;
pub mod model;
mod paging;
mod recorded;
mod regions;
pub mod sign;
mod stopped;
mod sweep;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use jiff::Timestamp;

pub use super::readback::Readback;
pub use super::rpc_cloud::{ChargeMode as StoppedMode, Clock};
pub use credentials::{OwnSettings, Settings, TencentEnv};

use super::http::{Http, HttpPolicy, Repeat, by_status};
use super::rpc_cloud::Common;
use super::{Asked, LinkedResource, ProviderError, ProviderKind};
use api::Client;

use crate::files::safe_name;
use crate::provider::rpc_cloud::InstanceApi as _;

pub struct TencentCloud {
    api: Client,
    metadata: String,
    common: Common,
    /// What was last seen linked to the instance, to name the leftovers once it is gone.
    known: Mutex<Vec<LinkedResource>>,
    /// Where that is kept between runs (`tencent-<instance>.json` in the data directory).
    memory: Option<PathBuf>,
}

impl TencentCloud {
    pub fn new(settings: Settings, policy: HttpPolicy) -> Result<Self, ProviderError> {
        let own = settings.own;
        let keys = cvm_role::key_store(settings.credentials, &settings.metadata, own.after_role)?;
        Ok(TencentCloud {
            api: Client::new(keys, settings.region, own.endpoint, policy)?,
            metadata: settings.metadata.trim_end_matches('/').to_string(),
            common: Common::new(ProviderKind::Tencent, settings.instance_id),
            known: Mutex::new(Vec::new()),
            memory: None,
        })
    }

    super::rpc_cloud::common_builders!();

    /// Keeps what was seen linked to the instance in `dir`, so a later run still names the
    /// leftovers after a release (CVM stops listing the disks with the instance).
    #[must_use]
    pub fn remembering(mut self, dir: &Path) -> Self {
        self.memory = Some(dir.to_path_buf());
        self
    }

    pub fn region(&self) -> &str {
        self.api.region()
    }

    /// The instance: from the config or flags, else from the metadata service (asked once).
    pub async fn instance_id(&self) -> Result<String, ProviderError> {
        self.common
            .instance
            .get(|| self.metadata_instance_id())
            .await
    }

    async fn metadata_instance_id(&self) -> Result<String, ProviderError> {
        let policy = HttpPolicy::metadata();
        let http = Http::new(policy).map_err(|e| ProviderError::state("tencent", e.to_string()))?;
        let url = format!("{}/latest/meta-data/instance-id", self.metadata);
        let unknown = |why: String| {
            ProviderError::state("tencent", crate::t!("tencent-no-instance-id", why = why))
                .with_fix(&crate::t!("rpc-fix-instance-id"))
        };
        let response = http
            .call(Repeat::Safe, |c| c.get(&url), by_status)
            .await
            .map_err(|e| unknown(self.metadata_failed(&e)))?;
        let id = response.body.trim();
        if response.status != 200 || id.is_empty() || id.contains(char::is_whitespace) {
            return Err(unknown(crate::t!(
                "tencent-metadata-http",
                status = response.status.to_string()
            )));
        }
        Ok(id.to_string())
    }

    /// The spot reclaim notice from the metadata service: `None` while there is none.
    ///
    /// "Querying the Reclamation Status of a Spot Instance" (CVM docs, 213/32487): GET
    /// `/latest/meta-data/spot/termination-time` answers the termination time as
    /// `2018-08-18 12:05:33`, in UTC+8, and 404 when the instance is not a spot instance or is
    /// not being reclaimed.
    pub async fn spot_notice(&self) -> Result<Option<Timestamp>, ProviderError> {
        let policy = HttpPolicy::metadata();
        let failed = |why: String| {
            ProviderError::state("tencent", crate::t!("rpc-spot-notice", error = why))
        };
        let http = Http::new(policy).map_err(|e| failed(e.to_string()))?;
        let url = format!("{}/latest/meta-data/spot/termination-time", self.metadata);
        let response = http
            .call(Repeat::Safe, |c| c.get(&url), by_status)
            .await
            .map_err(|e| failed(self.metadata_failed(&e)))?;
        match response.status {
            404 => return Ok(None),
            200 => {}
            other => {
                return Err(failed(crate::t!(
                    "tencent-metadata-http",
                    status = other.to_string()
                )));
            }
        }
        let text = response.body.trim();
        if text.is_empty() {
            return Ok(None);
        }
        spot_time(text)
            .map(Some)
            .ok_or_else(|| failed(crate::t!("tencent-not-termination-time", text = text)))
    }

    /// `the metadata service at URL: error`.
    fn metadata_failed(&self, e: &impl std::fmt::Display) -> String {
        crate::t!(
            "rpc-metadata-at",
            base = self.metadata.as_str(),
            error = e.to_string()
        )
    }

    /// The instance id for a plan, without asking anyone.
    fn planned_instance(&self) -> String {
        self.common.instance.planned()
    }

    /// Where the linked resources of `id` are kept: one file per region and instance, so a
    /// file found is a sighting in that region.
    fn memory_file(&self, id: &str) -> Option<PathBuf> {
        self.memory_file_named(&format!("{}-{}", safe_name(self.region()), safe_name(id)))
    }

    /// The file an older gpumeter kept, which does not say its region.
    fn legacy_memory_file(&self, id: &str) -> Option<PathBuf> {
        self.memory_file_named(&safe_name(id))
    }

    fn memory_file_named(&self, name: &str) -> Option<PathBuf> {
        Some(self.memory.as_ref()?.join(format!("tencent-{name}.json")))
    }

    /// The core's rule for instance `id` when DescribeInstances does not list it: seen by this
    /// data directory (the ledger, or what was kept of it here) or this process, so released;
    /// else an error naming the region and the endpoint asked.
    fn absent(&self, id: &str) -> Result<(), ProviderError> {
        if self.memory_file(id).is_some_and(|f| f.exists()) {
            self.saw(id);
        } else if self.legacy_memory_file(id).is_some_and(|f| f.exists()) {
            self.common.sightings.saw("tencent", None, id);
        }
        self.common.sightings.absent(&Asked {
            provider: "tencent",
            instance: id,
            region: Some(self.region()),
            endpoint: self.api.endpoint(),
        })
    }

    fn known(&self, id: &str) -> Vec<LinkedResource> {
        let seen = self.known.lock().map(|k| k.clone()).unwrap_or_default();
        if !seen.is_empty() {
            return seen;
        }
        [self.memory_file(id), self.legacy_memory_file(id)]
            .into_iter()
            .flatten()
            .find_map(|f| std::fs::read_to_string(f).ok())
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    fn remember(&self, id: &str, linked: Vec<LinkedResource>) {
        if let Some(file) = self.memory_file(id)
            && let Ok(text) = serde_json::to_string(&linked)
        {
            // Best effort: without it only this run can name the leftovers.
            let _ = crate::files::write_private(&file, text.as_bytes());
        }
        if let Ok(mut known) = self.known.lock() {
            *known = linked;
        }
    }
}

/// The spot termination time: `2018-08-18 12:05:33` in UTC+8, as documented, or an ISO 8601
/// time that names its zone.
fn spot_time(text: &str) -> Option<Timestamp> {
    if let Ok(at) = text.parse::<Timestamp>() {
        return Some(at);
    }
    let civil: jiff::civil::DateTime = text.parse().ok()?;
    jiff::tz::Offset::constant(8).to_timestamp(civil).ok()
}

super::rpc_cloud::rpc_provider!(TencentCloud);
