//! The instance metadata service, IMDSv2: a session token from `PUT /latest/api/token`, then
//! `GET /latest/meta-data/<path>` with it. Tells the instance id and the spot interruption
//! notice (`spot/instance-action`: 404 until AWS schedules the interruption).

use std::time::Duration;

use serde::Deserialize;

use super::credentials::Credentials;
use crate::provider::ProviderError;
use crate::provider::http::{Http, HttpPolicy, Repeat, by_status};

pub const DEFAULT_ENDPOINT: &str = "http://169.254.169.254";
const TOKEN_TTL_SECONDS: &str = "21600";

/// The metadata service is on the instance itself: answer fast or not at all.
pub fn policy() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_secs(2),
        connect_timeout: Duration::from_secs(1),
        retries: 1,
        throttled_retries: 1,
        backoff_base: Duration::from_millis(100),
        backoff_max: Duration::from_millis(200),
    }
}

/// A scheduled spot interruption: `terminate`, `stop` or `hibernate` at `time`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SpotNotice {
    pub action: String,
    pub time: jiff::Timestamp,
}

/// An instance role's answer (its `Code`, `Type` and `LastUpdated` are not needed).
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct RoleCredentials {
    access_key_id: String,
    secret_access_key: String,
    token: Option<String>,
    expiration: Option<jiff::Timestamp>,
}

/// What to do when the metadata service cannot name this instance.
pub fn no_instance_fix() -> std::borrow::Cow<'static, str> {
    crate::t!("aws-fix-no-instance")
}

pub struct Imds {
    http: Http,
    endpoint: String,
}

impl Imds {
    pub fn new(endpoint: &str, policy: HttpPolicy) -> Result<Self, ProviderError> {
        Ok(Imds {
            http: Http::new(policy).map_err(|e| ProviderError::state(super::ID, e.to_string()))?,
            endpoint: endpoint.trim_end_matches('/').to_string(),
        })
    }

    fn unreachable(&self, what: &str, why: &str) -> ProviderError {
        ProviderError::state(
            super::ID,
            crate::t!(
                "aws-imds-did-not-tell",
                endpoint = self.endpoint.as_str(),
                what = what,
                why = why
            ),
        )
        .with_fix(&no_instance_fix())
    }

    async fn token(&self) -> Result<String, ProviderError> {
        let url = format!("{}/latest/api/token", self.endpoint);
        let r = self
            .http
            .call(
                Repeat::Safe,
                |c| {
                    c.put(&url)
                        .header("x-aws-ec2-metadata-token-ttl-seconds", TOKEN_TTL_SECONDS)
                },
                by_status,
            )
            .await
            .map_err(|e| self.unreachable(&crate::t!("aws-imds-what-token"), &e.to_string()))?;
        match r.status {
            200 if !r.body.trim().is_empty() => Ok(r.body.trim().to_string()),
            status => {
                Err(self.unreachable(&crate::t!("aws-imds-what-token"), &format!("HTTP {status}")))
            }
        }
    }

    /// `GET /latest/meta-data/<path>`: `Ok(None)` on 404.
    async fn get(&self, token: &str, path: &str) -> Result<Option<String>, ProviderError> {
        let url = format!("{}/latest/meta-data/{path}", self.endpoint);
        let r = self
            .http
            .call(
                Repeat::Safe,
                |c| c.get(&url).header("x-aws-ec2-metadata-token", token),
                by_status,
            )
            .await
            .map_err(|e| self.unreachable(path, &e.to_string()))?;
        match r.status {
            200 => Ok(Some(r.body.trim().to_string())),
            404 => Ok(None),
            status => Err(self.unreachable(path, &format!("HTTP {status}"))),
        }
    }

    /// `GET /latest/meta-data/<path>` with a fresh token; a 404 or an empty answer does not
    /// tell the `what`.
    async fn required(&self, path: &str, what: &str) -> Result<String, ProviderError> {
        let token = self.token().await?;
        self.get(&token, path)
            .await?
            .filter(|v| !v.is_empty())
            .ok_or_else(|| self.unreachable(what, "HTTP 404"))
    }

    /// This instance's id.
    pub async fn instance_id(&self) -> Result<String, ProviderError> {
        self.required("instance-id", &crate::t!("aws-imds-what-instance-id"))
            .await
    }

    /// The region this instance runs in (`placement/region`).
    pub async fn region(&self) -> Result<String, ProviderError> {
        self.required("placement/region", &crate::t!("aws-imds-what-region"))
            .await
    }

    /// This instance's id, region (`placement/region`) and type (`instance-type`), asked with
    /// one session token.
    pub async fn identity(
        &self,
    ) -> Result<crate::provider::identity::MachineIdentity, ProviderError> {
        use crate::provider::identity::value;
        let token = self.token().await?;
        let instance_id = value(self.get(&token, "instance-id").await?)
            .ok_or_else(|| self.unreachable(&crate::t!("aws-imds-what-instance-id"), "HTTP 404"))?;
        Ok(crate::provider::identity::MachineIdentity {
            instance_id,
            region: value(self.get(&token, "placement/region").await?),
            instance_type: value(self.get(&token, "instance-type").await?),
        })
    }

    /// The instance role's temporary credentials: the role named by
    /// `iam/security-credentials/`, then that role's JSON.
    pub async fn role_credentials(&self) -> Result<Credentials, ProviderError> {
        let token = self.token().await?;
        let role = self
            .get(&token, "iam/security-credentials/")
            .await?
            .and_then(|r| r.lines().next().map(|l| l.trim().to_string()))
            .filter(|r| !r.is_empty())
            .ok_or_else(|| {
                self.unreachable(
                    &crate::t!("aws-imds-what-role"),
                    &crate::t!("aws-imds-no-role"),
                )
            })?;
        let body = self
            .get(&token, &format!("iam/security-credentials/{role}"))
            .await?
            .ok_or_else(|| self.unreachable(&crate::t!("aws-imds-what-role"), "HTTP 404"))?;
        let r: RoleCredentials = serde_json::from_str(&body)
            .map_err(|_| ProviderError::state(super::ID, crate::t!("aws-imds-role-unreadable")))?;
        Ok(Credentials {
            access_key_id: r.access_key_id,
            secret_access_key: r.secret_access_key,
            session_token: r.token,
            expiration: r.expiration,
        })
    }

    /// The spot interruption notice, `None` while there is none.
    pub async fn spot_notice(&self) -> Result<Option<SpotNotice>, ProviderError> {
        let token = self.token().await?;
        match self.get(&token, "spot/instance-action").await? {
            None => Ok(None),
            Some(body) => serde_json::from_str(&body).map(Some).map_err(|e| {
                ProviderError::state(
                    super::ID,
                    crate::t!("aws-imds-spot-unreadable", error = e.to_string()),
                )
            }),
        }
    }
}
