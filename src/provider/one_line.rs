//! The wrapper every provider the commands and the cockpit use is built in: each inventory and
//! each action report passes through the core's one-lining before anything reads it, so no
//! string a provider returns can act on the terminal or forge a line of output.

use std::sync::Arc;

use async_trait::async_trait;
use gpumeter_core::text::{is_unsafe, one_line};
use jiff::Timestamp;

use super::{
    Action, ActionReport, Balance, Capabilities, Discovered, Inventory, LinkedResource, Provider,
    ProviderError, Seen,
};

/// The most characters kept of one planned call (`--dry-run` prints them).
const CALL_CHARS: usize = 500;
/// The most characters kept of one region's name (the longest real ones have under 20).
const REGION_CHARS: usize = 64;

pub struct OneLine(pub Arc<dyn Provider>);

fn one_line_calls(calls: Vec<String>) -> Vec<String> {
    calls
        .into_iter()
        .map(|call| {
            if call.contains(is_unsafe) || call.chars().count() > CALL_CHARS {
                one_line(&call, CALL_CHARS)
            } else {
                call
            }
        })
        .collect()
}

#[async_trait]
impl Provider for OneLine {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn capabilities(&self) -> Capabilities {
        self.0.capabilities()
    }

    fn add_seen(&self, seen: &Seen) {
        self.0.add_seen(seen);
    }

    fn plan(&self, action: &Action) -> Vec<String> {
        one_line_calls(self.0.plan(action))
    }

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        one_line_calls(self.0.plan_instance(action))
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        self.0.inventory().await.map(Inventory::one_lined)
    }

    async fn look(&self) -> Result<super::refresh::Look, ProviderError> {
        self.0.look().await
    }

    async fn perform(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        self.0.perform(action).await.map(ActionReport::one_lined)
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        self.0.act(action).await.map(ActionReport::one_lined)
    }

    fn gaps(&self) -> Vec<String> {
        self.0
            .gaps()
            .iter()
            .map(|gap| one_line(gap, CALL_CHARS))
            .collect()
    }

    fn own_sheet(&self, base: &crate::pricing::Sheet) -> Option<crate::pricing::Sheet> {
        self.0.own_sheet(base)
    }

    async fn instances(&self) -> Result<Vec<Discovered>, ProviderError> {
        let found = self.0.instances().await?;
        Ok(found.into_iter().map(Discovered::one_lined).collect())
    }

    async fn sweep(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let found = self.0.sweep().await?;
        Ok(found.into_iter().map(LinkedResource::one_lined).collect())
    }

    async fn sweep_listed(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let found = self.0.sweep_listed().await?;
        Ok(found.into_iter().map(LinkedResource::one_lined).collect())
    }

    async fn regions(&self) -> Result<Option<Vec<String>>, ProviderError> {
        let regions = self.0.regions().await?;
        Ok(regions.map(|names| {
            names
                .iter()
                .map(|name| one_line(name, REGION_CHARS))
                .collect()
        }))
    }

    fn delete_plan(&self, resource: &LinkedResource) -> Vec<String> {
        self.0
            .delete_plan(resource)
            .iter()
            .map(|call| one_line(call, CALL_CHARS))
            .collect()
    }

    async fn delete(&self, resource: &LinkedResource) -> Result<ActionReport, ProviderError> {
        self.0.delete(resource).await.map(ActionReport::one_lined)
    }

    async fn interruption_notice(&self) -> Result<Option<Timestamp>, ProviderError> {
        self.0.interruption_notice().await
    }

    /// Money alone: no text of the provider's to make one line.
    async fn balance(&self) -> Result<Option<Balance>, ProviderError> {
        self.0.balance().await
    }

    fn keys_expire(&self) -> Option<Timestamp> {
        self.0.keys_expire()
    }

    fn subscription(&self) -> Option<crate::subscription::Reported> {
        self.0.subscription()
    }
}
