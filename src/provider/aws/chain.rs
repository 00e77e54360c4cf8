//! The credential chain, without the network: which [`Source`] the keys come from.
//!
//! The order is botocore's `create_credential_resolver` (the AWS CLI's), source by source:
//!
//! 1. `EnvProvider`: `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (/ `AWS_SESSION_TOKEN`).
//! 2. `AssumeRoleProvider`: the profile's `role_arn` (unless it also has
//!    `web_identity_token_file`) with `source_profile` (whose own chain, below, gives the keys;
//!    roles chain up to [`MAX_ROLE_CHAIN`] deep, a loop is an error naming it) or
//!    `credential_source` (`Environment`, `Ec2InstanceMetadata`, `EcsContainer`), then STS
//!    `AssumeRole`.
//! 3. `AssumeRoleWithWebIdentityProvider`: `AWS_WEB_IDENTITY_TOKEN_FILE` / `AWS_ROLE_ARN` /
//!    `AWS_ROLE_SESSION_NAME`, each falling back to the profile's `web_identity_token_file` /
//!    `role_arn` / `role_session_name`.
//! 4. `SSOProvider`: a profile with `sso_account_id` or `sso_role_name` stops the chain with an
//!    error saying how to export its keys (the SSO token cache is not read here).
//! 5. `SharedCredentialProvider`: the credentials file's keys for the profile.
//! 6. `ProcessProvider`: the profile's `credential_process`.
//! 7. `ConfigProvider`: the config file's keys for the profile.
//! 8. `ContainerProvider`: `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI`, else
//!    `AWS_CONTAINER_CREDENTIALS_FULL_URI`.
//! 9. `InstanceMetadataProvider`: the instance role from IMDSv2, unless
//!    `AWS_EC2_METADATA_DISABLED`.
//!
//! botocore's `LoginProvider`, `OriginalEC2Provider` and `BotoProvider` (legacy boto files) have
//! no counterpart. A profile's settings are read as botocore merges them: the credentials file's
//! section over the config file's.

use std::path::PathBuf;
use std::sync::Arc;

use super::container;
use super::credentials::{
    ACCESS_KEY_ID, AwsEnv, CONTAINER_FULL_URI, CONTAINER_RELATIVE_URI, Credentials, IMDS_DISABLED,
    ROLE_ARN, ROLE_SESSION_NAME, SECRET_ACCESS_KEY, WEB_IDENTITY_TOKEN_FILE,
};
use super::keys::{Keys, Source};
use super::profile::SharedFiles;
use super::sts::{Role, Sts};
use crate::provider::ProviderError;

/// How many roles a `source_profile` chain may pass through.
pub const MAX_ROLE_CHAIN: usize = 8;

/// What the chain reads besides the shared files.
pub struct Context<'a> {
    pub env: &'a AwsEnv,
    /// `None` when the metadata service is off.
    pub imds_endpoint: Option<&'a str>,
    pub sts: &'a Sts,
}

fn bad_config(message: String) -> ProviderError {
    ProviderError::state(super::ID, message).with_fix(&crate::t!("aws-fix-profile"))
}

/// The first source that has keys, or every place tried.
pub fn chain(
    cx: &Context<'_>,
    files: &Result<SharedFiles, ProviderError>,
) -> Result<Source, ProviderError> {
    let env = cx.env;
    if env.get(ACCESS_KEY_ID).is_some() || env.get(SECRET_ACCESS_KEY).is_some() {
        return Credentials::from_env(env).map(|credentials| Source::Fixed {
            credentials,
            from: crate::t!("aws-from-env").into_owned(),
        });
    }
    let mut tried = vec![format!("{ACCESS_KEY_ID}/{SECRET_ACCESS_KEY}")];
    let files = files.as_ref().map_err(Clone::clone)?;
    let profile = files.profile.clone();
    if let Some(source) = assume_role(cx, files, &mut vec![profile.clone()])? {
        return Ok(source);
    }
    tried.push(crate::t!("aws-tried-role-arn", profile = profile.as_str()));
    if let Some(source) = web_identity(cx, files, true)? {
        return Ok(source);
    }
    tried.push(crate::t!(
        "aws-tried-web-identity",
        var = WEB_IDENTITY_TOKEN_FILE,
        profile = profile.as_str()
    ));
    if let Some(source) = profile_keys(files, &mut tried)? {
        return Ok(source);
    }
    match container::from_env(env) {
        Some(Ok((url, auth, from))) => return Ok(Source::Container { url, auth, from }),
        Some(Err(e)) => return Err(e),
        None => tried.push(format!("{CONTAINER_RELATIVE_URI}/{CONTAINER_FULL_URI}")),
    }
    if let Some(endpoint) = cx.imds_endpoint {
        tried.push(crate::t!("aws-tried-instance-role", endpoint = endpoint));
        return Ok(Source::Instance {
            endpoint: endpoint.to_string(),
            tried,
        });
    }
    tried.push(crate::t!(
        "aws-tried-instance-role-off",
        var = IMDS_DISABLED
    ));
    let tried: Vec<&str> = tried.iter().map(String::as_str).collect();
    Err(ProviderError::missing(super::ID, ACCESS_KEY_ID, &tried))
}

/// SSO, then the shared credentials file's keys, `credential_process`, the config file's keys:
/// the part of the chain a `source_profile` goes through too.
fn profile_keys(
    files: &SharedFiles,
    tried: &mut Vec<String>,
) -> Result<Option<Source>, ProviderError> {
    refuse_sso(files)?;
    let (cred_place, config_place) = (files.credentials_place(), files.config_place());
    let owned = |v: Option<&str>| v.map(str::to_string);
    if let Some(credentials) = file_keys(|k| owned(files.credentials_file(k)), &cred_place)? {
        return Ok(Some(Source::Fixed {
            credentials,
            from: cred_place,
        }));
    }
    tried.push(cred_place.clone());
    let process = files
        .credentials_file("credential_process")
        .map(|c| (c, cred_place.clone()))
        .or_else(|| {
            files
                .config_file("credential_process")
                .map(|c| (c, config_place.clone()))
        });
    if let Some((command, from)) = process {
        return Ok(Some(Source::Process {
            command: command.to_string(),
            from,
        }));
    }
    tried.push(crate::t!(
        "aws-tried-process",
        place = config_place.as_str()
    ));
    if let Some(credentials) = file_keys(|k| owned(files.config_file(k)), &config_place)? {
        return Ok(Some(Source::Fixed {
            credentials,
            from: config_place,
        }));
    }
    tried.push(config_place);
    Ok(None)
}

/// botocore's `SSOProvider` takes a profile with `sso_account_id` or `sso_role_name` before any
/// key in it. Reading the SSO token cache is not done here: the profile is named, with the two
/// commands that turn it into keys this chain reads, rather than falling through to another
/// source that would sign as someone else.
fn refuse_sso(files: &SharedFiles) -> Result<(), ProviderError> {
    if files.value("sso_account_id").is_none() && files.value("sso_role_name").is_none() {
        return Ok(());
    }
    let p = &files.profile;
    Err(ProviderError::state(
        super::ID,
        crate::t!("aws-sso-profile", profile = p.as_str()),
    )
    .with_fix(&crate::t!("aws-fix-sso", profile = p.as_str())))
}

/// Keys `aws_access_key_id`/`aws_secret_access_key` (and the token) from one file's profile.
fn file_keys(
    get: impl Fn(&str) -> Option<String>,
    place: &str,
) -> Result<Option<Credentials>, ProviderError> {
    let id = get("aws_access_key_id");
    let secret = get("aws_secret_access_key");
    match (id, secret) {
        (Some(access_key_id), Some(secret_access_key)) => Ok(Some(Credentials {
            access_key_id,
            secret_access_key,
            session_token: get("aws_session_token"),
            expiration: None,
        })),
        (None, None) => Ok(None),
        (Some(_), None) => Err(ProviderError::missing(
            super::ID,
            "aws_secret_access_key",
            &[place],
        )),
        (None, Some(_)) => Err(ProviderError::missing(
            super::ID,
            "aws_access_key_id",
            &[place],
        )),
    }
}

/// `AssumeRoleWithWebIdentityProvider`: each setting from the environment (unless `use_env` is
/// off, as for a source profile), else from the profile.
fn web_identity(
    cx: &Context<'_>,
    files: &SharedFiles,
    use_env: bool,
) -> Result<Option<Source>, ProviderError> {
    let get = |var: &str, key: &str| {
        use_env
            .then(|| cx.env.get(var))
            .flatten()
            .map(|v| (v.to_string(), var.to_string()))
            .or_else(|| {
                files.value(key).map(|v| {
                    let from = crate::t!(
                        "aws-from-profile-key",
                        key = key,
                        profile = files.profile.as_str()
                    );
                    (v.to_string(), from)
                })
            })
    };
    let Some((token_file, from)) = get(WEB_IDENTITY_TOKEN_FILE, "web_identity_token_file") else {
        return Ok(None);
    };
    let Some((arn, _)) = get(ROLE_ARN, "role_arn") else {
        return Err(bad_config(crate::t!(
            "aws-web-identity-no-role",
            from = from,
            var = ROLE_ARN
        )));
    };
    Ok(Some(Source::WebIdentity {
        role: Role {
            arn,
            session_name: get(ROLE_SESSION_NAME, "role_session_name").map(|(v, _)| v),
            ..Role::default()
        },
        token_file: PathBuf::from(token_file),
        sts: cx.sts.clone(),
        from,
    }))
}

fn has_static_keys(files: &SharedFiles) -> bool {
    files.value("aws_access_key_id").is_some() || files.value("aws_secret_access_key").is_some()
}

fn has_role(files: &SharedFiles) -> bool {
    files.value("role_arn").is_some() && files.value("web_identity_token_file").is_none()
}

/// `AssumeRoleProvider` for `files.profile`; `visited` holds the profiles already on the way.
fn assume_role(
    cx: &Context<'_>,
    files: &SharedFiles,
    visited: &mut Vec<String>,
) -> Result<Option<Source>, ProviderError> {
    if !has_role(files) {
        return Ok(None);
    }
    let p = files.profile.clone();
    let arn = files.value("role_arn").unwrap_or_default().to_string();
    let source = match (
        files.value("source_profile"),
        files.value("credential_source"),
    ) {
        (Some(_), Some(_)) => {
            return Err(bad_config(crate::t!(
                "aws-profile-both-sources",
                profile = p.as_str()
            )));
        }
        (None, None) => {
            return Err(bad_config(crate::t!(
                "aws-profile-no-source",
                profile = p.as_str()
            )));
        }
        (None, Some(named)) => credential_source(cx, named, &p)?,
        (Some(sp), None) => source_profile(cx, files, sp, visited)?,
    };
    let some = |key: &str| files.value(key).map(str::to_string);
    Ok(Some(Source::AssumeRole {
        role: Role {
            arn,
            session_name: some("role_session_name"),
            external_id: some("external_id"),
            duration_seconds: files.value("duration_seconds").and_then(|d| d.parse().ok()),
        },
        source: Arc::new(Keys::new(source)),
        sts: cx.sts.clone(),
        from: crate::t!("aws-from-profile", profile = p.as_str()),
    }))
}

/// The keys `source_profile` names: its own role, or its profile chain without the environment.
fn source_profile(
    cx: &Context<'_>,
    files: &SharedFiles,
    name: &str,
    visited: &mut Vec<String>,
) -> Result<Source, ProviderError> {
    let parent = &files.profile;
    let sp = files.with_profile(name);
    if !sp.exists() {
        return Err(bad_config(crate::t!(
            "aws-source-profile-missing",
            name = name,
            profile = parent.as_str()
        )));
    }
    // A profile may name itself to use its own keys; any other return is a loop.
    if visited.iter().any(|v| v == name) && (name != parent || !has_static_keys(&sp)) {
        let chain = format!("{} -> {name}", visited.join(" -> "));
        return Err(bad_config(crate::t!(
            "aws-source-profile-loop",
            chain = chain
        )));
    }
    visited.push(name.to_string());
    // The profiles visited are the roles and, last, the one with the keys.
    if visited.len() > MAX_ROLE_CHAIN + 1 {
        return Err(bad_config(crate::t!(
            "aws-role-chain-too-long",
            most = MAX_ROLE_CHAIN.to_string(),
            chain = visited.join(" -> ")
        )));
    }
    if has_static_keys(&sp) || !has_role(&sp) {
        if let Some(source) = web_identity(cx, &sp, false)? {
            return Ok(source);
        }
        return profile_keys(&sp, &mut Vec::new())?.ok_or_else(|| {
            bad_config(crate::t!(
                "aws-source-profile-no-keys",
                name = name,
                profile = parent.as_str()
            ))
        });
    }
    assume_role(cx, &sp, visited)?
        .ok_or_else(|| bad_config(crate::t!("aws-source-profile-no-role", name = name)))
}

/// `credential_source`: botocore's canonical names, matched exactly as its `is_supported` does.
fn credential_source(
    cx: &Context<'_>,
    named: &str,
    profile: &str,
) -> Result<Source, ProviderError> {
    let none = || {
        ProviderError::missing(
            super::ID,
            ACCESS_KEY_ID,
            &[&crate::t!(
                "aws-tried-credential-source",
                source = named,
                profile = profile
            )],
        )
    };
    match named {
        "Environment" => {
            if cx.env.get(ACCESS_KEY_ID).is_none() && cx.env.get(SECRET_ACCESS_KEY).is_none() {
                return Err(none());
            }
            Credentials::from_env(cx.env).map(|credentials| Source::Fixed {
                credentials,
                from: crate::t!("aws-from-env-credential-source", profile = profile),
            })
        }
        "Ec2InstanceMetadata" => {
            let endpoint = cx.imds_endpoint.ok_or_else(none)?;
            Ok(Source::Instance {
                endpoint: endpoint.to_string(),
                tried: vec![crate::t!(
                    "aws-tried-instance-role-source",
                    endpoint = endpoint,
                    profile = profile
                )],
            })
        }
        "EcsContainer" => {
            let (url, auth, from) = container::from_env(cx.env).ok_or_else(none)??;
            Ok(Source::Container { url, auth, from })
        }
        other => Err(bad_config(crate::t!(
            "aws-credential-source-unknown",
            source = other,
            profile = profile
        ))),
    }
}

#[cfg(test)]
#[path = "chain_tests.rs"]
mod tests;
