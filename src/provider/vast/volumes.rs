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
use crate::provider::bearer::{Api, read_back_removal, removal_read_back};
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
        vec![
            Api::describe("DELETE", &path(n)),
            removal_read_back(&Api::describe("GET", VOLUMES), &r.id),
        ]
    }

    /// Deletes volume `r`, then lists the volumes until it is gone.
    pub(super) async fn delete_volume(
        &self,
        r: &LinkedResource,
    ) -> Result<ActionReport, ProviderError> {
        let Some(n) = number(r) else {
            return Err(ProviderError::unsupported(
                ID,
                format!(
                    "delete a {} on its own (an instance's storage goes when it is destroyed: \
                     release it)",
                    r.kind.label()
                ),
            ));
        };
        let api = self.api()?;
        let call = Api::describe("DELETE", &path(n));
        match api
            .json("DELETE", &path(n), Some(&json!({})), Repeat::Safe)
            .await
        {
            Ok(v) => {
                if let Some(e) = Self::refused(&call, &v) {
                    return Err(api.error(e));
                }
            }
            // Already gone, or the wrong endpoint: the read-back decides.
            Err(e) if e.status() == Some(404) => {}
            Err(e) => return Err(api.error(e)),
        }
        let listed = || async {
            let rows = Self::volume_rows(api, Timestamp::now()).await?;
            Ok(rows.iter().any(|(v, _)| v.id == r.id).then_some(()))
        };
        Ok(read_back_removal(
            api,
            &self.readback,
            r,
            call.clone(),
            &Api::describe("GET", VOLUMES),
            listed,
        )
        .await)
    }
}
