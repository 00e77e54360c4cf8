//! The CVM instance metadata service (`http://metadata.tencentyun.com`, "Querying Instance
//! Metadata", CVM docs 213/4934): plain GETs under `/latest/meta-data/`, no token.

use crate::provider::ProviderError;
use crate::provider::http::{Http, HttpPolicy, Repeat, by_status};
use crate::provider::identity::{MachineIdentity, value};

pub struct Metadata {
    base: String,
    http: Http,
}

impl Metadata {
    pub fn new(base: &str, policy: HttpPolicy) -> Result<Self, ProviderError> {
        Ok(Metadata {
            base: base.trim_end_matches('/').to_string(),
            http: Http::new(policy).map_err(|e| ProviderError::state("tencent", e.to_string()))?,
        })
    }

    /// The text at `/latest/meta-data/<path>`; `None` on 404.
    async fn get(&self, path: &str) -> Result<Option<String>, ProviderError> {
        let url = format!("{}/latest/meta-data/{path}", self.base);
        let failed = |why: String| {
            ProviderError::state(
                "tencent",
                crate::t!(
                    "tencent-metadata-did-not-tell",
                    base = self.base.as_str(),
                    path = path,
                    why = why
                ),
            )
        };
        let r = self
            .http
            .call(Repeat::Safe, |c| c.get(&url), by_status)
            .await
            .map_err(|e| failed(e.to_string()))?;
        match r.status {
            200 => Ok(Some(r.body.trim().to_string())),
            404 => Ok(None),
            other => Err(failed(format!("HTTP {other}"))),
        }
    }

    /// This instance's id, region (`placement/region`) and type (`instance/instance-type`).
    pub async fn identity(&self) -> Result<MachineIdentity, ProviderError> {
        let instance_id = value(self.get("instance-id").await?)
            .filter(|id| !id.contains(' '))
            .ok_or_else(|| {
                ProviderError::state(
                    "tencent",
                    crate::t!("tencent-metadata-no-instance-id", base = self.base.as_str()),
                )
            })?;
        Ok(MachineIdentity {
            instance_id,
            region: value(self.get("placement/region").await?),
            instance_type: value(self.get("instance/instance-type").await?),
        })
    }
}
