//! The Alibaba credentials SDK's INI file, as `ProfileCredentialsProvider` reads it:
//! `ALIBABA_CLOUD_CREDENTIALS_FILE`, else `~/.alibabacloud/credentials.ini`, else
//! `~/.alibabacloud/credentials` (the Go SDK's name); the section `ALIBABA_CLOUD_PROFILE` names,
//! else `default`, of `type` `access_key` or `ecs_ram_role`.

use std::path::{Path, PathBuf};

use super::credentials::{ACCESS_KEY_ID_ENV, ACCESS_KEY_SECRET_ENV, AlibabaEnv, PROFILE_ENV};
use crate::provider::ProviderError;
use crate::provider::env::{KeyPair, Secret, read_cli_file};
use crate::provider::ini::Ini;

pub const CREDENTIALS_FILE_ENV: &str = "ALIBABA_CLOUD_CREDENTIALS_FILE";
/// The SDK's credentials file, under `$HOME`.
pub const CREDENTIALS_FILE: &str = ".alibabacloud/credentials.ini";
/// The same file as the Go SDK names it, read when the first does not exist.
pub const GO_CREDENTIALS_FILE: &str = ".alibabacloud/credentials";

/// What the credentials file's section holds.
pub enum FileKeys {
    None,
    Keys(KeyPair),
    /// `type = ecs_ram_role`, with its `role_name` (empty to ask the service).
    Role(String),
}

/// The SDK's INI file, as `ProfileCredentialsProvider` reads it; the place is named for the
/// error. A missing file or section is nothing; an unsupported type or half a key is an error.
pub fn credentials_file(env: &AlibabaEnv) -> Result<(String, FileKeys), ProviderError> {
    let section = env.profile.as_deref().unwrap_or("default");
    let (path, place): (PathBuf, String) = match (env.var(CREDENTIALS_FILE_ENV), &env.home) {
        (Some(file), _) => (PathBuf::from(file), format!("[{section}] in {file}")),
        (None, Some(home)) => {
            let (ini, go) = (
                Path::new(home).join(CREDENTIALS_FILE),
                Path::new(home).join(GO_CREDENTIALS_FILE),
            );
            if !ini.exists() && go.exists() {
                let place = format!("[{section}] in {}", go.display());
                (go, place)
            } else {
                let place = if ini.exists() {
                    format!("[{section}] in {}", ini.display())
                } else {
                    format!("[{section}] in {} or credentials", ini.display())
                };
                (ini, place)
            }
        }
        (None, None) => {
            let place = format!("[{section}] in ~/{CREDENTIALS_FILE} (HOME is unset)");
            return Ok((place, FileKeys::None));
        }
    };
    let Some(text) = read_cli_file("alibaba", &path)? else {
        return Ok((place, FileKeys::None));
    };
    let ini = Ini::parse_for("alibaba", &text, &path)
        .map_err(|e| e.with_fix(&format!("fix or remove {}", path.display())))?;
    if !ini.has(section) {
        return Ok((place, FileKeys::None));
    }
    let get = |key: &str| ini.get(section, key).map(str::trim).unwrap_or_default();
    let unsupported = |what: &str| {
        ProviderError::state(
            "alibaba",
            format!("{place} has {what}; gpumeter reads types access_key and ecs_ram_role"),
        )
        .with_fix(&format!(
            "set {ACCESS_KEY_ID_ENV} and {ACCESS_KEY_SECRET_ENV}, or name another section in \
             {PROFILE_ENV}"
        ))
    };
    match get("type") {
        "access_key" => {
            let (id, secret) = (get("access_key_id"), get("access_key_secret"));
            for (field, value) in [("access_key_id", id), ("access_key_secret", secret)] {
                if value.is_empty() {
                    return Err(ProviderError::missing("alibaba", field, &[&place]));
                }
            }
            let keys = KeyPair {
                id: id.to_string(),
                secret: Secret::new(secret),
                token: None,
            };
            Ok((place, FileKeys::Keys(keys)))
        }
        "ecs_ram_role" => {
            let role = get("role_name").to_string();
            Ok((place, FileKeys::Role(role)))
        }
        "" => Err(unsupported("no `type`")),
        other => Err(unsupported(&format!("type `{other}`"))),
    }
}
