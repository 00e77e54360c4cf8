//! Where the Alibaba adapter gets its credentials, region and endpoints.
//!
//! Everything is read once, at the edge, into an [`AlibabaEnv`] snapshot, so the rest of the
//! adapter (and every test) works from plain values and never touches the process environment.
//! Secrets live in [`Secret`], whose `Debug` prints no part of them.

use std::path::Path;

use serde::Deserialize;

use crate::provider::ProviderError;
use crate::provider::env::{
    CliProfile, KeyPair, KeyPairEnv, KeyPairVars, malformed_cli_file, read_cli_file,
};
pub use crate::provider::env::{Secret, redact_id};
use crate::provider::key_pair_settings::{KeyPairCloud, KeyPairSettings};
pub use crate::provider::role_keys::KeySource;

pub const ACCESS_KEY_ID_ENV: &str = "ALIBABA_CLOUD_ACCESS_KEY_ID";
pub const ACCESS_KEY_SECRET_ENV: &str = "ALIBABA_CLOUD_ACCESS_KEY_SECRET";
/// An STS token, for temporary credentials.
pub const SECURITY_TOKEN_ENV: &str = "ALIBABA_CLOUD_SECURITY_TOKEN";
pub const REGION_ENV: &str = "ALIBABA_CLOUD_REGION_ID";
/// The aliyun CLI profile to read, instead of the file's `current` one.
pub const PROFILE_ENV: &str = "ALIBABA_CLOUD_PROFILE";
/// The aliyun CLI's file, under `$HOME`.
pub const CLI_FILE: &str = ".aliyun/config.json";
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
    profile: PROFILE_ENV,
    extra: super::chain::EXTRA,
};

/// The environment as the adapter needs it, read once.
pub type AlibabaEnv = KeyPairEnv;

/// Reads the adapter's variables through `lookup`.
pub fn env_from_lookup(lookup: impl Fn(&str) -> Option<String>) -> AlibabaEnv {
    KeyPairEnv::from_lookup(&VARS, lookup)
}

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
    pub fn single(base: String) -> Self {
        Endpoints {
            ecs: base.clone(),
            vpc: base.clone(),
            slb: base,
        }
    }
}

/// Everything the adapter needs to make calls.
pub type Settings = KeyPairSettings<OwnSettings>;

/// What only the Alibaba adapter needs beyond the shared settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnSettings {
    pub endpoints: Endpoints,
    /// `ALIBABA_CLOUD_IMDSV1_DISABLED=true`: the role's keys only with a metadata token.
    pub imds_v1_disabled: bool,
    /// The OIDC role, when the chain chose it.
    pub oidc: Option<super::oidc::OidcSettings>,
}

/// The Alibaba steps of [`KeyPairSettings::resolve`]; the chain's order is [`super::chain`]'s.
impl KeyPairCloud for OwnSettings {
    const DEFAULT_METADATA: &'static str = DEFAULT_METADATA;
    /// The chain finds its credentials file through the environment alone.
    type Files = ();

    fn files(_: &AlibabaEnv) {}

    fn cli_profile(env: &AlibabaEnv) -> Result<CliProfile, ProviderError> {
        cli_profile(env)
    }

    fn key_source(env: &AlibabaEnv, (): &(), cli: &CliProfile) -> Result<KeySource, ProviderError> {
        super::chain::key_source(env, cli)
    }

    fn own(env: &AlibabaEnv, region: &str) -> Result<Self, ProviderError> {
        let endpoints = match env.checked_endpoint()? {
            Some(base) => Endpoints::single(base),
            None => Endpoints::regional(region),
        };
        Ok(OwnSettings {
            endpoints,
            imds_v1_disabled: env.is_true(super::chain::IMDSV1_DISABLED_ENV),
            oidc: super::chain::oidc_settings(env)?,
        })
    }
}

/// The aliyun CLI's `config.json`: `current` names a profile in `profiles`.
#[derive(Deserialize)]
struct CliConfig {
    #[serde(default)]
    current: String,
    #[serde(default)]
    profiles: Vec<CliEntry>,
}

#[derive(Deserialize)]
struct CliEntry {
    #[serde(default)]
    name: String,
    #[serde(default)]
    mode: String,
    #[serde(default)]
    access_key_id: String,
    #[serde(default)]
    access_key_secret: String,
    #[serde(default)]
    sts_token: String,
    #[serde(default)]
    ram_role_name: String,
    #[serde(default)]
    region_id: String,
}

/// The keys and region of the aliyun CLI's profile: `ALIBABA_CLOUD_PROFILE`'s, else the file's
/// `current`. An `EcsRamRole` profile names the instance role (`ram_role_name`); a profile in a
/// mode other than `AK`, `StsToken` or `EcsRamRole` is an error that says so.
pub fn cli_profile(env: &AlibabaEnv) -> Result<CliProfile, ProviderError> {
    let named = |file: &str| match &env.profile {
        Some(p) => crate::t!(
            "alibaba-cli-profile-named",
            profile = p.as_str(),
            file = file
        ),
        None => crate::t!("alibaba-cli-profile-current", file = file),
    };
    let region_of = |place: &str| crate::t!("alibaba-region-of", place = place);
    let Some(home) = &env.home else {
        let place = crate::t!("rpc-home-unset", place = named(&format!("~/{CLI_FILE}")));
        return Ok(CliProfile {
            region_place: region_of(&place),
            key_place: place,
            ..CliProfile::default()
        });
    };
    let path = Path::new(home).join(CLI_FILE);
    let file = path.display().to_string();
    let mut out = CliProfile {
        key_place: named(&file),
        region_place: region_of(&named(&file)),
        ..CliProfile::default()
    };
    let Some(text) = read_cli_file("alibaba", &path)? else {
        return Ok(out);
    };
    let expected = crate::t!("alibaba-cli-expected");
    let config: CliConfig = serde_json::from_str(&text)
        .map_err(|e| malformed_cli_file("alibaba", &path, &expected, Some(&e)))?;
    let name = env.profile.clone().unwrap_or(config.current);
    out.key_place = crate::t!(
        "alibaba-cli-profile-named",
        profile = name.as_str(),
        file = file.as_str()
    );
    out.region_place = region_of(&out.key_place);
    let Some(entry) = config.profiles.into_iter().find(|p| p.name == name) else {
        out.key_place = crate::t!("alibaba-no-such-profile", place = out.key_place);
        return Ok(out);
    };
    let region = entry.region_id.trim();
    out.region = (!region.is_empty()).then(|| region.to_string());
    let token = match entry.mode.as_str() {
        "AK" | "" => None,
        "StsToken" => Some(entry.sts_token.trim()),
        "EcsRamRole" => {
            out.instance_role = Some(entry.ram_role_name.trim().to_string());
            return Ok(out);
        }
        other => {
            return Err(ProviderError::state(
                "alibaba",
                crate::t!(
                    "alibaba-cli-mode-unsupported",
                    profile = name.as_str(),
                    file = file.as_str(),
                    mode = other
                ),
            )
            .with_fix(&crate::t!(
                "alibaba-cli-mode-fix",
                id_var = ACCESS_KEY_ID_ENV,
                secret_var = ACCESS_KEY_SECRET_ENV,
                profile_var = PROFILE_ENV
            )));
        }
    };
    let (id, secret) = (entry.access_key_id.trim(), entry.access_key_secret.trim());
    let missing = |field: &str| ProviderError::missing("alibaba", field, &[&out.key_place]);
    match (id.is_empty(), secret.is_empty()) {
        (true, true) if token.is_none() => return Ok(out),
        (true, _) => return Err(missing("access_key_id")),
        (_, true) => return Err(missing("access_key_secret")),
        _ => {}
    }
    if token == Some("") {
        return Err(missing("sts_token"));
    }
    out.keys = Some(KeyPair {
        id: id.to_string(),
        secret: Secret::new(secret),
        token: token.map(Secret::new),
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::key_pair_settings::testing;

    fn keys(s: &Settings) -> &KeyPair {
        s.credentials.fixed_keys().expect("fixed keys")
    }

    fn env(pairs: &[(&str, &str)]) -> AlibabaEnv {
        testing::env(&VARS, pairs)
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
                &[
                    "--region",
                    "[instance] region",
                    REGION_ENV,
                    "region_id of the current profile in ~/.aliyun/config.json (HOME is unset)"
                ]
            )
        );
        assert!(missing(REGION_ENV).to_string().contains(REGION_ENV));
        let empty = env(&[(ACCESS_KEY_ID_ENV, "  ")]);
        assert_eq!(empty.key_id, None);
    }

    #[test]
    fn debug_output_never_shows_secrets() {
        testing::assert_debug_hides::<OwnSettings>(&VARS, FULL, "LTAI****");
    }

    #[test]
    fn endpoints_are_regional_unless_overridden() {
        let s = Settings::resolve(&env(FULL), None, Some("ap-southeast-1")).unwrap();
        assert_eq!(s.region, "ap-southeast-1");
        assert_eq!(
            s.own.endpoints.ecs,
            "https://ecs.ap-southeast-1.aliyuncs.com/"
        );
        assert_eq!(
            s.own.endpoints.slb,
            "https://slb.ap-southeast-1.aliyuncs.com/"
        );
        assert_eq!(s.metadata, DEFAULT_METADATA);
        let mut pairs = FULL.to_vec();
        pairs.push((ENDPOINT_ENV, "http://127.0.0.1:9/"));
        let s = Settings::resolve(&env(&pairs), None, None).unwrap();
        assert_eq!(s.own.endpoints.vpc, "http://127.0.0.1:9/");
        pairs.push((ENDPOINT_ENV, "ftp://x"));
        let bad = AlibabaEnv {
            endpoint: Some("ftp://x".into()),
            ..env(FULL)
        };
        assert!(Settings::resolve(&bad, None, None).is_err());
    }

    fn home_with(name: &str, config: &str) -> std::path::PathBuf {
        let home =
            std::env::temp_dir().join(format!("gpumeter-aliyun-{name}-{}", std::process::id()));
        std::fs::create_dir_all(home.join(".aliyun")).unwrap();
        std::fs::write(home.join(CLI_FILE), config).unwrap();
        home
    }

    fn at_home(home: &std::path::Path, profile: Option<&str>) -> AlibabaEnv {
        testing::at_home(&VARS, &home.display().to_string(), profile)
    }

    const CONFIG: &str = r#"{"current": "work", "profiles": [
        {"name": "work", "mode": "AK", "access_key_id": "LTAIfileKey",
         "access_key_secret": "file-secret-91", "region_id": "cn-beijing"},
        {"name": "temp", "mode": "StsToken", "access_key_id": "STS.fileKey",
         "access_key_secret": "file-secret-92", "sts_token": "file-token-93",
         "region_id": "cn-shanghai"},
        {"name": "role", "mode": "RamRoleArn", "access_key_id": "LTAIrole",
         "access_key_secret": "file-secret-94"}]}"#;

    #[test]
    fn the_cli_profile_gives_keys_and_region_after_the_variables() {
        let home = home_with("profiles", CONFIG);
        let s = Settings::resolve(&at_home(&home, None), None, None).unwrap();
        assert_eq!(keys(&s).id, "LTAIfileKey");
        assert_eq!(keys(&s).secret.expose(), "file-secret-91");
        assert_eq!(s.region, "cn-beijing");
        let s = Settings::resolve(&at_home(&home, Some("temp")), None, Some("cn-x")).unwrap();
        assert_eq!(keys(&s).token.clone().unwrap().expose(), "file-token-93");
        assert_eq!(s.region, "cn-x");
        let err = Settings::resolve(&at_home(&home, Some("role")), None, None).unwrap_err();
        let text = format!("{err} {err:?}");
        assert!(
            text.contains("RamRoleArn") && !text.contains("file-secret-94"),
            "{text}"
        );
        // The variables come first.
        let mut e = env(FULL);
        e.home = Some(home.display().to_string());
        let s = Settings::resolve(&e, None, None).unwrap();
        assert_eq!(keys(&s).id, "LTAI5tExampleKeyId");
        let _ = std::fs::remove_dir_all(home);
    }

    #[test]
    fn the_missing_keys_name_every_place_and_a_bad_file_names_itself() {
        use super::super::chain::{CREDENTIALS_FILE, ECS_METADATA_DISABLED_ENV};
        let home = home_with("missing", CONFIG);
        let mut e = at_home(&home, Some("nope"));
        e.extra.push((ECS_METADATA_DISABLED_ENV, "TRUE".into()));
        let err = Settings::resolve(&e, None, Some("r")).unwrap_err();
        let file = home.join(CLI_FILE).display().to_string();
        let ini = format!("{} or credentials", home.join(CREDENTIALS_FILE).display());
        assert_eq!(
            err,
            super::super::chain::tests::no_keys(
                &format!("profile `nope` in {file} (no such profile)"),
                &format!("[nope] in {ini}"),
            )
        );
        std::fs::write(home.join(CLI_FILE), "{\"current\": \"file-secret-95\" ").unwrap();
        let err = Settings::resolve(&at_home(&home, None), None, None).unwrap_err();
        let text = format!("{err} {err:?}");
        assert!(text.contains(&file) && text.contains("expected"), "{text}");
        assert!(!text.contains("file-secret-95"), "{text}");
        let _ = std::fs::remove_dir_all(home);
    }
}
