//! The TOML schema of a price sheet, exactly as written: every key optional (a sheet that
//! `extends` another states only what it changes), every value kept with its byte span so
//! that checking can point at it. `deny_unknown_fields` turns typos into errors.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use toml::Spanned;

use super::decimal::{NumberVisitor, RawNumber};

pub(crate) type Num = Option<Spanned<RawNumber>>;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSheet {
    pub id: Option<Spanned<String>>,
    pub provider: Option<Spanned<String>>,
    pub region: Option<Spanned<String>>,
    pub currency: Option<Spanned<String>>,
    /// A TOML date (`2026-01-21`) or the same in quotes.
    pub as_of: Option<Spanned<toml::Value>>,
    pub source: Option<Spanned<String>>,
    pub extends: Option<Spanned<String>>,
    pub billing: Option<Spanned<RawBilling>>,
    #[serde(default)]
    pub sku: Vec<Spanned<RawSku>>,
    pub network: Option<Spanned<RawNetwork>>,
    pub storage: Option<Spanned<RawStorage>>,
    pub extras: Option<Spanned<RawExtras>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBilling {
    pub step_seconds: Option<Spanned<u32>>,
    pub minimum_seconds: Option<Spanned<u32>>,
    /// `"keep-charging"`, `"stop-charging"`, or a fraction from 0 to 1.
    pub stop_policy: Num,
    pub month_hours: Option<Spanned<u32>>,
    /// The price of one compute unit, for SKUs that state `compute_units_per_hour`.
    pub compute_unit_price: Num,
    /// How often a spot instance is reclaimed, on average, per day.
    pub reclaims_per_day: Num,
    /// The hourly price of the instance started without its GPUs (AutoDL's 无卡模式).
    pub no_gpu_per_hour: Num,
    /// Days an instance may stay stopped before the platform releases it on its own.
    pub released_after_stopped_days: Option<Spanned<u32>>,
    /// What leaving a subscription early returns of its unused share: `"none"`, `"unused"`
    /// or a fraction.
    pub early_termination_refund: Option<Spanned<String>>,
    /// Where that refund goes: `"cash"` or `"vouchers"`.
    pub refund_to: Option<Spanned<String>>,
    /// `[[billing.duration_discount]]`: months bought at once, and the fraction off.
    pub duration_discount: Option<Vec<Spanned<RawDurationDiscount>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDurationDiscount {
    pub months: Option<Spanned<u32>>,
    pub off: Num,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSku {
    pub name: Option<Spanned<String>>,
    pub gpu_model: Option<Spanned<String>>,
    pub gpu_count: Option<Spanned<u32>>,
    pub gpu_memory_gib: Num,
    pub on_demand_per_hour: Num,
    pub spot_per_hour: Num,
    pub monthly: Num,
    pub daily: Num,
    pub weekly: Num,
    pub yearly: Num,
    pub compute_units_per_hour: Num,
    /// Overrides `billing.compute_unit_price` for this SKU.
    pub compute_unit_price: Num,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawNetwork {
    /// `"GiB"` or `"GB"`: the unit of every data price and allowance in this table.
    pub unit: Option<Spanned<String>>,
    pub egress_per_unit: Num,
    /// Sent to the VPC, private ranges and the provider's services in the region.
    pub intranet_per_unit: Num,
    /// Sent to the provider's addresses in another region.
    pub cross_region_per_unit: Num,
    pub ingress_per_unit: Num,
    pub free_egress_per_month: Num,
    pub fixed_bandwidth_per_mbps_month: Num,
    /// The Mbps a fixed-bandwidth plan has, where the sheet prices one size.
    pub fixed_bandwidth_mbps: Num,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStorage {
    pub disk: Option<BTreeMap<Spanned<String>, Spanned<RawDisk>>>,
    pub snapshot_per_gib_month: Num,
    pub image_per_gib_month: Num,
    pub network_volume_per_gib_month: Num,
}

/// A disk class: a plain price per GiB-month, or a table with a separate stopped rate.
#[derive(Debug)]
pub(crate) enum RawDisk {
    Flat(RawNumber),
    Split(RawDiskTable),
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDiskTable {
    pub per_gib_month: Num,
    pub when_stopped: Num,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawExtras {
    pub public_ip_attached_per_hour: Num,
    pub public_ip_idle_per_hour: Num,
    pub load_balancer_per_hour: Num,
    pub license_per_hour: Num,
    pub boot_fee: Num,
    pub other: Option<Vec<Spanned<RawOtherExtra>>>,
}

/// `[[extras.other]]`: a charge the sheet names itself.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawOtherExtra {
    pub label: Option<Spanned<String>>,
    pub per_hour: Num,
    pub per_month: Num,
}

impl<'de> Deserialize<'de> for RawDisk {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DiskVisitor)
    }
}

struct DiskVisitor;

impl<'de> Visitor<'de> for DiskVisitor {
    type Value = RawDisk;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a price per GiB-month, or { per_gib_month = ..., when_stopped = ... }")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<RawDisk, E> {
        NumberVisitor.visit_str(v).map(RawDisk::Flat)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawDisk, E> {
        NumberVisitor.visit_i64(v).map(RawDisk::Flat)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawDisk, E> {
        NumberVisitor.visit_u64(v).map(RawDisk::Flat)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawDisk, E> {
        NumberVisitor.visit_f64(v).map(RawDisk::Flat)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawDisk, A::Error> {
        RawDiskTable::deserialize(de::value::MapAccessDeserializer::new(map)).map(RawDisk::Split)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disk_is_a_price_or_a_table() {
        let raw: RawStorage = toml::from_str(
            "[disk]\ngp3 = 0.08\nvolume = { per_gib_month = \"0.10\", when_stopped = 0.2 }\n",
        )
        .unwrap();
        let disk = raw.disk.unwrap();
        let kinds: Vec<_> = disk
            .iter()
            .map(|(k, v)| {
                (
                    k.get_ref().as_str(),
                    matches!(v.get_ref(), RawDisk::Flat(_)),
                )
            })
            .collect();
        assert_eq!(kinds, [("gp3", true), ("volume", false)]);
    }
}
