//! The provider when none is configured: telemetry still works, the cloud side says why not.

use async_trait::async_trait;

use super::{Action, ActionReport, Capabilities, Inventory, Provider, ProviderError, ProviderKind};

/// How its errors name it.
const ID: &str = "no provider";

pub struct NoProvider {
    why: String,
}

impl NoProvider {
    pub fn new(why: impl Into<String>) -> Self {
        NoProvider { why: why.into() }
    }
}

#[async_trait]
impl Provider for NoProvider {
    fn name(&self) -> &'static str {
        "none"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::NONE
    }

    fn plan_instance(&self, _action: &Action) -> Vec<String> {
        Vec::new()
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        Err(ProviderError::state(ID, &self.why)
            .with_fix(&crate::t!("prov-none-fix", ids = ProviderKind::ids(", "))))
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        Err(ProviderError::unsupported(
            ID,
            format!("{} ({})", action.label(), self.why),
        ))
    }
}
