//! `gpumeter audit --json`: the report as one object. Amounts are exact decimal strings with
//! their currency; an amount the bill does not give is `null`, never zero.

use std::cell::RefCell;

use gpumeter_core::audit::{
    Amounts, AuditLedger, AuditReport, Cause, Charges, Finding, Places, TransferScope,
};
use gpumeter_core::meter::ResourceKind;
use gpumeter_core::money::Money;
use gpumeter_core::text::one_line;
use serde::ser::{Serialize, SerializeMap, Serializer};
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

/// The report, with each finding's bill lines named by file and line, written to `out` as
/// it is made: one finding's tree at a time, never the whole report's (a bill of a million
/// resources the ledger does not know is a million findings). The keys come in the order
/// `serde_json` sorts an object's, so the text is what one `Value` of the report would print.
pub fn write(
    report: &AuditReport,
    ledger: &AuditLedger,
    charges: &Charges,
    out: impl std::io::Write,
) -> serde_json::Result<()> {
    let behind: Vec<usize> = report
        .findings
        .iter()
        .flat_map(|f| f.lines().iter().copied())
        .collect();
    let places = charges.locate(&behind);
    drop(behind);
    let totals: Vec<Value> = report
        .totals()
        .iter()
        .map(|(k, a)| json!({ "kind": k.name(), "amounts": amounts(a) }))
        .collect();
    let instances = ledger.instances.iter().map(|i| {
        json!({
            "id": safe(&i.id),
            "provider": i.provider,
            "region": i.region,
            "sku": i.sku,
            "started": i.started.to_string(),
            "last_seen": i.last_seen.to_string(),
            "released": i.released.map(|t| t.to_string()),
            "metered": opt(i.metered),
        })
    });
    let findings = report.findings.iter().map(|f| finding(f, &places));
    let mut ser = serde_json::Serializer::pretty(out);
    let mut map = ser.serialize_map(None)?;
    map.serialize_entry("agrees", &report.agrees())?;
    map.serialize_entry("billed", &amounts(&report.billed))?;
    map.serialize_entry("disputed", &amounts(&report.disputed()))?;
    map.serialize_entry("findings", &Each::new(findings))?;
    map.serialize_entry("instances", &Each::new(instances))?;
    map.serialize_entry("lines_in_span", &report.lines_in_span)?;
    map.serialize_entry("lines_read", &report.lines_read)?;
    map.serialize_entry("since", &report.since.to_string())?;
    map.serialize_entry(
        "tolerance",
        &json!({
            "percent": report.tolerance.percent.to_string(),
            "floor": report.tolerance.floor.to_string(),
        }),
    )?;
    map.serialize_entry("totals", &totals)?;
    map.serialize_entry("until", &report.until.to_string())?;
    SerializeMap::end(map)
}

/// The items of an iterator serialized as an array, made one at a time as it is written.
struct Each<I>(RefCell<Option<I>>);

impl<I> Each<I> {
    fn new(items: I) -> Each<I> {
        Each(RefCell::new(Some(items)))
    }
}

impl<I: Iterator<Item = Value>> Serialize for Each<I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.borrow_mut().take().into_iter().flatten())
    }
}

fn finding(f: &Finding, places: &Places) -> Value {
    let mut v = match f {
        Finding::Leftover(l) => json!({
            "resource": safe(&l.resource),
            "resource_kind": l.kind.map(ResourceKind::label),
            "instance": safe(&l.instance),
            "why": l.why.name(),
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
        map.insert("amounts".into(), amounts(&f.amounts_ref()));
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

#[cfg(test)]
mod tests {
    use gpumeter_core::audit::{AuditLedger, Charges, Tolerance, audit_charges, read_bill};

    /// The report written a finding at a time prints as the one `Value` of it would: the
    /// same keys in the same order, the same indentation.
    #[test]
    fn the_streamed_report_is_the_text_of_its_value() {
        let bill = include_bytes!("../../../tests/fixtures/bills/focus-aws.csv");
        let lines = read_bill("focus-aws.csv", bill).unwrap();
        let charges = Charges::of(lines);
        let span = (charges.first_start().unwrap(), charges.last_end().unwrap());
        let ledger = AuditLedger::default();
        let report = audit_charges(&charges, &ledger, span, Tolerance::default());
        assert!(report.findings.len() > 2, "{:?}", report.findings);
        let mut out = Vec::new();
        super::write(&report, &ledger, &charges, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(text, serde_json::to_string_pretty(&value).unwrap());
        assert_eq!(
            value["findings"].as_array().unwrap().len(),
            report.findings.len()
        );
    }
}
