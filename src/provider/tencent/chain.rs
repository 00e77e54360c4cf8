//! Which keys the Tencent Cloud adapter signs with, in the order of the official SDK's
//! `DefaultCredentialProvider` (tencentcloud-sdk-python, `tencentcloud/common/credential.py`),
//! with tccli's own profile where the SDK has none:
//!
//! 1. `EnvironmentVariableCredential`: `TENCENTCLOUD_SECRET_ID`, `TENCENTCLOUD_SECRET_KEY`, and
//!    `TENCENTCLOUD_SECURITY_TOKEN` for STS keys (the SDK reads no token there; tccli does).
//! 2. `ProfileCredential`: the first of `~/.tencentcloud/credentials` and
//!    `/etc/tencentcloud/credentials` that exists, INI section `[default]`, `secret_id` and
//!    `secret_key`. The SDK reads no variable naming another file.
//! 3. tccli's profile: `~/.tccli/<TCCLI_PROFILE or default>.credential`.
//! 4. `CVMRoleCredential`: the role the metadata service lists ([`super::cvm_role`]).
//! 5. `DefaultTkeOIDCRoleArnProvider` (`TKE_REGION`, `TKE_PROVIDER_ID`,
//!    `TKE_WEB_IDENTITY_TOKEN_FILE`, `TKE_ROLE_ARN`): not supported; named as tried when set.

use std::path::{Path, PathBuf};

use super::credentials::{SECRET_ID_ENV, SECRET_KEY_ENV, TencentEnv};
use crate::provider::ProviderError;
use crate::provider::env::{CliProfile, KeyPair, Secret, read_cli_file};
use crate::provider::ini::Ini;
use crate::provider::role_keys::KeySource;

/// The SDK's profile file, under `$HOME`.
pub const HOME_PROFILE: &str = ".tencentcloud/credentials";
/// The SDK's system-wide profile file, read when the one under `$HOME` does not exist.
pub const SYSTEM_PROFILE: &str = "/etc/tencentcloud/credentials";
/// The variables TKE sets for its OIDC role.
pub const TKE_OIDC: &[&str] = &[
    "TKE_REGION",
    "TKE_PROVIDER_ID",
    "TKE_WEB_IDENTITY_TOKEN_FILE",
    "TKE_ROLE_ARN",
];

/// The places `ProfileCredential` reads, in order.
pub fn profile_files(env: &TencentEnv) -> Vec<PathBuf> {
    let home = env.home.as_deref().map(|h| Path::new(h).join(HOME_PROFILE));
    home.into_iter()
        .chain(std::iter::once(PathBuf::from(SYSTEM_PROFILE)))
        .collect()
}

/// The keys from the first source in the chain that has them: `files` are the SDK's profile
/// files in order, `cli` tccli's profile as read (empty when the variables had keys).
pub fn key_source(
    env: &TencentEnv,
    files: &[PathBuf],
    cli: &CliProfile,
) -> Result<KeySource, ProviderError> {
    if let Some(keys) = env.env_keys()? {
        return Ok(fixed(keys, "the environment"));
    }
    let mut tried = vec![format!("{SECRET_ID_ENV}/{SECRET_KEY_ENV}")];
    match profile_file(files)? {
        (_, Some(keys)) => return Ok(fixed(keys, "the profile file")),
        (places, None) => tried.extend(places),
    }
    if let Some(keys) = &cli.keys {
        return Ok(fixed(keys.clone(), &cli.key_place));
    }
    if !cli.key_place.is_empty() {
        tried.push(cli.key_place.clone());
    }
    Ok(KeySource::InstanceRole { role: None, tried })
}

/// What the store names after the CVM role: TKE's OIDC role when its variables are set.
pub fn after_role(env: &TencentEnv) -> Vec<String> {
    if TKE_OIDC.iter().all(|v| env.var(v).is_some()) {
        vec![crate::t!("tencent-tke-not-supported").into_owned()]
    } else {
        Vec::new()
    }
}

fn fixed(keys: KeyPair, from: &str) -> KeySource {
    KeySource::Fixed {
        keys,
        from: from.to_string(),
    }
}

/// `[default]` of the first file that exists, and the places read for the error.
fn profile_file(files: &[PathBuf]) -> Result<(Vec<String>, Option<KeyPair>), ProviderError> {
    for path in files {
        let place = in_file(path);
        let Some(text) = read_cli_file("tencent", path)? else {
            continue;
        };
        let ini = Ini::parse_for("tencent", &text, path).map_err(|e| {
            e.with_fix(&crate::t!(
                "rpc-fix-or-remove",
                path = path.display().to_string()
            ))
        })?;
        let get = |key: &str| ini.get("default", key).map(str::trim).unwrap_or_default();
        let (id, key) = (get("secret_id"), get("secret_key"));
        return match (id.is_empty(), key.is_empty()) {
            (true, true) => Ok((vec![place], None)),
            (true, false) => Err(ProviderError::missing("tencent", "secret_id", &[&place])),
            (false, true) => Err(ProviderError::missing("tencent", "secret_key", &[&place])),
            (false, false) => Ok((
                vec![place],
                Some(KeyPair {
                    id: id.to_string(),
                    secret: Secret::new(key),
                    token: None,
                }),
            )),
        };
    }
    let places = files.iter().map(|p| in_file(p)).collect();
    Ok((places, None))
}

/// `[default] in file`, as the error names the place.
fn in_file(path: &Path) -> String {
    crate::t!("tencent-ini-default", file = path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::tencent::credentials::{CLI_DIR, cli_profile, env_from_lookup};

    const PROFILE: &str = "[default]\nsecret_id = AKIDprofile\nsecret_key = profile-key-1\n";

    /// A home with tccli's credential file when given, the SDK's two profile files (home, then
    /// system) when given, and the variables.
    fn setup(
        tccli: Option<&str>,
        files: [Option<&str>; 2],
        vars: &[(&str, &str)],
    ) -> (tempfile::TempDir, TencentEnv, Vec<PathBuf>) {
        let home = tempfile::tempdir().unwrap();
        let paths = vec![
            home.path().join(HOME_PROFILE),
            home.path().join("etc-credentials"),
        ];
        for (path, text) in paths.iter().zip(files) {
            if let Some(text) = text {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
        }
        if let Some(text) = tccli {
            std::fs::create_dir_all(home.path().join(CLI_DIR)).unwrap();
            std::fs::write(home.path().join(CLI_DIR).join("default.credential"), text).unwrap();
        }
        let env = env_from_lookup(crate::provider::env::lookup_in(home.path(), vars));
        (home, env, paths)
    }

    fn source(env: &TencentEnv, files: &[PathBuf]) -> Result<KeySource, ProviderError> {
        key_source(env, files, &cli_profile(env)?)
    }

    fn id(source: &KeySource) -> &str {
        &source.fixed_keys().expect("fixed keys").id
    }

    const TCCLI: &str = r#"{"secretId": "AKIDtccli", "secretKey": "tccli-key-2"}"#;

    #[test]
    fn each_source_wins_over_the_ones_after_it() {
        let env_keys = [(SECRET_ID_ENV, "AKIDenv"), (SECRET_KEY_ENV, "env-key")];
        let (_h, env, files) = setup(Some(TCCLI), [Some(PROFILE), None], &env_keys);
        assert_eq!(id(&source(&env, &files).unwrap()), "AKIDenv");
        let (_h, env, files) = setup(Some(TCCLI), [Some(PROFILE), None], &[]);
        let s = source(&env, &files).unwrap();
        assert_eq!(id(&s), "AKIDprofile");
        assert_eq!(s.fixed_keys().unwrap().secret.expose(), "profile-key-1");
        // The system file is read only when the home one does not exist.
        let (_h, env, files) = setup(None, [None, Some(PROFILE)], &[]);
        assert_eq!(id(&source(&env, &files).unwrap()), "AKIDprofile");
        let other = "[default]\nsecret_id =\n";
        let (_h, env, files) = setup(Some(TCCLI), [Some(other), Some(PROFILE)], &[]);
        assert_eq!(id(&source(&env, &files).unwrap()), "AKIDtccli");
    }

    #[test]
    fn with_nothing_else_the_cvm_role_is_next_after_every_place_tried() {
        let tke: Vec<(&str, &str)> = TKE_OIDC.iter().map(|v| (*v, "x")).collect();
        let (home, env, files) = setup(None, [None, None], &tke);
        let place = |p: &PathBuf| format!("[default] in {}", p.display());
        let tccli = home.path().join(CLI_DIR).join("default.credential");
        assert_eq!(
            source(&env, &files).unwrap(),
            KeySource::InstanceRole {
                role: None,
                tried: vec![
                    format!("{SECRET_ID_ENV}/{SECRET_KEY_ENV}"),
                    place(&files[0]),
                    place(&files[1]),
                    tccli.display().to_string(),
                ],
            }
        );
        assert_eq!(after_role(&env), ["TKE_ROLE_ARN with OIDC (not supported)"]);
        assert!(after_role(&setup(None, [None, None], &tke[..3]).1).is_empty());
        assert_eq!(profile_files(&env)[1], PathBuf::from(SYSTEM_PROFILE));
    }

    #[test]
    fn a_bad_profile_file_names_itself_and_what_is_missing() {
        let (_h, env, files) = setup(None, [Some("secret_key = leak-5\n"), None], &[]);
        let err = source(&env, &files).unwrap_err();
        let text = format!("{err} {err:?}");
        assert!(
            text.contains(&format!("{}:1", files[0].display())),
            "{text}"
        );
        assert!(!text.contains("leak-5"), "{text}");
        let half = "[default]\nsecret_key = leak-6\n";
        let (_h, env, files) = setup(None, [Some(half), None], &[]);
        let err = source(&env, &files).unwrap_err();
        let text = format!("{err} {err:?}");
        assert!(text.contains("secret_id") && text.contains(&files[0].display().to_string()));
        assert!(!text.contains("leak-6"), "{text}");
    }
}
