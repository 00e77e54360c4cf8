//! The one account of an instance that every surface shows: what it has cost (accrued and
//! billed, by component), what still bills and at what rate, and what is unknown. Built from
//! what the ledger recorded and the latest provider reading, so a fresh process and the cockpit
//! that ran all along give the same numbers.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde::Serialize;

use super::{Pricing, Spend, SpendReading};
use crate::cloud::{InstanceInfo, Inventory};
use crate::meter::{
    Accrual, Breakdown, EgressByClass, InstanceState, Leftover, Resource, ResourceKind, Traffic,
};
use crate::money::{Currency, Money, PartialTotal};

/// What an account has cost, as every surface's JSON gives it: each line in cents, the lines
/// adding up to the total, and what the total leaves out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CostCents {
    pub currency: Currency,
    pub compute: String,
    pub bandwidth: String,
    pub storage: String,
    pub extras: String,
    pub total: String,
    /// What the sheet cannot price, each with the missing key; left out of every amount.
    pub unknown: Vec<String>,
    /// The total leaves something out: `unknown` is not empty.
    pub incomplete: bool,
    /// The bandwidth line's egress by destination: bytes and cost per class.
    pub egress: EgressCents,
}

/// Egress by destination, as JSON gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EgressCents {
    pub internet: ClassCents,
    pub intranet: ClassCents,
    pub cross_region: ClassCents,
}

/// The bytes sent to one class of destination and what they cost, to the cent (each class
/// rounded on its own: they may differ from the bandwidth line by a cent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClassCents {
    pub bytes: u64,
    pub cost: String,
}

impl EgressCents {
    pub fn of(egress: &EgressByClass) -> Self {
        let class = |c: &crate::meter::ClassCost| {
            let mut cost = c.accrued.round_dp(2);
            cost.rescale(2);
            ClassCents {
                bytes: c.bytes,
                cost: cost.to_string(),
            }
        };
        EgressCents {
            internet: class(&egress.internet),
            intranet: class(&egress.intranet),
            cross_region: class(&egress.cross_region),
        }
    }
}

/// What the ledger recorded of an instance: its last listing and release, every resource
/// seen with the last time it was listed, and the egress the meter measured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recorded {
    pub instance: Option<(InstanceInfo, Option<Timestamp>)>,
    pub resources: Vec<(Resource, Timestamp)>,
    /// Bytes that left the instance, by the minute (or hour) they were measured in.
    pub traffic: Vec<Traffic>,
}

/// The account of one instance at one instant.
#[derive(Debug, Clone, PartialEq)]
pub struct Account {
    pub currency: Currency,
    /// The exact cost so far, by component; what is unknown is left out and named.
    pub accrued: Breakdown,
    /// What the provider bills so far (the billing step and minimum applied).
    pub billed: Breakdown,
    /// How fast each component grows now; no compute once released or stopped unbilled.
    pub burn_per_hour: Breakdown,
    /// The accrued total and what it leaves out.
    pub total: PartialTotal,
    /// What keeps billing once the instance is released (after its release: what still
    /// bills), a month, with each resource the sheet cannot price named.
    pub still_billing_monthly: PartialTotal,
    /// Each resource that keeps billing after the release, priced where the sheet can.
    pub leftovers: Vec<Leftover>,
    /// When the instance was released, if it was.
    pub released: Option<Timestamp>,
    /// The bandwidth line's egress by destination.
    pub egress: EgressByClass,
    /// A large transfer to the internet under way.
    pub public_upload: Option<crate::meter::upload::PublicUpload>,
}

impl Account {
    /// The account the meter's `reading` gives, released at `released`.
    pub fn of(reading: &SpendReading, released: Option<Timestamp>) -> Account {
        let accrual = &reading.accrual;
        let currency = accrual.accrued.currency;
        let total = PartialTotal {
            known: accrual.accrued.total(),
            unknown: accrual.unpriced.clone(),
        };
        let mut still = PartialTotal::zero(currency);
        for left in &reading.leftovers {
            let label = unpriced_leftover(left.kind, &left.id);
            // Same currency by construction: the sheet prices both.
            let _ = still.add(left.monthly.map(|m| Money::new(m, currency)), &label);
        }
        Account {
            currency,
            accrued: accrual.accrued,
            billed: accrual.billed,
            burn_per_hour: accrual.burn_per_hour,
            total,
            still_billing_monthly: still,
            leftovers: reading.leftovers.clone(),
            released,
            egress: accrual.egress,
            public_upload: reading.public_upload,
        }
    }

    /// What it has cost, in cents, as JSON shows it.
    pub fn cost_cents(&self) -> CostCents {
        let [compute, bandwidth, storage, extras, total] =
            self.accrued.to_cents().map(|d| d.to_string());
        CostCents {
            currency: self.currency,
            compute,
            bandwidth,
            storage,
            extras,
            total,
            unknown: self.total.unknown.clone(),
            incomplete: !self.total.is_complete(),
            egress: EgressCents::of(&self.egress),
        }
    }

    /// Everything the account cannot price: in the cost so far, then in what still bills.
    pub fn unknown(&self) -> Vec<String> {
        let mut all = self.total.unknown.clone();
        all.extend(self.still_billing_monthly.unknown.iter().cloned());
        all
    }
}

/// How a total names a leftover the sheet cannot price.
pub fn unpriced_leftover(kind: ResourceKind, id: &str) -> String {
    crate::meter::unpriced::leftover(kind, id)
}

/// THE account of an instance at `now`: the ledger's record merged with the latest provider
/// reading. `None` when nothing prices it.
pub fn account(
    pricing: Option<&Pricing>,
    recorded: &Recorded,
    inventory: &Inventory,
    now: Timestamp,
) -> Option<Account> {
    let mut spend = Spend::new(pricing.cloned(), None, TimeZone::UTC);
    if let Some((instance, released)) = &recorded.instance {
        spend.restore(instance.clone(), *released);
    }
    spend.remember(&recorded.resources);
    spend.remember_traffic(&recorded.traffic);
    spend.record_inventory(inventory, now);
    spend.recompute(Some(inventory), now, None);
    spend.account()
}

/// The account of an instance from the ledger's record alone, for a surface that does not ask
/// the provider (`report`): the last listing stands for the latest, and each resource the
/// ledger did not see go is taken as still there. An empty inventory would instead say that
/// the instance and all its resources went at `now`. `None` without a listing or pricing.
pub fn recorded_account(
    pricing: Option<&Pricing>,
    recorded: &Recorded,
    now: Timestamp,
) -> Option<Account> {
    let mut meter = RecordedMeter::new(pricing, recorded, now)?;
    meter.spend.recompute(Some(&meter.listed), now, None);
    meter.spend.account()
}

/// What an instance cost in `[from, to)`: its account at `to` less its account at `from`, so
/// the windows of a span add up to the span's, and a window from its creation to now is its
/// account to date.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowCost {
    pub accrued: Breakdown,
    /// The billed lines: a billing step begun in the window counts in it whole.
    pub billed: Breakdown,
    /// What the account at the window's end cannot price, left out of both.
    pub unknown: Vec<String>,
    /// Of the bandwidth line, what the intranet and other regions cost in the window.
    pub split_cost: [rust_decimal::Decimal; 2],
}

/// The ledger's record of an instance as it stood at `now`, to be read at any instant up to
/// then: the one account that `report`, FOCUS and `audit` cut into windows.
#[derive(Debug, Clone)]
pub struct RecordedMeter {
    spend: Spend,
    listed: Inventory,
}

impl RecordedMeter {
    /// `None` without a listing or pricing.
    pub fn new(pricing: Option<&Pricing>, recorded: &Recorded, now: Timestamp) -> Option<Self> {
        let (listed, released) = recorded.instance.as_ref()?;
        pricing?;
        let mut spend = Spend::new(pricing.cloned(), None, TimeZone::UTC);
        spend.restore(listed.clone(), *released);
        // A listing older than a recorded release would say it still runs; one that says it
        // was released dates the release as a reading of it does.
        if released.is_none() || listed.state == InstanceState::Released {
            spend.record_listing(listed, now);
        }
        spend.remember(&recorded.resources);
        spend.remember_traffic(&recorded.traffic);
        let listed = Inventory {
            instance: Some(listed.clone()),
            resources: Vec::new(),
            deadline: None,
        };
        Some(RecordedMeter { spend, listed })
    }

    /// What it cost in `[from, to)`.
    pub fn between(&self, from: Timestamp, to: Timestamp) -> Option<WindowCost> {
        self.cut(&[from, to]).pop()
    }

    /// What it cost between each two neighbouring instants of `bounds` (oldest first): one
    /// reading an instant, so consecutive windows add up to the whole span exactly.
    pub fn cut(&self, bounds: &[Timestamp]) -> Vec<WindowCost> {
        let readings: Vec<Accrual> = bounds
            .iter()
            .filter_map(|at| self.spend.accrual_at(Some(&self.listed), *at))
            .collect();
        readings
            .windows(2)
            .map(|pair| WindowCost {
                accrued: pair[1].accrued - pair[0].accrued,
                billed: pair[1].billed - pair[0].billed,
                unknown: pair[1].unpriced.clone(),
                split_cost: [
                    pair[1].egress.intranet.accrued - pair[0].egress.intranet.accrued,
                    pair[1].egress.cross_region.accrued - pair[0].egress.cross_region.accrued,
                ],
            })
            .collect()
    }

    /// When the instance was released, if it was.
    pub fn released(&self) -> Option<Timestamp> {
        self.spend.released_at()
    }

    /// The currency it is priced in.
    pub fn currency(&self) -> Option<Currency> {
        self.spend.pricing.as_ref().map(|p| p.sheet.currency)
    }
}

impl Spend {
    /// The account of the latest reading; `None` before the first or without pricing.
    pub fn account(&self) -> Option<Account> {
        self.reading
            .as_ref()
            .map(|r| Account::of(r, self.released_at()))
    }
}

#[cfg(test)]
#[path = "account_tests.rs"]
mod tests;
