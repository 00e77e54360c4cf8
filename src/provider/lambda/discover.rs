//! The account listing: every instance `GET /instances` lists (one answer holds them all),
//! less any whose type says it has no GPU, each with the file systems it mounts by name, from
//! one read of the file systems. Lambda's API gives instances no tags.

use jiff::Timestamp;
use serde_json::Value;

use super::model::{Seen, parse_instance};
use super::{ID, Lambda, instance_info};
use crate::provider::bearer::{ApiError, StateLog, no_list};
use crate::provider::bearer_held::{attached, listed};
use crate::provider::http::Repeat;
use crate::provider::{Discovered, ProviderError};

impl Lambda {
    pub(super) async fn discover(&self) -> Result<Vec<Discovered>, ProviderError> {
        let api = self.held.api()?;
        let now = Timestamp::now();
        let state = |e: ApiError| api.error(e);
        let list = api
            .json("GET", "/instances", None, Repeat::Safe)
            .await
            .map_err(state)?;
        let found: Vec<Seen> = list
            .get("data")
            .and_then(Value::as_array)
            .ok_or_else(|| state(ApiError::malformed("GET /instances", no_list("data"))))?
            .iter()
            .filter_map(parse_instance)
            .filter(|i| i.gpus != Some(0))
            .collect();
        let mounts = |i: &Seen| i.status != "terminated" && !i.file_systems.is_empty();
        let file_systems = if found.iter().any(mounts) {
            Self::file_systems(api, now).await.map_err(state)?
        } else {
            Vec::new()
        };
        Ok(found
            .iter()
            .map(|i| {
                self.held.sightings.saw(ID, i.region.as_deref(), &i.id);
                let resources = file_systems
                    .iter()
                    .filter(|f| mounts(i) && i.file_systems.contains(&f.name))
                    .map(|f| attached(f, &i.id))
                    .collect();
                let created = i.created.unwrap_or(now);
                listed(
                    instance_info(i, created, now, &StateLog::default()),
                    resources,
                )
            })
            .collect())
    }
}
