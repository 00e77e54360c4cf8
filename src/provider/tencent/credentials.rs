//! Where the Tencent Cloud adapter gets its credentials, region and endpoint.
//!
//! The environment is read once, at the edge, into a [`TencentEnv`] snapshot; the adapter and its
//! tests work from plain values. Secrets live in [`Secret`], whose `Debug` prints no part of them.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::provider::ProviderError;
use crate::provider::env::{
    CliProfile, KeyPair, KeyPairEnv, KeyPairVars, malformed_cli_file, read_cli_file,
};
pub use crate::provider::env::{Secret, redact_id};
use crate::provider::key_pair_settings::{KeyPairCloud, KeyPairSettings};
pub use crate::provider::role_keys::KeySource;

pub const SECRET_ID_ENV: &str = "TENCENTCLOUD_SECRET_ID";
pub const SECRET_KEY_ENV: &str = "TENCENTCLOUD_SECRET_KEY";
/// An STS token, for temporary credentials (sent as `X-TC-Token`).
pub const TOKEN_ENV: &str = "TENCENTCLOUD_SECURITY_TOKEN";
pub const REGION_ENV: &str = "TENCENTCLOUD_REGION";
/// The tccli profile to read, `default` unless set.
pub const PROFILE_ENV: &str = "TCCLI_PROFILE";
/// The tccli folder, under `$HOME`.
pub const CLI_DIR: &str = ".tccli";
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
    profile: PROFILE_ENV,
    extra: super::chain::TKE_OIDC,
};

/// The environment as the adapter needs it, read once.
pub type TencentEnv = KeyPairEnv;

/// Reads the adapter's variables through `lookup`.
pub fn env_from_lookup(lookup: impl Fn(&str) -> Option<String>) -> TencentEnv {
    KeyPairEnv::from_lookup(&VARS, lookup)
}

/// Everything the adapter needs to make calls.
pub type Settings = KeyPairSettings<OwnSettings>;

/// What only the Tencent adapter needs beyond the shared settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnSettings {
    /// The API's base URL, ending in `/`.
    pub endpoint: String,
    /// What the official chain tries after the CVM role and gpumeter does not.
    pub after_role: Vec<String>,
}

/// The Tencent steps of [`KeyPairSettings::resolve`]; the chain's order is [`super::chain`]'s.
impl KeyPairCloud for OwnSettings {
    const DEFAULT_METADATA: &'static str = DEFAULT_METADATA;
    /// The SDK's profile files, in the order it reads them.
    type Files = Vec<PathBuf>;

    fn files(env: &TencentEnv) -> Vec<PathBuf> {
        super::chain::profile_files(env)
    }

    fn cli_profile(env: &TencentEnv) -> Result<CliProfile, ProviderError> {
        cli_profile(env)
    }

    fn key_source(
        env: &TencentEnv,
        files: &Vec<PathBuf>,
        cli: &CliProfile,
    ) -> Result<KeySource, ProviderError> {
        super::chain::key_source(env, files, cli)
    }

    fn own(env: &TencentEnv, _region: &str) -> Result<Self, ProviderError> {
        Ok(OwnSettings {
            endpoint: env
                .checked_endpoint()?
                .unwrap_or_else(|| DEFAULT_ENDPOINT.to_string()),
            after_role: super::chain::after_role(env),
        })
    }
}

/// tccli's `<profile>.credential`.
#[derive(Deserialize)]
struct CliCredential {
    #[serde(default, rename = "secretId")]
    secret_id: String,
    #[serde(default, rename = "secretKey")]
    secret_key: String,
    #[serde(default)]
    token: String,
}

/// tccli's `<profile>.configure`: the region is under `_sys_param`.
#[derive(Deserialize)]
struct CliConfigure {
    #[serde(default, rename = "_sys_param")]
    sys_param: CliSysParam,
}

#[derive(Deserialize, Default)]
struct CliSysParam {
    #[serde(default)]
    region: String,
}

/// The keys and region of tccli's profile (`TCCLI_PROFILE`, else `default`): its
/// `<profile>.credential` and `<profile>.configure` files.
pub fn cli_profile(env: &TencentEnv) -> Result<CliProfile, ProviderError> {
    let profile = env.profile.as_deref().unwrap_or("default");
    if profile.contains(['/', '\\']) || profile.starts_with('.') {
        return Err(ProviderError::state(
            "tencent",
            crate::t!("tencent-profile-not-path", var = PROFILE_ENV),
        ));
    }
    let Some(home) = &env.home else {
        let unset = |place: String| crate::t!("rpc-home-unset", place = place);
        let configure = format!("~/{CLI_DIR}/{profile}.configure");
        return Ok(CliProfile {
            key_place: unset(format!("~/{CLI_DIR}/{profile}.credential")),
            region_place: unset(crate::t!("tencent-region-in", file = configure)),
            ..CliProfile::default()
        });
    };
    let dir = Path::new(home).join(CLI_DIR);
    let (cred_path, conf_path) = (
        dir.join(format!("{profile}.credential")),
        dir.join(format!("{profile}.configure")),
    );
    let mut out = CliProfile {
        key_place: cred_path.display().to_string(),
        region_place: crate::t!("tencent-region-in", file = conf_path.display().to_string()),
        ..CliProfile::default()
    };
    if let Some(text) = read_cli_file("tencent", &cred_path)? {
        let expected = crate::t!("tencent-cli-cred-expected");
        let cred: CliCredential = serde_json::from_str(&text)
            .map_err(|e| malformed_cli_file("tencent", &cred_path, &expected, Some(&e)))?;
        let (id, key) = (cred.secret_id.trim(), cred.secret_key.trim());
        let missing = |field: &str| ProviderError::missing("tencent", field, &[&out.key_place]);
        match (id.is_empty(), key.is_empty()) {
            (true, true) => {}
            (true, false) => return Err(missing("secretId")),
            (false, true) => return Err(missing("secretKey")),
            (false, false) => {
                let token = cred.token.trim();
                out.keys = Some(KeyPair {
                    id: id.to_string(),
                    secret: Secret::new(key),
                    token: (!token.is_empty()).then(|| Secret::new(token)),
                });
            }
        }
    }
    if let Some(text) = read_cli_file("tencent", &conf_path)? {
        let expected = crate::t!("tencent-cli-conf-expected");
        let conf: CliConfigure = serde_json::from_str(&text)
            .map_err(|e| malformed_cli_file("tencent", &conf_path, &expected, Some(&e)))?;
        let region = conf.sys_param.region.trim();
        out.region = (!region.is_empty()).then(|| region.to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::key_pair_settings::testing;

    fn keys(s: &Settings) -> &KeyPair {
        s.credentials.fixed_keys().expect("fixed keys")
    }

    const FULL: &[(&str, &str)] = &[
        (SECRET_ID_ENV, "AKIDExampleSecretId"),
        (SECRET_KEY_ENV, "tencent-secret-key-77"),
        (TOKEN_ENV, "tencent-token-78"),
        (REGION_ENV, "ap-guangzhou"),
    ];

    fn env(pairs: &[(&str, &str)]) -> TencentEnv {
        testing::env(&VARS, pairs)
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
        assert_eq!(s.own.endpoint, DEFAULT_ENDPOINT);
    }

    #[test]
    fn debug_output_never_shows_secrets() {
        testing::assert_debug_hides::<OwnSettings>(&VARS, FULL, "AKID****");
    }

    #[test]
    fn the_endpoint_can_be_overridden_with_a_url_only() {
        let mut pairs = FULL.to_vec();
        pairs.push((ENDPOINT_ENV, "http://127.0.0.1:9"));
        let s = Settings::resolve(&env(&pairs), None, None).unwrap();
        assert_eq!(s.own.endpoint, "http://127.0.0.1:9/");
        let bad = TencentEnv {
            endpoint: Some("ftp://x".into()),
            ..env(FULL)
        };
        assert!(Settings::resolve(&bad, None, None).is_err());
    }

    fn home_with(name: &str, profile: &str, credential: &str, configure: &str) -> String {
        let home =
            std::env::temp_dir().join(format!("gpumeter-tccli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(home.join(CLI_DIR)).unwrap();
        let dir = home.join(CLI_DIR);
        std::fs::write(dir.join(format!("{profile}.credential")), credential).unwrap();
        std::fs::write(dir.join(format!("{profile}.configure")), configure).unwrap();
        home.display().to_string()
    }

    fn at_home(home: &str, profile: Option<&str>) -> TencentEnv {
        testing::at_home(&VARS, home, profile)
    }

    #[test]
    fn the_tccli_profile_gives_keys_and_region_after_the_variables() {
        let home = home_with(
            "keys",
            "work",
            r#"{"secretId": "AKIDfileId", "secretKey": "file-key-81", "token": "file-token-82"}"#,
            r#"{"_sys_param": {"region": "ap-shanghai", "output": "json"}}"#,
        );
        let s = Settings::resolve(&at_home(&home, Some("work")), None, None).unwrap();
        assert_eq!(keys(&s).id, "AKIDfileId");
        assert_eq!(keys(&s).secret.expose(), "file-key-81");
        assert_eq!(keys(&s).token.as_ref().unwrap().expose(), "file-token-82");
        assert_eq!(s.region, "ap-shanghai");
        // No keys in any file: the CVM role is next, after every place tried.
        let s =
            Settings::resolve_with(&at_home(&home, None), &Vec::new(), None, Some("ap-x")).unwrap();
        let dir = std::path::Path::new(&home).join(CLI_DIR);
        let cred = dir.join("default.credential").display().to_string();
        assert_eq!(
            s.credentials,
            KeySource::InstanceRole {
                role: None,
                tried: vec![format!("{SECRET_ID_ENV}/{SECRET_KEY_ENV}"), cred]
            }
        );
        let err = Settings::resolve(&env(&FULL[..2]), None, None).unwrap_err();
        assert!(
            err.to_string()
                .contains("_sys_param.region in ~/.tccli/default.configure")
        );
        std::fs::write(dir.join("work.credential"), "secretKey=file-key-83").unwrap();
        let err = Settings::resolve(&at_home(&home, Some("work")), None, None).unwrap_err();
        let text = format!("{err} {err:?}");
        assert!(
            text.contains("work.credential") && text.contains("expected"),
            "{text}"
        );
        assert!(!text.contains("file-key-83"), "{text}");
        let _ = std::fs::remove_dir_all(home);
    }
}
