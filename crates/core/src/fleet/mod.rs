//! The fleet: every configured instance and what it leaves behind, priced, sorted by what it
//! costs, and flagged when it looks forgotten, idle, doubled or left over. Pure: the inventories,
//! prices and telemetry come in as arguments; `gpumeter fleet` and the cockpit read them.

mod discover;
mod flags;
pub mod table;

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde::Serialize;

use crate::cloud::Inventory;
use crate::meter::{InstanceState, Leftover};
use crate::pricing::sheet::DEFAULT_MONTH_HOURS;
use crate::spend::{Account, CostCents, Pricing, Recorded, account, unpriced_leftover};

pub use discover::{FleetFilter, account_rows};
pub use flags::{IDLE_AFTER_S, flag, sort_by_cost};

/// Where an instance was looked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Origin {
    pub account: String,
    pub provider: String,
    pub region: Option<String>,
    pub instance_id: String,
}

/// Whether the instance reports telemetry: a watchdog heartbeat, a `gpumeter serve` answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Reporting {
    /// A watchdog beats its heart for it (`None`: nothing known).
    pub heartbeat: Option<bool>,
    /// Seconds every GPU and the CPU have been idle, from its metrics (`None`: no answer).
    pub idle_s: Option<f64>,
    /// This process reads the instance's GPUs itself (the cockpit on the instance).
    pub here: bool,
}

impl Reporting {
    pub fn reporting(&self) -> bool {
        self.here || self.heartbeat == Some(true) || self.idle_s.is_some()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// Running, and nothing reports from it: no heartbeat, no metrics.
    Forgotten,
    /// Running with every GPU and the CPU idle for half an hour or more.
    Idle,
    /// Running beside another instance of the same name in the same account.
    Overlap,
    /// Not running, and resources it left keep billing.
    Leftovers,
    /// The provider could not be read.
    Unreachable,
    /// No price sheet prices it: its cost is unknown, not zero.
    Unpriced,
}

impl Flag {
    pub fn label(self) -> &'static str {
        match self {
            Flag::Forgotten => "forgotten",
            Flag::Idle => "idle",
            Flag::Overlap => "overlap",
            Flag::Leftovers => "leftovers",
            Flag::Unreachable => "unreachable",
            Flag::Unpriced => "unpriced",
        }
    }

    /// What a row is flagged for, in the user's language (the JSON keeps [`Flag::label`]).
    pub fn shown(self) -> std::borrow::Cow<'static, str> {
        match self {
            Flag::Forgotten => crate::t!("flag-forgotten"),
            Flag::Idle => crate::t!("flag-idle"),
            Flag::Overlap => crate::t!("flag-overlap"),
            Flag::Leftovers => crate::t!("flag-leftovers"),
            Flag::Unreachable => crate::t!("flag-unreachable"),
            Flag::Unpriced => crate::t!("flag-unpriced"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetRow {
    #[serde(flatten)]
    pub origin: Origin,
    pub name: Option<String>,
    pub sku: Option<String>,
    /// `None` when the provider could not be read, or no longer lists the instance.
    pub state: Option<InstanceState>,
    pub currency: Option<String>,
    pub burn_per_hour: Option<Decimal>,
    pub uptime_s: Option<i64>,
    pub deadline: Option<Timestamp>,
    pub deadline_remaining_s: Option<i64>,
    /// What the instance has cost since it was created: the account every surface gives,
    /// `None` when nothing prices it or the provider no longer lists it.
    pub cost: Option<CostCents>,
    /// What the leftovers cost per month once the instance is released.
    pub leftover_monthly: Option<Decimal>,
    pub leftovers: Vec<Leftover>,
    /// What `burn_per_hour` leaves out because the sheet cannot price it, each with the
    /// missing key; while not empty the burn is a lower bound.
    pub burn_unknown: Vec<String>,
    /// The leftovers `leftover_monthly` leaves out because the sheet has no price for them;
    /// while not empty it is a lower bound.
    pub leftover_unknown: Vec<String>,
    pub reporting: Reporting,
    pub flags: Vec<Flag>,
    /// Why the row could not be read, in English, as JSON carries it.
    pub error: Option<String>,
    /// The same in the user's language, where the reader gave it; see [`FleetRow::shown_error`].
    #[serde(skip)]
    pub error_shown: Option<String>,
    /// The hours in a month of its sheet (`billing.month_hours`), by which a month of burn is
    /// counted.
    #[serde(skip)]
    pub month_hours: u32,
}

impl FleetRow {
    /// A row of `origin` that knows nothing yet.
    fn blank(origin: Origin, reporting: Reporting, month_hours: u32) -> FleetRow {
        FleetRow {
            origin,
            name: None,
            sku: None,
            state: None,
            currency: None,
            burn_per_hour: None,
            uptime_s: None,
            deadline: None,
            deadline_remaining_s: None,
            cost: None,
            leftover_monthly: None,
            leftovers: Vec::new(),
            burn_unknown: Vec::new(),
            leftover_unknown: Vec::new(),
            reporting,
            flags: Vec::new(),
            error: None,
            error_shown: None,
            month_hours,
        }
    }

    /// A month of the current burn plus a month of leftovers: the sort key. `None` when the
    /// cost is not known.
    pub fn monthly_equivalent(&self) -> Option<Decimal> {
        if self.error.is_some() {
            return None;
        }
        let running = self.state.is_some_and(InstanceState::is_up);
        let burn = if running {
            self.burn_per_hour
                .map(|b| b * Decimal::from(self.month_hours))
        } else {
            Some(Decimal::ZERO)
        };
        match (burn, self.leftover_monthly) {
            (Some(b), Some(l)) => Some(b + l),
            (Some(b), None) if self.leftovers.is_empty() => Some(b),
            (None, Some(l)) => Some(l),
            _ => None,
        }
    }

    /// Why the row could not be read, as a terminal says it: in the user's language where the
    /// reader gave the words, else as JSON carries it.
    pub fn shown_error(&self) -> Option<&str> {
        self.error_shown.as_deref().or(self.error.as_deref())
    }

    pub fn running(&self) -> bool {
        self.state.is_some_and(InstanceState::is_up)
    }
}

/// One instance's row from what its provider said and what the ledger `recorded` of it (empty
/// for an instance this machine never watched), priced with `pricing`, at `now`.
pub fn row(
    origin: Origin,
    inventory: Result<(&Inventory, &Recorded), &str>,
    pricing: Option<&Pricing>,
    reporting: Reporting,
    now: Timestamp,
) -> FleetRow {
    let month_hours = pricing.map_or(DEFAULT_MONTH_HOURS, |p| p.sheet.billing.month_hours);
    let mut row = FleetRow::blank(origin, reporting, month_hours);
    let (inventory, recorded) = match inventory {
        Ok(read) => read,
        Err(why) => {
            row.error = Some(why.to_string());
            return row;
        }
    };
    if let Some(instance) = &inventory.instance {
        row.name = Some(instance.name.clone()).filter(|n| !n.is_empty());
        row.sku = Some(instance.sku.clone());
        row.state = Some(instance.state);
        if instance.state.is_up() {
            row.uptime_s = Some(now.duration_since(running_since(instance)).as_secs());
        }
    }
    row.deadline = inventory.deadline.map(|d| d.at);
    row.deadline_remaining_s = row.deadline.map(|d| d.duration_since(now).as_secs());
    let sheet = pricing.map(|p| &p.sheet);
    row.currency = sheet.map(|s| s.currency.as_str().to_string());
    // An instance gone and never recorded has no account; what it left is priced as orphans.
    let known = inventory.instance.is_some() || recorded.instance.is_some();
    let account = known
        .then(|| account(pricing, recorded, inventory, now))
        .flatten();
    match account {
        Some(account) => render_account(&mut row, &account),
        None => price_leftovers(&mut row, inventory, sheet),
    }
    row
}

/// The row's money from the instance's one account: its cost, its burn and what still bills.
pub fn render_account(row: &mut FleetRow, account: &Account) {
    row.cost = Some(account.cost_cents());
    row.burn_per_hour = Some(account.burn_per_hour.total().amount.round_dp(4));
    row.burn_unknown.clone_from(&account.total.unknown);
    row.leftovers.clone_from(&account.leftovers);
    row.leftover_monthly = Some(account.still_billing_monthly.known.amount.round_dp(2));
    row.leftover_unknown
        .clone_from(&account.still_billing_monthly.unknown);
}

/// The row of what bills in an account with no instance of its listing (`inventory` holds no
/// instance), priced by the region's `sheet`; unpriced without one.
pub fn orphans_row(
    origin: Origin,
    inventory: &Inventory,
    sheet: Option<&crate::pricing::Sheet>,
) -> FleetRow {
    let month_hours = sheet.map_or(DEFAULT_MONTH_HOURS, |s| s.billing.month_hours);
    let mut row = FleetRow::blank(origin, Reporting::default(), month_hours);
    row.currency = sheet.map(|s| s.currency.as_str().to_string());
    price_leftovers(&mut row, inventory, sheet);
    row
}

/// What outlives the instance, each priced by `sheet` a month after release, and their sum.
fn price_leftovers(
    row: &mut FleetRow,
    inventory: &Inventory,
    sheet: Option<&crate::pricing::Sheet>,
) {
    row.leftovers = inventory
        .resources
        .iter()
        .filter(|r| !r.deleted_with_instance || inventory.instance.is_none())
        .map(|r| Leftover {
            id: r.id.clone(),
            kind: r.kind,
            size_gib: r.size_gib.normalize(),
            monthly: sheet.and_then(|s| crate::meter::monthly_after_release(s, &r.to_meter())),
        })
        .collect();
    if sheet.is_some() {
        row.leftover_unknown = row
            .leftovers
            .iter()
            .filter(|l| l.monthly.is_none())
            .map(|l| unpriced_leftover(l.kind, &l.id))
            .collect();
    }
    row.leftover_monthly = sheet.map(|_| {
        row.leftovers
            .iter()
            .filter_map(|l| l.monthly)
            .sum::<Decimal>()
            .round_dp(2)
    });
}

/// When the instance last started running: its uptime counts from there.
fn running_since(instance: &crate::cloud::InstanceInfo) -> Timestamp {
    instance
        .history
        .iter()
        .rev()
        .find(|(_, s)| s.is_up())
        .map_or(instance.created, |(at, _)| *at)
}
