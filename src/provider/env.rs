//! What the signed-API adapters (Alibaba, Tencent) share in reading their environment: a secret
//! whose `Debug` prints no part of it, a key id shown only by its head, and the check on a base
//! URL that replaces the provider's endpoint.

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

/// `base`, set in `var`, as a base URL ending in `/`; anything but http:// or https:// is refused
/// and the error names the variable.
pub fn base_url(var: &str, base: &str) -> Result<String, ProviderError> {
    let base = base.trim();
    if !(base.starts_with("https://") || base.starts_with("http://")) {
        return Err(ProviderError::State(format!(
            "{var} must be an http:// or https:// URL, not `{base}`"
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
        assert_eq!(base_url("X_URL", " http://h:1// ").unwrap(), "http://h:1/");
        let err = base_url("X_URL", "ftp://h").unwrap_err().to_string();
        assert!(err.contains("X_URL") && err.contains("ftp://h"), "{err}");
    }
}
