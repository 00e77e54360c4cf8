//! Deleting a network volume: `DELETE /v2/network-volumes/{id}` (`deleteNetworkVolume` in
//! RunPod's REST API 2.0.0 description, `204` with no body), then `GET /v2/network-volumes`
//! until the list no longer holds it. RunPod's refusal (a volume a pod still uses) comes back as
//! its `detail`. A pod's own disks are not deleted here: they go when the pod is terminated.

use super::model::Pod;
use super::{ID, Runpod};
use crate::meter::ResourceKind;
use crate::provider::bearer::text;
use crate::provider::bearer_held::{delete_plan, read_back_delete};
use crate::provider::http::Repeat;
use crate::provider::{ActionReport, LinkedResource, ProviderError};

const LIST: &str = "/v2/network-volumes";

fn path(id: &str) -> String {
    format!("{LIST}/{id}")
}

/// The pod (not terminated) that mounts network volume `id`, as the pods list says.
pub(super) fn user(pods: &[Pod], id: &str) -> Option<String> {
    pods.iter()
        .find(|p| p.status != "TERMINATED" && p.network.iter().any(|v| v == id))
        .map(|p| p.id.clone())
}

/// What deleting anything but a network volume answers.
fn not_deleted(r: &LinkedResource) -> ProviderError {
    ProviderError::unsupported(
        ID,
        crate::t!("runpod-delete-unsupported", kind = r.kind.shown()),
    )
}

impl Runpod {
    /// The calls [`Runpod::delete_volume`] makes.
    pub(super) fn volume_plan(r: &LinkedResource) -> Vec<String> {
        if r.kind != ResourceKind::NetworkVolume {
            return Vec::new();
        }
        delete_plan(r, &path(&r.id), LIST)
    }

    /// Deletes network volume `r`, then lists the volumes until it is gone.
    pub(super) async fn delete_volume(
        &self,
        r: &LinkedResource,
    ) -> Result<ActionReport, ProviderError> {
        if r.kind != ResourceKind::NetworkVolume {
            return Err(not_deleted(r));
        }
        let api = self.held.api()?;
        let call = path(&r.id);
        let sent = api
            .send("DELETE", &call, None, Repeat::Safe)
            .await
            .map(drop);
        let listed = || async {
            let list = Self::network_volumes(api).await?;
            Ok(list
                .iter()
                .any(|v| text(v, "id").as_deref() == Some(r.id.as_str()))
                .then_some(()))
        };
        let held = (api, &self.held.readback);
        read_back_delete(held, r, (&call, LIST), sent, listed).await
    }
}
