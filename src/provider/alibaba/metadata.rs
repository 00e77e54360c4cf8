//! The instance metadata service at 100.100.100.200: which instance this is, and the spot
//! reclaim notice. Hardened mode is honoured: a token is asked for first, and used when given.

use jiff::Timestamp;

use super::model::parse_time;
use crate::provider::ProviderError;
use crate::provider::http::{Http, HttpError, HttpPolicy, Repeat, by_status};

const PROVIDER: &str = "alibaba";
const TOKEN_TTL_HEADER: &str = "X-aliyun-ecs-metadata-token-ttl-seconds";
const TOKEN_HEADER: &str = "X-aliyun-ecs-metadata-token";

pub struct Metadata {
    base: String,
    http: Http,
}

impl Metadata {
    /// The service at `base` (`http://100.100.100.200`); quick to give up, since off the
    /// instance nothing answers there.
    pub fn new(base: &str) -> Result<Self, ProviderError> {
        let policy = HttpPolicy::metadata();
        Self::with_policy(base, policy)
    }

    /// The service at `base`, as patient as `policy`.
    pub fn with_policy(base: &str, policy: HttpPolicy) -> Result<Self, ProviderError> {
        let http = Http::new(policy).map_err(|e| ProviderError::state(PROVIDER, e.to_string()))?;
        Ok(Metadata {
            base: base.trim_end_matches('/').to_string(),
            http,
        })
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    async fn token(&self) -> Option<String> {
        let url = format!("{}/latest/api/token", self.base);
        let response = self
            .http
            .call(
                Repeat::Once,
                |c| c.put(&url).header(TOKEN_TTL_HEADER, "300"),
                by_status,
            )
            .await
            .ok()?;
        (response.status == 200 && !response.body.trim().is_empty())
            .then(|| response.body.trim().to_string())
    }

    /// The text at `path`; `None` when the service says there is none (404).
    async fn get(&self, path: &str) -> Result<Option<String>, HttpError> {
        let token = self.token().await;
        let url = format!("{}{path}", self.base);
        let response = self
            .http
            .call(
                Repeat::Safe,
                |c| {
                    let request = c.get(&url);
                    match &token {
                        Some(t) => request.header(TOKEN_HEADER, t.as_str()),
                        None => request,
                    }
                },
                by_status,
            )
            .await?;
        match response.status {
            200 => Ok(Some(response.body.trim().to_string())),
            404 => Ok(None),
            other => Err(HttpError::Other(format!("HTTP {other}"))),
        }
    }

    pub async fn instance_id(&self) -> Result<String, ProviderError> {
        let why = |detail: String| {
            ProviderError::state(
                PROVIDER,
                crate::t!(
                    "alibaba-no-instance-id",
                    base = self.base.as_str(),
                    detail = detail
                ),
            )
            .with_fix(&crate::t!("rpc-fix-instance-id"))
        };
        match self.get("/latest/meta-data/instance-id").await {
            Ok(Some(id)) if !id.is_empty() && !id.contains(char::is_whitespace) => Ok(id),
            Ok(_) => Err(why(crate::t!("alibaba-metadata-unknown").into_owned())),
            Err(e) => Err(why(crate::t!(
                "alibaba-metadata-no-answer",
                error = e.to_string()
            ))),
        }
    }

    /// This instance's id, region (`region-id`) and type (`instance/instance-type`), as the
    /// ECS "Instance metadata items" page names them.
    pub async fn identity(
        &self,
    ) -> Result<crate::provider::identity::MachineIdentity, ProviderError> {
        use crate::provider::identity::value;
        let failed = |e: HttpError| {
            ProviderError::state(
                PROVIDER,
                crate::t!(
                    "rpc-metadata-at",
                    base = self.base.as_str(),
                    error = e.to_string()
                ),
            )
        };
        let instance_id = self.instance_id().await?;
        let region = self
            .get("/latest/meta-data/region-id")
            .await
            .map_err(failed)?;
        let kind = self
            .get("/latest/meta-data/instance/instance-type")
            .await
            .map_err(failed)?;
        Ok(crate::provider::identity::MachineIdentity {
            instance_id,
            region: value(region),
            instance_type: value(kind),
        })
    }

    /// When a spot instance will be reclaimed, if it is scheduled (about 5 minutes ahead).
    pub async fn spot_termination(&self) -> Result<Option<Timestamp>, ProviderError> {
        let text = self
            .get("/latest/meta-data/instance/spot/termination-time")
            .await
            .map_err(|e| {
                ProviderError::state(
                    PROVIDER,
                    crate::t!("rpc-spot-notice", error = e.to_string()),
                )
            })?;
        match text.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => parse_time(t).map(Some).ok_or_else(|| {
                ProviderError::state(PROVIDER, crate::t!("alibaba-spot-not-utc", time = t))
            }),
        }
    }
}
