//! A released instance's leftovers where the adapter kept nothing of it (a process that never
//! saw it run): the ids the ledger recorded while it ran, and the provider's links from them.
//! With nothing recorded either, everything in the region that bills without an instance is
//! listed: none is hidden on a guess.

use super::TencentCloud;
use crate::meter::ResourceKind;
use crate::provider::left_by::left_by;
use crate::provider::{LinkedResource, ProviderError};

impl TencentCloud {
    /// What the region still bills for that instance `id` left, where nothing was kept of it
    /// but the ids the ledger recorded: the sweep, narrowed to those ids and what the
    /// provider's links lead to ([`left_by`]); the whole sweep where none were recorded. An
    /// address was recorded by its IP, which the sweep lists as its name.
    pub(super) async fn recorded_leftovers(
        &self,
        id: &str,
    ) -> Result<Vec<LinkedResource>, ProviderError> {
        let found = self.sweep_region().await?;
        let Some(recorded) = self.common.recorded.get(id).filter(|r| !r.is_empty()) else {
            return Ok(found);
        };
        let mut tied = recorded.clone();
        tied.extend(
            found
                .iter()
                .filter(|r| r.kind == ResourceKind::PublicIp && recorded.contains(&r.name))
                .map(|r| r.id.clone()),
        );
        Ok(left_by(found, id, &tied))
    }
}
