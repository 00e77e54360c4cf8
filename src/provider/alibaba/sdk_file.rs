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

/// `[section] in file`, as the error names the place.
fn in_file(section: &str, file: &str) -> String {
    crate::t!("alibaba-ini-section", section = section, file = file)
}

/// The SDK's INI file, as `ProfileCredentialsProvider` reads it; the place is named for the
/// error. A missing file or section is nothing; an unsupported type or half a key is an error.
pub fn credentials_file(env: &AlibabaEnv) -> Result<(String, FileKeys), ProviderError> {
    let section = env.profile.as_deref().unwrap_or("default");
    let (path, place): (PathBuf, String) = match (env.var(CREDENTIALS_FILE_ENV), &env.home) {
        (Some(file), _) => (PathBuf::from(file), in_file(section, file)),
        (None, Some(home)) => {
            let (ini, go) = (
                Path::new(home).join(CREDENTIALS_FILE),
                Path::new(home).join(GO_CREDENTIALS_FILE),
            );
            if !ini.exists() && go.exists() {
                let place = in_file(section, &go.display().to_string());
                (go, place)
            } else {
                let place = if ini.exists() {
                    in_file(section, &ini.display().to_string())
                } else {
                    crate::t!(
                        "alibaba-ini-section-or-go",
                        section = section,
                        file = ini.display().to_string()
                    )
                };
                (ini, place)
            }
        }
        (None, None) => {
            let place = crate::t!(
                "rpc-home-unset",
                place = in_file(section, &format!("~/{CREDENTIALS_FILE}"))
            );
            return Ok((place, FileKeys::None));
        }
    };
    let Some(text) = read_cli_file("alibaba", &path)? else {
        return Ok((place, FileKeys::None));
    };
    let ini = Ini::parse_for("alibaba", &text, &path).map_err(|e| {
        e.with_fix(&crate::t!(
            "rpc-fix-or-remove",
            path = path.display().to_string()
        ))
    })?;
    if !ini.has(section) {
        return Ok((place, FileKeys::None));
    }
    let get = |key: &str| ini.get(section, key).map(str::trim).unwrap_or_default();
    let unsupported = |what: String| {
        ProviderError::state(
            "alibaba",
            crate::t!(
                "alibaba-ini-type-unsupported",
                place = place.as_str(),
                what = what
            ),
        )
        .with_fix(&crate::t!(
            "alibaba-ini-type-fix",
            id_var = ACCESS_KEY_ID_ENV,
            secret_var = ACCESS_KEY_SECRET_ENV,
            profile_var = PROFILE_ENV
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
        "" => Err(unsupported(crate::t!("alibaba-ini-no-type").into_owned())),
        other => Err(unsupported(crate::t!("alibaba-ini-type", kind = other))),
    }
}
