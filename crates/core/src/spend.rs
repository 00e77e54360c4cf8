//! The cost side of the cockpit: the sheet and SKU that price the instance, the traffic and
//! resources seen so far, and the meter's latest reading. Recomputed on each tick, never in a
//! draw call.

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

use crate::cloud::{InstanceInfo, Inventory};
use crate::meter::upload::{PublicUpload, UploadRule, public_upload};
use crate::meter::{
    Accrual, BillingMode, Breakdown, ComputeTerms, InstanceState, Leftover, Lifecycle, Resource,
    Traffic, Usage, accrue, leftover_monthly_total, leftovers, project,
};
use crate::money::Money;
use crate::pricing::{Sheet, Sku};
use crate::traffic::{EgressSplit, counter_since};

mod account;
mod account_burn;
pub mod egress_shown;
pub mod per_minute;
mod sheet_choice;
pub use account::{
    Account, ClassCents, CostCents, EgressCents, Recorded, RecordedMeter, WindowCost, account,
    recorded_account, unpriced_leftover,
};
pub use account_burn::{OthersBurn, burn_of_account, others_burn};
pub use sheet_choice::{SheetChoice, choose_sheet, sheet_for_region};

/// Traffic samples newer than this stay one per sample; older ones merge per hour.
const FINE_TRAFFIC: SignedDuration = SignedDuration::from_hours(1);

/// Where the compute price comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PriceSource {
    Sheet(String),
    /// The provider's API reported the price.
    Live,
}

/// What kind of price the session uses: the provider's own, a sheet for the instance's region,
/// or a sheet for another region used as an estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PriceKind {
    /// The provider's API reported the price.
    Live,
    /// A sheet for the instance's region, or one that names no region to differ from.
    Sheet,
    /// A sheet for another region than the instance's: an estimate.
    OtherRegion,
}

/// Where the session's prices come from, and the two regions that tell.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PriceOrigin {
    pub kind: PriceKind,
    /// The sheet's id (a live price still takes storage, network and extras from it).
    pub sheet: String,
    pub sheet_region: Option<String>,
    pub instance_region: Option<String>,
}

impl PriceOrigin {
    /// `live` when the provider reported the price; else `other_region` when both regions
    /// are known and differ (ignoring case and surrounding space), else `sheet`: an unknown
    /// region is not said to differ.
    #[must_use]
    pub fn new(
        sheet: &str,
        sheet_region: Option<&str>,
        instance_region: Option<&str>,
        live: bool,
    ) -> Self {
        let sheet_region = sheet_region.map(str::trim).filter(|r| !r.is_empty());
        let instance_region = instance_region.map(str::trim).filter(|r| !r.is_empty());
        let kind = match (live, sheet_region, instance_region) {
            (true, _, _) => PriceKind::Live,
            (false, Some(s), Some(i)) if !s.eq_ignore_ascii_case(i) => PriceKind::OtherRegion,
            _ => PriceKind::Sheet,
        };
        PriceOrigin {
            kind,
            sheet: sheet.to_string(),
            sheet_region: sheet_region.map(str::to_string),
            instance_region: instance_region.map(str::to_string),
        }
    }

    /// One line for text output, in the user's language, when the sheet is another region's;
    /// `None` otherwise.
    #[must_use]
    pub fn estimate_line(&self) -> Option<String> {
        match (self.kind, &self.sheet_region, &self.instance_region) {
            (PriceKind::OtherRegion, Some(s), Some(i)) => Some(crate::t!(
                "spend-estimate-line",
                sheet = self.sheet.as_str(),
                region = s.as_str(),
                instance_region = i.as_str()
            )),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Pricing {
    pub sheet: Sheet,
    pub sku: Sku,
    pub mode: BillingMode,
    pub terms: ComputeTerms,
    pub source: PriceSource,
    /// Licences the config states; `None` for the sheet's default (see [`Pricing::licenses`]).
    pub licenses: Option<u32>,
    /// A fixed-bandwidth plan's Mbps from the config; the sheet's own is used when unset.
    pub bandwidth_mbps: Option<Decimal>,
}

impl Pricing {
    /// Where these prices come from for an instance in `instance_region`.
    #[must_use]
    pub fn origin(&self, instance_region: Option<&str>) -> PriceOrigin {
        PriceOrigin::new(
            &self.sheet.id,
            self.sheet.region.as_deref(),
            instance_region,
            self.source == PriceSource::Live,
        )
    }

    /// Licences charged at `license_per_hour`: what the config says, else one per instance
    /// when the sheet states that price, since a sheet line is never silently left out.
    pub fn licenses(&self) -> u32 {
        self.licenses
            .unwrap_or(u32::from(self.sheet.extras.license_per_hour.is_some()))
    }
}

/// The meter's reading with what the cockpit shows beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct SpendReading {
    pub accrual: Accrual,
    /// Accrued cost at the deadline if every line keeps its burn rate.
    pub at_deadline: Option<Breakdown>,
    /// Accrued cost at local midnight if every line keeps its burn rate.
    pub at_end_of_day: Breakdown,
    pub leftovers: Vec<Leftover>,
    pub leftover_monthly: Decimal,
    /// Spent in each of the last sixty whole minutes, oldest first
    /// ([`per_minute::per_minute`]).
    pub per_minute: Vec<Decimal>,
    /// A large transfer to the internet under way ([`crate::meter::upload`]).
    pub public_upload: Option<PublicUpload>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Spend {
    /// `None` when no sheet prices the instance: the meter says so instead of guessing.
    pub pricing: Option<Pricing>,
    pub budget: Option<Money>,
    pub time_zone: TimeZone,
    traffic: Vec<Traffic>,
    last_tx_total: Option<u64>,
    last_rx_total: Option<u64>,
    last_split_total: Option<EgressSplit>,
    /// Every resource seen in an inventory; ones that vanished keep their deletion time, so
    /// what they cost stays counted.
    resources: Vec<Resource>,
    /// The instance as last listed, and when it was released: a recorded release, the first
    /// listing that said so, or the first inventory that no longer listed it, whichever came
    /// first. What it accrued until then stays counted, and nothing after.
    instance: Option<(InstanceInfo, Option<Timestamp>)>,
    /// The per-minute series and the minute it was computed for: computed once a minute.
    per_minute: Option<(i64, Vec<Decimal>)>,
    pub reading: Option<SpendReading>,
}

impl Spend {
    pub fn new(pricing: Option<Pricing>, budget: Option<Money>, time_zone: TimeZone) -> Self {
        Spend {
            pricing,
            budget,
            time_zone,
            traffic: Vec::new(),
            last_tx_total: None,
            last_rx_total: None,
            last_split_total: None,
            resources: Vec::new(),
            instance: None,
            per_minute: None,
            reading: None,
        }
    }

    /// Resources an earlier run saw (the ledger keeps them, each with the time it was last
    /// seen), so a one-shot reading keeps what they accrued, such as a disk deleted with the
    /// released instance. One gone since ended when first missed, as the run that missed it
    /// said; else the next inventory decides, as it would have for that run.
    pub fn remember(&mut self, seen: &[(Resource, Timestamp)]) {
        for (r, _last_seen) in seen {
            if !self.resources.iter().any(|k| k.id == r.id) {
                self.resources.push(r.clone());
            }
        }
    }

    /// The instance as an earlier run recorded it (the ledger keeps its last listing) and when
    /// it was released, if it was: a fresh process then prices an instance the provider no
    /// longer lists as the run that saw it did, instead of calling its compute unknown.
    pub fn restore(&mut self, instance: InstanceInfo, released: Option<Timestamp>) {
        match &mut self.instance {
            Some((_, gone)) => *gone = earliest(*gone, released),
            None => self.instance = Some((instance, released)),
        }
    }

    /// Records a release the provider confirmed at `at`: compute stops there, whatever a later
    /// listing says.
    pub fn released(&mut self, at: Timestamp) {
        if let Some((_, gone)) = &mut self.instance {
            *gone = earliest(*gone, Some(at));
        }
    }

    /// When the instance was released, if it was.
    pub fn released_at(&self) -> Option<Timestamp> {
        self.instance.as_ref().and_then(|(_, gone)| *gone)
    }

    /// Records the byte counters of the metered interfaces. A counter that went down (a
    /// reboot, a new interface) restarts from its new value.
    /// `split_total` is what of the sent bytes went to the intranet and other regions, counted
    /// the same way.
    pub fn record_bytes(
        &mut self,
        at: Timestamp,
        tx_total: u64,
        rx_total: u64,
        split_total: EgressSplit,
    ) {
        let delta = |last: Option<u64>, now: u64| last.map_or(0, |last| counter_since(last, now));
        let traffic = Traffic {
            at,
            egress_bytes: delta(self.last_tx_total, tx_total),
            ingress_bytes: delta(self.last_rx_total, rx_total),
            split: self
                .last_split_total
                .map_or_else(EgressSplit::default, |last| split_total.since(last)),
        };
        self.last_split_total = Some(split_total);
        self.last_tx_total = Some(tx_total);
        self.last_rx_total = Some(rx_total);
        if traffic.egress_bytes > 0 || traffic.ingress_bytes > 0 {
            self.traffic.push(traffic);
            self.coalesce(at);
        }
    }

    /// The egress an earlier run recorded (the ledger keeps it by minute), for a one-shot
    /// reading or a cockpit started later: what it cost stays counted. Samples at or after the
    /// first this spend measured itself are that run's own and are left out.
    pub fn remember_traffic(&mut self, seen: &[Traffic]) {
        let first_own = self.traffic.first().map(|t| t.at);
        let earlier = seen.iter().filter(|t| first_own.is_none_or(|f| t.at < f));
        let mut all: Vec<Traffic> = earlier.copied().collect();
        all.append(&mut self.traffic);
        all.sort_by_key(|t| t.at);
        self.traffic = all;
    }

    /// Keeps the traffic log short: samples older than an hour merge into one per hour.
    fn coalesce(&mut self, now: Timestamp) {
        let cutoff = now.as_second() - FINE_TRAFFIC.as_secs();
        let mut merged: Vec<Traffic> = Vec::with_capacity(self.traffic.len());
        for t in self.traffic.drain(..) {
            let hour = t.at.as_second().div_euclid(3600);
            match merged.last_mut() {
                Some(last)
                    if t.at.as_second() < cutoff
                        && last.at.as_second() < cutoff
                        && last.at.as_second().div_euclid(3600) == hour =>
                {
                    last.egress_bytes = last.egress_bytes.saturating_add(t.egress_bytes);
                    last.ingress_bytes = last.ingress_bytes.saturating_add(t.ingress_bytes);
                    last.split.merge(t.split);
                }
                _ => merged.push(t),
            }
        }
        self.traffic = merged;
    }

    /// Merges a fresh inventory into the resources seen so far.
    pub fn record_inventory(&mut self, inventory: &Inventory, now: Timestamp) {
        self.per_minute = None;
        if let Some(listed) = &inventory.instance {
            self.record_listing(listed, now);
        } else if let Some((_, gone @ None)) = &mut self.instance {
            *gone = Some(now);
        }
        for r in &inventory.resources {
            match self.resources.iter_mut().find(|k| k.id == r.id) {
                // Listed again: an earlier run's guess that it had gone was wrong.
                Some(known) => known.deleted = None,
                None => self.resources.push(r.to_meter()),
            }
        }
        let released = self.released_at();
        for known in &mut self.resources {
            let listed = inventory.resources.iter().any(|r| r.id == known.id);
            if !listed && known.deleted.is_none() {
                // What went with the instance went at its release.
                let with_instance = released.filter(|_| known.deleted_with_instance);
                known.deleted = Some(with_instance.map_or(now, |r| r.min(now).max(known.created)));
            }
        }
    }

    /// Takes `listed` as the instance's latest listing, read at `now`.
    fn record_listing(&mut self, listed: &InstanceInfo, now: Timestamp) {
        let released = (listed.state == InstanceState::Released).then(|| {
            listed
                .history
                .iter()
                .find(|(_, s)| *s == InstanceState::Released)
                .map_or(now, |(at, _)| *at)
        });
        // A release seen before stays; listed alive again, it was a wrong guess.
        let before = self.released_at();
        let gone = released.map(|r| earliest(before, Some(r)).unwrap_or(r));
        self.instance = Some((listed.clone(), gone));
    }

    /// Recomputes the reading for `now`; without pricing or an inventory there is none. An instance the
    /// provider no longer lists counts as released when first missed; one this spend never
    /// saw leaves its compute unknown, and what survives it is still priced.
    pub fn recompute(
        &mut self,
        inventory: Option<&Inventory>,
        now: Timestamp,
        deadline: Option<Timestamp>,
    ) {
        let Some((usage, accrual)) = self.accrual(inventory, now) else {
            self.reading = None;
            return;
        };
        // `accrual` answered, so there is pricing.
        let Some(pricing) = &self.pricing else {
            return;
        };
        let minute = per_minute::minute_of(now);
        let series = match self.per_minute.take() {
            Some((at, series)) if at == minute => series,
            _ => per_minute::per_minute(&pricing.sheet, &usage, now),
        };
        self.per_minute = Some((minute, series.clone()));
        let end_of_day = end_of_local_day(now, &self.time_zone);
        let live: Vec<Resource> = self
            .resources
            .iter()
            .filter(|r| r.deleted.is_none())
            .cloned()
            .collect();
        let left = leftovers(&pricing.sheet, &live, now);
        let upload = public_upload(&pricing.sheet, &usage, now, &UploadRule::default());
        self.reading = Some(SpendReading {
            at_deadline: deadline.map(|d| project(&accrual, now, d)),
            at_end_of_day: project(&accrual, now, end_of_day),
            leftover_monthly: leftover_monthly_total(&left),
            leftovers: left,
            accrual,
            per_minute: series,
            public_upload: upload,
        });
    }
    /// What the meter says at `at` from what this spend holds, and the usage it read: the
    /// instance as listed (or released when first missed, or unknown when never seen), the
    /// traffic and the resources. `None` without pricing or an inventory.
    fn accrual(&self, inventory: Option<&Inventory>, at: Timestamp) -> Option<(Usage, Accrual)> {
        let (pricing, inventory) = (self.pricing.as_ref()?, inventory?);
        let listed = inventory.instance.as_ref();
        let (lifecycle, never_seen) = match (&self.instance, listed) {
            (Some((instance, gone)), _) => (lifecycle_until(instance, *gone), false),
            (None, Some(instance)) => (lifecycle_until(instance, None), false),
            (None, None) => (Lifecycle::new(at, InstanceState::Released), true),
        };
        let mut usage = Usage::new(lifecycle, pricing.terms);
        usage.traffic.clone_from(&self.traffic);
        usage.resources.clone_from(&self.resources);
        usage.licenses = pricing.licenses();
        usage.fixed_bandwidth_mbps = pricing.bandwidth_mbps;
        let mut accrual = accrue(&pricing.sheet, &usage, at);
        if never_seen {
            accrual
                .unpriced
                .insert(0, crate::meter::unpriced::never_listed());
        }
        Some((usage, accrual))
    }

    /// What the meter says at `at`, an instant at or before the latest reading's: the same
    /// record read as it stood then. `None` without pricing or an inventory.
    pub fn accrual_at(&self, inventory: Option<&Inventory>, at: Timestamp) -> Option<Accrual> {
        self.accrual(inventory, at).map(|(_, accrual)| accrual)
    }
}

/// The instance's lifecycle as listed, ending at its release when one is known: a listing
/// taken after the release may date it later, and the earliest word stands.
fn lifecycle_until(instance: &InstanceInfo, released: Option<Timestamp>) -> Lifecycle {
    let before = |at: &Timestamp| released.is_none_or(|r| *at < r);
    let changes: Vec<_> = instance
        .history
        .iter()
        .filter(|(at, _)| before(at))
        .copied()
        .collect();
    let mut life = Lifecycle::from_changes(changes)
        .unwrap_or_else(|| Lifecycle::new(instance.created, InstanceState::Running));
    if let Some(at) = released {
        life.push(at.max(life.created()), InstanceState::Released);
    }
    life
}

fn earliest(a: Option<Timestamp>, b: Option<Timestamp>) -> Option<Timestamp> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The next local midnight after `now`.
pub fn end_of_local_day(now: Timestamp, tz: &TimeZone) -> Timestamp {
    let date = tz.to_datetime(now).date();
    date.tomorrow()
        .ok()
        .and_then(|d| {
            tz.to_timestamp(d.to_datetime(jiff::civil::Time::midnight()))
                .ok()
        })
        .unwrap_or(now)
}

#[cfg(test)]
mod tests;
