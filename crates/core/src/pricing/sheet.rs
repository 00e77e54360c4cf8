//! A price sheet after loading and validation: every price is a `Decimal` in the sheet's
//! one currency, every required key is present. The meter reads only this.

use std::collections::BTreeMap;

use jiff::civil::Date;
use rust_decimal::Decimal;

use crate::money::{Currency, Rate};

/// The hours in a billing month when a sheet does not say otherwise (AWS and infracost use 730).
pub const DEFAULT_MONTH_HOURS: u32 = 730;

#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    /// Short name used by `--provider` and `extends`, such as `aws-us-east-1`.
    pub id: String,
    /// The provider adapter this sheet prices (`aws`, `alibaba`, `lambda`, ...).
    pub provider: String,
    pub region: Option<String>,
    pub currency: Currency,
    /// The date the prices were read from their source.
    pub as_of: Date,
    /// Where the prices come from (a URL or a repository and commit).
    pub source: String,
    pub billing: Billing,
    pub skus: Vec<Sku>,
    pub network: Network,
    pub storage: Storage,
    pub extras: Extras,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Billing {
    /// Compute is billed in whole steps of this many seconds (1, 60, 3600).
    pub step_seconds: u32,
    /// A run of the instance is billed for at least this many seconds.
    pub minimum_seconds: u32,
    pub stop_policy: StopPolicy,
    /// The hours in a month for every per-month price: storage, fixed bandwidth, subscriptions.
    pub month_hours: u32,
    /// How often a spot instance is reclaimed, on average, per day; `None`: unknown.
    pub reclaims_per_day: Option<Decimal>,
    /// What the instance costs per hour while it runs without its GPUs, a billing state of its
    /// own on card-hour platforms (AutoDL's 无卡模式, for setting up and uploading); `None`: the
    /// sheet knows no such rate (the platform has no such mode, or its price is unknown).
    pub no_gpu_per_hour: Option<Decimal>,
    /// Whole days an instance may stay stopped before the platform releases it and erases its
    /// disks on its own (15 on AutoDL); `None`: the sheet states no such rule.
    pub released_after_stopped_days: Option<u32>,
    /// What leaving a subscription early returns of its unused share, where the platform
    /// states a rule; a `[subscription] refund` in the config wins over it.
    pub early_termination_refund: Option<crate::subscription::Refund>,
    /// Where that refund goes (cash or vouchers), where the platform says.
    pub refund_to: Option<crate::subscription::RefundTo>,
    /// Cheaper months for buying several at once (`[[billing.duration_discount]]`), fewest
    /// months first: the last whose `months` the purchase reaches applies.
    pub duration_discounts: Vec<DurationDiscount>,
}

/// Buying at least `months` months at once takes `off` (a fraction below 1) off their price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DurationDiscount {
    pub months: u32,
    pub off: Decimal,
}

impl Billing {
    /// The fraction off a purchase of `months` months at once.
    pub fn discount_for(&self, months: u32) -> Decimal {
        self.duration_discounts
            .iter()
            .rev()
            .find(|d| d.months <= months)
            .map_or(Decimal::ZERO, |d| d.off)
    }
}

/// What compute costs while the instance is stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopPolicy {
    /// A stopped instance bills compute as if it ran (Alibaba standard mode, Tencent KEEP_CHARGING).
    KeepCharging,
    /// A stopped instance bills no compute; disks and IPs still bill (AWS, economical modes).
    StopCharging,
    /// A stopped instance bills this fraction (0..=1) of the compute rate.
    Fraction(Decimal),
}

impl StopPolicy {
    /// The share of the compute rate billed while stopped.
    pub fn compute_share(&self) -> Decimal {
        match self {
            StopPolicy::KeepCharging => Decimal::ONE,
            StopPolicy::StopCharging => Decimal::ZERO,
            StopPolicy::Fraction(f) => *f,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Sku {
    /// The provider's name for the instance type, such as `p4d.24xlarge`.
    pub name: String,
    pub gpu_model: String,
    pub gpu_count: u32,
    /// Memory per GPU in GiB, as the provider states it.
    pub gpu_memory_gib: Decimal,
    /// On-demand price per instance-hour.
    pub on_demand_per_hour: Option<Decimal>,
    /// Spot price per instance-hour, where the sheet knows one.
    pub spot_per_hour: Option<Decimal>,
    /// Subscription price per month (`billing.month_hours`) for the instance.
    pub monthly: Option<Decimal>,
    /// Subscription prices for the instance by the day (24 h), the week (168 h) and the year
    /// (8,760 h), where the platform sells such plans.
    pub daily: Option<Decimal>,
    pub weekly: Option<Decimal>,
    pub yearly: Option<Decimal>,
    pub compute_units: Option<ComputeUnits>,
}

/// Card-hour / compute-unit platforms: the instance consumes `units_per_hour` units, each at
/// `unit_price`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComputeUnits {
    pub units_per_hour: Decimal,
    pub unit_price: Decimal,
}

impl ComputeUnits {
    pub fn per_hour(&self) -> Decimal {
        self.units_per_hour * self.unit_price
    }
}

/// How a data price counts bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataUnit {
    /// 2^30 bytes.
    GiB,
    /// 10^9 bytes.
    GB,
}

impl DataUnit {
    pub fn bytes(self) -> u64 {
        match self {
            DataUnit::GiB => 1 << 30,
            DataUnit::GB => 1_000_000_000,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DataUnit::GiB => "GiB",
            DataUnit::GB => "GB",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    pub unit: DataUnit,
    /// Price per `unit` sent to the internet; `None`: the sheet says it is unknown.
    pub egress_per_unit: Option<Decimal>,
    /// Price per `unit` sent to the VPC, private ranges and the provider's services in the
    /// region; zero unless the sheet says otherwise.
    pub intranet_per_unit: Decimal,
    /// Price per `unit` sent to the provider in another region; `None`: not stated, and such
    /// bytes are priced as internet egress (never less than they may cost).
    pub cross_region_per_unit: Option<Decimal>,
    /// Price per `unit` received; zero on nearly every cloud.
    pub ingress_per_unit: Decimal,
    /// Egress free each calendar month (UTC), in `unit`s.
    pub free_egress_per_month: Decimal,
    /// Fixed-bandwidth plans: price per Mbps per month, billed by time, not bytes.
    pub fixed_bandwidth_per_mbps_month: Option<Decimal>,
    /// The Mbps of the fixed-bandwidth plan, where the sheet knows it (a config can say too).
    pub fixed_bandwidth_mbps: Option<Decimal>,
}

impl Default for Network {
    fn default() -> Self {
        Network {
            unit: DataUnit::GiB,
            egress_per_unit: Some(Decimal::ZERO),
            intranet_per_unit: Decimal::ZERO,
            cross_region_per_unit: None,
            ingress_per_unit: Decimal::ZERO,
            free_egress_per_month: Decimal::ZERO,
            fixed_bandwidth_per_mbps_month: None,
            fixed_bandwidth_mbps: None,
        }
    }
}

/// Storage prices per GiB-month. `None` means the sheet does not know the price: the meter
/// reports such a resource as unpriced rather than free.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Storage {
    /// Per disk class (`gp3`, `cloud_essd`, `volume`, ...).
    pub disk: BTreeMap<String, DiskPrice>,
    pub snapshot: Option<Decimal>,
    pub image: Option<Decimal>,
    pub network_volume: Option<Decimal>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiskPrice {
    pub per_gib_month: Decimal,
    /// Some providers charge a different rate while the instance is stopped (RunPod volume disks).
    pub when_stopped: Option<Decimal>,
}

/// Hourly and per-event extras. `None` means unknown, as for storage.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Extras {
    /// A public IP while it is attached to a running instance.
    pub public_ip_attached_per_hour: Option<Decimal>,
    /// A public IP kept without a running instance.
    pub public_ip_idle_per_hour: Option<Decimal>,
    pub load_balancer_per_hour: Option<Decimal>,
    pub license_per_hour: Option<Decimal>,
    /// Charged on every start of the instance.
    pub boot_fee: Option<Decimal>,
    /// Charges the sheet names itself (`[[extras.other]]`: support, port mapping, a tunnel).
    pub other: Vec<OtherExtra>,
}

/// A charge with a label of the sheet's own, per instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherExtra {
    pub label: String,
    pub price: OtherPrice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtherPrice {
    /// By the hour while the instance is up (with its GPUs or without).
    PerHourUp(Decimal),
    /// By the month, for every hour the instance exists (running or stopped), a month being
    /// the sheet's `billing.month_hours`.
    PerMonth(Decimal),
}

impl Sheet {
    pub fn sku(&self, name: &str) -> Option<&Sku> {
        self.skus.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// A price from this sheet as a rate in the sheet's currency.
    pub fn rate(&self, amount: Decimal) -> Rate {
        Rate::new(amount, self.currency)
    }

    /// Whole days between `as_of` and `today`; negative if the sheet is dated in the future.
    pub fn age_days(&self, today: Date) -> i64 {
        // Dates this close together never overflow a span in days.
        (today - self.as_of).get_days().into()
    }
}

/// Sheets older than this print a warning with their date.
pub const STALE_AFTER_DAYS: i64 = 180;
