//! `[[fleet]]`: the instances `gpumeter fleet` and the cockpit's fleet screen list, one table
//! per provider, region and account.

use serde::Deserialize;

use super::ProviderKind;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FleetConfig {
    pub provider: ProviderKind,
    /// The provider's region; the provider's variable (AWS_REGION, ...) when unset.
    #[serde(default)]
    pub region: Option<String>,
    /// A label for the account, shown beside each instance (credentials still come from the
    /// provider's environment variables).
    #[serde(default)]
    pub account: Option<String>,
    /// The instance ids to read in this account and region.
    pub instances: Vec<String>,
    /// Base URLs of `gpumeter serve` on the instances (`http://10.0.0.5:9835`), in the order of
    /// `instances`: where to ask whether each one is reporting and idle.
    #[serde(default)]
    pub metrics: Vec<String>,
}
