//! The account listing: every pod with a GPU (CPU pods left out), each with its own disks and
//! the network volumes it mounts, from one `GET /v2/pods` and, where some pod mounts a network
//! volume, one `GET /v2/network-volumes`. RunPod's API gives pods no tags.

use jiff::Timestamp;

use super::disks::{own_disks, volume_of};
use super::{ID, Runpod};
use crate::provider::bearer::{ApiError, StateLog};
use crate::provider::bearer_held::{listed, or_gap};
use crate::provider::{Discovered, ProviderError};

impl Runpod {
    pub(super) async fn discover(&self) -> Result<Vec<Discovered>, ProviderError> {
        let api = self.held.api()?;
        let now = Timestamp::now();
        let state = |e: ApiError| api.error(e);
        let pods: Vec<_> = Self::pods(api)
            .await
            .map_err(state)?
            .into_iter()
            .filter(|p| p.gpus > 0)
            .collect();
        let mut gaps = Vec::new();
        let volumes = if pods.iter().any(|p| !p.network.is_empty()) {
            let volumes = Self::network_volumes(api).await;
            or_gap(
                api,
                volumes,
                &crate::t!("runpod-gap-volumes-listing"),
                &mut gaps,
            )?
        } else {
            Vec::new()
        };
        self.held.set_gaps(gaps);
        Ok(pods
            .iter()
            .map(|p| {
                self.held.sightings.saw(ID, None, &p.id);
                let mut resources = own_disks(p, now);
                resources.extend(
                    volumes
                        .iter()
                        .filter_map(|v| volume_of(Some(p), v, "not attached here", now))
                        .filter(|r| r.attached_to.is_some()),
                );
                listed(Self::info(p, now, &StateLog::default()), resources)
            })
            .collect())
    }
}
