//! The demo cloud's state: one simulated instance with the leftovers that surprise renters (a
//! data disk that survives release, snapshots, a custom image, an elastic IP, a load balancer).
//! The demo provider at the edge keeps it in the data directory and acts on it.

use std::collections::BTreeMap;

use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::cloud::{
    Capabilities, Exposure, HeldDeadline, InstanceInfo, LinkedResource, ProviderKind, Sharing,
};
use crate::meter::{BillingMode, InstanceState, ResourceKind};

/// The bundled sheet and SKU that price the demo instance.
pub const DEMO_SHEET: &str = "aws-us-east-1";
pub const DEMO_SKU: &str = "p4de.24xlarge";

/// The demo cloud can do everything: stop, start, snapshots, and hold a deadline.
pub const CAPABILITIES: Capabilities = ProviderKind::Demo.capabilities();

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DemoState {
    pub instance: InstanceInfo,
    pub resources: Vec<LinkedResource>,
    pub deadline: Option<HeldDeadline>,
    /// A spot interruption notice: when the simulated provider will reclaim the instance.
    #[serde(default)]
    pub interruption: Option<Timestamp>,
    /// What else the account holds that bills with no instance: the leftovers of instances
    /// released before this one (`gpumeter --demo sweep` lists them).
    #[serde(default)]
    pub orphans: Vec<LinkedResource>,
}

fn resource(
    id: &str,
    name: &str,
    kind: ResourceKind,
    size: u32,
    state: &str,
    created: Timestamp,
    with_instance: bool,
) -> LinkedResource {
    LinkedResource {
        id: id.into(),
        name: name.into(),
        kind,
        class: kind.is_disk().then(|| "gp3".to_string()),
        size_gib: Decimal::from(size),
        state: state.into(),
        created,
        deleted_with_instance: with_instance,
        backs_image: None,
        attached_to: None,
        exposure: crate::cloud::Exposure::default(),
        origin: None,
        tags: BTreeMap::new(),
    }
}

impl DemoState {
    /// A fresh cloud whose instance was created 3 h 20 min before `now`.
    pub fn fresh(now: Timestamp) -> Self {
        use ResourceKind as K;
        let ago = |minutes: i64| now - SignedDuration::from_mins(minutes);
        let created = ago(200);
        DemoState {
            instance: InstanceInfo {
                id: "i-0demo4a100f00d".into(),
                name: "llm-finetune".into(),
                provider: ProviderKind::Demo.id().into(),
                region: Some("us-east-1".into()),
                sku: DEMO_SKU.into(),
                mode: BillingMode::OnDemand,
                state: InstanceState::Running,
                created,
                live_price_per_hour: None,
                history: vec![(created, InstanceState::Running)],
            },
            resources: vec![
                resource(
                    "vol-0root",
                    "root",
                    K::SystemDisk,
                    200,
                    "in-use",
                    created,
                    true,
                ),
                resource(
                    "vol-0data",
                    "datasets",
                    K::DataDisk,
                    2000,
                    "in-use",
                    created,
                    false,
                ),
                resource(
                    "snap-0a",
                    "nightly-1",
                    K::Snapshot,
                    200,
                    "completed",
                    ago(60 * 50),
                    false,
                ),
                resource(
                    "snap-0b",
                    "nightly-2",
                    K::Snapshot,
                    200,
                    "completed",
                    ago(60 * 26),
                    false,
                ),
                resource(
                    "snap-0c",
                    "pre-upgrade",
                    K::Snapshot,
                    2000,
                    "completed",
                    ago(90),
                    false,
                ),
                resource(
                    "ami-0train",
                    "train-image",
                    K::Image,
                    200,
                    "available",
                    ago(60 * 72),
                    false,
                ),
                resource(
                    "eipalloc-0d",
                    "203.0.113.7",
                    K::PublicIp,
                    0,
                    "associated",
                    created,
                    false,
                ),
                resource(
                    "lb-0api",
                    "inference-lb",
                    K::LoadBalancer,
                    0,
                    "active",
                    created,
                    false,
                ),
            ],
            deadline: None,
            interruption: None,
            orphans: orphans(now),
        }
        .with_links()
    }

    /// The instance's disks and address attached to it, and what each says of its data.
    fn with_links(mut self) -> Self {
        for r in &mut self.resources {
            if r.kind.is_disk() || r.kind == ResourceKind::PublicIp {
                r.attached_to = Some(self.instance.id.clone());
            }
            if matches!(
                r.kind,
                ResourceKind::SystemDisk | ResourceKind::DataDisk | ResourceKind::Snapshot
            ) {
                r.exposure.encrypted = Some(true);
            }
            if matches!(r.kind, ResourceKind::Snapshot | ResourceKind::Image) {
                r.exposure.shared = Sharing::Private;
            }
        }
        self
    }
}

/// Three leftovers of an instance released six weeks before `now`: an old snapshot, a spare
/// disk nobody attached again, and a snapshot someone shared publicly to hand a dataset over.
fn orphans(now: Timestamp) -> Vec<LinkedResource> {
    use ResourceKind as K;
    let days = |d: i64| now - SignedDuration::from_hours(24 * d);
    let mut old = resource(
        "snap-0gone",
        "from i-0gone (released)",
        K::Snapshot,
        500,
        "completed",
        days(45),
        false,
    );
    old.exposure = Exposure {
        encrypted: Some(true),
        shared: Sharing::Private,
    };
    old.origin = Some("i-0gone".into());
    old.tags = BTreeMap::from([("project".to_string(), "llm".to_string())]);
    let mut spare = resource(
        "vol-0spare",
        "scratch",
        K::DataDisk,
        1000,
        "available",
        days(41),
        false,
    );
    spare.exposure.encrypted = Some(false);
    let mut public = resource(
        "snap-0public",
        "dataset-handover",
        K::Snapshot,
        300,
        "completed",
        days(40),
        false,
    );
    public.exposure = Exposure {
        encrypted: Some(false),
        shared: Sharing::Public,
    };
    vec![old, spare, public]
}
