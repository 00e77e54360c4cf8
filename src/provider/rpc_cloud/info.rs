//! An instance as a signed-API cloud's DescribeInstances gives it, in the core's words.

use jiff::Timestamp;

use crate::meter::{BillingMode, InstanceState};
use crate::provider::{InstanceInfo, ProviderKind};

/// The instance `[id, name, sku]` of `kind` in `region`. These APIs give no live price and do
/// not say when an instance stopped: it counts as running from `created` until seen stopped,
/// `now`.
pub fn instance_info(
    kind: ProviderKind,
    [id, name, sku]: [&str; 3],
    region: &str,
    (mode, state, created): (BillingMode, InstanceState, Timestamp),
    now: Timestamp,
) -> InstanceInfo {
    let mut history = vec![(created, InstanceState::Running)];
    if state == InstanceState::Stopped {
        history.push((now.max(created), InstanceState::Stopped));
    }
    InstanceInfo {
        id: id.to_string(),
        name: name.to_string(),
        provider: kind.id().into(),
        region: Some(region.to_string()),
        sku: sku.to_string(),
        mode,
        state,
        created,
        live_price_per_hour: None,
        history,
    }
}
