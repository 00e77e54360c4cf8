//! The findings for people: grouped by kind, each with its amounts, a total per currency for
//! each kind, and one line of what is in question in all. Every string from a bill is made one
//! safe line first. The words are the user's language; the phrases a line of a million-line
//! report repeats are looked up once per report ([`Words`]), never once a line.

use std::borrow::Cow;
use std::io::{self, Write};

use gpumeter_core::audit::{
    Amounts, AuditReport, Cause, Charges, Finding, FindingKind, Mismatch, Places, Transfer,
};
use gpumeter_core::money::Money;
use gpumeter_core::text::one_line_cow;
use gpumeter_core::zone::full_label;
use jiff::tz::TimeZone;

use super::in_order::each_in_order;
use crate::t;

/// The longest a bill's text is shown.
const CHARS: usize = 80;

/// Stand-ins the catalogue's line-place phrase is looked up with, then cut at: private-use
/// characters no translation contains.
const FILE: &str = "\u{E000}";
const LINE: &str = "\u{E001}";
const COUNT: &str = "\u{E002}";

fn safe(text: &str) -> Cow<'_, str> {
    one_line_cow(text, CHARS)
}

/// The phrases every line may say, in the user's language, looked up once.
struct Words {
    not_on_bill: String,
    no_resource_id: String,
    /// `[file:line, 1 line]` cut around the file and the line.
    at_one: Vec<Piece>,
    /// `[file:line, N lines]` cut around the file, the line and the count.
    at_many: Vec<Piece>,
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    File,
    Line,
    Count,
}

impl Words {
    fn new() -> Words {
        let at = |count: gpumeter_core::i18n::Arg<'static>| {
            let mut pieces = Vec::new();
            let template = t!("audit-at", file = FILE, line = LINE, count = count);
            let mut rest = template.as_str();
            while let Some(i) = rest.find(['\u{E000}', '\u{E001}', '\u{E002}']) {
                if i > 0 {
                    pieces.push(Piece::Text(rest[..i].to_string()));
                }
                let marker = rest[i..].chars().next().unwrap_or('\u{E000}');
                pieces.push(match marker {
                    '\u{E000}' => Piece::File,
                    '\u{E001}' => Piece::Line,
                    _ => Piece::Count,
                });
                rest = &rest[i + marker.len_utf8()..];
            }
            if !rest.is_empty() {
                pieces.push(Piece::Text(rest.to_string()));
            }
            pieces
        };
        Words {
            not_on_bill: t!("audit-not-on-bill").into_owned(),
            no_resource_id: t!("audit-no-resource-id").into_owned(),
            // The number 1 selects the singular; the stand-in, a string, the plural.
            at_one: at(1.into()),
            at_many: at(COUNT.into()),
        }
    }
}

/// [`money`], written to `out`.
fn write_money(amounts: &Amounts, words: &Words, out: &mut impl Write) -> io::Result<()> {
    if amounts.is_empty() {
        return write!(out, "{}", words.not_on_bill);
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
fn money(amounts: &Amounts, words: &Words) -> String {
    if amounts.is_empty() {
        return words.not_on_bill.clone();
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

fn heading(kind: FindingKind) -> Cow<'static, str> {
    match kind {
        FindingKind::Leftover => t!("audit-heading-leftover"),
        FindingKind::Transfer => t!("audit-heading-transfer"),
        FindingKind::Overlap => t!("audit-heading-overlap"),
        FindingKind::Mismatch => t!("audit-heading-mismatch"),
        FindingKind::Unexplained => t!("audit-heading-unexplained"),
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
    let words = Words::new();
    let firsts: Vec<usize> = report
        .findings
        .iter()
        .filter_map(|f| f.lines().first().copied())
        .collect();
    let places = charges.locate(&firsts);
    let title = t!(
        "audit-title",
        since = full_label(report.since, tz),
        until = full_label(report.until, tz)
    );
    writeln!(out, "{title}")?;
    let read = t!(
        "audit-read",
        lines = report.lines_read,
        files = files,
        in_span = report.lines_in_span,
        billed = money(&report.billed, &words)
    );
    writeln!(out, "  {read}")?;
    let t = report.tolerance;
    let tolerance = t!(
        "audit-tolerance",
        percent = t.percent.normalize().to_string(),
        floor = t.floor.to_string()
    );
    writeln!(out, "  {tolerance}")?;
    for (kind, total) in report.totals() {
        writeln!(out, "\n{}", heading(kind))?;
        let found: Vec<&Finding> = report.of(kind).collect();
        each_in_order(&found, |f, buf| describe(f, &places, &words, tz, buf), out)?;
        let total = t!("audit-total", amount = money(&total, &words));
        writeln!(out, "  {total}")?;
    }
    if report.agrees() {
        writeln!(out, "\n{}", t!("audit-agrees"))
    } else {
        let findings = t!(
            "audit-findings",
            count = report.findings.len(),
            amount = money(&report.disputed(), &words)
        );
        writeln!(out, "\n{findings}")
    }
}

/// One finding on one line, with where its first bill line is.
fn describe(
    f: &Finding,
    places: &Places,
    words: &Words,
    tz: &TimeZone,
    out: &mut impl Write,
) -> io::Result<()> {
    let body = match f {
        // The kind a bill can have a million of, written as it is.
        Finding::Unexplained(u) => {
            write!(
                out,
                "  {} ({}): ",
                safe(u.resource.as_deref().unwrap_or(&words.no_resource_id)),
                safe(&u.service),
            )?;
            write_money(&u.amounts, words, out)?;
            return at(f, places, words, out);
        }
        Finding::Leftover(l) => {
            let what = l.kind.map_or_else(
                || t!("audit-instance"),
                gpumeter_core::meter::ResourceKind::shown,
            );
            let (resource, instance) = (safe(&l.resource), safe(&l.instance));
            let (since, amount) = (full_label(l.since, tz), money(&l.amounts, words));
            let mut said = t!(
                "audit-leftover",
                why = l.why.name(),
                resource = resource,
                what = what,
                instance = instance,
                since = since,
                amount = amount
            );
            if !l.refunded.is_empty() {
                let refunded = t!("audit-refunded", amount = money(&l.refunded, words));
                said.push_str(" (");
                said.push_str(&refunded);
                said.push(')');
            }
            if !l.ended {
                said.push_str("; ");
                said.push_str(&t!("audit-not-deleted"));
            }
            said
        }
        Finding::Transfer(t) => transfer(t, words),
        Finding::Overlap(o) => t!(
            "audit-overlap",
            second = safe(&o.second),
            first = safe(&o.first),
            sku = safe(&o.sku),
            from = full_label(o.from, tz),
            until = full_label(o.until, tz),
            amount = money(&o.amounts, words)
        ),
        Finding::Mismatch(m) => mismatch(m),
    };
    write!(out, "  {body}")?;
    at(f, places, words, out)
}

/// Where the finding's first bill line is, and the end of its line.
fn at(f: &Finding, places: &Places, words: &Words, out: &mut impl Write) -> io::Result<()> {
    if let Some((file, line)) = f.lines().first().and_then(|&i| places.get(i)) {
        let n = f.lines().len();
        let pieces = if n == 1 {
            &words.at_one
        } else {
            &words.at_many
        };
        write!(out, " ")?;
        for piece in pieces {
            match piece {
                Piece::Text(text) => write!(out, "{text}")?,
                Piece::File => write!(out, "{}", safe(file))?,
                Piece::Line => write!(out, "{line}")?,
                Piece::Count => write!(out, "{n}")?,
            }
        }
    }
    writeln!(out)
}

fn transfer(t: &Transfer, words: &Words) -> String {
    let quantity = t
        .quantity
        .as_ref()
        .map(|(q, u)| format!(" ({} {})", q.normalize(), safe(u)))
        .unwrap_or_default();
    let who = if t.instances.is_empty() {
        t!("audit-transfer-nobody").into_owned()
    } else {
        let instances = t
            .instances
            .iter()
            .map(|i| safe(i))
            .collect::<Vec<_>>()
            .join(", ");
        t!("audit-transfer-while", instances = instances)
    };
    let (from, to) = (
        safe(t.from_region.as_deref().unwrap_or("?")),
        safe(t.to_region.as_deref().unwrap_or("?")),
    );
    let amount = money(&t.amounts, words);
    match t.scope {
        gpumeter_core::audit::TransferScope::InterZone => t!(
            "audit-transfer-zones",
            from = from,
            to = to,
            quantity = quantity,
            who = who,
            amount = amount
        ),
        _ => t!(
            "audit-transfer-regions",
            from = from,
            to = to,
            quantity = quantity,
            who = who,
            amount = amount
        ),
    }
}

fn mismatch(m: &Mismatch) -> String {
    let show =
        |x: Option<Money>| x.map_or_else(|| t!("audit-nothing").into_owned(), |m| m.to_string());
    let detail = match m.cause {
        Cause::RateChange { bill, sheet } => format!(
            " ({})",
            t!(
                "audit-rate-detail",
                bill = bill.round_cents().to_string(),
                sheet = sheet.to_string()
            )
        ),
        Cause::Rounding {
            bill_hours,
            meter_hours,
        }
        | Cause::Hours {
            bill_hours,
            meter_hours,
        } => format!(
            " ({})",
            t!(
                "audit-hours-detail",
                bill = bill_hours.round_dp(3).normalize().to_string(),
                meter = meter_hours.round_dp(3).normalize().to_string()
            )
        ),
        _ => String::new(),
    };
    let difference = m
        .difference
        .map(|d| {
            let amount = Money::new(d.amount, d.currency).to_string();
            t!("audit-difference", amount = amount)
        })
        .unwrap_or_default();
    t!(
        "audit-mismatch",
        instance = safe(&m.instance),
        billed = show(m.billed),
        metered = show(m.metered),
        difference = difference,
        cause = m.cause.shown(),
        detail = detail
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpumeter_core::i18n::{Lang, scoped};

    #[test]
    fn the_line_place_is_cut_once_around_the_file_the_line_and_the_count() {
        let words = scoped(Lang::En, Words::new);
        assert_eq!(
            words.at_many,
            [
                Piece::Text("[".into()),
                Piece::File,
                Piece::Text(":".into()),
                Piece::Line,
                Piece::Text(", ".into()),
                Piece::Count,
                Piece::Text(" lines]".into()),
            ]
        );
        assert!(
            words.at_one.contains(&Piece::Text(", 1 line]".into())),
            "{:?}",
            words.at_one
        );
        let zh = scoped(Lang::ZhCn, Words::new);
        assert!(zh.at_many.contains(&Piece::Count), "{:?}", zh.at_many);
        assert_eq!(zh.not_on_bill, "账单上没有");
    }

    #[test]
    fn each_leftover_reason_picks_its_own_sentence_in_both_languages() {
        use gpumeter_core::audit::LeftoverWhy;
        let reasons = [
            LeftoverWhy::AfterRelease,
            LeftoverWhy::AfterGone,
            LeftoverWhy::InstanceGone,
        ];
        for lang in [Lang::En, Lang::ZhCn] {
            let said: std::collections::BTreeSet<String> = reasons
                .iter()
                .map(|why| {
                    scoped(lang, || {
                        t!(
                            "audit-leftover",
                            why = why.name(),
                            resource = "vol-1",
                            what = "disk",
                            instance = "i-1",
                            since = "then",
                            amount = "1.00 USD"
                        )
                    })
                })
                .collect();
            // A reason the catalogue does not name falls to the last sentence: two alike.
            assert_eq!(said.len(), reasons.len(), "{lang:?}: {said:?}");
            assert!(
                said.iter()
                    .all(|s| s.contains("vol-1") && s.contains("i-1"))
            );
        }
    }
}
