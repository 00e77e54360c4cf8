//! The `report --json` shape: snake_case, money as decimal strings rounded to the cent (the
//! lines of a breakdown add up to its total), a `currency` beside every amount, times as
//! RFC 3339 instants, durations in seconds.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;

use super::account::{self, InstanceAccount, InstanceAccountJson};
use crate::ledger::report::{CurrencySpend, Report};
use crate::meter::CentsBreakdown;
use crate::money::Money;

/// Bytes sent in the window, by destination.
#[derive(Debug, Serialize)]
struct EgressBytesJson {
    internet: u64,
    intranet: u64,
    cross_region: u64,
}

#[derive(Debug, Serialize)]
pub struct ReportJson {
    since: Timestamp,
    until: Timestamp,
    time_zone: String,
    spend: Vec<SpendJson>,
    instances: Vec<InstanceJson>,
    energy_kwh: String,
    gpu_util_mean_pct: Option<String>,
    gpu_util_max_pct: Option<String>,
    egress_bytes: u64,
    /// Of `egress_bytes`, by destination: `internet`, `intranet`, `cross_region` bytes.
    egress_by_class: EgressBytesJson,
    alerts: usize,
    actions: Vec<ActionJson>,
    still_billing: Vec<LeftoverJson>,
    overlaps: Vec<OverlapJson>,
    /// Each instance's account to date, as `status` gives it; not the window's spend.
    accounts: Vec<InstanceAccountJson>,
}

#[derive(Debug, Serialize)]
struct SpendJson {
    currency: String,
    total: CentsBreakdown,
    billed: CentsBreakdown,
    idle: String,
    idle_share_pct: Option<String>,
    days: Vec<DayJson>,
    /// What the accounts cannot price in the window, left out of every amount.
    unknown: Vec<String>,
    incomplete: bool,
}

#[derive(Debug, Serialize)]
struct DayJson {
    date: String,
    #[serde(flatten)]
    cost: CentsBreakdown,
    idle: String,
}

#[derive(Debug, Serialize)]
struct InstanceJson {
    instance: String,
    provider: String,
    sku: String,
    mode: String,
    sessions: usize,
    currency: String,
    cost: CentsBreakdown,
    billed: CentsBreakdown,
    idle: String,
    energy_kwh: String,
    /// `account`: the instance's account cut to the window, as `status` gives it whole;
    /// `meter`: the minutes a running meter recorded (no listing or no prices for an account).
    cost_source: &'static str,
    unknown: Vec<String>,
    incomplete: bool,
}

#[derive(Debug, Serialize)]
struct ActionJson {
    at: Timestamp,
    instance: Option<String>,
    intent: String,
    request: Option<serde_json::Value>,
    answer: Option<String>,
    outcome: Option<String>,
}

#[derive(Debug, Serialize)]
struct LeftoverJson {
    instance: String,
    instance_released: Timestamp,
    id: String,
    kind: String,
    name: String,
    size_gib: String,
    state: String,
    last_seen: Timestamp,
    monthly_cost: Option<String>,
    currency: Option<String>,
}

#[derive(Debug, Serialize)]
struct OverlapJson {
    instances: [String; 2],
    from: Timestamp,
    until: Timestamp,
    seconds: i64,
}

/// A figure rounded half away from zero to `dp` decimals, as a string.
pub fn fixed(value: Decimal, dp: u32) -> String {
    let mut d = value.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero);
    d.rescale(dp);
    d.to_string()
}

/// A measurement (not money) as a fixed-point string.
pub fn fixed_f64(value: f64, dp: u32) -> String {
    Decimal::try_from(value).map_or_else(|_| "0".into(), |d| fixed(d, dp))
}

pub fn shape(report: &Report, accounts: &[InstanceAccount], tz: &TimeZone) -> ReportJson {
    ReportJson {
        since: report.since,
        until: report.until,
        time_zone: tz.iana_name().unwrap_or("local").to_string(),
        spend: report.spend.iter().map(spend).collect(),
        instances: report
            .instances
            .iter()
            .map(|i| InstanceJson {
                instance: i.instance.clone(),
                provider: i.provider.clone(),
                sku: i.sku.clone(),
                mode: i.mode.clone(),
                sessions: i.sessions,
                currency: i.cost.currency.to_string(),
                cost: i.cost.cents(),
                billed: i.billed.cents(),
                idle: Money::new(i.idle, i.cost.currency).cents_string(),
                energy_kwh: fixed_f64(i.energy_kwh, 3),
                cost_source: if i.from_account { "account" } else { "meter" },
                unknown: i.unknown.clone(),
                incomplete: !i.unknown.is_empty(),
            })
            .collect(),
        energy_kwh: fixed_f64(report.energy_kwh, 3),
        gpu_util_mean_pct: report.gpu_util_mean_pct.map(|v| fixed_f64(v, 1)),
        gpu_util_max_pct: report.gpu_util_max_pct.map(|v| fixed_f64(v, 1)),
        egress_bytes: report.egress_bytes,
        egress_by_class: EgressBytesJson {
            internet: report.egress_split.internet_of(report.egress_bytes),
            intranet: report.egress_split.intranet,
            cross_region: report.egress_split.cross_region,
        },
        alerts: report.alerts,
        actions: report
            .actions
            .iter()
            .map(|a| ActionJson {
                at: a.at,
                instance: a.instance.clone(),
                intent: a.intent.clone(),
                request: a
                    .request
                    .as_deref()
                    .and_then(|r| serde_json::from_str(r).ok()),
                answer: a.answer.clone(),
                outcome: a.outcome.clone(),
            })
            .collect(),
        still_billing: report
            .still_billing
            .iter()
            .map(|s| LeftoverJson {
                instance: s.resource.instance.clone(),
                instance_released: s.resource.released,
                id: s.resource.id.clone(),
                kind: s.resource.kind.clone(),
                name: s.resource.name.clone(),
                size_gib: s.resource.size_gib.clone(),
                state: s.resource.state.clone(),
                last_seen: s.resource.last_seen,
                monthly_cost: s.monthly.map(|m| m.cents_string()),
                currency: s.monthly.map(|m| m.currency.to_string()),
            })
            .collect(),
        overlaps: report
            .overlaps
            .iter()
            .map(|o| OverlapJson {
                instances: [o.first.clone(), o.second.clone()],
                from: o.from,
                until: o.until,
                seconds: o.seconds,
            })
            .collect(),
        accounts: accounts.iter().map(account::json).collect(),
    }
}

fn spend(s: &CurrencySpend) -> SpendJson {
    SpendJson {
        currency: s.currency.to_string(),
        total: s.total.cents(),
        billed: s.billed.cents(),
        idle: Money::new(s.idle, s.currency).cents_string(),
        idle_share_pct: s.idle_share_pct().map(|p| fixed(p, 1)),
        days: s
            .days
            .iter()
            .map(|d| DayJson {
                date: d.date.to_string(),
                cost: d.cost.cents(),
                idle: Money::new(d.idle, s.currency).cents_string(),
            })
            .collect(),
        unknown: s.unknown.clone(),
        incomplete: !s.unknown.is_empty(),
    }
}
