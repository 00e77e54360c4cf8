//! What a plan is (how the user means to rent) and the prices it runs on.

use rust_decimal::Decimal;

use crate::money::Currency;
use crate::pricing::sheet::{DurationDiscount, Extras, Sheet, Sku};

/// Hours in a month for inline prices (no sheet): a 30-day month.
pub const INLINE_MONTH_HOURS: u32 = 720;

/// How the user means to rent: so many hours a day, cut into so many runs, for so many days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub hours_per_day: Decimal,
    pub days: Decimal,
    /// Each run is a start: billed with the sheet's step, minimum and boot fee.
    pub runs_per_day: u32,
}

impl Plan {
    /// Hours of use: what the instance runs.
    pub fn hours(&self) -> Decimal {
        self.hours_per_day * self.days
    }

    /// Every hour of the plan, used or not: what disks and load balancers bill.
    pub fn wall_hours(&self) -> Decimal {
        self.days * Decimal::from(24)
    }

    /// Starts over `days` (a fractional day counts its share of runs); none when nothing runs.
    pub fn runs_in(&self, days: Decimal) -> Decimal {
        if self.hours_per_day.is_zero() || self.runs_per_day == 0 {
            Decimal::ZERO
        } else {
            Decimal::from(self.runs_per_day) * days
        }
    }

    /// Times the instance boots over `days`: one per run, except that a plan running all day
    /// never stops, so it boots once however long it lasts.
    pub fn starts_in(&self, days: Decimal) -> Decimal {
        let runs = self.runs_in(days);
        if self.hours_per_day >= Decimal::from(24) && !runs.is_zero() {
            Decimal::ONE
        } else {
            runs
        }
    }

    /// Hours of one run: the day's hours split evenly across its runs.
    pub fn run_hours(&self) -> Decimal {
        if self.runs_per_day == 0 {
            Decimal::ZERO
        } else {
            self.hours_per_day / Decimal::from(self.runs_per_day)
        }
    }

    /// Months of `month_hours` the plan spans, at least one: what a subscription buys.
    pub fn months(&self, month_hours: u32) -> Decimal {
        (self.wall_hours() / Decimal::from(month_hours))
            .ceil()
            .max(Decimal::ONE)
    }
}

/// What the plan uses beyond compute, as the user states it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Needs {
    pub egress_gb: Decimal,
    /// Kept for the whole plan, running or not.
    pub storage_gb: Decimal,
    /// Fixed bandwidth, where the user states it (else the sheet's).
    pub bandwidth_mbps: Option<Decimal>,
    /// Licences; `None`: one per instance, charged where the sheet prices licences.
    pub licenses: Option<u32>,
    pub public_ips: u32,
    pub load_balancers: u32,
    /// Spot risk: how often work is checkpointed, in hours.
    pub checkpoint_every_hours: Option<Decimal>,
    /// Overrides the sheet's `billing.reclaims_per_day`.
    pub reclaims_per_day: Option<Decimal>,
}

/// Prices for the rental in one currency. Compute prices are for all instances together;
/// extras are per instance or per resource, as the sheet states them. `None`: unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanPrices {
    pub currency: Currency,
    pub instances: u32,
    pub on_demand_per_hour: Option<Decimal>,
    pub spot_per_hour: Option<Decimal>,
    pub monthly: Option<Decimal>,
    pub daily: Option<Decimal>,
    pub weekly: Option<Decimal>,
    pub yearly: Option<Decimal>,
    /// Cheaper months for buying several at once, fewest months first.
    pub duration_discounts: Vec<DurationDiscount>,
    pub step_seconds: u32,
    pub minimum_seconds: u32,
    /// The one month length for storage, subscriptions and every per-month price.
    pub month_hours: u32,
    pub egress_per_gb: Option<Decimal>,
    pub free_egress_gb_per_month: Decimal,
    pub storage_per_gb_month: Option<Decimal>,
    /// `None`: the sheet bills no fixed bandwidth.
    pub fixed_bandwidth_per_mbps_month: Option<Decimal>,
    pub fixed_bandwidth_mbps: Option<Decimal>,
    pub extras: Extras,
    pub reclaims_per_day: Option<Decimal>,
}

impl PlanPrices {
    /// Inline prices: no step, no minimum, no extras, a 30-day month.
    pub fn inline(currency: Currency) -> Self {
        PlanPrices {
            currency,
            instances: 1,
            on_demand_per_hour: None,
            spot_per_hour: None,
            monthly: None,
            daily: None,
            weekly: None,
            yearly: None,
            duration_discounts: Vec::new(),
            step_seconds: 1,
            minimum_seconds: 0,
            month_hours: INLINE_MONTH_HOURS,
            egress_per_gb: Some(Decimal::ZERO),
            free_egress_gb_per_month: Decimal::ZERO,
            storage_per_gb_month: None,
            fixed_bandwidth_per_mbps_month: None,
            fixed_bandwidth_mbps: None,
            extras: Extras::default(),
            reclaims_per_day: None,
        }
    }

    /// Every price of `instances` of `sku` from `sheet`, converted to per GB where the sheet
    /// counts another unit.
    pub fn from_sheet(sheet: &Sheet, sku: &Sku, instances: u32) -> Self {
        let n = Decimal::from(instances);
        let unit = sheet.network.unit;
        let gb = Decimal::from(crate::pricing::DataUnit::GB.bytes());
        let unit_bytes = Decimal::from(unit.bytes());
        let gib = Decimal::from(crate::pricing::DataUnit::GiB.bytes());
        let on_demand = sku
            .on_demand_per_hour
            .or_else(|| sku.compute_units.map(|u| u.per_hour()));
        PlanPrices {
            currency: sheet.currency,
            instances,
            on_demand_per_hour: on_demand.map(|p| p * n),
            spot_per_hour: sku.spot_per_hour.map(|p| p * n),
            monthly: sku.monthly.map(|p| p * n),
            daily: sku.daily.map(|p| p * n),
            weekly: sku.weekly.map(|p| p * n),
            yearly: sku.yearly.map(|p| p * n),
            duration_discounts: sheet.billing.duration_discounts.clone(),
            step_seconds: sheet.billing.step_seconds,
            minimum_seconds: sheet.billing.minimum_seconds,
            month_hours: sheet.billing.month_hours,
            egress_per_gb: sheet.network.egress_per_unit.map(|p| p * gb / unit_bytes),
            free_egress_gb_per_month: sheet.network.free_egress_per_month * unit_bytes / gb,
            // Sheets price storage per GiB-month; a plan counts GB.
            storage_per_gb_month: only_disk_price(sheet).map(|p| p * gb / gib),
            fixed_bandwidth_per_mbps_month: sheet.network.fixed_bandwidth_per_mbps_month,
            fixed_bandwidth_mbps: sheet.network.fixed_bandwidth_mbps,
            extras: sheet.extras.clone(),
            reclaims_per_day: sheet.billing.reclaims_per_day,
        }
    }
}

/// The storage price a plan's storage uses: the sheet's only disk class, or its network
/// volume price when it prices no disks; `None` when it has none or several to choose from.
pub fn only_disk_price(sheet: &Sheet) -> Option<Decimal> {
    let mut classes = sheet.storage.disk.values();
    match (classes.next(), classes.next()) {
        (Some(price), None) => Some(price.per_gib_month),
        (None, _) => sheet.storage.network_volume,
        (Some(_), Some(_)) => None,
    }
}
