//! An account read by listing rather than by ids: which of its instances and orphans the
//! filters keep, and how they become the inventories fleet rows are priced from. Pure: the
//! listings come in as arguments.

use std::collections::{BTreeMap, HashSet};

use crate::cloud::{Discovered, Inventory, LinkedResource};
use crate::meter::ResourceKind;

use super::Origin;

/// What `fleet --tag`, `--region` and `--provider` keep; empty keeps everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FleetFilter {
    /// Every one of these tags must be among an instance's or orphan's own: a key with its
    /// value, or a key alone for any value (as `sweep --tag` takes them).
    pub tags: Vec<(String, Option<String>)>,
    /// An account is read only in one of these regions.
    pub regions: Vec<String>,
    /// An account is read only on one of these providers.
    pub providers: Vec<String>,
}

impl FleetFilter {
    /// Whether an account on `provider` in `region` is read at all. An account whose region
    /// is left to the provider's variable passes a region filter only when it names that
    /// region, which is not known until the adapter is built; it is kept and its instances'
    /// own regions are judged by [`FleetFilter::keeps_region`].
    pub fn reads(&self, provider: &str, region: Option<&str>) -> bool {
        let provider_ok = self.providers.is_empty() || self.providers.iter().any(|p| p == provider);
        provider_ok && region.is_none_or(|r| self.keeps_region(Some(r)))
    }

    pub fn keeps_region(&self, region: Option<&str>) -> bool {
        self.regions.is_empty() || region.is_some_and(|r| self.regions.iter().any(|x| x == r))
    }

    pub fn keeps_tags(&self, tags: &BTreeMap<String, String>) -> bool {
        self.tags.iter().all(|(k, v)| {
            tags.get(k)
                .is_some_and(|have| v.as_ref().is_none_or(|v| v == have))
        })
    }
}

/// One account's listings as rows to price: each instance the filter keeps, and one row of
/// what bills with no instance (the sweep less whatever an instance of the listing holds:
/// a stopped instance's disks stay on its row, the instance itself is not listed twice).
/// `account` is where the listing was made; each row's instance id and region are filled in.
pub fn account_rows(
    account: &Origin,
    instances: Vec<Discovered>,
    swept: Vec<LinkedResource>,
    filter: &FleetFilter,
) -> Vec<(Origin, Inventory)> {
    let held: HashSet<&str> = instances
        .iter()
        .flat_map(|d| {
            std::iter::once(d.instance.id.as_str()).chain(d.resources.iter().map(|r| r.id.as_str()))
        })
        .collect();
    let orphans: Vec<LinkedResource> = swept
        .into_iter()
        .filter(|r| !held.contains(r.id.as_str()))
        .filter(|r| {
            r.kind == ResourceKind::StoppedInstance
                || r.attached_to.as_deref().is_none_or(|i| !held.contains(i))
        })
        .filter(|r| filter.keeps_tags(&r.tags))
        .collect();
    let region = |r: Option<&String>| r.or(account.region.as_ref()).cloned();
    let mut rows: Vec<(Origin, Inventory)> = instances
        .into_iter()
        .filter(|d| filter.keeps_tags(&d.tags))
        .filter(|d| filter.keeps_region(region(d.instance.region.as_ref()).as_deref()))
        .map(|d| {
            let origin = Origin {
                instance_id: d.instance.id.clone(),
                region: region(d.instance.region.as_ref()),
                ..account.clone()
            };
            (origin, d.inventory())
        })
        .collect();
    if !orphans.is_empty() && filter.keeps_region(account.region.as_deref()) {
        let inventory = Inventory {
            instance: None,
            resources: orphans,
            deadline: None,
        };
        rows.push((account.clone(), inventory));
    }
    rows
}
