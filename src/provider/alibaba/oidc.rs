//! The RAM role an OIDC token assumes (RRSA on ACK), as the official SDK's
//! `OIDCRoleArnCredentialsProvider` asks for it: an anonymous `GET` of STS `AssumeRoleWithOIDC`
//! (`Version=2015-04-01`, `Format=JSON`) with the role, the provider, the token read afresh
//! from its file, a session name and a one-hour duration; the keys are the reply's
//! `Credentials`. STS is `sts.aliyuncs.com`, or `sts.<ALIBABA_CLOUD_STS_REGION>.aliyuncs.com`
//! (`sts-vpc.` with `ALIBABA_CLOUD_VPC_ENDPOINT_ENABLED=true`).

use std::path::PathBuf;
use std::time::Duration;

use async_trait::async_trait;
use jiff::Timestamp;
use serde::Deserialize;

use super::sign::canonical_query;
use crate::provider::http::{Http, HttpPolicy, Repeat, by_status};
use crate::provider::role_keys::{Fetch, RoleError, RoleReply, TempKeys};

pub const STS_REGION_ENV: &str = "ALIBABA_CLOUD_STS_REGION";
pub const VPC_ENDPOINT_ENV: &str = "ALIBABA_CLOUD_VPC_ENDPOINT_ENABLED";
pub const SESSION_NAME_ENV: &str = "ALIBABA_CLOUD_ROLE_SESSION_NAME";
/// The SDK's session length, in seconds.
const DURATION: &str = "3600";

/// What the chain found for the OIDC role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OidcSettings {
    pub role_arn: String,
    pub provider_arn: String,
    pub token_file: PathBuf,
    pub session_name: String,
    /// STS's base URL, ending in `/`.
    pub sts: String,
}

/// STS's base URL for `region` (none: the central endpoint), as the SDK builds it.
pub fn sts_endpoint(region: Option<&str>, vpc: bool) -> String {
    let prefix = if vpc { "sts-vpc" } else { "sts" };
    match region {
        Some(region) => format!("https://{prefix}.{region}.aliyuncs.com/"),
        None => "https://sts.aliyuncs.com/".into(),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Reply {
    credentials: Option<ReplyKeys>,
    #[serde(default)]
    code: String,
}

/// Alibaba's temporary keys, as STS and the metadata service's RAM role both send them.
#[derive(Deserialize, Default)]
#[serde(rename_all = "PascalCase", default)]
pub(super) struct ReplyKeys {
    access_key_id: String,
    access_key_secret: String,
    security_token: String,
    expiration: String,
}

impl ReplyKeys {
    /// These keys, as `reply` sends them.
    pub(super) fn temp_keys(&self, reply: &RoleReply) -> Result<TempKeys, RoleError> {
        let parts = (
            &*self.access_key_id,
            &*self.access_key_secret,
            &*self.security_token,
        );
        reply.keys(parts, self.expiration.parse().ok())
    }
}

pub struct OidcRole {
    settings: OidcSettings,
    http: Http,
}

impl OidcRole {
    pub fn new(settings: OidcSettings) -> Result<Self, RoleError> {
        // The SDK's patience: five seconds to connect, ten to read.
        let policy = HttpPolicy::bounded(Duration::from_secs(10), Duration::from_secs(5), 2);
        Ok(OidcRole {
            settings,
            http: Http::new(policy)?,
        })
    }
}

#[async_trait]
impl Fetch for OidcRole {
    async fn fetch(&self) -> Result<TempKeys, RoleError> {
        let s = &self.settings;
        let token = std::fs::read_to_string(&s.token_file).map_err(|e| {
            RoleError::Unasked(crate::t!(
                "alibaba-oidc-token-unreadable",
                file = s.token_file.display().to_string(),
                error = e.to_string()
            ))
        })?;
        let query: Vec<(String, String)> = [
            ("Action", "AssumeRoleWithOIDC"),
            ("Format", "JSON"),
            ("Version", "2015-04-01"),
            ("DurationSeconds", DURATION),
            ("RoleArn", &s.role_arn),
            ("OIDCProviderArn", &s.provider_arn),
            ("OIDCToken", token.trim()),
            ("RoleSessionName", &s.session_name),
            (
                "Timestamp",
                &Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
            ),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
        let url = format!("{}?{}", s.sts, canonical_query(&query));
        let r = self
            .http
            .call(Repeat::Safe, |c| c.get(&url), by_status)
            .await
            .map_err(|e| {
                RoleError::Unasked(format!(
                    "STS: {}",
                    e.to_string().replace(token.trim(), "<token>")
                ))
            })?;
        let reply: Option<Reply> = serde_json::from_str(&r.body).ok();
        let expected = crate::t!("alibaba-sts-expected").into_owned();
        let keys = match reply {
            Some(Reply {
                credentials: Some(keys),
                ..
            }) if r.status == 200 => keys,
            Some(Reply { code, .. }) if !code.is_empty() => {
                return Err(RoleError::Answer(crate::t!(
                    "alibaba-sts-refused",
                    code = code
                )));
            }
            _ => {
                return Err(RoleError::Answer(crate::t!(
                    "alibaba-sts-status",
                    status = r.status.to_string(),
                    expected = expected
                )));
            }
        };
        let sts = RoleReply {
            who: "STS".to_string(),
            expected,
            no_expiry: crate::t!("alibaba-sts-no-expiry").into_owned(),
        };
        keys.temp_keys(&sts)
    }
}

#[cfg(test)]
mod tests {
    use jiff::SignedDuration;

    use super::*;
    use crate::provider::alibaba::ram_role::key_store;
    use crate::provider::metadata_stub::{Asked, Stub};
    use crate::provider::role_keys::KeySource;

    fn param(a: &Asked, name: &str) -> Option<String> {
        let query = a.path.split_once('?')?.1;
        query.split('&').find_map(|pair| {
            let (k, v) = pair.split_once('=')?;
            (k == name).then(|| v.replace("%3A", ":").replace("%2F", "/"))
        })
    }

    /// STS as `AssumeRoleWithOIDC` answers, checking what the SDK sends.
    fn sts(a: &Asked) -> (u16, String) {
        let want = [
            ("Action", "AssumeRoleWithOIDC"),
            ("Format", "JSON"),
            ("Version", "2015-04-01"),
            ("DurationSeconds", "3600"),
            ("RoleArn", "acs:ram::1:role/gpu"),
            ("OIDCProviderArn", "acs:ram::1:oidc-provider/ack"),
            ("OIDCToken", "oidc-token-value"),
            ("RoleSessionName", "gpumeter-test"),
        ];
        if a.method != "GET" || want.iter().any(|(k, v)| param(a, k).as_deref() != Some(v)) {
            let body = r#"{"Code": "InvalidParameter", "Message": "m", "RequestId": "r"}"#;
            return (400, body.into());
        }
        let expires = Timestamp::now() + SignedDuration::from_hours(1);
        let body = serde_json::json!({
            "RequestId": "r",
            "AssumedRoleUser": {"Arn": "acs:ram::1:role/gpu/gpumeter-test", "AssumedRoleId": "1"},
            "Credentials": {
                "AccessKeyId": "STS.oidcKey",
                "AccessKeySecret": "oidc-secret-1",
                "SecurityToken": "oidc-sts-token-1",
                "Expiration": expires.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
            },
        });
        (200, body.to_string())
    }

    fn role(stub: &Stub, token_file: PathBuf) -> OidcRole {
        OidcRole::new(OidcSettings {
            role_arn: "acs:ram::1:role/gpu".into(),
            provider_arn: "acs:ram::1:oidc-provider/ack".into(),
            token_file,
            session_name: "gpumeter-test".into(),
            sts: format!("{}/", stub.url),
        })
        .unwrap()
    }

    /// A token file holding `token`, in a folder of its own, and the STS stub that takes it.
    fn token_file(token: &str) -> (tempfile::TempDir, PathBuf, Stub) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, token).unwrap();
        (dir, file, Stub::start(sts))
    }

    #[tokio::test]
    async fn the_token_from_its_file_assumes_the_role() {
        let (dir, file, stub) = token_file("oidc-token-value\n");
        let keys = role(&stub, file.clone()).fetch().await.unwrap();
        assert_eq!(keys.keys.id, "STS.oidcKey");
        assert_eq!(keys.keys.token.unwrap().expose(), "oidc-sts-token-1");
        // A refused token: STS's code, never the token.
        std::fs::write(&file, "another-token").unwrap();
        let why = role(&stub, file).fetch().await.unwrap_err().to_string();
        assert!(
            why.contains("InvalidParameter") && !why.contains("another-token"),
            "{why}"
        );
        let why = role(&stub, dir.path().join("none"))
            .fetch()
            .await
            .unwrap_err()
            .to_string();
        assert!(why.contains("none"), "{why}");
        assert_eq!(sts_endpoint(None, true), "https://sts.aliyuncs.com/");
    }

    #[tokio::test]
    async fn the_adapter_s_store_signs_with_the_assumed_role_and_names_it_on_failure() {
        let (_dir, file, stub) = token_file("oidc-token-value");
        let settings = role(&stub, file.clone()).settings;
        let source = KeySource::WebIdentity {
            tried: vec!["KEYS".into()],
        };
        let store = key_store(
            source.clone(),
            "http://unused",
            false,
            Some(settings.clone()),
        )
        .unwrap();
        let keys = store.current().await.unwrap();
        assert_eq!(keys.id, "STS.oidcKey");
        assert_eq!(store.redact("oidc-secret-1"), "<redacted>");
        std::fs::remove_file(&file).unwrap();
        let store = key_store(source, "http://unused", false, Some(settings)).unwrap();
        let err = store.current().await.unwrap_err().to_string();
        assert!(
            err.contains("KEYS") && err.contains("the OIDC role acs:ram::1:role/gpu"),
            "{err}"
        );
        assert_eq!(
            sts_endpoint(Some("cn-beijing"), true),
            "https://sts-vpc.cn-beijing.aliyuncs.com/"
        );
    }
}
