//! Looking ahead: the cost at a later instant if nothing changes, and what keeps billing each
//! month once the instance is released.

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde::Serialize;

use super::accrue::Accrual;
use super::breakdown::Breakdown;
use super::usage::{Resource, ResourceKind};
use crate::pricing::Sheet;

/// The accrued cost at `until` if every line keeps its current burn rate from `at` on.
/// An instant before `at` projects nothing new.
pub fn project(reading: &Accrual, at: Timestamp, until: Timestamp) -> Breakdown {
    let seconds = (until.as_second() - at.as_second()).max(0);
    let hours = Decimal::from(seconds) / Decimal::from(3600);
    reading.accrued + reading.burn_per_hour.times(hours)
}

/// One resource that outlives the instance, with what it costs each month after release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Leftover {
    pub id: String,
    pub kind: ResourceKind,
    pub size_gib: Decimal,
    /// `None` when the sheet has no price for it.
    pub monthly: Option<Decimal>,
}

/// The monthly cost of `resource` once it no longer has a running instance.
pub fn monthly_after_release(sheet: &Sheet, resource: &Resource) -> Option<Decimal> {
    let month_hours = Decimal::from(sheet.billing.month_hours);
    let per_gib = match resource.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => {
            let class = resource.class.as_deref().unwrap_or("default");
            sheet.storage.disk.get(class).map(|p| p.per_gib_month)
        }
        ResourceKind::Snapshot => sheet.storage.snapshot,
        ResourceKind::Image => sheet.storage.image,
        ResourceKind::NetworkVolume => sheet.storage.network_volume,
        ResourceKind::PublicIp => {
            let extras = &sheet.extras;
            return extras.public_ip_idle_per_hour.map(|h| h * month_hours);
        }
        ResourceKind::LoadBalancer => {
            return sheet.extras.load_balancer_per_hour.map(|h| h * month_hours);
        }
        ResourceKind::StoppedInstance => {
            let sku = sheet.sku(resource.class.as_deref()?)?;
            return sku.on_demand_per_hour.map(|h| h * month_hours);
        }
    };
    per_gib.map(|p| p * resource.size_gib)
}

/// The resources still existing at `at` that a release would leave behind.
pub fn leftovers(sheet: &Sheet, resources: &[Resource], at: Timestamp) -> Vec<Leftover> {
    resources
        .iter()
        .filter(|r| !r.deleted_with_instance && r.deleted.is_none_or(|d| d > at))
        .map(|r| Leftover {
            id: r.id.clone(),
            kind: r.kind,
            size_gib: r.size_gib,
            monthly: monthly_after_release(sheet, r),
        })
        .collect()
}

/// The total monthly cost of `leftovers` that have a price.
pub fn leftover_monthly_total(leftovers: &[Leftover]) -> Decimal {
    leftovers.iter().filter_map(|l| l.monthly).sum()
}
