//! What the key-pair clouds (Alibaba, Tencent) settle alike before their first call: the CLI
//! profile, read only where the variables leave a gap; the keys, through the cloud's own chain;
//! the region; the instance; the metadata service. Written once so the two clouds look in the
//! same order and fail with the same errors; each cloud adds only what is its own (its endpoints,
//! what its chain's later steps need) through [`KeyPairCloud`].

use super::ProviderError;
use super::env::{CliProfile, KeyPairEnv};
use super::role_keys::KeySource;

/// Everything a key-pair cloud's adapter needs to make calls; `Own` is the cloud's own part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPairSettings<Own> {
    /// Where the keys come from: see the cloud's `chain` for the order.
    pub credentials: KeySource,
    pub region: String,
    /// The instance, when `--instance` or the config names it; otherwise the metadata service.
    pub instance_id: Option<String>,
    /// The metadata service's base URL: the variable's, else the cloud's default.
    pub metadata: String,
    /// What only this cloud needs: its endpoints and its chain's settings.
    pub own: Own,
}

/// How one cloud fills the shared steps: implemented by the cloud's own part of its settings.
pub trait KeyPairCloud: Sized {
    /// The metadata service's base URL when the variable does not set one.
    const DEFAULT_METADATA: &'static str;
    /// Where the cloud's chain finds the files it reads besides the CLI's: as the environment
    /// places them, or where a test puts them.
    type Files;
    fn files(env: &KeyPairEnv) -> Self::Files;
    /// The keys and region of the provider CLI's profile, and where they were looked for.
    fn cli_profile(env: &KeyPairEnv) -> Result<CliProfile, ProviderError>;
    /// The first source in the cloud's chain that has keys; `cli` is empty when unread.
    fn key_source(
        env: &KeyPairEnv,
        files: &Self::Files,
        cli: &CliProfile,
    ) -> Result<KeySource, ProviderError>;
    /// The cloud's own part, once the region is known.
    fn own(env: &KeyPairEnv, region: &str) -> Result<Self, ProviderError>;
}

impl<Own: KeyPairCloud> KeyPairSettings<Own> {
    /// Settings from the environment snapshot and the config's (or flags') instance and region;
    /// the config's region wins over the variable's.
    pub fn resolve(
        env: &KeyPairEnv,
        instance_id: Option<&str>,
        region: Option<&str>,
    ) -> Result<Self, ProviderError> {
        Self::resolve_with(env, &Own::files(env), instance_id, region)
    }

    /// Like [`KeyPairSettings::resolve`], with the chain's files at `files`.
    pub fn resolve_with(
        env: &KeyPairEnv,
        files: &Own::Files,
        instance_id: Option<&str>,
        region: Option<&str>,
    ) -> Result<Self, ProviderError> {
        let cli = if env.needs_cli(region) {
            Own::cli_profile(env)?
        } else {
            CliProfile::default()
        };
        let credentials = Own::key_source(env, files, &cli)?;
        let region = env.region_or(region, &cli)?;
        let own = Own::own(env, &region)?;
        Ok(KeyPairSettings {
            credentials,
            region,
            instance_id: instance_id
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            metadata: env
                .metadata
                .clone()
                .unwrap_or_else(|| Own::DEFAULT_METADATA.to_string()),
            own,
        })
    }
}

/// What the clouds' settings tests share: an environment from pairs or from a home folder, and
/// the check that no secret reaches `Debug`.
#[cfg(test)]
pub mod testing {
    use std::fmt::Debug;

    use super::{KeyPairCloud, KeyPairSettings};
    use crate::provider::env::{HOME, KeyPairEnv, KeyPairVars};

    /// The environment that sets `pairs` and nothing else.
    pub fn env(vars: &'static KeyPairVars, pairs: &[(&str, &str)]) -> KeyPairEnv {
        KeyPairEnv::from_lookup(vars, |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_string())
        })
    }

    /// The environment with `HOME` at `home` and, if given, the CLI profile's variable set.
    pub fn at_home(vars: &'static KeyPairVars, home: &str, profile: Option<&str>) -> KeyPairEnv {
        KeyPairEnv::from_lookup(vars, |name| match name {
            HOME => Some(home.to_string()),
            _ if name == vars.profile => profile.map(str::to_string),
            _ => None,
        })
    }

    /// Asserts that no `Debug` form of the environment that sets `full` (every variable of the
    /// key pair and its token), or of the settings resolved from it, shows the key id, the secret
    /// or the token, and that the key id shows only as `shown_id`.
    pub fn assert_debug_hides<Own: KeyPairCloud + Debug>(
        vars: &'static KeyPairVars,
        full: &[(&str, &str)],
        shown_id: &str,
    ) {
        let e = env(vars, full);
        let s = KeyPairSettings::<Own>::resolve(&e, Some("i-1"), None).expect("settings");
        let secrets: Vec<&str> = [vars.key_id, vars.key_secret, vars.token]
            .iter()
            .filter_map(|name| full.iter().find(|(k, _)| k == name))
            .map(|(_, v)| *v)
            .collect();
        assert_eq!(secrets.len(), 3, "{full:?}");
        for text in [format!("{e:?}"), format!("{s:?}"), format!("{s:#?}")] {
            for secret in &secrets {
                assert!(!text.contains(secret), "{text}");
            }
            assert!(text.contains(shown_id), "{text}");
        }
    }
}
