//! Where the AWS adapter's settings come from: the standard AWS environment variables, read once
//! at the edge into an [`AwsEnv`] snapshot, plus the flags and the config file. Tests build the
//! snapshot from pairs and never touch the process environment.
//!
//! Secrets never leave this module in readable form: every `Debug` here redacts them.

use std::fmt;

use crate::provider::ProviderError;

pub const ACCESS_KEY_ID: &str = "AWS_ACCESS_KEY_ID";
pub const SECRET_ACCESS_KEY: &str = "AWS_SECRET_ACCESS_KEY";
pub const SESSION_TOKEN: &str = "AWS_SESSION_TOKEN";
pub const REGION: &str = "AWS_REGION";
pub const DEFAULT_REGION: &str = "AWS_DEFAULT_REGION";
pub const ENDPOINT_EC2: &str = "AWS_ENDPOINT_URL_EC2";
pub const ENDPOINT: &str = "AWS_ENDPOINT_URL";
/// The AWS SDKs' override for the instance metadata service (tests point it at loopback).
pub const IMDS_ENDPOINT: &str = "AWS_EC2_METADATA_SERVICE_ENDPOINT";
pub const IMDS_DISABLED: &str = "AWS_EC2_METADATA_DISABLED";

const NAMES: [&str; 9] = [
    ACCESS_KEY_ID,
    SECRET_ACCESS_KEY,
    SESSION_TOKEN,
    REGION,
    DEFAULT_REGION,
    ENDPOINT_EC2,
    ENDPOINT,
    IMDS_ENDPOINT,
    IMDS_DISABLED,
];

/// Where the region is looked for, in order.
pub const REGION_FROM: [&str; 4] = ["--region", "[instance] region", REGION, DEFAULT_REGION];

/// The AWS variables of one environment, taken at one moment.
#[derive(Clone, Default)]
pub struct AwsEnv {
    vars: Vec<(&'static str, String)>,
}

impl AwsEnv {
    /// The process environment's AWS variables.
    pub fn from_process() -> Self {
        Self::from_pairs(
            NAMES
                .iter()
                .filter_map(|name| std::env::var(name).ok().map(|v| (*name, v))),
        )
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
}

impl Credentials {
    pub fn from_env(env: &AwsEnv) -> Result<Self, ProviderError> {
        // The environment is the only place this adapter reads keys from.
        let need = |name: &'static str| {
            env.get(name)
                .map(str::to_string)
                .ok_or_else(|| ProviderError::missing("aws", name, &[name]))
        };
        Ok(Credentials {
            access_key_id: need(ACCESS_KEY_ID)?,
            secret_access_key: need(SECRET_ACCESS_KEY)?,
            session_token: env.get(SESSION_TOKEN).map(str::to_string),
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

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &"<redacted>")
            .field(
                "session_token",
                &self.session_token.as_ref().map(|_| "<redacted>"),
            )
            .finish()
    }
}

/// Everything the adapter needs to know before its first call.
#[derive(Debug, Clone)]
pub struct AwsSettings {
    /// `Err` keeps the missing variable's name, reported on the first call that needs it.
    pub credentials: Result<Credentials, ProviderError>,
    pub region: Result<String, ProviderError>,
    /// The EC2 endpoint, `https://ec2.<region>.amazonaws.com` unless overridden.
    pub endpoint: Option<String>,
    /// The instance to watch; `None` asks the metadata service.
    pub instance_id: Option<String>,
    pub imds_endpoint: Option<String>,
}

impl AwsSettings {
    /// Settings from the environment, with the flags' or config's instance and region first.
    pub fn resolve(env: &AwsEnv, instance_id: Option<String>, region: Option<String>) -> Self {
        let region = region
            .or_else(|| env.get(REGION).map(str::to_string))
            .or_else(|| env.get(DEFAULT_REGION).map(str::to_string))
            .ok_or_else(|| ProviderError::missing("aws", REGION, &REGION_FROM));
        let endpoint = env
            .get(ENDPOINT_EC2)
            .or_else(|| env.get(ENDPOINT))
            .map(|e| e.trim_end_matches('/').to_string())
            .or_else(|| {
                region
                    .as_ref()
                    .ok()
                    .map(|r| format!("https://ec2.{r}.amazonaws.com"))
            });
        let imds_disabled = env
            .get(IMDS_DISABLED)
            .is_some_and(|v| v.eq_ignore_ascii_case("true"));
        let imds_endpoint = (!imds_disabled).then(|| {
            env.get(IMDS_ENDPOINT)
                .unwrap_or(super::imds::DEFAULT_ENDPOINT)
                .trim_end_matches('/')
                .to_string()
        });
        AwsSettings {
            credentials: Credentials::from_env(env),
            region,
            endpoint,
            instance_id,
            imds_endpoint,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

    fn env(pairs: &[(&str, &str)]) -> AwsEnv {
        AwsEnv::from_pairs(pairs.iter().copied())
    }

    #[test]
    fn a_missing_variable_is_named() {
        let s = AwsSettings::resolve(&env(&[(SECRET_ACCESS_KEY, "x")]), None, None);
        assert_eq!(
            s.credentials.unwrap_err(),
            ProviderError::missing("aws", ACCESS_KEY_ID, &[ACCESS_KEY_ID])
        );
        assert_eq!(
            s.region.unwrap_err(),
            ProviderError::missing("aws", REGION, &REGION_FROM)
        );
        let s = AwsSettings::resolve(&env(&[(ACCESS_KEY_ID, "AKID")]), None, None);
        assert_eq!(
            s.credentials.unwrap_err().to_string(),
            "missing credential: set AWS_SECRET_ACCESS_KEY"
        );
    }

    #[test]
    fn endpoint_follows_the_aws_tools_order() {
        let base = [(REGION, "eu-west-1")];
        let s = AwsSettings::resolve(&env(&base), None, None);
        assert_eq!(
            s.endpoint.as_deref(),
            Some("https://ec2.eu-west-1.amazonaws.com")
        );
        let s = AwsSettings::resolve(
            &env(&[
                (REGION, "eu-west-1"),
                (ENDPOINT, "http://127.0.0.1:1/"),
                (ENDPOINT_EC2, "http://127.0.0.1:2"),
            ]),
            None,
            Some("us-east-1".into()),
        );
        assert_eq!(s.endpoint.as_deref(), Some("http://127.0.0.1:2"));
        assert_eq!(s.region.unwrap(), "us-east-1", "the flag wins");
        let s = AwsSettings::resolve(&env(&[(IMDS_DISABLED, "true")]), None, None);
        assert_eq!(s.imds_endpoint, None);
    }

    #[test]
    fn debug_output_never_shows_the_secret() {
        let e = env(&[
            (ACCESS_KEY_ID, "AKIDEXAMPLE"),
            (SECRET_ACCESS_KEY, SECRET),
            (SESSION_TOKEN, "token-secret-value"),
            (REGION, "us-east-1"),
        ]);
        let s = AwsSettings::resolve(&e, None, None);
        let shown = format!("{e:?} {s:?} {:#?}", s.credentials);
        assert!(!shown.contains(SECRET), "{shown}");
        assert!(!shown.contains("token-secret-value"), "{shown}");
        assert!(shown.contains("AKIDEXAMPLE"));
        let creds = s.credentials.unwrap();
        assert_eq!(
            creds.redact(&format!("key {SECRET} and token-secret-value")),
            "key <redacted> and <redacted>"
        );
    }
}
