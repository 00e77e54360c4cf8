//! The findings for people: grouped by kind, each with its amounts, a total per currency for
//! each kind, and one line of what is in question in all. Every string from a bill is made one
//! safe line first.

use std::borrow::Cow;
use std::io::{self, Write};

use gpumeter_core::audit::{
    Amounts, AuditReport, Cause, Charges, Finding, FindingKind, LeftoverWhy, Mismatch, Places,
    Transfer,
};
use gpumeter_core::money::Money;
use gpumeter_core::text::one_line_cow;
use gpumeter_core::zone::full_label;
use jiff::tz::TimeZone;

use super::in_order::each_in_order;

/// The longest a bill's text is shown.
const CHARS: usize = 80;

fn safe(text: &str) -> Cow<'_, str> {
    one_line_cow(text, CHARS)
}

/// [`money`], written to `out`.
fn write_money(amounts: &Amounts, out: &mut impl Write) -> io::Result<()> {
    if amounts.is_empty() {
        return write!(out, "not on the bill");
    }
    for (i, m) in amounts.0.iter().enumerate() {
        if i > 0 {
            write!(out, " + ")?;
        }
        write!(out, "{m}")?;
    }
    Ok(())
}

/// `1.20 USD + 8.40 CNY`, or `not on the bill` when nothing is known.
fn money(amounts: &Amounts) -> String {
    if amounts.is_empty() {
        return "not on the bill".into();
    }
    if let [one] = amounts.0.as_slice() {
        return one.to_string();
    }
    amounts
        .0
        .iter()
        .map(Money::to_string)
        .collect::<Vec<_>>()
        .join(" + ")
}

fn heading(kind: FindingKind) -> &'static str {
    match kind {
        FindingKind::Leftover => "Charged after it should have stopped billing",
        FindingKind::Transfer => "Data transfer between regions and zones",
        FindingKind::Overlap => "Instances of one type that ran at the same time",
        FindingKind::Mismatch => "Compute: the bill against the meter",
        FindingKind::Unexplained => "Lines the ledger cannot explain",
    }
}

/// The whole report as text, written to `out` a line at a time (a bill of a million
/// resources the ledger does not know is a million lines). Times are in `tz`, with the zone
/// named.
pub fn write(
    report: &AuditReport,
    charges: &Charges,
    files: usize,
    tz: &TimeZone,
    out: &mut impl Write,
) -> io::Result<()> {
    let firsts: Vec<usize> = report
        .findings
        .iter()
        .filter_map(|f| f.lines().first().copied())
        .collect();
    let places = charges.locate(&firsts);
    writeln!(
        out,
        "Bill against the ledger, {} to {}",
        full_label(report.since, tz),
        full_label(report.until, tz)
    )?;
    writeln!(
        out,
        "  {} lines read from {files} file{}, {} charged in the period: {}",
        report.lines_read,
        if files == 1 { "" } else { "s" },
        report.lines_in_span,
        money(&report.billed)
    )?;
    let t = report.tolerance;
    writeln!(
        out,
        "  tolerance: {} % of the meter's amount or {} of the currency, whichever is larger",
        t.percent.normalize(),
        t.floor
    )?;
    for (kind, total) in report.totals() {
        writeln!(out, "\n{}", heading(kind))?;
        let found: Vec<&Finding> = report.of(kind).collect();
        each_in_order(&found, |f, buf| describe(f, &places, tz, buf), out)?;
        writeln!(out, "  total: {}", money(&total))?;
    }
    if report.agrees() {
        writeln!(out, "\nThe bill and the ledger agree within the tolerance.")
    } else {
        writeln!(
            out,
            "\n{} finding{}; in question: {}",
            report.findings.len(),
            if report.findings.len() == 1 { "" } else { "s" },
            money(&report.disputed())
        )
    }
}

/// One finding on one line, with where its first bill line is.
fn describe(f: &Finding, places: &Places, tz: &TimeZone, out: &mut impl Write) -> io::Result<()> {
    let body = match f {
        // The kind a bill can have a million of, written as it is.
        Finding::Unexplained(u) => {
            write!(
                out,
                "  {} ({}): ",
                safe(u.resource.as_deref().unwrap_or("no resource id")),
                safe(&u.service),
            )?;
            write_money(&u.amounts, out)?;
            return at(f, places, out);
        }
        Finding::Leftover(l) => {
            let what = l.kind.map_or("instance", |k| k.label());
            let why = match l.why {
                LeftoverWhy::AfterRelease => "after the release of",
                LeftoverWhy::AfterGone => "after it was seen deleted, of",
                LeftoverWhy::InstanceGone => "of the gone",
            };
            let refunded = if l.refunded.is_empty() {
                String::new()
            } else {
                format!(" (refunded already: {})", money(&l.refunded))
            };
            let kept = if l.ended {
                ""
            } else {
                "; not deleted as far as the record shows: not in question"
            };
            format!(
                "{} ({what}) {why} {}, since {}: {}{refunded}{kept}",
                safe(&l.resource),
                safe(&l.instance),
                full_label(l.since, tz),
                money(&l.amounts)
            )
        }
        Finding::Transfer(t) => transfer(t),
        Finding::Overlap(o) => format!(
            "{} beside {} ({}) from {} to {}: {} of {}'s compute",
            safe(&o.second),
            safe(&o.first),
            safe(&o.sku),
            full_label(o.from, tz),
            full_label(o.until, tz),
            money(&o.amounts),
            safe(&o.second)
        ),
        Finding::Mismatch(m) => mismatch(m),
    };
    write!(out, "  {body}")?;
    at(f, places, out)
}

/// Where the finding's first bill line is, and the end of its line.
fn at(f: &Finding, places: &Places, out: &mut impl Write) -> io::Result<()> {
    if let Some((file, line)) = f.lines().first().and_then(|&i| places.get(i)) {
        let n = f.lines().len();
        write!(
            out,
            " [{}:{line}, {n} line{}]",
            safe(file),
            if n == 1 { "" } else { "s" }
        )?;
    }
    writeln!(out)
}

fn transfer(t: &Transfer) -> String {
    let scope = match t.scope {
        gpumeter_core::audit::TransferScope::InterZone => "between zones",
        _ => "between regions",
    };
    let qty = t
        .quantity
        .as_ref()
        .map(|(q, u)| format!(" ({} {})", q.normalize(), safe(u)))
        .unwrap_or_default();
    let who = if t.instances.is_empty() {
        "no watched instance ran there".to_string()
    } else {
        format!(
            "while {} ran",
            t.instances
                .iter()
                .map(|i| safe(i))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    format!(
        "{scope} {} -> {}{qty}, {who}: {}",
        safe(t.from_region.as_deref().unwrap_or("?")),
        safe(t.to_region.as_deref().unwrap_or("?")),
        money(&t.amounts)
    )
}

fn mismatch(m: &Mismatch) -> String {
    let show = |x: Option<Money>| x.map_or_else(|| "nothing".to_string(), |m| m.to_string());
    let detail = match m.cause {
        Cause::RateChange { bill, sheet } => format!(
            " ({}/h on the bill, {}/h on the sheet)",
            bill.round_cents(),
            sheet
        ),
        Cause::Rounding {
            bill_hours,
            meter_hours,
        }
        | Cause::Hours {
            bill_hours,
            meter_hours,
        } => {
            format!(
                " ({} h on the bill, {} h metered)",
                bill_hours.round_dp(3).normalize(),
                meter_hours.round_dp(3).normalize()
            )
        }
        _ => String::new(),
    };
    let diff = m
        .difference
        .map(|d| format!(", difference {}", Money::new(d.amount, d.currency)))
        .unwrap_or_default();
    format!(
        "{}: billed {}, metered {}{diff}; likely {}{detail}",
        safe(&m.instance),
        show(m.billed),
        show(m.metered),
        m.cause.label()
    )
}
