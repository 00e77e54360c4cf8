//! The account listing: every instance on every page of `GET /api/v1/instances/` (as `vastai
//! show instances` pages it), less any row that says it holds no GPU, each with its own storage
//! and the volumes it uses, from one read of the account's volumes. Vast gives instances no
//! tags.

use jiff::Timestamp;

use super::resources::instance_storage;
use super::{ID, Vast, instance_info, listing, model};
use crate::provider::bearer::{ApiError, StateLog};
use crate::provider::bearer_held::{attached, listed, or_gap};
use crate::provider::{Discovered, ProviderError};

impl Vast {
    pub(super) async fn discover(&self) -> Result<Vec<Discovered>, ProviderError> {
        let api = self.held.api()?;
        let now = Timestamp::now();
        let state = |e: ApiError| api.error(e);
        let rows = listing::rows(api).await.map_err(state)?;
        let found: Vec<model::Seen> = rows
            .iter()
            .filter_map(model::parse)
            .filter(|s| s.gpus > 0)
            .collect();
        let mut gaps = Vec::new();
        let volumes = if found.is_empty() {
            Vec::new()
        } else {
            let rows = Self::volume_rows(api, now).await;
            or_gap(api, rows, &crate::t!("vast-gap-volumes-listing"), &mut gaps)?
        };
        self.held.set_gaps(gaps);
        Ok(found
            .iter()
            .map(|s| {
                self.held.sightings.saw(ID, None, &s.id);
                let mut resources: Vec<_> = instance_storage(s, now).into_iter().collect();
                resources.extend(
                    volumes
                        .iter()
                        .filter(|(_, users)| users.contains(&s.id))
                        .map(|(volume, _)| attached(volume, &s.id)),
                );
                let created = s.started.unwrap_or(now);
                listed(
                    instance_info(s, created, now, &StateLog::default()),
                    resources,
                )
            })
            .collect())
    }
}
