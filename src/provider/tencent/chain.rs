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
        vec!["TKE_ROLE_ARN with OIDC (not supported)".into()]
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
        let place = format!("[default] in {}", path.display());
        let Some(text) = read_cli_file("tencent", path)? else {
            continue;
        };
        let ini = Ini::parse_for("tencent", &text, path)
            .map_err(|e| e.with_fix(&format!("fix or remove {}", path.display())))?;
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
    let places = files
        .iter()
        .map(|p| format!("[default] in {}", p.display()))
        .collect();
    Ok((places, None))
}
