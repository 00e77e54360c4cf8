//! A small, hand-made price sheet whose numbers make hand-computed expectations easy: the
//! engine's tests, property tests and benchmark all price against it.

use std::collections::BTreeMap;

use jiff::civil::date;
use rust_decimal::{Decimal, dec};

use crate::money::Currency;
use crate::pricing::{
    Billing, DataUnit, DiskPrice, Extras, Network, Sheet, Sku, StopPolicy, Storage,
};

/// USD; per-second billing with no minimum; stopped instances bill no compute; one SKU at
/// 3.60 an hour; disks `ssd` (0.10 per GiB-month) and `volume` (0.10, 0.20 while stopped).
pub fn example_sheet() -> Sheet {
    let mut disk = BTreeMap::new();
    disk.insert(
        "ssd".to_string(),
        DiskPrice {
            per_gib_month: dec!(0.10),
            when_stopped: None,
        },
    );
    disk.insert(
        "volume".to_string(),
        DiskPrice {
            per_gib_month: dec!(0.10),
            when_stopped: Some(dec!(0.20)),
        },
    );
    Sheet {
        id: "test".into(),
        provider: "test".into(),
        region: None,
        currency: Currency::USD,
        as_of: date(2026, 11, 1),
        source: "hand-made for tests".into(),
        billing: Billing {
            step_seconds: 1,
            minimum_seconds: 0,
            stop_policy: StopPolicy::StopCharging,
            month_hours: 730,
            reclaims_per_day: None,
            no_gpu_per_hour: None,
            released_after_stopped_days: None,
            early_termination_refund: None,
            refund_to: None,
            duration_discounts: Vec::new(),
        },
        skus: vec![Sku {
            name: "gpu.1x".into(),
            gpu_model: "A100-SXM4-80GB".into(),
            gpu_count: 1,
            gpu_memory_gib: dec!(80),
            on_demand_per_hour: Some(dec!(3.60)),
            spot_per_hour: Some(dec!(1.20)),
            monthly: Some(dec!(1500)),
            daily: None,
            weekly: None,
            yearly: None,
            compute_units: None,
        }],
        network: Network {
            unit: DataUnit::GiB,
            egress_per_unit: Some(dec!(0.09)),
            intranet_per_unit: Decimal::ZERO,
            cross_region_per_unit: Some(dec!(0.02)),
            ingress_per_unit: Decimal::ZERO,
            free_egress_per_month: dec!(100),
            fixed_bandwidth_per_mbps_month: Some(dec!(7.30)),
            fixed_bandwidth_mbps: None,
        },
        storage: Storage {
            disk,
            snapshot: Some(dec!(0.05)),
            image: Some(dec!(0.05)),
            network_volume: None,
        },
        extras: Extras {
            public_ip_attached_per_hour: Some(dec!(0.005)),
            public_ip_idle_per_hour: Some(dec!(0.01)),
            load_balancer_per_hour: Some(dec!(0.025)),
            license_per_hour: Some(dec!(0.50)),
            boot_fee: Some(dec!(0.10)),
            other: Vec::new(),
        },
    }
}
