//! Where the AWS adapter's settings come from: the standard AWS environment variables, read once
//! at the edge into an [`AwsEnv`] snapshot, the shared AWS files ([`super::profile`]), the
//! instance metadata service, plus the flags and the config file. Tests build the snapshot from
//! pairs and never touch the process environment.
//!
//! The credential chain is this project's own, in the order the AWS CLI (botocore) follows; see
//! [`super::chain`] for the order and [`super::keys`] for the refresh.
//!
//! Secrets never leave this module in readable form: every `Debug` here redacts them.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

pub use super::keys::{Keys, Source};
use super::profile::SharedFiles;
use crate::provider::ProviderError;
use crate::provider::http::HttpPolicy;

pub const ACCESS_KEY_ID: &str = "AWS_ACCESS_KEY_ID";
pub const SECRET_ACCESS_KEY: &str = "AWS_SECRET_ACCESS_KEY";
pub const SESSION_TOKEN: &str = "AWS_SESSION_TOKEN";
/// When the keys in the environment stop working (ISO 8601), as `aws configure
/// export-credentials --format env` writes it; botocore's `EnvProvider` reads it too.
pub const CREDENTIAL_EXPIRATION: &str = "AWS_CREDENTIAL_EXPIRATION";
pub const REGION: &str = "AWS_REGION";
pub const DEFAULT_REGION: &str = "AWS_DEFAULT_REGION";
pub const ENDPOINT_EC2: &str = "AWS_ENDPOINT_URL_EC2";
pub const ENDPOINT: &str = "AWS_ENDPOINT_URL";
/// Elastic Load Balancing v2's own override, by the SDKs' rule for a service id
/// (`Elastic Load Balancing v2`: upper case, spaces as underscores).
pub const ENDPOINT_ELB: &str = "AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2";
/// The AWS SDKs' override for the instance metadata service (tests point it at loopback).
pub const IMDS_ENDPOINT: &str = "AWS_EC2_METADATA_SERVICE_ENDPOINT";
pub const IMDS_DISABLED: &str = "AWS_EC2_METADATA_DISABLED";
pub const PROFILE: &str = "AWS_PROFILE";
pub const SHARED_CREDENTIALS_FILE: &str = "AWS_SHARED_CREDENTIALS_FILE";
pub const CONFIG_FILE: &str = "AWS_CONFIG_FILE";
/// Where `~/.aws` is.
pub const HOME: &str = "HOME";
pub const ENDPOINT_STS: &str = "AWS_ENDPOINT_URL_STS";
pub const WEB_IDENTITY_TOKEN_FILE: &str = "AWS_WEB_IDENTITY_TOKEN_FILE";
pub const ROLE_ARN: &str = "AWS_ROLE_ARN";
pub const ROLE_SESSION_NAME: &str = "AWS_ROLE_SESSION_NAME";
pub const CONTAINER_RELATIVE_URI: &str = "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI";
pub const CONTAINER_FULL_URI: &str = "AWS_CONTAINER_CREDENTIALS_FULL_URI";
pub const CONTAINER_TOKEN: &str = "AWS_CONTAINER_AUTHORIZATION_TOKEN";
pub const CONTAINER_TOKEN_FILE: &str = "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE";

/// How long a `credential_process` may take.
pub const PROCESS_TIMEOUT: Duration = Duration::from_secs(60);
/// Temporary credentials are fetched again this long before they expire.
pub const REFRESH_BEFORE: Duration = Duration::from_secs(5 * 60);

const NAMES: [&str; 23] = [
    ACCESS_KEY_ID,
    SECRET_ACCESS_KEY,
    SESSION_TOKEN,
    CREDENTIAL_EXPIRATION,
    REGION,
    DEFAULT_REGION,
    ENDPOINT_EC2,
    ENDPOINT,
    ENDPOINT_ELB,
    IMDS_ENDPOINT,
    IMDS_DISABLED,
    PROFILE,
    SHARED_CREDENTIALS_FILE,
    CONFIG_FILE,
    HOME,
    ENDPOINT_STS,
    WEB_IDENTITY_TOKEN_FILE,
    ROLE_ARN,
    ROLE_SESSION_NAME,
    CONTAINER_RELATIVE_URI,
    CONTAINER_FULL_URI,
    CONTAINER_TOKEN,
    CONTAINER_TOKEN_FILE,
];

/// Where the region is looked for, in order.
pub fn region_from() -> [String; 6] {
    [
        "--region".into(),
        "[instance] region".into(),
        REGION.into(),
        DEFAULT_REGION.into(),
        crate::t!("aws-region-from-profile").into_owned(),
        crate::t!("aws-region-from-imds").into_owned(),
    ]
}

/// The AWS variables of one environment, taken at one moment.
#[derive(Clone, Default)]
pub struct AwsEnv {
    vars: Vec<(&'static str, String)>,
}

impl AwsEnv {
    /// The process environment's AWS variables.
    pub fn from_process() -> Self {
        Self::from_pairs(crate::provider::env::process_vars(&NAMES))
    }

    /// Variables given as pairs; names that are not AWS variables this adapter reads are ignored.
    pub fn from_pairs<K: AsRef<str>, V: Into<String>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        let vars = pairs
            .into_iter()
            .filter_map(|(k, v)| {
                let name = NAMES.iter().find(|n| **n == k.as_ref())?;
                let value: String = v.into();
                (!value.trim().is_empty()).then_some((*name, value))
            })
            .collect();
        AwsEnv { vars }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars
            .iter()
            .rev()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}

impl fmt::Debug for AwsEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.vars.iter().map(|(k, _)| *k).collect();
        f.debug_struct("AwsEnv").field("set", &names).finish()
    }
}

/// An access key pair and, for temporary credentials, the session token.
#[derive(Clone)]
pub struct Credentials {
    pub access_key_id: String,
    pub secret_access_key: String,
    pub session_token: Option<String>,
    /// When temporary credentials stop working; `None` for long-term keys.
    pub expiration: Option<Timestamp>,
}

impl Credentials {
    /// The keys in the environment; a half-set pair is an error naming the missing half.
    pub fn from_env(env: &AwsEnv) -> Result<Self, ProviderError> {
        let need = |name: &'static str| {
            env.get(name)
                .map(str::to_string)
                .ok_or_else(|| ProviderError::missing(super::ID, name, &[name]))
        };
        Ok(Credentials {
            access_key_id: need(ACCESS_KEY_ID)?,
            secret_access_key: need(SECRET_ACCESS_KEY)?,
            session_token: env.get(SESSION_TOKEN).map(str::to_string),
            expiration: env.get(CREDENTIAL_EXPIRATION).map(expiration).transpose()?,
        })
    }

    /// Whether these have stopped working at `now`: they have an expiry and it has passed.
    pub fn expired(&self, now: Timestamp) -> bool {
        self.expiration.is_some_and(|exp| exp <= now)
    }

    /// Whether these should be fetched again before the next call.
    pub fn stale(&self, now: Timestamp) -> bool {
        self.expiration.is_some_and(|exp| {
            exp.duration_since(now) < jiff::SignedDuration::try_from(REFRESH_BEFORE).unwrap()
        })
    }

    /// `text` with the secret and the session token replaced, for anything shown or logged.
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in std::iter::once(&self.secret_access_key).chain(&self.session_token) {
            if secret.len() >= 4 {
                out = out.replace(secret.as_str(), "<redacted>");
            }
        }
        out
    }
}

/// `AWS_CREDENTIAL_EXPIRATION` read as an instant: RFC 3339 with its offset (`Z` or `+00:00`),
/// as the AWS CLI writes it. Anything else is an error naming the variable, since keys taken
/// for permanent would let a deadline outlive them unwarned.
fn expiration(value: &str) -> Result<Timestamp, ProviderError> {
    value.trim().parse::<Timestamp>().map_err(|_| {
        ProviderError::state(
            super::ID,
            crate::t!(
                "aws-expiration-unreadable",
                var = CREDENTIAL_EXPIRATION,
                value = gpumeter_core::text::one_line(value, 40)
            ),
        )
        .with_fix(&crate::t!(
            "aws-fix-expiration",
            var = CREDENTIAL_EXPIRATION
        ))
    })
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &"<redacted>")
            .field(
                "session_token",
                &self.session_token.as_ref().map(|_| "<redacted>"),
            )
            .field("expiration", &self.expiration)
            .finish()
    }
}

/// Everything the adapter needs to know before its first call.
#[derive(Debug, Clone)]
pub struct AwsSettings {
    /// `Err` keeps the missing credential and every place tried, reported on the first call that
    /// needs it.
    pub credentials: Result<Arc<Keys>, ProviderError>,
    pub region: Result<String, ProviderError>,
    /// The EC2 endpoint, `https://ec2.<region>.amazonaws.com` (`.com.cn` in China) unless
    /// overridden.
    pub endpoint: Option<String>,
    /// The Elastic Load Balancing endpoint the environment names (`AWS_ENDPOINT_URL_ELASTIC_
    /// LOAD_BALANCING_V2`, then `AWS_ENDPOINT_URL`); `None` takes the region's
    /// ([`Self::elb_endpoint`]).
    pub elb_endpoint_given: Option<String>,
    /// The instance to watch; `None` asks the metadata service.
    pub instance_id: Option<String>,
    pub imds_endpoint: Option<String>,
    /// Whether the endpoint came from the environment rather than from the region.
    endpoint_given: bool,
}

/// The EC2 endpoint AWS gives `region`: the China partition has its own domain.
pub fn default_endpoint(region: &str) -> String {
    if region.starts_with("cn-") {
        format!("https://ec2.{region}.amazonaws.com.cn")
    } else {
        format!("https://ec2.{region}.amazonaws.com")
    }
}

/// `~/` in a path from the environment is the home directory, as in the AWS tools.
fn path_from(env: &AwsEnv, var: &str, default: &str) -> Option<PathBuf> {
    let home = env.get(HOME).map(PathBuf::from);
    match env.get(var) {
        Some(p) => match (p.strip_prefix("~/"), &home) {
            (Some(rest), Some(h)) => Some(h.join(rest)),
            _ => Some(PathBuf::from(p)),
        },
        None => home.map(|h| h.join(default)),
    }
}

/// The shared files for the environment's profile.
pub fn shared_files(env: &AwsEnv) -> Result<SharedFiles, ProviderError> {
    SharedFiles::load(
        env.get(PROFILE).unwrap_or("default"),
        path_from(env, SHARED_CREDENTIALS_FILE, ".aws/credentials"),
        path_from(env, CONFIG_FILE, ".aws/config"),
    )
}

impl AwsSettings {
    /// Settings from the environment and the shared files, with the flags' or config's instance
    /// and region first. The metadata service is asked nothing here: see [`Self::complete`].
    pub fn resolve(env: &AwsEnv, instance_id: Option<String>, region: Option<String>) -> Self {
        let imds_disabled = env
            .get(IMDS_DISABLED)
            .is_some_and(|v| v.eq_ignore_ascii_case("true"));
        let imds_endpoint = (!imds_disabled).then(|| {
            env.get(IMDS_ENDPOINT)
                .unwrap_or(super::imds::DEFAULT_ENDPOINT)
                .trim_end_matches('/')
                .to_string()
        });
        let files = shared_files(env);
        let profile_region = files
            .as_ref()
            .ok()
            .and_then(|f| f.config_file("region").map(str::to_string));
        let region = region
            .or_else(|| env.get(REGION).map(str::to_string))
            .or_else(|| env.get(DEFAULT_REGION).map(str::to_string))
            .or(profile_region)
            .ok_or_else(|| {
                let from = region_from();
                ProviderError::missing(super::ID, REGION, &from.each_ref().map(String::as_str))
            });
        let given = env
            .get(ENDPOINT_EC2)
            .or_else(|| env.get(ENDPOINT))
            .map(|e| e.trim_end_matches('/').to_string());
        let endpoint_given = given.is_some();
        let elb_endpoint_given = env
            .get(ENDPOINT_ELB)
            .or_else(|| env.get(ENDPOINT))
            .map(|e| e.trim_end_matches('/').to_string());
        let endpoint = given.or_else(|| region.as_ref().ok().map(|r| default_endpoint(r)));
        let sts = super::sts::Sts::resolve(env, region.as_ref().ok().map(String::as_str));
        let cx = super::chain::Context {
            env,
            imds_endpoint: imds_endpoint.as_deref(),
            sts: &sts,
        };
        let credentials = super::chain::chain(&cx, &files).map(|s| Arc::new(Keys::new(s)));
        AwsSettings {
            credentials,
            region,
            endpoint,
            elb_endpoint_given,
            instance_id,
            imds_endpoint,
            endpoint_given,
        }
    }

    /// Where Elastic Load Balancing is asked: the environment's override, else the region's
    /// endpoint (`.amazonaws.com.cn` in China); `None` while no region is known.
    pub fn elb_endpoint(&self) -> Option<String> {
        self.elb_endpoint_given.clone().or_else(|| {
            let region = self.region.as_ref().ok()?;
            let domain = if region.starts_with("cn-") {
                "amazonaws.com.cn"
            } else {
                "amazonaws.com"
            };
            Some(format!("https://elasticloadbalancing.{region}.{domain}"))
        })
    }

    /// What only the network can tell: the region from the metadata service when nothing else
    /// named one, and the first set of credentials, so a missing one is known before any call.
    pub async fn complete(&mut self, imds: HttpPolicy) {
        if self.region.is_err()
            && let Some(endpoint) = &self.imds_endpoint
            && let Ok(m) = super::imds::Imds::new(endpoint, imds)
            && let Ok(region) = m.region().await
        {
            if !self.endpoint_given {
                self.endpoint = Some(default_endpoint(&region));
            }
            self.region = Ok(region);
        }
        if let Ok(keys) = &self.credentials
            && let Err(e) = keys.current().await
        {
            self.credentials = Err(e);
        }
    }
}

#[cfg(test)]
#[path = "credentials_tests.rs"]
mod tests;
