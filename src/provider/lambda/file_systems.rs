//! Deleting a file system: `DELETE /filesystems/{id}` (Lambda Cloud API v1, `200` with the
//! `deleted_ids`), then `GET /file-systems` until the list no longer holds it. Lambda refuses a
//! file system that is mounted (`filesystems/filesystem-in-use`); its words come back as they are.
//!
//! The file system list says only whether one is in use (`is_in_use`); the instances say which
//! file systems they mount (`file_system_names`), and that names the instance it is attached to.

use serde_json::Value;

use super::model::{Seen, parse_instance};
use super::{ID, Lambda};
use crate::meter::ResourceKind;
use crate::provider::bearer::{Api, ApiError, no_field};
use crate::provider::bearer_held::{delete_plan, read_back_delete};
use crate::provider::http::Repeat;
use crate::provider::{ActionReport, LinkedResource, ProviderError};

const LIST: &str = "/file-systems";

fn path(id: &str) -> String {
    format!("/filesystems/{id}")
}

/// Sets `attached_to` on each file system in use that one of `instances` mounts by name.
pub(super) fn attach(found: &mut [LinkedResource], instances: &[Seen]) {
    for fs in found
        .iter_mut()
        .filter(|f| f.state != super::model::NOT_IN_USE)
    {
        fs.attached_to = instances
            .iter()
            .find(|i| i.status != "terminated" && i.file_systems.contains(&fs.name))
            .map(|i| i.id.clone());
    }
}

impl Lambda {
    /// Names the instance each file system in use is attached to: `instance` (the one just
    /// read) when it mounts it, else one from the account's instance list, read only when some
    /// file system in use is not on `instance`. A list that fails leaves those unnamed.
    pub(super) async fn attach_file_systems(
        api: &Api,
        found: &mut [LinkedResource],
        instance: Option<&Seen>,
    ) {
        attach(found, instance.map_or(&[][..], std::slice::from_ref));
        let unnamed =
            |f: &LinkedResource| f.state != super::model::NOT_IN_USE && f.attached_to.is_none();
        if !found.iter().any(unnamed) {
            return;
        }
        let Ok(list) = api.json("GET", "/instances", None, Repeat::Safe).await else {
            return;
        };
        let all: Vec<Seen> = list
            .get("data")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(parse_instance)
            .collect();
        attach(found, &all);
    }

    /// The calls [`Lambda::delete_file_system`] makes.
    pub(super) fn file_system_plan(r: &LinkedResource) -> Vec<String> {
        if r.kind != ResourceKind::NetworkVolume {
            return Vec::new();
        }
        delete_plan(r, &path(&r.id), LIST)
    }

    /// Deletes file system `r` (refused by Lambda while it is mounted), then lists the file
    /// systems until it is no longer listed: confirmed only then.
    pub async fn delete_file_system(
        &self,
        r: &LinkedResource,
    ) -> Result<ActionReport, ProviderError> {
        if r.kind != ResourceKind::NetworkVolume {
            return Err(ProviderError::unsupported(
                ID,
                crate::t!("lambda-delete-unsupported", kind = r.kind.shown()),
            ));
        }
        let api = self.held.api()?;
        let call = path(&r.id);
        let sent = api.json("DELETE", &call, None, Repeat::Safe).await;
        let sent = sent.and_then(|v| match v.get("data") {
            Some(_) => Ok(()),
            None => Err(ApiError::malformed(
                &Api::describe("DELETE", &call),
                no_field("data"),
            )),
        });
        let listed = || async {
            let now = jiff::Timestamp::now();
            let list = Self::file_systems(api, now).await?;
            Ok(list.iter().any(|f| f.id == r.id).then_some(()))
        };
        let held = (api, &self.held.readback);
        read_back_delete(held, r, (&call, LIST), sent, listed).await
    }
}
