//! The ECS RAM role's temporary keys from the instance metadata service, as the official SDK's
//! `EcsRamRoleCredentialsProvider` fetches them: a hardened-mode token first
//! (`PUT /latest/api/token` with `X-aliyun-ecs-metadata-token-ttl-seconds: 21600`), sent as
//! `X-aliyun-ecs-metadata-token`; without one the calls go plain, unless
//! `ALIBABA_CLOUD_IMDSV1_DISABLED=true`. The role is the configured one or the one listed at
//! `/latest/meta-data/ram/security-credentials/`; its keys are the JSON at
//! `/latest/meta-data/ram/security-credentials/<role>` (`Code` `Success`).

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;

use super::credentials::ACCESS_KEY_ID_ENV;
use super::oidc::{OidcRole, OidcSettings, ReplyKeys};
use crate::provider::ProviderError;
use crate::provider::http::{Http, HttpPolicy, Repeat, by_status};
use crate::provider::role_keys::{
    Fetch, KeySource, KeyStore, Naming, RoleError, RoleReply, TempKeys, ready, role_name,
};

const TOKEN_PATH: &str = "/latest/api/token";
const TOKEN_TTL_HEADER: &str = "X-aliyun-ecs-metadata-token-ttl-seconds";
const TOKEN_HEADER: &str = "X-aliyun-ecs-metadata-token";
/// The SDK's token lifetime, in seconds.
const TOKEN_TTL: &str = "21600";
const ROLES_PATH: &str = "/latest/meta-data/ram/security-credentials/";
/// The SDK's stale time: keys are fetched again 15 minutes before they expire.
pub const REFRESH_BEFORE: Duration = Duration::from_secs(15 * 60);

/// The role's keys, as the service sends them.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct RoleAnswer {
    #[serde(default)]
    code: String,
    #[serde(flatten)]
    keys: ReplyKeys,
}

/// The RAM role's answer, in the current language.
fn ram_role() -> RoleReply {
    RoleReply {
        who: crate::t!("alibaba-ram-role-who").into_owned(),
        expected: crate::t!("alibaba-ram-role-expected").into_owned(),
        no_expiry: crate::t!("alibaba-ram-role-no-expiry").into_owned(),
    }
}

fn no_role() -> String {
    crate::t!("alibaba-no-ram-role").into_owned()
}

pub struct EcsRamRole {
    base: String,
    role: Option<String>,
    imds_v1_disabled: bool,
    http: Http,
}

impl EcsRamRole {
    /// The service at `base`; quick to give up, as the SDK is (one second to connect).
    pub fn new(
        base: &str,
        role: Option<String>,
        imds_v1_disabled: bool,
    ) -> Result<Self, RoleError> {
        let policy = HttpPolicy::metadata();
        Ok(EcsRamRole {
            base: base.trim_end_matches('/').to_string(),
            role,
            imds_v1_disabled,
            http: Http::new(policy)?,
        })
    }

    async fn token(&self) -> Result<Option<String>, RoleError> {
        let url = format!("{}{TOKEN_PATH}", self.base);
        let answer = self
            .http
            .call(
                Repeat::Once,
                |c| c.put(&url).header(TOKEN_TTL_HEADER, TOKEN_TTL),
                by_status,
            )
            .await;
        match answer {
            Ok(r) if r.status == 200 && !r.body.trim().is_empty() => {
                Ok(Some(r.body.trim().to_string()))
            }
            _ if self.imds_v1_disabled => Err(RoleError::Unasked(
                crate::t!("alibaba-no-metadata-token").into_owned(),
            )),
            _ => Ok(None),
        }
    }

    /// The text at `path`, with the token when there is one; as the SDK does, a refusal with a
    /// token is asked once more without it, unless plain calls are disabled.
    async fn get(&self, path: &str, token: Option<&str>) -> Result<String, RoleError> {
        let url = format!("{}{path}", self.base);
        let once = |token: Option<&str>| {
            let url = url.clone();
            let token = token.map(str::to_string);
            async move {
                let r = self
                    .http
                    .call(
                        Repeat::Safe,
                        |c| match &token {
                            Some(t) => c.get(&url).header(TOKEN_HEADER, t.as_str()),
                            None => c.get(&url),
                        },
                        by_status,
                    )
                    .await?;
                match r.status {
                    200 => Ok(r.body),
                    404 => Err(RoleError::NoRole(no_role())),
                    other => Err(RoleError::Status(other)),
                }
            }
        };
        match once(token).await {
            Err(_) if token.is_some() && !self.imds_v1_disabled => once(None).await,
            answer => answer,
        }
    }
}

#[async_trait]
impl Fetch for EcsRamRole {
    async fn fetch(&self) -> Result<TempKeys, RoleError> {
        let token = self.token().await?;
        let listed = match &self.role {
            Some(_) => String::new(),
            None => self.get(ROLES_PATH, token.as_deref()).await?,
        };
        let role = role_name(self.role.as_deref(), &listed, &no_role())?;
        let body = self
            .get(&format!("{ROLES_PATH}{role}"), token.as_deref())
            .await?;
        let reply = ram_role();
        let answer: RoleAnswer = reply.parse(&body)?;
        ready(&answer.code)?;
        answer.keys.temp_keys(&reply)
    }
}

/// How a role's keys are named when it gives none: `tried` before it, at `place`.
fn naming(tried: Vec<String>, place: String) -> Naming {
    Naming {
        provider: "alibaba",
        key_var: ACCESS_KEY_ID_ENV,
        tried,
        place,
        after: Vec::new(),
    }
}

/// The store for `source`: fixed keys as they are, the role at the service at `metadata`, or
/// the role `oidc` assumes.
pub fn key_store(
    source: KeySource,
    metadata: &str,
    imds_v1_disabled: bool,
    oidc: Option<OidcSettings>,
) -> Result<KeyStore, ProviderError> {
    match source {
        KeySource::Fixed { keys, .. } => Ok(KeyStore::fixed(keys)),
        KeySource::WebIdentity { tried } => {
            let settings = oidc.ok_or_else(|| {
                ProviderError::state("alibaba", crate::t!("alibaba-oidc-no-settings"))
            })?;
            let place = crate::t!(
                "alibaba-place-oidc",
                role = settings.role_arn.as_str(),
                sts = settings.sts.as_str()
            );
            let made = OidcRole::new(settings);
            KeyStore::role(made, naming(tried, place), REFRESH_BEFORE)
        }
        KeySource::InstanceRole { role, tried } => {
            let place = crate::t!(
                "alibaba-place-ram-role",
                base = metadata.trim_end_matches('/')
            );
            let made = EcsRamRole::new(metadata, role, imds_v1_disabled);
            KeyStore::role(made, naming(tried, place), REFRESH_BEFORE)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use jiff::{SignedDuration, Timestamp};

    use super::*;
    use crate::provider::metadata_stub::{Asked, Stub};

    const TOKEN: &str = "hardened-token-1";

    /// The role's keys, numbered by `n`, expiring in `minutes`.
    fn keys_json(n: usize, minutes: i64) -> String {
        let expires = (Timestamp::now() + SignedDuration::from_mins(minutes))
            .strftime("%Y-%m-%dT%H:%M:%SZ")
            .to_string();
        serde_json::json!({
            "AccessKeyId": format!("STS.role{n}"),
            "AccessKeySecret": format!("role-secret-{n}"),
            "SecurityToken": format!("role-token-{n}"),
            "Expiration": expires,
            "LastUpdated": "2026-01-01T00:00:00Z",
            "Code": "Success",
        })
        .to_string()
    }

    /// A hardened service: nothing without the token. Each credentials answer is numbered.
    fn hardened(minutes: i64) -> impl Fn(&Asked) -> (u16, String) + Send + Sync {
        let n = Arc::new(AtomicUsize::new(0));
        move |a: &Asked| match (a.method.as_str(), a.path.as_str()) {
            ("PUT", TOKEN_PATH)
                if a.header("x-aliyun-ecs-metadata-token-ttl-seconds") == Some(TOKEN_TTL) =>
            {
                (200, TOKEN.into())
            }
            _ if a.header("x-aliyun-ecs-metadata-token") != Some(TOKEN) => (401, String::new()),
            ("GET", ROLES_PATH) => (200, "GpuRole".into()),
            ("GET", "/latest/meta-data/ram/security-credentials/GpuRole") => (
                200,
                keys_json(n.fetch_add(1, Ordering::SeqCst) + 1, minutes),
            ),
            _ => (404, String::new()),
        }
    }

    fn store(stub: &Stub, role: Option<&str>) -> KeyStore {
        let fetch = EcsRamRole::new(&stub.url, role.map(str::to_string), true).unwrap();
        let naming = Naming {
            provider: "alibaba",
            key_var: "ALIBABA_CLOUD_ACCESS_KEY_ID",
            tried: vec!["env".into()],
            place: "the ECS RAM role".into(),
            after: Vec::new(),
        };
        KeyStore::fetched(Box::new(fetch), naming, REFRESH_BEFORE)
    }

    #[tokio::test]
    async fn the_listed_role_s_keys_come_with_the_hardened_token() {
        let stub = Stub::start(hardened(60));
        let s = store(&stub, None);
        let keys = s.current().await.unwrap();
        assert_eq!(keys.id, "STS.role1");
        assert_eq!(keys.secret.expose(), "role-secret-1");
        assert_eq!(keys.token.as_ref().unwrap().expose(), "role-token-1");
        // An hour left: the same set, not fetched again.
        assert_eq!(s.current().await.unwrap().id, "STS.role1");
        let paths: Vec<String> = stub.asked().iter().map(|a| a.path.clone()).collect();
        assert_eq!(
            paths,
            [
                TOKEN_PATH,
                ROLES_PATH,
                "/latest/meta-data/ram/security-credentials/GpuRole"
            ]
        );
        assert!(!format!("{keys:?} {s:?}").contains("role-secret-1"));
    }

    #[tokio::test]
    async fn keys_near_expiry_are_fetched_again_and_a_failed_refresh_keeps_them() {
        // Ten minutes left is inside the SDK's fifteen: every call fetches again.
        let stub = Stub::start(hardened(10));
        let s = store(&stub, Some("GpuRole"));
        assert_eq!(s.current().await.unwrap().id, "STS.role1");
        assert_eq!(s.current().await.unwrap().id, "STS.role2");
        // A configured role is not listed.
        assert!(stub.asked().iter().all(|a| a.path != ROLES_PATH));
        stub.answer(|_| (500, String::new()));
        assert_eq!(s.current().await.unwrap().id, "STS.role2");
        assert_eq!(
            s.redact("role-secret-1 role-token-2"),
            "<redacted> <redacted>"
        );
    }

    #[tokio::test]
    async fn without_hardened_mode_the_calls_go_plain_unless_that_is_disabled() {
        let plain = |a: &Asked| match (a.method.as_str(), a.path.as_str()) {
            (_, _) if a.header("x-aliyun-ecs-metadata-token").is_some() => (400, String::new()),
            ("PUT", _) => (403, String::new()),
            ("GET", ROLES_PATH) => (200, "PlainRole\n".into()),
            ("GET", "/latest/meta-data/ram/security-credentials/PlainRole") => {
                (200, keys_json(7, 60))
            }
            _ => (404, String::new()),
        };
        let stub = Stub::start(plain);
        let fetch = EcsRamRole::new(&stub.url, None, false).unwrap();
        assert_eq!(fetch.fetch().await.unwrap().keys.id, "STS.role7");
        // A token the service gives but then refuses: asked again without it, as the SDK does.
        stub.answer(move |a: &Asked| match a.method.as_str() {
            "PUT" => (200, TOKEN.into()),
            _ => plain(a),
        });
        assert_eq!(fetch.fetch().await.unwrap().keys.id, "STS.role7");
        // ALIBABA_CLOUD_IMDSV1_DISABLED: no token, no keys.
        stub.answer(plain);
        let strict = EcsRamRole::new(&stub.url, None, true).unwrap();
        let why = strict.fetch().await.unwrap_err();
        assert_eq!(why.to_string(), "gave no metadata token");
    }

    #[tokio::test]
    async fn a_service_without_a_role_or_with_bad_keys_is_named_in_the_error() {
        let stub = Stub::start(|a: &Asked| match a.path.as_str() {
            TOKEN_PATH => (200, TOKEN.into()),
            _ => (404, String::new()),
        });
        let err = store(&stub, None).current().await.unwrap_err().to_string();
        assert!(err.contains("the ECS RAM role (has no RAM role)"), "{err}");
        stub.answer(|a: &Asked| match a.path.as_str() {
            TOKEN_PATH => (200, TOKEN.into()),
            ROLES_PATH => (200, "R".into()),
            _ => (
                200,
                r#"{"Code":"Success","AccessKeySecret":"leak-me"}"#.into(),
            ),
        });
        let err = store(&stub, None).current().await.unwrap_err().to_string();
        assert!(
            err.contains("expected") && !err.contains("leak-me"),
            "{err}"
        );
    }
}
