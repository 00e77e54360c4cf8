//! The letter's sentences about each finding and what to ask, in the current language.

use super::super::bill::TransferScope;
use super::super::findings::{Amounts, Cause, Finding, Leftover, Mismatch};
use super::cell;
use crate::meter::ResourceKind;
use crate::money::Money;
use crate::t;

/// Amounts as a list, in currency order.
pub(super) fn list(amounts: &Amounts) -> String {
    amounts
        .0
        .iter()
        .map(Money::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One finding in a sentence.
pub(super) fn describe(f: &Finding) -> String {
    match f {
        Finding::Leftover(l) => leftover(l),
        Finding::Transfer(t) => {
            let from = cell(t.from_region.as_deref().unwrap_or("?"));
            let to = cell(t.to_region.as_deref().unwrap_or("?"));
            let who = if t.instances.is_empty() {
                t!("evidence-transfer-nobody").into_owned()
            } else {
                t!(
                    "evidence-transfer-while",
                    instances = t.instances.join(", ")
                )
            };
            if t.scope == TransferScope::InterZone {
                t!("evidence-transfer-zones", from = from, to = to, who = who)
            } else {
                t!("evidence-transfer-regions", from = from, to = to, who = who)
            }
        }
        Finding::Overlap(o) => t!(
            "evidence-overlap",
            first = cell(&o.first),
            second = cell(&o.second),
            sku = cell(&o.sku),
            from = o.from.to_string(),
            until = o.until.to_string()
        ),
        Finding::Mismatch(m) => mismatch(m),
        Finding::Unexplained(u) => t!(
            "evidence-unexplained",
            resource = u
                .resource
                .as_deref()
                .map_or_else(|| t!("evidence-no-resource-id").into_owned(), cell),
            service = cell(&u.service)
        ),
    }
}

/// A resource charged after it should have stopped billing.
fn leftover(l: &Leftover) -> String {
    let what = l
        .kind
        .map_or_else(|| t!("evidence-leftover-itself"), ResourceKind::shown);
    let (resource, instance, since) = (cell(&l.resource), cell(&l.instance), l.since.to_string());
    let mut line = t!(
        "evidence-leftover",
        why = l.why.name(),
        resource = resource,
        what = what,
        instance = instance,
        since = since
    );
    if !l.refunded.is_empty() {
        line.push_str(&t!("evidence-refunded", amounts = list(&l.refunded)));
    }
    if !l.ended {
        line.push_str(&t!("evidence-kept"));
    }
    line
}

/// One instance's compute, the bill against the meter.
fn mismatch(m: &Mismatch) -> String {
    let money =
        |x: Option<Money>| x.map_or_else(|| t!("evidence-nothing").into_owned(), |m| m.to_string());
    let detail = match m.cause {
        Cause::RateChange { bill, sheet } => t!(
            "evidence-rate-detail",
            bill = bill.to_string(),
            sheet = sheet.to_string()
        ),
        Cause::Rounding {
            bill_hours,
            meter_hours,
        }
        | Cause::Hours {
            bill_hours,
            meter_hours,
        } => t!(
            "evidence-hours-detail",
            bill = bill_hours.round_dp(3).to_string(),
            meter = meter_hours.round_dp(3).to_string()
        ),
        _ => String::new(),
    };
    t!(
        "evidence-mismatch",
        instance = cell(&m.instance),
        billed = money(m.billed),
        metered = money(m.metered),
        cause = m.cause.shown(),
        detail = detail
    )
}

/// What a finding amounts to, or that the bill gives no amount.
pub(super) fn amounts(f: &Finding) -> String {
    let a = f.amounts();
    if a.is_empty() {
        return t!("evidence-no-amount").into_owned();
    }
    list(&a)
}

/// What to ask the provider for, from what was found.
pub(super) fn ask(report: &super::AuditReport) -> String {
    let mut asks = Vec::new();
    for f in &report.findings {
        let line = match f {
            Finding::Leftover(l) if !l.ended => continue,
            Finding::Leftover(l) => t!(
                "evidence-ask-leftover",
                resource = cell(&l.resource),
                at = l.released.unwrap_or(l.since).to_string()
            ),
            Finding::Overlap(o) => t!(
                "evidence-ask-overlap",
                second = cell(&o.second),
                first = cell(&o.first),
                from = o.from.to_string(),
                until = o.until.to_string()
            ),
            Finding::Mismatch(m) if m.difference.is_some_and(|d| d.amount.is_sign_positive()) => {
                t!("evidence-ask-mismatch", instance = cell(&m.instance))
            }
            Finding::Unexplained(u) => match u.resource.as_deref() {
                Some(r) => t!("evidence-ask-unexplained", resource = cell(r)),
                None => t!("evidence-ask-unexplained-no-id").into_owned(),
            },
            _ => continue,
        };
        if !asks.contains(&line) {
            asks.push(line);
        }
    }
    if asks.is_empty() {
        return t!("evidence-ask-nothing").into_owned();
    }
    asks.iter()
        .map(|a| format!("- {a}"))
        .collect::<Vec<_>>()
        .join("\n")
}
