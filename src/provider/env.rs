//! What the signed-API adapters (Alibaba, Tencent) share in reading their environment: the
//! snapshot of their variables, read once at the edge so the adapters and their tests work from
//! plain values; the key pair they sign with, from the variables or else the provider CLI's
//! profile ([`CliProfile`]); a secret whose `Debug` prints no part of it, a key
//! id shown only by its head, and the check on a base URL that replaces the provider's endpoint.

use std::fmt;

use super::ProviderError;

/// A value that must never be printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// The first four characters of a key id, then asterisks: enough to tell keys apart.
/// The process environment's values of `names`, in their order (unset ones left out).
pub fn process_vars<'a>(names: &[&'a str]) -> Vec<(&'a str, String)> {
    names
        .iter()
        .filter_map(|n| std::env::var(n).ok().map(|v| (*n, v)))
        .collect()
}

pub fn redact_id(id: &str) -> String {
    let head: String = id.chars().take(4).collect();
    format!("{head}****")
}

/// The variables a key-pair cloud reads: its key id, secret, STS token and region, and gpumeter's
/// own endpoint and metadata overrides for it.
#[derive(Debug, PartialEq, Eq)]
pub struct KeyPairVars {
    /// The adapter's name, for its errors.
    pub provider: &'static str,
    pub key_id: &'static str,
    pub key_secret: &'static str,
    pub token: &'static str,
    pub region: &'static str,
    pub endpoint: &'static str,
    pub metadata: &'static str,
    /// The variable that names the provider CLI's profile to read.
    pub profile: &'static str,
    /// The other variables the credential chain reads (a role name, a file, a switch).
    pub extra: &'static [&'static str],
}

/// Where the provider CLI's files are found.
pub const HOME: &str = "HOME";

/// What the provider CLI's files hold for one profile, and how to name where they were looked
/// for; empty when the files were not read or hold nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CliProfile {
    /// Where the keys were looked for, for the missing-credential error.
    pub key_place: String,
    /// Where the region was looked for.
    pub region_place: String,
    pub keys: Option<KeyPair>,
    /// The profile says to use the instance's role: its name, empty to ask the metadata service.
    pub instance_role: Option<String>,
    pub region: Option<String>,
}

/// A key-pair cloud's environment as its adapter needs it, read once; an empty value counts as
/// unset.
#[derive(Clone, PartialEq, Eq)]
pub struct KeyPairEnv {
    /// Which variables these came from: what a missing one's error names.
    pub vars: &'static KeyPairVars,
    pub key_id: Option<String>,
    pub key_secret: Option<Secret>,
    pub token: Option<Secret>,
    pub region: Option<String>,
    pub endpoint: Option<String>,
    pub metadata: Option<String>,
    /// Where the provider CLI's files are: `$HOME`.
    pub home: Option<String>,
    /// The CLI profile named in the environment.
    pub profile: Option<String>,
    /// The set ones of [`KeyPairVars::extra`].
    pub extra: Vec<(&'static str, String)>,
}

impl KeyPairEnv {
    /// Reads through `lookup`.
    pub fn from_lookup(
        vars: &'static KeyPairVars,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Self {
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        KeyPairEnv {
            vars,
            key_id: get(vars.key_id),
            key_secret: get(vars.key_secret).map(Secret::new),
            token: get(vars.token).map(Secret::new),
            region: get(vars.region),
            endpoint: get(vars.endpoint),
            metadata: get(vars.metadata),
            home: get(HOME),
            profile: get(vars.profile).map(|p| p.trim().to_string()),
            extra: vars
                .extra
                .iter()
                .filter_map(|name| Some((*name, get(name)?.trim().to_string())))
                .collect(),
        }
    }

    /// One of the chain's other variables, `None` when unset or empty.
    pub fn var(&self, name: &str) -> Option<&str> {
        self.extra
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `name` is set to `true` (any case), as the SDKs read their switches.
    pub fn is_true(&self, name: &str) -> bool {
        self.var(name)
            .is_some_and(|v| v.eq_ignore_ascii_case("true"))
    }

    /// The key pair from the variables, `None` when neither the id nor the secret is set; one
    /// without the other is an error that names the one to set.
    pub fn env_keys(&self) -> Result<Option<KeyPair>, ProviderError> {
        let missing = |name| ProviderError::missing(self.vars.provider, name, &[name]);
        match (&self.key_id, &self.key_secret) {
            (None, None) => Ok(None),
            (Some(id), Some(secret)) => Ok(Some(KeyPair {
                id: id.clone(),
                secret: secret.clone(),
                token: self.token.clone(),
            })),
            (None, Some(_)) => Err(missing(self.vars.key_id)),
            (Some(_), None) => Err(missing(self.vars.key_secret)),
        }
    }

    /// The endpoint override as a base URL ending in `/`, `None` when unset; a value that is not
    /// an http:// or https:// URL is an error that names the variable.
    pub fn checked_endpoint(&self) -> Result<Option<String>, ProviderError> {
        self.endpoint
            .as_deref()
            .map(|base| base_url(self.vars.provider, self.vars.endpoint, base))
            .transpose()
    }

    /// Whether the CLI's files are needed: no keys in the variables, or no region anywhere else.
    pub fn needs_cli(&self, configured_region: Option<&str>) -> bool {
        let no_region =
            configured_region.is_none_or(|r| r.trim().is_empty()) && self.region.is_none();
        no_region || (self.key_id.is_none() && self.key_secret.is_none())
    }

    /// The region from the flags or the config, else the variable; or where it was looked for.
    /// After them, the CLI profile's region.
    pub fn region_or(
        &self,
        configured: Option<&str>,
        cli: &CliProfile,
    ) -> Result<String, ProviderError> {
        configured
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string)
            .or_else(|| self.region.clone())
            .or_else(|| cli.region.clone())
            .ok_or_else(|| {
                let mut tried = vec!["--region", "[instance] region", self.vars.region];
                if !cli.region_place.is_empty() {
                    tried.push(&cli.region_place);
                }
                ProviderError::missing(self.vars.provider, self.vars.region, &tried)
            })
    }
}

impl fmt::Debug for KeyPairEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyPairEnv")
            .field("vars", &self.vars.key_id)
            .field("key_id", &self.key_id.as_deref().map(redact_id))
            .field("key_secret", &self.key_secret)
            .field("token", &self.token)
            .field("region", &self.region)
            .field("endpoint", &self.endpoint)
            .field("metadata", &self.metadata)
            .field("home", &self.home)
            .field("profile", &self.profile)
            .field("extra", &self.extra)
            .finish()
    }
}

/// An access key id, its secret and, for temporary credentials, an STS token.
#[derive(Clone, PartialEq, Eq)]
pub struct KeyPair {
    pub id: String,
    pub secret: Secret,
    pub token: Option<Secret>,
}

impl fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyPair")
            .field("id", &redact_id(&self.id))
            .field("secret", &self.secret)
            .field("token", &self.token)
            .finish()
    }
}

/// The text of a CLI file, `None` when it does not exist; an unreadable one is an error that
/// names it.
pub fn read_cli_file(
    provider: &str,
    path: &std::path::Path,
) -> Result<Option<String>, ProviderError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ProviderError::state(
            provider,
            crate::t!(
                "prov-cli-file-unreadable",
                path = path.display().to_string(),
                error = e.to_string()
            ),
        )),
    }
}

/// The error for a CLI file that is not what its CLI writes: names the file, where it went
/// wrong and what was expected, never its contents.
pub fn malformed_cli_file(
    provider: &str,
    path: &std::path::Path,
    expected: &str,
    e: Option<&serde_json::Error>,
) -> ProviderError {
    let path = path.display().to_string();
    let message = match e {
        Some(e) => crate::t!(
            "prov-cli-file-malformed-at",
            path = path.as_str(),
            line = e.line().to_string(),
            column = e.column().to_string(),
            expected = expected
        ),
        None => crate::t!(
            "prov-cli-file-malformed",
            path = path.as_str(),
            expected = expected
        ),
    };
    ProviderError::state(provider, message)
        .with_fix(&crate::t!("prov-cli-file-fix", path = path.as_str()))
}

/// `base`, set in `var`, as a base URL ending in `/`; anything but http:// or https:// is refused
/// and the error names the variable.
pub fn base_url(provider: &str, var: &str, base: &str) -> Result<String, ProviderError> {
    let base = base.trim();
    if !(base.starts_with("https://") || base.starts_with("http://")) {
        return Err(ProviderError::state(
            provider,
            crate::t!("prov-base-url-not-http", var = var, base = base),
        )
        .with_fix(&crate::t!("prov-base-url-fix", var = var)));
    }
    Ok(format!("{}/", base.trim_end_matches('/')))
}

/// A lookup for tests: `HOME` is `home`, the other variables are `vars`.
#[cfg(test)]
pub fn lookup_in(
    home: &std::path::Path,
    vars: &[(&str, &str)],
) -> impl Fn(&str) -> Option<String> + use<> {
    let dir = home.display().to_string();
    let vars: Vec<(String, String)> = vars
        .iter()
        .map(|(k, v)| ((*k).into(), (*v).into()))
        .collect();
    move |name| {
        if name == HOME {
            return Some(dir.clone());
        }
        vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_and_ids_stay_unprinted_and_base_urls_end_in_a_slash() {
        let s = Secret::new("hunter2-value");
        assert_eq!(format!("{s:?}"), "Secret(<redacted>)");
        assert_eq!(s.expose(), "hunter2-value");
        assert_eq!(redact_id("AKIDExample"), "AKID****");
        assert_eq!(
            base_url("x", "X_URL", " http://h:1// ").unwrap(),
            "http://h:1/"
        );
        let err = base_url("x", "X_URL", "ftp://h").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("X_URL") && text.contains("ftp://h"), "{text}");
        assert!(err.fix().contains("X_URL"), "{}", err.fix());
    }
}
