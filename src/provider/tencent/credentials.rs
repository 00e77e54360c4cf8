//! Where the Tencent Cloud adapter gets its credentials, region and endpoint.
//!
//! The environment is read once, at the edge, into a [`TencentEnv`] snapshot; the adapter and its
//! tests work from plain values. Secrets live in [`Secret`], whose `Debug` prints no part of them.

use crate::provider::ProviderError;
use crate::provider::env::{KeyPair, KeyPairEnv, KeyPairVars, base_url};
pub use crate::provider::env::{Secret, redact_id};

pub const SECRET_ID_ENV: &str = "TENCENTCLOUD_SECRET_ID";
pub const SECRET_KEY_ENV: &str = "TENCENTCLOUD_SECRET_KEY";
/// An STS token, for temporary credentials (sent as `X-TC-Token`).
pub const TOKEN_ENV: &str = "TENCENTCLOUD_SECURITY_TOKEN";
pub const REGION_ENV: &str = "TENCENTCLOUD_REGION";
/// A base URL (`http://127.0.0.1:8080`) that replaces `https://cvm.tencentcloudapi.com/` and the
/// CBS and VPC hosts: for tests and private gateways.
pub const ENDPOINT_ENV: &str = "GPUMETER_TENCENT_ENDPOINT";
/// The base URL of the instance metadata service.
pub const METADATA_ENV: &str = "GPUMETER_TENCENT_METADATA";
pub const DEFAULT_METADATA: &str = "http://metadata.tencentyun.com";
pub const DEFAULT_ENDPOINT: &str = "https://cvm.tencentcloudapi.com/";

/// The variables the adapter reads.
pub static VARS: KeyPairVars = KeyPairVars {
    provider: "tencent",
    key_id: SECRET_ID_ENV,
    key_secret: SECRET_KEY_ENV,
    token: TOKEN_ENV,
    region: REGION_ENV,
    endpoint: ENDPOINT_ENV,
    metadata: METADATA_ENV,
};

/// The environment as the adapter needs it, read once.
pub type TencentEnv = KeyPairEnv;

/// Reads the adapter's variables from the process environment: only at the edge.
pub fn env_from_process() -> TencentEnv {
    KeyPairEnv::from_process(&VARS)
}

/// Reads the adapter's variables through `lookup`.
pub fn env_from_lookup(lookup: impl Fn(&str) -> Option<String>) -> TencentEnv {
    KeyPairEnv::from_lookup(&VARS, lookup)
}

pub type Credentials = KeyPair;

/// Everything the adapter needs to make calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub credentials: Credentials,
    pub region: String,
    /// The API's base URL, ending in `/`.
    pub endpoint: String,
    /// The instance, when `--instance` or the config names it; otherwise the metadata service.
    pub instance_id: Option<String>,
    pub metadata: String,
}

impl Settings {
    /// Settings from the environment snapshot and the config's (or flags') instance and region.
    /// The config's region wins over `TENCENTCLOUD_REGION`.
    pub fn resolve(
        env: &TencentEnv,
        instance_id: Option<&str>,
        region: Option<&str>,
    ) -> Result<Settings, ProviderError> {
        let credentials = env.key_pair()?;
        let region = env.region_or(region)?;
        let endpoint = match &env.endpoint {
            Some(base) => base_url("tencent", ENDPOINT_ENV, base)?,
            None => DEFAULT_ENDPOINT.to_string(),
        };
        Ok(Settings {
            credentials,
            region,
            endpoint,
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

    const FULL: &[(&str, &str)] = &[
        (SECRET_ID_ENV, "AKIDExampleSecretId"),
        (SECRET_KEY_ENV, "tencent-secret-key-77"),
        (TOKEN_ENV, "tencent-token-78"),
        (REGION_ENV, "ap-guangzhou"),
    ];

    fn env(pairs: &[(&str, &str)]) -> TencentEnv {
        env_from_lookup(|name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_string())
        })
    }

    #[test]
    fn each_missing_credential_names_its_variable() {
        for name in [SECRET_ID_ENV, SECRET_KEY_ENV, REGION_ENV] {
            let pairs: Vec<_> = FULL.iter().copied().filter(|(k, _)| *k != name).collect();
            let err = Settings::resolve(&env(&pairs), None, None).unwrap_err();
            assert!(
                matches!(
                    err.kind(),
                    crate::provider::ErrorKind::Auth(crate::provider::Auth::Missing { name: n, .. })
                        if n == name
                ),
                "{err:?}"
            );
            assert!(err.to_string().contains(name));
        }
        assert_eq!(env(&[(SECRET_ID_ENV, " ")]).key_id, None);
        let s = Settings::resolve(&env(&FULL[..2]), Some(" ins-1 "), Some("ap-tokyo")).unwrap();
        assert_eq!(s.region, "ap-tokyo");
        assert_eq!(s.instance_id.as_deref(), Some("ins-1"));
        assert_eq!(s.endpoint, DEFAULT_ENDPOINT);
    }

    #[test]
    fn debug_output_never_shows_secrets() {
        let e = env(FULL);
        let s = Settings::resolve(&e, Some("ins-1"), None).unwrap();
        for text in [format!("{e:?}"), format!("{s:?}"), format!("{s:#?}")] {
            assert!(!text.contains("tencent-secret-key-77"), "{text}");
            assert!(!text.contains("tencent-token-78"), "{text}");
            assert!(!text.contains("AKIDExampleSecretId"), "{text}");
            assert!(text.contains("AKID****"), "{text}");
        }
    }

    #[test]
    fn the_endpoint_can_be_overridden_with_a_url_only() {
        let mut pairs = FULL.to_vec();
        pairs.push((ENDPOINT_ENV, "http://127.0.0.1:9"));
        let s = Settings::resolve(&env(&pairs), None, None).unwrap();
        assert_eq!(s.endpoint, "http://127.0.0.1:9/");
        let bad = TencentEnv {
            endpoint: Some("ftp://x".into()),
            ..env(FULL)
        };
        assert!(Settings::resolve(&bad, None, None).is_err());
    }
}
