//! `gpumeter audit --json`: the report as one object. Amounts are exact decimal strings with
//! their currency; an amount the bill does not give is `null`, never zero.

use gpumeter_core::audit::{
    Amounts, AuditLedger, AuditReport, Cause, Charges, Finding, LeftoverWhy, Places, TransferScope,
};
use gpumeter_core::meter::ResourceKind;
use gpumeter_core::money::Money;
use gpumeter_core::text::one_line;
use serde_json::{Value, json};

const CHARS: usize = 200;

fn money(m: Money) -> Value {
    json!({ "amount": m.amount.to_string(), "currency": m.currency.as_str() })
}

fn opt(m: Option<Money>) -> Value {
    m.map_or(Value::Null, money)
}

fn amounts(a: &Amounts) -> Value {
    Value::Array(a.0.iter().copied().map(money).collect())
}

fn safe(text: &str) -> String {
    one_line(text, CHARS)
}

/// The report, with each finding's bill lines named by file and line.
pub fn shape(report: &AuditReport, ledger: &AuditLedger, charges: &Charges) -> Value {
    let behind: Vec<usize> = report
        .findings
        .iter()
        .flat_map(|f| f.lines().iter().copied())
        .collect();
    let places = charges.locate(&behind);
    let totals: Vec<Value> = report
        .totals()
        .iter()
        .map(|(k, a)| json!({ "kind": k.name(), "amounts": amounts(a) }))
        .collect();
    json!({
        "since": report.since.to_string(),
        "until": report.until.to_string(),
        "tolerance": {
            "percent": report.tolerance.percent.to_string(),
            "floor": report.tolerance.floor.to_string(),
        },
        "agrees": report.agrees(),
        "lines_read": report.lines_read,
        "lines_in_span": report.lines_in_span,
        "billed": amounts(&report.billed),
        "instances": ledger.instances.iter().map(|i| json!({
            "id": safe(&i.id),
            "provider": i.provider,
            "region": i.region,
            "sku": i.sku,
            "started": i.started.to_string(),
            "last_seen": i.last_seen.to_string(),
            "released": i.released.map(|t| t.to_string()),
            "metered": opt(i.metered),
        })).collect::<Vec<_>>(),
        "findings": report.findings.iter().map(|f| finding(f, &places)).collect::<Vec<_>>(),
        "totals": totals,
        "disputed": amounts(&report.disputed()),
    })
}

fn finding(f: &Finding, places: &Places) -> Value {
    let mut v = match f {
        Finding::Leftover(l) => json!({
            "resource": safe(&l.resource),
            "resource_kind": l.kind.map(ResourceKind::label),
            "instance": safe(&l.instance),
            "why": match l.why {
                LeftoverWhy::AfterRelease => "after_release",
                LeftoverWhy::AfterGone => "after_gone",
                LeftoverWhy::InstanceGone => "instance_gone",
            },
            "released": l.released.map(|t| t.to_string()),
            "since": l.since.to_string(),
            "ended": l.ended,
            "refunded": amounts(&l.refunded),
        }),
        Finding::Transfer(t) => json!({
            "scope": match t.scope {
                TransferScope::InterRegion => "inter_region",
                TransferScope::InterZone => "inter_zone",
                TransferScope::Internet => "internet",
                TransferScope::Unknown => "unknown",
            },
            "from_region": t.from_region.as_deref().map(safe),
            "to_region": t.to_region.as_deref().map(safe),
            "instances": t.instances,
            "quantity": t.quantity.as_ref().map(|(q, u)| json!({ "amount": q.to_string(), "unit": safe(u) })),
        }),
        Finding::Overlap(o) => json!({
            "first": o.first,
            "second": o.second,
            "sku": o.sku,
            "from": o.from.to_string(),
            "until": o.until.to_string(),
        }),
        Finding::Mismatch(m) => {
            let (bill_rate, sheet_rate, bill_hours, meter_hours) = match m.cause {
                Cause::RateChange { bill, sheet } => {
                    (opt(Some(bill)), opt(Some(sheet)), Value::Null, Value::Null)
                }
                Cause::Rounding {
                    bill_hours,
                    meter_hours,
                }
                | Cause::Hours {
                    bill_hours,
                    meter_hours,
                } => (
                    Value::Null,
                    Value::Null,
                    json!(bill_hours.to_string()),
                    json!(meter_hours.to_string()),
                ),
                _ => (Value::Null, Value::Null, Value::Null, Value::Null),
            };
            json!({
                "instance": m.instance,
                "billed": opt(m.billed),
                "metered": opt(m.metered),
                "difference": opt(m.difference),
                "cause": m.cause.label(),
                "bill_rate_per_hour": bill_rate,
                "sheet_rate_per_hour": sheet_rate,
                "bill_hours": bill_hours,
                "meter_hours": meter_hours,
            })
        }
        Finding::Unexplained(u) => json!({
            "resource": u.resource.as_deref().map(safe),
            "service": safe(&u.service),
        }),
    };
    if let Value::Object(map) = &mut v {
        map.insert("kind".into(), json!(f.kind().name()));
        map.insert("amounts".into(), amounts(&f.amounts()));
        let named: Vec<Value> = f
            .lines()
            .iter()
            .filter_map(|&i| places.get(i))
            .map(|(file, line)| json!({ "file": safe(file), "line": line }))
            .collect();
        map.insert("lines".into(), Value::Array(named));
    }
    v
}
