//! What the meter prices: the instance's lifecycle, how its compute is billed, the traffic it
//! sent and the resources billed with it. Plain data, filled by the edges.

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::lifecycle::Lifecycle;
use crate::pricing::{Sheet, Sku};

/// How the instance's compute is bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BillingMode {
    OnDemand,
    Spot,
    Monthly,
    ComputeUnits,
}

impl BillingMode {
    pub fn label(self) -> &'static str {
        match self {
            BillingMode::OnDemand => "on-demand",
            BillingMode::Spot => "spot",
            BillingMode::Monthly => "monthly",
            BillingMode::ComputeUnits => "compute units",
        }
    }
}

/// The compute price the meter applies, resolved from a sheet or reported live by a provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComputeTerms {
    /// Accrues per second of running at this price per instance-hour.
    Hourly { per_hour: Decimal },
    /// Paid in full at purchase for the subscription period: shown as committed, not accrued.
    Committed { amount: Decimal },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("sheet `{sheet}` has no {mode} price for SKU `{sku}`")]
pub struct NoPrice {
    pub sheet: String,
    pub sku: String,
    pub mode: &'static str,
}

impl ComputeTerms {
    /// The terms for `sku` bought in `mode`; `months` counts the subscription months bought.
    pub fn from_sheet(
        sheet: &Sheet,
        sku: &Sku,
        mode: BillingMode,
        months: u32,
    ) -> Result<Self, NoPrice> {
        let price = match mode {
            BillingMode::OnDemand => sku
                .on_demand_per_hour
                .or_else(|| sku.compute_units.map(|u| u.per_hour())),
            BillingMode::Spot => sku.spot_per_hour,
            BillingMode::ComputeUnits => sku.compute_units.map(|u| u.per_hour()),
            BillingMode::Monthly => {
                return sku
                    .monthly
                    .map(|m| ComputeTerms::Committed {
                        amount: m * Decimal::from(months),
                    })
                    .ok_or_else(|| no_price(sheet, sku, mode));
            }
        };
        price
            .map(|per_hour| ComputeTerms::Hourly { per_hour })
            .ok_or_else(|| no_price(sheet, sku, mode))
    }

    /// The price per running hour; zero for a subscription, whose cost is already committed.
    pub fn per_hour(&self) -> Decimal {
        match self {
            ComputeTerms::Hourly { per_hour } => *per_hour,
            ComputeTerms::Committed { .. } => Decimal::ZERO,
        }
    }
}

fn no_price(sheet: &Sheet, sku: &Sku, mode: BillingMode) -> NoPrice {
    NoPrice {
        sheet: sheet.id.clone(),
        sku: sku.name.clone(),
        mode: mode.label(),
    }
}

/// Bytes moved since the previous sample, seen at `at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Traffic {
    pub at: Timestamp,
    /// Everything the metered interfaces sent.
    pub egress_bytes: u64,
    pub ingress_bytes: u64,
    /// Of `egress_bytes`, what went to the intranet and to other regions; the rest is internet.
    pub split: crate::traffic::EgressSplit,
}

/// A billable thing linked to the instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    SystemDisk,
    DataDisk,
    Snapshot,
    Image,
    PublicIp,
    LoadBalancer,
    NetworkVolume,
    /// A stopped instance whose provider still bills its compute (Alibaba's `KeepCharging`,
    /// Tencent's `KEEP_CHARGING`); `class` is its instance type. Only a sweep lists one: a
    /// release, not a cleanup, removes it.
    StoppedInstance,
}

impl ResourceKind {
    pub fn label(self) -> &'static str {
        match self {
            ResourceKind::SystemDisk => "system disk",
            ResourceKind::DataDisk => "data disk",
            ResourceKind::Snapshot => "snapshot",
            ResourceKind::Image => "image",
            ResourceKind::PublicIp => "public IP",
            ResourceKind::LoadBalancer => "load balancer",
            ResourceKind::NetworkVolume => "network volume",
            ResourceKind::StoppedInstance => "stopped instance",
        }
    }

    /// The kind as people read it in the user's language; [`ResourceKind::label`] in English.
    pub fn shown(self) -> std::borrow::Cow<'static, str> {
        match self {
            ResourceKind::SystemDisk => crate::t!("kind-system-disk"),
            ResourceKind::DataDisk => crate::t!("kind-data-disk"),
            ResourceKind::Snapshot => crate::t!("kind-snapshot"),
            ResourceKind::Image => crate::t!("kind-image"),
            ResourceKind::PublicIp => crate::t!("kind-public-ip"),
            ResourceKind::LoadBalancer => crate::t!("kind-load-balancer"),
            ResourceKind::NetworkVolume => crate::t!("kind-network-volume"),
            ResourceKind::StoppedInstance => crate::t!("kind-stopped-instance"),
        }
    }

    pub fn is_disk(self) -> bool {
        matches!(self, ResourceKind::SystemDisk | ResourceKind::DataDisk)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    pub id: String,
    pub kind: ResourceKind,
    /// The disk class the sheet prices it by (`gp3`, `cloud_essd`); only disks use it.
    pub class: Option<String>,
    /// Size in GiB for storage; ignored for IPs and load balancers.
    pub size_gib: Decimal,
    pub created: Timestamp,
    /// When it was deleted on its own, if it was.
    pub deleted: Option<Timestamp>,
    /// Whether releasing the instance deletes it too (EC2 DeleteOnTermination, for example).
    pub deleted_with_instance: bool,
}

/// Everything the meter needs about one instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Usage {
    pub lifecycle: Lifecycle,
    pub terms: ComputeTerms,
    pub traffic: Vec<Traffic>,
    /// A fixed-bandwidth plan's size in Mbps, billed over the instance's existence.
    pub fixed_bandwidth_mbps: Option<Decimal>,
    /// Per-hour software licences billed while the instance runs.
    pub licenses: u32,
    pub resources: Vec<Resource>,
}

impl Usage {
    pub fn new(lifecycle: Lifecycle, terms: ComputeTerms) -> Self {
        Usage {
            lifecycle,
            terms,
            traffic: Vec::new(),
            fixed_bandwidth_mbps: None,
            licenses: 0,
            resources: Vec::new(),
        }
    }
}
