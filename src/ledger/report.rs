//! The report over a time range, from rows already read: pure, so every figure can be checked
//! against a hand-made ledger. Nothing here reads the clock; the window is an argument.
//!
//! Amounts never mix currencies: spend is grouped per currency (almost always one).

use std::collections::BTreeMap;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use rust_decimal::Decimal;

use super::amount::from_nanos;
use super::query::{ActionRow, LeftoverRow, ReportRows, SessionRow, SliceRow};
use crate::meter::Breakdown;
use crate::money::{Currency, Money};
use crate::spend::WindowCost;

/// Joules in a kilowatt-hour.
const JOULES_PER_KWH: f64 = 3_600_000.0;

#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub since: Timestamp,
    pub until: Timestamp,
    pub spend: Vec<CurrencySpend>,
    pub instances: Vec<InstanceSpend>,
    pub energy_kwh: f64,
    /// Mean GPU utilisation over every GPU reading in the window.
    pub gpu_util_mean_pct: Option<f64>,
    pub gpu_util_max_pct: Option<f64>,
    pub egress_bytes: u64,
    /// Of `egress_bytes`, those sent to the intranet and to other regions.
    pub egress_split: gpumeter_core::traffic::EgressSplit,
    pub actions: Vec<ActionRow>,
    pub alerts: usize,
    pub still_billing: Vec<StillBilling>,
    pub overlaps: Vec<Overlap>,
}

/// Spend in one currency.
#[derive(Debug, Clone, PartialEq)]
pub struct CurrencySpend {
    pub currency: Currency,
    pub total: Breakdown,
    /// What was billed: `total` with each session's compute rounded up to its billing step
    /// and minimum.
    pub billed: Breakdown,
    /// Cost accrued in minutes whose idle flag was set.
    pub idle: Decimal,
    /// Local calendar days, oldest first; days without spend are left out.
    pub days: Vec<DaySpend>,
    /// What the instances' accounts cannot price in the window, left out of every amount.
    pub unknown: Vec<String>,
}

impl CurrencySpend {
    fn empty(currency: Currency) -> Self {
        Self {
            currency,
            total: Breakdown::zero(currency),
            billed: Breakdown::zero(currency),
            idle: Decimal::ZERO,
            days: Vec::new(),
            unknown: Vec::new(),
        }
    }
    /// Idle spend as a percentage of all spend; `None` when nothing was spent.
    pub fn idle_share_pct(&self) -> Option<Decimal> {
        let total = self.total.total().amount;
        (!total.is_zero()).then(|| self.idle * Decimal::ONE_HUNDRED / total)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct DaySpend {
    pub date: Date,
    pub cost: Breakdown,
    pub idle: Decimal,
}

/// What one instance cost in the window.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceSpend {
    pub instance: String,
    pub provider: String,
    pub sku: String,
    pub mode: String,
    pub sessions: usize,
    pub cost: Breakdown,
    pub billed: Breakdown,
    pub idle: Decimal,
    pub energy_kwh: f64,
    /// The cost is the instance's account cut to the window (else the meter's minutes).
    pub from_account: bool,
    /// What its account cannot price in the window, left out of `cost` and `billed`.
    pub unknown: Vec<String>,
}

/// An instance's account cut to the report's window and to each local day in it: the spend the
/// report shows for it, in place of the minutes a meter happened to record.
#[derive(Debug, Clone, PartialEq)]
pub struct AccountWindow {
    pub instance: String,
    pub provider: String,
    pub sku: String,
    pub mode: String,
    pub window: WindowCost,
    /// Each local day of the window it cost anything in, oldest first.
    pub days: Vec<(Date, WindowCost)>,
}

/// A resource still billing after its instance was released.
#[derive(Debug, Clone, PartialEq)]
pub struct StillBilling {
    pub resource: LeftoverRow,
    /// What it costs each month, where a sheet prices it.
    pub monthly: Option<Money>,
}

/// Adds what rounding `session` up to its provider's billing unit bills beyond its minutes.
fn add_rounding(
    spend: &mut BTreeMap<Currency, CurrencySpend>,
    instances: &mut BTreeMap<&str, InstanceSpend>,
    session: &SessionRow,
    until: Timestamp,
) {
    let rounding = rounding_up(session, until);
    if let Some(entry) = spend.get_mut(&session.currency) {
        entry.billed.compute += rounding;
    }
    if let Some(inst) = instances.get_mut(session.instance.as_str())
        && inst.cost.currency == session.currency
    {
        inst.billed.compute += rounding;
    }
}

/// Two instances that were running (and watched) at the same time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlap {
    pub first: String,
    pub second: String,
    pub from: Timestamp,
    pub until: Timestamp,
    pub seconds: i64,
}

/// The bytes the window's minutes sent, and of them those to the intranet and other regions.
fn sent(
    rows: &ReportRows,
    sessions: &BTreeMap<i64, &SessionRow>,
) -> (u64, gpumeter_core::traffic::EgressSplit) {
    let bytes = |b: i64| u64::try_from(b).unwrap_or(0);
    let mut egress = 0_u64;
    let mut split = gpumeter_core::traffic::EgressSplit::default();
    for slice in rows
        .slices
        .iter()
        .filter(|s| sessions.contains_key(&s.session))
    {
        egress = egress.saturating_add(bytes(slice.egress_bytes));
        split.merge(gpumeter_core::traffic::EgressSplit {
            intranet: bytes(slice.split_bytes[0]),
            cross_region: bytes(slice.split_bytes[1]),
        });
    }
    (egress, split)
}

/// Builds the report of `[since, until)` from `rows`. Days are local days in `tz`; `price`
/// gives a leftover's monthly cost where a sheet knows it. An instance in `accounted` costs
/// what its account says for the window; the others what the meter's minutes recorded.
pub fn build(
    rows: &ReportRows,
    (since, until): (Timestamp, Timestamp),
    tz: &TimeZone,
    price: &dyn Fn(&LeftoverRow) -> Option<Money>,
    accounted: &[AccountWindow],
) -> Report {
    let from_account = |instance: &str| accounted.iter().any(|a| a.instance == instance);
    let sessions: BTreeMap<i64, &SessionRow> = rows.sessions.iter().map(|s| (s.id, s)).collect();
    let mut spend: BTreeMap<Currency, CurrencySpend> = BTreeMap::new();
    let mut instances: BTreeMap<&str, InstanceSpend> = BTreeMap::new();
    let (mut util_sum, mut util_n, mut util_max) = (0.0, 0_i64, None::<f64>);
    let mut energy_j = 0.0;
    for slice in &rows.slices {
        let Some(session) = sessions.get(&slice.session) else {
            continue;
        };
        let metered = !from_account(&session.instance);
        let cost = if metered {
            breakdown(session.currency, slice)
        } else {
            Breakdown::zero(session.currency)
        };
        let idle = from_nanos(slice.idle_cost);
        let entry = spend
            .entry(session.currency)
            .or_insert_with(|| CurrencySpend::empty(session.currency));
        entry.total = entry.total + cost;
        entry.billed = entry.billed + cost;
        entry.idle += idle;
        add_to_day(
            &mut entry.days,
            tz.to_datetime(slice.start).date(),
            cost,
            idle,
        );
        let inst = instances
            .entry(&session.instance)
            .or_insert_with(|| InstanceSpend {
                instance: session.instance.clone(),
                provider: session.provider.clone(),
                sku: session.sku.clone(),
                mode: session.mode.clone(),
                sessions: 0,
                cost: Breakdown::zero(session.currency),
                billed: Breakdown::zero(session.currency),
                idle: Decimal::ZERO,
                energy_kwh: 0.0,
                from_account: !metered,
                unknown: Vec::new(),
            });
        if inst.cost.currency == session.currency {
            inst.cost = inst.cost + cost;
            inst.billed = inst.billed + cost;
            inst.idle += idle;
        }
        inst.energy_kwh += slice.energy_j / JOULES_PER_KWH;
        util_sum += slice.util_sum;
        util_n += slice.util_samples;
        util_max = max_opt(util_max, slice.util_max);
        energy_j += slice.energy_j;
    }
    let (egress, split) = sent(rows, &sessions);
    for window in accounted {
        add_account(&mut spend, &mut instances, window);
    }
    for session in rows.sessions.iter().filter(|s| !from_account(&s.instance)) {
        add_rounding(&mut spend, &mut instances, session, until);
    }
    for inst in instances.values_mut() {
        inst.sessions = rows
            .sessions
            .iter()
            .filter(|s| s.instance == inst.instance)
            .count();
    }
    let mut spend: Vec<CurrencySpend> = spend.into_values().collect();
    for s in &mut spend {
        s.days.sort_by_key(|d| d.date);
    }
    #[expect(clippy::cast_precision_loss, reason = "a count of readings")]
    let util_mean = (util_n > 0).then(|| util_sum / util_n as f64);
    Report {
        since,
        until,
        spend,
        instances: instances.into_values().collect(),
        energy_kwh: energy_j / JOULES_PER_KWH,
        gpu_util_mean_pct: util_mean,
        gpu_util_max_pct: util_max,
        egress_bytes: egress,
        egress_split: split.within(egress),
        actions: rows.actions.clone(),
        alerts: rows.alerts,
        still_billing: rows
            .leftovers
            .iter()
            .map(|r| StillBilling {
                resource: r.clone(),
                monthly: price(r),
            })
            .collect(),
        overlaps: overlaps(&rows.sessions, since, until),
    }
}

/// Adds an instance's account for the window: its cost to its currency's total and days, and
/// to its own line (made if the meter recorded no minute of it in the window).
fn add_account<'a>(
    spend: &mut BTreeMap<Currency, CurrencySpend>,
    instances: &mut BTreeMap<&'a str, InstanceSpend>,
    account: &'a AccountWindow,
) {
    let w = &account.window;
    let currency = w.accrued.currency;
    let nothing = w.accrued.total().amount.is_zero() && w.unknown.is_empty();
    if nothing && !instances.contains_key(account.instance.as_str()) {
        return;
    }
    let entry = spend
        .entry(currency)
        .or_insert_with(|| CurrencySpend::empty(currency));
    entry.total = entry.total + w.accrued;
    entry.billed = entry.billed + w.billed;
    entry.unknown.extend(w.unknown.iter().cloned());
    for (date, day) in &account.days {
        add_to_day(&mut entry.days, *date, day.accrued, Decimal::ZERO);
    }
    let inst = instances
        .entry(&account.instance)
        .or_insert_with(|| InstanceSpend {
            instance: account.instance.clone(),
            provider: account.provider.clone(),
            sku: account.sku.clone(),
            mode: account.mode.clone(),
            sessions: 0,
            cost: Breakdown::zero(currency),
            billed: Breakdown::zero(currency),
            idle: Decimal::ZERO,
            energy_kwh: 0.0,
            from_account: true,
            unknown: Vec::new(),
        });
    if inst.cost.currency == currency {
        inst.cost = w.accrued;
        inst.billed = w.billed;
        inst.unknown.clone_from(&w.unknown);
    }
}

/// What billing adds to the compute `session` accrued: the session counts as one run from its
/// start to its end (or `until`), rounded up to its billing step and at least its minimum.
fn rounding_up(session: &SessionRow, until: Timestamp) -> Decimal {
    let rate = session
        .rate
        .as_deref()
        .and_then(|r| r.parse::<Decimal>().ok());
    let (Some(rate), Some(billing)) = (rate, session.billing) else {
        return Decimal::ZERO;
    };
    let seconds = session.ended.min(until).as_second() - session.started.as_second();
    if seconds <= 0 {
        return Decimal::ZERO;
    }
    rate * Decimal::from(billing.billed_seconds(seconds) - seconds) / Decimal::from(3600)
}

fn breakdown(currency: Currency, slice: &SliceRow) -> Breakdown {
    let [compute, bandwidth, storage, extras] = slice.cost.map(from_nanos);
    Breakdown {
        currency,
        compute,
        bandwidth,
        storage,
        extras,
    }
}

fn add_to_day(days: &mut Vec<DaySpend>, date: Date, cost: Breakdown, idle: Decimal) {
    match days.iter_mut().find(|d| d.date == date) {
        Some(day) => {
            day.cost = day.cost + cost;
            day.idle += idle;
        }
        None => days.push(DaySpend { date, cost, idle }),
    }
}

fn max_opt(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// Pairs of different instances whose sessions overlapped inside the window, one line per
/// pair: the first and last overlapping instant and the seconds of overlap in all.
pub fn overlaps(sessions: &[SessionRow], since: Timestamp, until: Timestamp) -> Vec<Overlap> {
    let mut pairs: BTreeMap<(String, String), Overlap> = BTreeMap::new();
    for (i, a) in sessions.iter().enumerate() {
        for b in &sessions[i + 1..] {
            if a.instance == b.instance {
                continue;
            }
            let from = a.started.max(b.started).max(since);
            let to = a.ended.min(b.ended).min(until);
            let seconds = to.as_second() - from.as_second();
            if seconds <= 0 {
                continue;
            }
            let (first, second) = if a.instance < b.instance {
                (a.instance.clone(), b.instance.clone())
            } else {
                (b.instance.clone(), a.instance.clone())
            };
            pairs
                .entry((first.clone(), second.clone()))
                .and_modify(|o| {
                    o.from = o.from.min(from);
                    o.until = o.until.max(to);
                    o.seconds += seconds;
                })
                .or_insert(Overlap {
                    first,
                    second,
                    from,
                    until: to,
                    seconds,
                });
        }
    }
    pairs.into_values().collect()
}
