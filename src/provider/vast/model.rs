//! Vast.ai's instance rows, the host's own rates on them, and the price sheet those rates make.

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::meter::InstanceState;
use crate::pricing::sheet::DiskPrice;
use crate::pricing::{DataUnit, Sheet};
use crate::provider::bearer::{decimal, text};

/// The disk class the host's storage is priced by in [`host_sheet`].
pub const STORAGE_CLASS: &str = "vast-host";
/// Vast prices storage per GB-month; a month here is 30 days, used everywhere in this adapter.
pub const MONTH_HOURS: u32 = 720;

/// What the host charges on top of the GPU rental; `None` where the row does not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HostRates {
    /// `storage_cost`, USD per GB-month, billed stopped or running.
    pub storage_per_gb_month: Option<Decimal>,
    /// `inet_up_cost`, USD per GB sent.
    pub egress_per_gb: Option<Decimal>,
    /// `inet_down_cost`, USD per GB received.
    pub ingress_per_gb: Option<Decimal>,
}

/// One instance as Vast lists it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub id: String,
    pub label: String,
    pub actual: Option<String>,
    pub intended: Option<String>,
    pub dph_total: Option<Decimal>,
    pub dph_base: Option<Decimal>,
    pub disk_gb: Decimal,
    pub rates: HostRates,
    pub gpus: u64,
    pub gpu_name: String,
    pub started: Option<Timestamp>,
}

pub fn parse(v: &Value) -> Option<Seen> {
    let num = |k: &str| v.get(k).and_then(decimal);
    Some(Seen {
        id: text(v, "id")?,
        label: text(v, "label").unwrap_or_default(),
        actual: text(v, "actual_status"),
        intended: text(v, "intended_status"),
        dph_total: num("dph_total"),
        dph_base: num("dph_base"),
        disk_gb: num("disk_space").unwrap_or_default(),
        rates: HostRates {
            storage_per_gb_month: num("storage_cost"),
            egress_per_gb: num("inet_up_cost"),
            ingress_per_gb: num("inet_down_cost"),
        },
        gpus: v.get("num_gpus").and_then(Value::as_u64).unwrap_or(1),
        gpu_name: text(v, "gpu_name").unwrap_or_default(),
        started: v.get("start_date").and_then(epoch),
    })
}

/// Vast's times: seconds since the epoch, with a fraction.
pub fn epoch(v: &Value) -> Option<Timestamp> {
    let s = v.as_f64()?;
    #[expect(
        clippy::cast_possible_truncation,
        reason = "trunc() leaves a whole number; one past i64 is no date and from_second refuses it"
    )]
    let whole = s.trunc() as i64;
    Timestamp::from_second(whole).ok()
}

impl Seen {
    /// Stopped means Vast says so and meant it; a container that exited on its own while the
    /// instance should run still holds the GPU.
    pub fn state(&self) -> InstanceState {
        match (self.actual.as_deref(), self.intended.as_deref()) {
            (Some("stopped"), _) | (Some("exited"), Some("stopped")) => InstanceState::Stopped,
            _ => InstanceState::Running,
        }
    }

    /// The rental per hour without the storage share: `dph_base` where the row has it, else
    /// `dph_total` less `storage_cost × disk_space / 720`, since storage is metered separately
    /// (public rows show `dph_total = dph_base + storage`).
    pub fn compute_per_hour(&self) -> Option<Decimal> {
        if let Some(base) = self.dph_base {
            return Some(base);
        }
        let total = self.dph_total?;
        let storage = self
            .rates
            .storage_per_gb_month
            .map(|p| p * self.disk_gb / Decimal::from(MONTH_HOURS));
        match storage {
            Some(s) if total >= s => Some(total - s),
            _ => Some(total),
        }
    }

    /// The `vast-typical` sheet's name for this rental (`1x-rtx-4090`).
    pub fn sku(&self) -> String {
        let slug: String = self
            .gpu_name
            .trim()
            .to_ascii_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("-");
        format!("{}x-{slug}", self.gpus)
    }
}

/// `base` with this host's rates: egress and ingress per GB at `inet_up_cost` and
/// `inet_down_cost`, and the instance's storage (class [`STORAGE_CLASS`]) at `storage_cost`,
/// the same while stopped. Rates the row leaves out keep `base`'s value.
pub fn host_sheet(base: &Sheet, rates: &HostRates) -> Sheet {
    let mut sheet = base.clone();
    sheet.billing.month_hours = MONTH_HOURS;
    if rates.egress_per_gb.is_some() || rates.ingress_per_gb.is_some() {
        sheet.network.unit = DataUnit::GB;
        sheet.network.egress_per_unit = Some(rates.egress_per_gb.unwrap_or(Decimal::ZERO));
        sheet.network.ingress_per_unit = rates.ingress_per_gb.unwrap_or(Decimal::ZERO);
        sheet.network.free_egress_per_month = Decimal::ZERO;
    }
    if let Some(p) = rates.storage_per_gb_month {
        sheet.storage.disk.insert(
            STORAGE_CLASS.into(),
            DiskPrice {
                per_gib_month: p,
                when_stopped: Some(p),
            },
        );
    }
    sheet.source = crate::t!("vast-sheet-source", source = base.source.as_str());
    sheet
}
