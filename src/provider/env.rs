//! What the signed-API adapters (Alibaba, Tencent) share in reading their environment: the
//! snapshot of their variables, read once at the edge so the adapters and their tests work from
//! plain values; the key pair they sign with; a secret whose `Debug` prints no part of it, a key
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
}

impl KeyPairEnv {
    /// Reads the process environment: call this only at the edge (the command context).
    pub fn from_process(vars: &'static KeyPairVars) -> Self {
        Self::from_lookup(vars, |name| std::env::var(name).ok())
    }

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
        }
    }

    /// The key pair to sign with, or the variable to set (the environment is the only place
    /// these adapters read keys from).
    pub fn key_pair(&self) -> Result<KeyPair, ProviderError> {
        let missing = |name| ProviderError::missing(self.vars.provider, name, &[name]);
        Ok(KeyPair {
            id: self
                .key_id
                .clone()
                .ok_or_else(|| missing(self.vars.key_id))?,
            secret: self
                .key_secret
                .clone()
                .ok_or_else(|| missing(self.vars.key_secret))?,
            token: self.token.clone(),
        })
    }

    /// The region from the flags or the config, else the variable; or where it was looked for.
    pub fn region_or(&self, configured: Option<&str>) -> Result<String, ProviderError> {
        configured
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string)
            .or_else(|| self.region.clone())
            .ok_or_else(|| {
                ProviderError::missing(
                    self.vars.provider,
                    self.vars.region,
                    &["--region", "[instance] region", self.vars.region],
                )
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

/// `base`, set in `var`, as a base URL ending in `/`; anything but http:// or https:// is refused
/// and the error names the variable.
pub fn base_url(provider: &str, var: &str, base: &str) -> Result<String, ProviderError> {
    let base = base.trim();
    if !(base.starts_with("https://") || base.starts_with("http://")) {
        return Err(ProviderError::state(
            provider,
            format!("{var} must be an http:// or https:// URL, not `{base}`"),
        )
        .with_fix(&format!(
            "set {var} to an http:// or https:// URL, or unset it"
        )));
    }
    Ok(format!("{}/", base.trim_end_matches('/')))
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
