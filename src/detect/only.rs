//! The instance as detection found it, standing in for the provider's adapter while the adapter
//! cannot be built (no credentials): it lists the instance the machine says it is, so the
//! meter prices it from the region's bundled sheet, and says for everything else which
//! credentials it needs and how to give them.

use async_trait::async_trait;
use jiff::Timestamp;

use crate::config::ProviderKind;
use crate::meter::{BillingMode, InstanceState};
use crate::provider::{
    Action, ActionReport, Capabilities, InstanceInfo, Inventory, Provider, ProviderError,
};

pub struct DetectedOnly {
    kind: ProviderKind,
    instance: InstanceInfo,
    /// What needs credentials, which, and how to give them: one line.
    needs: String,
}

impl DetectedOnly {
    /// The instance `id` of `kind`, running since `since` (this boot: the machine asking is
    /// that instance, so it runs), priced as `sku` in `region` when they are known.
    #[must_use]
    pub fn new(
        kind: ProviderKind,
        id: String,
        region: Option<String>,
        sku: Option<String>,
        since: Timestamp,
        needs: String,
    ) -> Self {
        let instance = InstanceInfo {
            name: id.clone(),
            id,
            provider: kind.id().to_string(),
            region,
            sku: sku.unwrap_or_default(),
            mode: BillingMode::OnDemand,
            state: InstanceState::Running,
            created: since,
            live_price_per_hour: None,
            history: vec![(since, InstanceState::Running)],
        };
        DetectedOnly {
            kind,
            instance,
            needs,
        }
    }
}

#[async_trait]
impl Provider for DetectedOnly {
    fn name(&self) -> &str {
        self.kind.id()
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::NONE
    }

    fn plan(&self, _action: &Action) -> Vec<String> {
        vec![self.needs.clone()]
    }

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        self.plan(action)
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        Ok(Inventory {
            instance: Some(self.instance.clone()),
            resources: Vec::new(),
            deadline: None,
        })
    }

    async fn perform(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        Err(ProviderError::state(
            self.kind.id(),
            format!("{}: {}", action.label(), self.needs),
        )
        .with_fix(&self.needs))
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        self.perform(action).await
    }

    fn gaps(&self) -> Vec<String> {
        vec![self.needs.clone()]
    }
}

/// When this machine booted (`btime` in `/proc/stat`): the start of the meter for an instance
/// the provider cannot be asked about. `None` where it cannot be read.
#[must_use]
pub fn boot_time() -> Option<Timestamp> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let secs = stat
        .lines()
        .find_map(|l| l.strip_prefix("btime "))?
        .trim()
        .parse::<i64>()
        .ok()?;
    Timestamp::from_second(secs).ok()
}
