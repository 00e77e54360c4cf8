//! The CVM role's temporary keys from the instance metadata service, as the official SDK's
//! `CVMRoleCredential` fetches them: the role listed at
//! `/latest/meta-data/cam/security-credentials/`, its keys the JSON at
//! `/latest/meta-data/cam/security-credentials/<role>` (`Code` `Success`, `TmpSecretId`,
//! `TmpSecretKey`, `Token`, `ExpiredTime` in Unix seconds). The service asks for no token.

use std::time::Duration;

use async_trait::async_trait;
use jiff::Timestamp;
use serde::Deserialize;

use super::credentials::SECRET_ID_ENV;
use crate::provider::ProviderError;
use crate::provider::http::{Http, HttpPolicy, Repeat, by_status};
use crate::provider::role_keys::{
    Fetch, KeySource, KeyStore, Naming, RoleError, RoleReply, TempKeys, ready, role_name,
};

const ROLES_PATH: &str = "/latest/meta-data/cam/security-credentials/";
/// The SDK's `_expired_timeout`: keys are fetched again five minutes before they expire.
pub const REFRESH_BEFORE: Duration = Duration::from_secs(300);

#[derive(Deserialize, Default)]
#[serde(rename_all = "PascalCase", default)]
struct RoleAnswer {
    code: String,
    tmp_secret_id: String,
    tmp_secret_key: String,
    token: String,
    expired_time: Option<i64>,
}

/// The CAM role's answer, in the current language.
fn cam_role() -> RoleReply {
    RoleReply {
        who: crate::t!("tencent-cam-role-who").into_owned(),
        expected: crate::t!("tencent-cam-role-expected").into_owned(),
        no_expiry: crate::t!("tencent-cam-role-no-expiry").into_owned(),
    }
}

fn no_role() -> String {
    crate::t!("tencent-no-cam-role").into_owned()
}

pub struct CvmRole {
    base: String,
    role: Option<String>,
    http: Http,
}

impl CvmRole {
    /// The service at `base` (`http://metadata.tencentyun.com`); quick to give up.
    pub fn new(base: &str, role: Option<String>) -> Result<Self, RoleError> {
        let policy = HttpPolicy::metadata();
        Ok(CvmRole {
            base: base.trim_end_matches('/').to_string(),
            role,
            http: Http::new(policy)?,
        })
    }

    async fn get(&self, path: &str) -> Result<String, RoleError> {
        let url = format!("{}{path}", self.base);
        let r = self
            .http
            .call(Repeat::Safe, |c| c.get(&url), by_status)
            .await?;
        match r.status {
            200 => Ok(r.body),
            404 => Err(RoleError::NoRole(no_role())),
            other => Err(RoleError::Status(other)),
        }
    }
}

#[async_trait]
impl Fetch for CvmRole {
    async fn fetch(&self) -> Result<TempKeys, RoleError> {
        let listed = match &self.role {
            Some(_) => String::new(),
            None => self.get(ROLES_PATH).await?,
        };
        let role = role_name(self.role.as_deref(), &listed, &no_role())?;
        let body = self.get(&format!("{ROLES_PATH}{role}")).await?;
        let reply = cam_role();
        let answer: RoleAnswer = reply.parse(&body)?;
        ready(&answer.code)?;
        let expires = answer
            .expired_time
            .and_then(|t| Timestamp::from_second(t).ok());
        let parts = (
            &*answer.tmp_secret_id,
            &*answer.tmp_secret_key,
            &*answer.token,
        );
        reply.keys(parts, expires)
    }
}

/// The store for `source`: fixed keys as they are, or the role at the service at `metadata`;
/// `after` names what the official chain would try next.
pub fn key_store(
    source: KeySource,
    metadata: &str,
    after: Vec<String>,
) -> Result<KeyStore, ProviderError> {
    match source {
        KeySource::Fixed { keys, .. } => Ok(KeyStore::fixed(keys)),
        KeySource::WebIdentity { .. } => Err(ProviderError::unsupported(
            "tencent",
            crate::t!("tencent-tke-oidc-unsupported"),
        )),
        KeySource::InstanceRole { role, tried } => {
            let naming = Naming {
                provider: "tencent",
                key_var: SECRET_ID_ENV,
                tried,
                place: crate::t!(
                    "tencent-place-cvm-role",
                    base = metadata.trim_end_matches('/')
                ),
                after,
            };
            KeyStore::role(CvmRole::new(metadata, role), naming, REFRESH_BEFORE)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::provider::metadata_stub::{Asked, Stub};

    /// The service: the role listed, and its keys numbered by each answer, expiring in `secs`.
    fn service(secs: i64) -> impl Fn(&Asked) -> (u16, String) + Send + Sync {
        let n = Arc::new(AtomicUsize::new(0));
        move |a: &Asked| match a.path.as_str() {
            ROLES_PATH => (200, "CvmGpuRole".into()),
            "/latest/meta-data/cam/security-credentials/CvmGpuRole" => {
                let n = n.fetch_add(1, Ordering::SeqCst) + 1;
                let body = serde_json::json!({
                    "TmpSecretId": format!("AKIDrole{n}"),
                    "TmpSecretKey": format!("cvm-key-{n}"),
                    "Token": format!("cvm-token-{n}"),
                    "ExpiredTime": Timestamp::now().as_second() + secs,
                    "Expiration": "2026-01-01T00:00:00Z",
                    "Code": "Success",
                });
                (200, body.to_string())
            }
            _ => (404, String::new()),
        }
    }

    fn store(stub: &Stub, after: Vec<String>) -> KeyStore {
        let source = KeySource::InstanceRole {
            role: None,
            tried: vec!["TENCENTCLOUD_SECRET_ID/TENCENTCLOUD_SECRET_KEY".into()],
        };
        key_store(source, &stub.url, after).unwrap()
    }

    #[tokio::test]
    async fn the_listed_role_s_keys_are_kept_while_fresh() {
        let stub = Stub::start(service(3600));
        let s = store(&stub, Vec::new());
        let keys = s.current().await.unwrap();
        assert_eq!(keys.id, "AKIDrole1");
        assert_eq!(keys.secret.expose(), "cvm-key-1");
        assert_eq!(keys.token.as_ref().unwrap().expose(), "cvm-token-1");
        assert_eq!(s.current().await.unwrap().id, "AKIDrole1");
        assert_eq!(stub.asked().len(), 2);
        assert!(stub.asked().iter().all(|a| a.method == "GET"));
    }

    #[tokio::test]
    async fn keys_within_five_minutes_are_fetched_again_and_a_failure_keeps_them() {
        let stub = Stub::start(service(200));
        let s = store(&stub, Vec::new());
        assert_eq!(s.current().await.unwrap().id, "AKIDrole1");
        assert_eq!(s.current().await.unwrap().id, "AKIDrole2");
        stub.answer(|_| (503, String::new()));
        assert_eq!(s.current().await.unwrap().id, "AKIDrole2");
        assert_eq!(s.redact("cvm-key-1 cvm-token-2"), "<redacted> <redacted>");
    }

    #[tokio::test]
    async fn no_role_names_every_place_in_order() {
        let stub = Stub::start(|_: &Asked| (404, String::new()));
        let tke = vec!["TKE_ROLE_ARN with OIDC (not supported)".to_string()];
        let err = store(&stub, tke).current().await.unwrap_err();
        let role = format!("the CVM role at {} (has no CAM role)", stub.url);
        assert_eq!(
            err,
            ProviderError::missing(
                "tencent",
                SECRET_ID_ENV,
                &[
                    "TENCENTCLOUD_SECRET_ID/TENCENTCLOUD_SECRET_KEY",
                    &role,
                    "TKE_ROLE_ARN with OIDC (not supported)"
                ]
            )
        );
    }
}
