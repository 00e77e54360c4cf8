//! Which keys the Alibaba adapter signs with, in the order of the official credentials SDK's
//! `DefaultCredentialsProvider` (alibabacloud_credentials, `provider/default.py`):
//!
//! 1. `EnvironmentVariableCredentialsProvider`: `ALIBABA_CLOUD_ACCESS_KEY_ID`,
//!    `ALIBABA_CLOUD_ACCESS_KEY_SECRET`, and `ALIBABA_CLOUD_SECURITY_TOKEN` for STS keys.
//! 2. `OIDCRoleArnCredentialsProvider`, only when `ALIBABA_CLOUD_ROLE_ARN`,
//!    `ALIBABA_CLOUD_OIDC_PROVIDER_ARN` and `ALIBABA_CLOUD_OIDC_TOKEN_FILE` are all set: the role
//!    that token assumes through STS ([`super::oidc`]).
//! 3. `CLIProfileCredentialsProvider`: the aliyun CLI's `~/.aliyun/config.json`, unless
//!    `ALIBABA_CLOUD_CLI_PROFILE_DISABLED=true`; modes `AK`, `StsToken` and `EcsRamRole`.
//! 4. `ProfileCredentialsProvider`: `ALIBABA_CLOUD_CREDENTIALS_FILE`, else
//!    `~/.alibabacloud/credentials.ini` (else `~/.alibabacloud/credentials`, the Go SDK's name for
//!    the same file); section `ALIBABA_CLOUD_PROFILE`, else `default`; types `access_key` and
//!    `ecs_ram_role`.
//! 5. `EcsRamRoleCredentialsProvider`, unless `ALIBABA_CLOUD_ECS_METADATA_DISABLED=true`: the
//!    role `ALIBABA_CLOUD_ECS_METADATA` names, else the one the metadata service lists
//!    ([`super::ram_role`]).
//!
//! The SDK's last step, `URLCredentialsProvider` (`ALIBABA_CLOUD_CREDENTIALS_URI`), is not read.

use std::path::PathBuf;

use super::credentials::{ACCESS_KEY_ID_ENV, ACCESS_KEY_SECRET_ENV, AlibabaEnv};
use super::oidc::{OidcSettings, SESSION_NAME_ENV, STS_REGION_ENV, VPC_ENDPOINT_ENV, sts_endpoint};
use super::sdk_file::{FileKeys, credentials_file};
use crate::provider::ProviderError;
use crate::provider::env::{CliProfile, KeyPair};
use crate::provider::role_keys::KeySource;

pub const ROLE_ARN_ENV: &str = "ALIBABA_CLOUD_ROLE_ARN";
pub const OIDC_PROVIDER_ARN_ENV: &str = "ALIBABA_CLOUD_OIDC_PROVIDER_ARN";
pub const OIDC_TOKEN_FILE_ENV: &str = "ALIBABA_CLOUD_OIDC_TOKEN_FILE";
pub const CLI_PROFILE_DISABLED_ENV: &str = "ALIBABA_CLOUD_CLI_PROFILE_DISABLED";
pub use super::sdk_file::{CREDENTIALS_FILE, CREDENTIALS_FILE_ENV, GO_CREDENTIALS_FILE};
/// The ECS RAM role's name, instead of the one the metadata service lists.
pub const ECS_ROLE_ENV: &str = "ALIBABA_CLOUD_ECS_METADATA";
pub const ECS_METADATA_DISABLED_ENV: &str = "ALIBABA_CLOUD_ECS_METADATA_DISABLED";
/// Hardened mode only: no metadata call without a token.
pub const IMDSV1_DISABLED_ENV: &str = "ALIBABA_CLOUD_IMDSV1_DISABLED";

/// The chain's variables beyond the key pair's.
pub const EXTRA: &[&str] = &[
    ROLE_ARN_ENV,
    OIDC_PROVIDER_ARN_ENV,
    OIDC_TOKEN_FILE_ENV,
    CLI_PROFILE_DISABLED_ENV,
    CREDENTIALS_FILE_ENV,
    ECS_ROLE_ENV,
    ECS_METADATA_DISABLED_ENV,
    IMDSV1_DISABLED_ENV,
    STS_REGION_ENV,
    VPC_ENDPOINT_ENV,
    SESSION_NAME_ENV,
];

/// The OIDC role, when its three variables are set; STS is the endpoint override's, if set.
pub fn oidc_settings(env: &AlibabaEnv) -> Result<Option<OidcSettings>, ProviderError> {
    let (Some(role_arn), Some(provider_arn), Some(token_file)) = (
        env.var(ROLE_ARN_ENV),
        env.var(OIDC_PROVIDER_ARN_ENV),
        env.var(OIDC_TOKEN_FILE_ENV),
    ) else {
        return Ok(None);
    };
    let sts = match env.checked_endpoint()? {
        Some(base) => base,
        None => sts_endpoint(env.var(STS_REGION_ENV), env.is_true(VPC_ENDPOINT_ENV)),
    };
    let session_name = env.var(SESSION_NAME_ENV).map_or_else(
        || format!("gpumeter-{}", jiff::Timestamp::now().as_second()),
        str::to_string,
    );
    Ok(Some(OidcSettings {
        role_arn: role_arn.to_string(),
        provider_arn: provider_arn.to_string(),
        token_file: PathBuf::from(token_file),
        session_name,
        sts,
    }))
}

/// The keys from the first source in the chain that has them; `cli` is the CLI profile as
/// read (empty when the variables had keys). When none has them and the metadata service is
/// disabled, the error names every place tried, in order.
pub fn key_source(env: &AlibabaEnv, cli: &CliProfile) -> Result<KeySource, ProviderError> {
    if let Some(keys) = env.env_keys()? {
        return Ok(fixed(keys, "the environment"));
    }
    let mut tried = vec![format!("{ACCESS_KEY_ID_ENV}/{ACCESS_KEY_SECRET_ENV}")];
    if oidc_settings(env)?.is_some() {
        return Ok(KeySource::WebIdentity { tried });
    }
    let role_disabled = env.is_true(ECS_METADATA_DISABLED_ENV);
    if env.is_true(CLI_PROFILE_DISABLED_ENV) {
        tried.push(format!(
            "~/.aliyun/config.json ({CLI_PROFILE_DISABLED_ENV}=true)"
        ));
    } else if let Some(keys) = &cli.keys {
        return Ok(fixed(keys.clone(), &cli.key_place));
    } else if let Some(role) = &cli.instance_role {
        if !role_disabled {
            return Ok(instance_role(env, Some(role), tried));
        }
        tried.push(format!("{} (EcsRamRole)", cli.key_place));
    } else if !cli.key_place.is_empty() {
        tried.push(cli.key_place.clone());
    }
    match credentials_file(env)? {
        (_, FileKeys::Keys(keys)) => return Ok(fixed(keys, "the credentials file")),
        (place, FileKeys::Role(role)) if !role_disabled => {
            tried.push(place);
            return Ok(instance_role(env, Some(&role), tried));
        }
        (place, _) => tried.push(place),
    }
    if role_disabled {
        tried.push(crate::t!(
            "alibaba-tried-ram-role-off",
            var = ECS_METADATA_DISABLED_ENV
        ));
        let tried: Vec<&str> = tried.iter().map(String::as_str).collect();
        return Err(ProviderError::missing("alibaba", ACCESS_KEY_ID_ENV, &tried));
    }
    Ok(instance_role(env, None, tried))
}

fn fixed(keys: KeyPair, from: &str) -> KeySource {
    KeySource::Fixed {
        keys,
        from: from.to_string(),
    }
}

/// The instance role: `role` when a profile names one, else `ALIBABA_CLOUD_ECS_METADATA`'s, else
/// the one the service lists.
fn instance_role(env: &AlibabaEnv, role: Option<&str>, tried: Vec<String>) -> KeySource {
    let role = role
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .or_else(|| env.var(ECS_ROLE_ENV))
        .map(str::to_string);
    KeySource::InstanceRole { role, tried }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::provider::alibaba::credentials::{CLI_FILE, PROFILE_ENV, env_from_lookup};

    const AK_PROFILE: &str = r#"{"current": "p", "profiles": [{"name": "p", "mode": "AK",
        "access_key_id": "LTAIcli", "access_key_secret": "cli-secret-1"}]}"#;
    const ROLE_PROFILE: &str = r#"{"current": "p", "profiles": [{"name": "p",
        "mode": "EcsRamRole", "ram_role_name": "CliRole"}]}"#;
    const INI_KEYS: &str = "[default]\ntype = access_key\naccess_key_id = LTAIini\n\
        access_key_secret = ini-secret-2\n";

    /// The error when no source has keys: the variables, the CLI profile `cli`, the INI section
    /// `ini`, and the RAM role switched off.
    pub(in crate::provider::alibaba) fn no_keys(cli: &str, ini: &str) -> ProviderError {
        ProviderError::missing(
            "alibaba",
            ACCESS_KEY_ID_ENV,
            &[
                &format!("{ACCESS_KEY_ID_ENV}/{ACCESS_KEY_SECRET_ENV}"),
                cli,
                ini,
                &format!("the ECS RAM role ({ECS_METADATA_DISABLED_ENV}=true)"),
            ],
        )
    }

    /// A home with the CLI's file and the SDK's INI file when given, and the variables.
    fn setup(
        cli: Option<&str>,
        ini: Option<&str>,
        vars: &[(&str, &str)],
    ) -> (tempfile::TempDir, AlibabaEnv) {
        let home = tempfile::tempdir().unwrap();
        for (path, text) in [(CLI_FILE, cli), (CREDENTIALS_FILE, ini)] {
            if let Some(text) = text {
                let path = home.path().join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
        }
        let env = env_from_lookup(crate::provider::env::lookup_in(home.path(), vars));
        (home, env)
    }

    fn source(env: &AlibabaEnv) -> Result<KeySource, ProviderError> {
        let cli = super::super::credentials::cli_profile(env)?;
        key_source(env, &cli)
    }

    fn id(source: &KeySource) -> &str {
        &source.fixed_keys().expect("fixed keys").id
    }

    #[test]
    fn each_source_wins_over_the_ones_after_it() {
        let env_keys = [
            (ACCESS_KEY_ID_ENV, "LTAIenv"),
            (ACCESS_KEY_SECRET_ENV, "env-secret"),
        ];
        let (_h, env) = setup(Some(AK_PROFILE), Some(INI_KEYS), &env_keys);
        assert_eq!(id(&source(&env).unwrap()), "LTAIenv");
        let (_h, env) = setup(Some(AK_PROFILE), Some(INI_KEYS), &[]);
        assert_eq!(id(&source(&env).unwrap()), "LTAIcli");
        let (h, env) = setup(None, Some(INI_KEYS), &[]);
        let s = source(&env).unwrap();
        assert_eq!(id(&s), "LTAIini");
        assert_eq!(s.fixed_keys().unwrap().secret.expose(), "ini-secret-2");
        // The Go SDK's name for the file, when the Python SDK's does not exist.
        std::fs::rename(
            h.path().join(CREDENTIALS_FILE),
            h.path().join(GO_CREDENTIALS_FILE),
        )
        .unwrap();
        assert_eq!(id(&source(&env).unwrap()), "LTAIini");
        // The CLI profile switched off: the INI file's keys, though the CLI has some.
        let (_h, env) = setup(
            Some(AK_PROFILE),
            Some(INI_KEYS),
            &[(CLI_PROFILE_DISABLED_ENV, "true")],
        );
        assert_eq!(id(&source(&env).unwrap()), "LTAIini");
        // An EcsRamRole profile comes before the INI file's keys.
        let (_h, env) = setup(Some(ROLE_PROFILE), Some(INI_KEYS), &[]);
        assert!(matches!(
            source(&env).unwrap(),
            KeySource::InstanceRole { role: Some(r), .. } if r == "CliRole"
        ));
        let ini_role = "[work]\ntype = ecs_ram_role\nrole_name = IniRole\n";
        let (_h, env) = setup(None, Some(ini_role), &[(PROFILE_ENV, "work")]);
        assert!(matches!(
            source(&env).unwrap(),
            KeySource::InstanceRole { role: Some(r), .. } if r == "IniRole"
        ));
    }

    #[test]
    fn all_three_oidc_variables_come_right_after_the_keys() {
        let oidc = [
            (ROLE_ARN_ENV, "acs:ram::1:role/r"),
            (OIDC_PROVIDER_ARN_ENV, "acs:ram::1:oidc-provider/p"),
            (OIDC_TOKEN_FILE_ENV, "/var/run/token"),
            (STS_REGION_ENV, "cn-shanghai"),
            (SESSION_NAME_ENV, "s1"),
        ];
        let (_h, env) = setup(Some(AK_PROFILE), Some(INI_KEYS), &oidc);
        assert_eq!(
            source(&env).unwrap(),
            KeySource::WebIdentity {
                tried: vec![format!("{ACCESS_KEY_ID_ENV}/{ACCESS_KEY_SECRET_ENV}")]
            }
        );
        let settings = oidc_settings(&env).unwrap().unwrap();
        assert_eq!(settings.sts, "https://sts.cn-shanghai.aliyuncs.com/");
        assert_eq!(settings.session_name, "s1");
        assert_eq!(settings.token_file, PathBuf::from("/var/run/token"));
        let keys = [(ACCESS_KEY_ID_ENV, "LTAIenv"), (ACCESS_KEY_SECRET_ENV, "s")];
        let (_h, env) = setup(None, None, &[&oidc[..], &keys[..]].concat());
        assert_eq!(id(&source(&env).unwrap()), "LTAIenv");
    }

    #[test]
    fn with_nothing_else_the_instance_role_is_next_after_every_place_tried() {
        // Two of the three OIDC variables: no OIDC role.
        let vars = [
            (ROLE_ARN_ENV, "acs:ram::1:role/r"),
            (OIDC_PROVIDER_ARN_ENV, "acs:ram::1:oidc-provider/p"),
            (ECS_ROLE_ENV, "EnvRole"),
        ];
        let (home, env) = setup(None, None, &vars);
        let at = |p: &str| home.path().join(p).display().to_string();
        assert_eq!(
            source(&env).unwrap(),
            KeySource::InstanceRole {
                role: Some("EnvRole".into()),
                tried: vec![
                    format!("{ACCESS_KEY_ID_ENV}/{ACCESS_KEY_SECRET_ENV}"),
                    format!("the current profile in {}", at(CLI_FILE)),
                    format!("[default] in {} or credentials", at(CREDENTIALS_FILE)),
                ],
            }
        );
        // An EcsRamRole profile with the metadata service switched off is passed over.
        let off = [(ECS_METADATA_DISABLED_ENV, "true")];
        let (home, env) = setup(Some(ROLE_PROFILE), None, &off);
        let err = source(&env).unwrap_err();
        let cli = format!(
            "profile `p` in {} (EcsRamRole)",
            home.path().join(CLI_FILE).display()
        );
        let ini = format!(
            "[default] in {} or credentials",
            home.path().join(CREDENTIALS_FILE).display()
        );
        assert_eq!(err, no_keys(&cli, &ini));
    }

    #[test]
    fn a_bad_credentials_file_names_itself_and_what_was_expected() {
        let other = tempfile::tempdir().unwrap();
        let file = other.path().join("creds.ini");
        std::fs::write(
            &file,
            "[default]\ntype = ram_role_arn\naccess_key_secret = ini-secret-3\n",
        )
        .unwrap();
        let named = [(CREDENTIALS_FILE_ENV, file.to_str().unwrap())];
        let (_h, env) = setup(None, Some(INI_KEYS), &named);
        let err = source(&env).unwrap_err();
        let text = format!("{err} {err:?}");
        assert!(text.contains(&file.display().to_string()), "{text}");
        assert!(
            text.contains("type `ram_role_arn`") && text.contains("access_key"),
            "{text}"
        );
        assert!(!text.contains("ini-secret-3"), "{text}");
        std::fs::write(&file, "access_key_secret = ini-secret-4\n").unwrap();
        let err = source(&env).unwrap_err();
        let text = format!("{err} {err:?}");
        assert!(text.contains(&format!("{}:1", file.display())), "{text}");
        assert!(!text.contains("ini-secret-4"), "{text}");
        std::fs::write(
            &file,
            "[default]\ntype = access_key\naccess_key_id = LTAIx\n",
        )
        .unwrap();
        let err = source(&env).unwrap_err();
        assert!(err.to_string().contains("access_key_secret"), "{err}");
    }
}
