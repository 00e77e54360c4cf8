//! `[[fleet]]`: the accounts `gpumeter fleet` and the cockpit's fleet screen read, one table
//! per provider, region and account: the instances it names, or, when it names none, every GPU
//! instance and billable orphan the account holds there.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};

use super::ProviderKind;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FleetConfig {
    pub provider: ProviderKind,
    /// The provider's region; the provider's variable (AWS_REGION, ...) when unset.
    #[serde(default)]
    pub region: Option<String>,
    /// More regions of the same account, each read as if it had a table of its own.
    #[serde(default)]
    pub regions: Vec<String>,
    /// A label for the account, shown beside each instance.
    #[serde(default)]
    pub account: Option<String>,
    /// The instance ids to read in this account and region; none: every GPU instance the
    /// account's listing shows there, and what bills with no instance.
    #[serde(default)]
    pub instances: Vec<String>,
    /// Base URLs of `gpumeter serve` on the instances (`http://10.0.0.5:9835`), in the order of
    /// `instances`: where to ask whether each one is reporting and idle.
    #[serde(default)]
    pub metrics: Vec<String>,
    /// Variables this account's adapter reads in place of the process's: a credentials
    /// profile (`AWS_PROFILE`, `ALIBABA_CLOUD_PROFILE`), a credentials file, an endpoint. Never
    /// a secret: a key, secret or token is refused here, and belongs in the credentials file the
    /// profile names.
    #[serde(default, deserialize_with = "no_secrets")]
    pub env: BTreeMap<String, String>,
}

impl FleetConfig {
    /// Every region the table names, `region` first, each once; `[None]` when it names none
    /// (the provider's variable decides).
    pub fn each_region(&self) -> Vec<Option<String>> {
        let mut out: Vec<Option<String>> = Vec::new();
        for r in self.region.iter().chain(&self.regions) {
            if !out.iter().any(|o| o.as_deref() == Some(r.as_str())) {
                out.push(Some(r.clone()));
            }
        }
        if out.is_empty() {
            out.push(None);
        }
        out
    }

    /// Whether the account is listed by API rather than by the ids written here.
    pub fn discovers(&self) -> bool {
        self.instances.is_empty()
    }
}

/// Whether a variable's name says it holds a credential's secret part, or a key that works
/// alone (`RUNPOD_API_KEY`). Key ids go too: they belong beside their secret.
pub fn holds_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["SECRET", "TOKEN", "PASSWORD", "ACCESS_KEY", "API_KEY"]
        .iter()
        .any(|word| upper.contains(word))
        || upper.ends_with("_KEY")
}

fn no_secrets<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    let vars = BTreeMap::<String, String>::deserialize(d)?;
    if let Some(name) = vars.keys().find(|name| holds_secret(name)) {
        return Err(serde::de::Error::custom(crate::t!(
            "err-config-secret-in-env",
            name = name.as_str()
        )));
    }
    Ok(vars)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_named_by_their_variables() {
        for name in [
            "AWS_SECRET_ACCESS_KEY",
            "AWS_ACCESS_KEY_ID",
            "AWS_SESSION_TOKEN",
            "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
            "TENCENTCLOUD_SECRET_KEY",
            "RUNPOD_API_KEY",
            "VAST_API_KEY",
            "LAMBDA_API_KEY",
        ] {
            assert!(holds_secret(name), "{name}");
        }
        for name in [
            "AWS_PROFILE",
            "ALIBABA_CLOUD_PROFILE",
            "GPUMETER_ALIBABA_ENDPOINT",
            "AWS_SHARED_CREDENTIALS_FILE",
        ] {
            assert!(!holds_secret(name), "{name}");
        }
    }
}
