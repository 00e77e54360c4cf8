//! Deleting a volume as the official `vastai` package does (PyPI `vastai` 1.9.1,
//! `vastai/api/storage.py` `delete_volume`, behind `vastai delete volume ID`):
//! `DELETE /api/v0/volumes/?id=ID` with an empty JSON body, ID the volume contract's number.
//! The package's help says every instance using the volume must be destroyed first; Vast's
//! refusal (an error status, or `{"success": false, "msg": ...}` with 200) comes back in its
//! words. Then `GET /api/v0/volumes?owner=me&type=all_volume` until the list no longer holds it.

use jiff::Timestamp;
use serde_json::json;

use super::{ID, VOLUMES, Vast};
use crate::meter::ResourceKind;
use crate::provider::bearer::Api;
use crate::provider::bearer_held::{delete_plan, read_back_delete};
use crate::provider::http::Repeat;
use crate::provider::{ActionReport, LinkedResource, ProviderError};

/// The prefix the adapter puts before a volume's number in its resource id.
const PREFIX: &str = "volume-";

/// The volume contract's number in `r`'s id (`volume-32` is 32), for a volume.
fn number(r: &LinkedResource) -> Option<&str> {
    (r.kind == ResourceKind::NetworkVolume)
        .then(|| r.id.strip_prefix(PREFIX))
        .flatten()
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

fn path(number: &str) -> String {
    format!("/api/v0/volumes/?id={number}")
}

impl Vast {
    /// The calls [`Vast::delete_volume`] makes.
    pub(super) fn volume_plan(r: &LinkedResource) -> Vec<String> {
        let Some(n) = number(r) else {
            return Vec::new();
        };
        delete_plan(r, &path(n), VOLUMES)
    }

    /// Deletes volume `r`, then lists the volumes until it is gone.
    pub(super) async fn delete_volume(
        &self,
        r: &LinkedResource,
    ) -> Result<ActionReport, ProviderError> {
        let Some(n) = number(r) else {
            return Err(ProviderError::unsupported(
                ID,
                crate::t!("vast-delete-unsupported", kind = r.kind.shown()),
            ));
        };
        let api = self.held.api()?;
        let call = Api::describe("DELETE", &path(n));
        let body = json!({});
        let sent = api
            .json("DELETE", &path(n), Some(&body), Repeat::Safe)
            .await;
        // Vast's refusal can come with 200: `success` false.
        let sent = sent.and_then(|v| Self::refused(&call, &v).map_or(Ok(()), Err));
        let listed = || async {
            let rows = Self::volume_rows(api, Timestamp::now()).await?;
            Ok(rows.iter().any(|(v, _)| v.id == r.id).then_some(()))
        };
        let held = (api, &self.held.readback);
        read_back_delete(held, r, (&path(n), VOLUMES), sent, listed).await
    }
}
