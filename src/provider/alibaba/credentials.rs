//! Where the Alibaba adapter gets its credentials, region and endpoints.
//!
//! Everything is read once, at the edge, into an [`AlibabaEnv`] snapshot, so the rest of the
//! adapter (and every test) works from plain values and never touches the process environment.
//! Secrets live in [`Secret`], whose `Debug` prints no part of them.

use crate::provider::ProviderError;
use crate::provider::env::{KeyPair, KeyPairEnv, KeyPairVars, base_url};
pub use crate::provider::env::{Secret, redact_id};

pub const ACCESS_KEY_ID_ENV: &str = "ALIBABA_CLOUD_ACCESS_KEY_ID";
pub const ACCESS_KEY_SECRET_ENV: &str = "ALIBABA_CLOUD_ACCESS_KEY_SECRET";
/// An STS token, for temporary credentials.
pub const SECURITY_TOKEN_ENV: &str = "ALIBABA_CLOUD_SECURITY_TOKEN";
pub const REGION_ENV: &str = "ALIBABA_CLOUD_REGION_ID";
/// One base URL (`http://127.0.0.1:8080`) that replaces the ECS, VPC and SLB endpoints: for tests
/// and private gateways.
pub const ENDPOINT_ENV: &str = "GPUMETER_ALIBABA_ENDPOINT";
/// The base URL of the instance metadata service, `http://100.100.100.200` unless set.
pub const METADATA_ENV: &str = "GPUMETER_ALIBABA_METADATA";
pub const DEFAULT_METADATA: &str = "http://100.100.100.200";

/// The variables the adapter reads.
pub static VARS: KeyPairVars = KeyPairVars {
    provider: "alibaba",
    key_id: ACCESS_KEY_ID_ENV,
    key_secret: ACCESS_KEY_SECRET_ENV,
    token: SECURITY_TOKEN_ENV,
    region: REGION_ENV,
    endpoint: ENDPOINT_ENV,
    metadata: METADATA_ENV,
};

/// The environment as the adapter needs it, read once.
pub type AlibabaEnv = KeyPairEnv;

/// Reads the adapter's variables from the process environment: only at the edge.
pub fn env_from_process() -> AlibabaEnv {
    KeyPairEnv::from_process(&VARS)
}

/// Reads the adapter's variables through `lookup`.
pub fn env_from_lookup(lookup: impl Fn(&str) -> Option<String>) -> AlibabaEnv {
    KeyPairEnv::from_lookup(&VARS, lookup)
}

pub type Credentials = KeyPair;

/// The base URLs of the three products the adapter calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoints {
    pub ecs: String,
    pub vpc: String,
    pub slb: String,
}

impl Endpoints {
    /// The regional endpoints (`https://ecs.cn-hangzhou.aliyuncs.com/`).
    pub fn regional(region: &str) -> Self {
        let host = |product: &str| format!("https://{product}.{region}.aliyuncs.com/");
        Endpoints {
            ecs: host("ecs"),
            vpc: host("vpc"),
            slb: host("slb"),
        }
    }

    /// One base URL for all three.
    pub fn single(base: &str) -> Result<Self, ProviderError> {
        let base = base_url("alibaba", ENDPOINT_ENV, base)?;
        Ok(Endpoints {
            ecs: base.clone(),
            vpc: base.clone(),
            slb: base,
        })
    }
}

/// Everything the adapter needs to make calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub credentials: Credentials,
    pub region: String,
    pub endpoints: Endpoints,
    /// The instance, when `--instance` or the config names it; otherwise the metadata service.
    pub instance_id: Option<String>,
    pub metadata: String,
}

impl Settings {
    /// Settings from the environment snapshot and the config's (or flags') instance and region.
    /// The config's region wins over `ALIBABA_CLOUD_REGION_ID`.
    pub fn resolve(
        env: &AlibabaEnv,
        instance_id: Option<&str>,
        region: Option<&str>,
    ) -> Result<Settings, ProviderError> {
        let credentials = env.key_pair()?;
        let region = env.region_or(region)?;
        let endpoints = match &env.endpoint {
            Some(base) => Endpoints::single(base)?,
            None => Endpoints::regional(&region),
        };
        Ok(Settings {
            credentials,
            region,
            endpoints,
            instance_id: instance_id
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            metadata: env
                .metadata
                .clone()
                .unwrap_or_else(|| DEFAULT_METADATA.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> AlibabaEnv {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect();
        env_from_lookup(|name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        })
    }

    const FULL: &[(&str, &str)] = &[
        (ACCESS_KEY_ID_ENV, "LTAI5tExampleKeyId"),
        (ACCESS_KEY_SECRET_ENV, "very-secret-value-42"),
        (SECURITY_TOKEN_ENV, "sts-token-value-43"),
        (REGION_ENV, "cn-hangzhou"),
    ];

    #[test]
    fn each_missing_credential_names_its_variable() {
        let missing = |skip: &str| {
            let pairs: Vec<_> = FULL.iter().copied().filter(|(k, _)| *k != skip).collect();
            Settings::resolve(&env(&pairs), None, None).unwrap_err()
        };
        assert_eq!(
            missing(ACCESS_KEY_ID_ENV),
            ProviderError::missing("alibaba", ACCESS_KEY_ID_ENV, &[ACCESS_KEY_ID_ENV])
        );
        assert_eq!(
            missing(ACCESS_KEY_SECRET_ENV),
            ProviderError::missing("alibaba", ACCESS_KEY_SECRET_ENV, &[ACCESS_KEY_SECRET_ENV])
        );
        assert_eq!(
            missing(REGION_ENV),
            ProviderError::missing(
                "alibaba",
                REGION_ENV,
                &["--region", "[instance] region", REGION_ENV]
            )
        );
        assert!(missing(REGION_ENV).to_string().contains(REGION_ENV));
        let empty = env(&[(ACCESS_KEY_ID_ENV, "  ")]);
        assert_eq!(empty.key_id, None);
    }

    #[test]
    fn debug_output_never_shows_secrets() {
        let e = env(FULL);
        let s = Settings::resolve(&e, Some("i-1"), None).unwrap();
        for text in [format!("{e:?}"), format!("{s:?}"), format!("{s:#?}")] {
            assert!(!text.contains("very-secret-value-42"), "{text}");
            assert!(!text.contains("sts-token-value-43"), "{text}");
            assert!(!text.contains("LTAI5tExampleKeyId"), "{text}");
            assert!(text.contains("LTAI****"), "{text}");
        }
    }

    #[test]
    fn endpoints_are_regional_unless_overridden() {
        let s = Settings::resolve(&env(FULL), None, Some("ap-southeast-1")).unwrap();
        assert_eq!(s.region, "ap-southeast-1");
        assert_eq!(s.endpoints.ecs, "https://ecs.ap-southeast-1.aliyuncs.com/");
        assert_eq!(s.endpoints.slb, "https://slb.ap-southeast-1.aliyuncs.com/");
        assert_eq!(s.metadata, DEFAULT_METADATA);
        let mut pairs = FULL.to_vec();
        pairs.push((ENDPOINT_ENV, "http://127.0.0.1:9/"));
        let s = Settings::resolve(&env(&pairs), None, None).unwrap();
        assert_eq!(s.endpoints.vpc, "http://127.0.0.1:9/");
        pairs.push((ENDPOINT_ENV, "ftp://x"));
        let bad = AlibabaEnv {
            endpoint: Some("ftp://x".into()),
            ..env(FULL)
        };
        assert!(Settings::resolve(&bad, None, None).is_err());
    }
}
