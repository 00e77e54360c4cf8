//! The refund case `audit --evidence DIR` writes, as text: a Markdown summary a support desk
//! can read, and the CSV files behind it (actions with the provider's read-back, the meter's
//! minutes, the bill lines). Pure: the edge reads the ledger and writes the files.

mod csv;

pub use csv::{actions_csv, bill_lines_csv, bill_lines_csv_of, minutes_csv};

use std::fmt::Write as _;

use jiff::Timestamp;

use super::findings::{Cause, Finding, LeftoverWhy};
use super::ledger::AuditLedger;
use super::report::AuditReport;
use crate::money::Money;
use crate::text::one_line;

/// The longest a bill's text is kept in the summary.
const TEXT_CHARS: usize = 120;

/// One action the ledger holds, with what the provider answered and how its read-back ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceAction {
    pub at: Timestamp,
    pub instance: Option<String>,
    pub intent: String,
    pub request: Option<String>,
    pub answer: Option<String>,
    /// `confirmed`, `unconfirmed` or `failed`.
    pub outcome: Option<String>,
}

/// One minute the meter recorded for an instance.
#[derive(Debug, Clone, PartialEq)]
pub struct EvidenceMinute {
    pub instance: String,
    pub start: Timestamp,
    /// compute, bandwidth, storage, extras: what accrued in the minute.
    pub cost: [Money; 4],
    pub idle: bool,
    pub gpu_util_mean_pct: Option<f64>,
}

/// `summary.md`: the span, each instance's times, every finding with its amounts and the
/// lines behind it, and what to ask the provider.
pub fn summary(report: &AuditReport, ledger: &AuditLedger, actions: &[EvidenceAction]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Billing dispute: the bill against the meter's record\n"
    );
    let _ = writeln!(
        out,
        "Period audited: {} to {} (UTC).\n",
        report.since, report.until
    );
    let _ = writeln!(
        out,
        "Bill lines read: {}, charged in the period: {}. Tolerance: {} % or {} of the currency, \
         whichever is larger.\n",
        report.lines_read, report.lines_in_span, report.tolerance.percent, report.tolerance.floor
    );
    let _ = writeln!(out, "## Instances\n");
    let _ = writeln!(
        out,
        "| instance | provider | region | type | first seen running | stopped | released |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    for i in &ledger.instances {
        let stopped = actions
            .iter()
            .filter(|a| a.instance.as_deref() == Some(&i.id) && a.intent == "stop")
            .filter(|a| a.outcome.as_deref() == Some("confirmed"))
            .map(|a| a.at)
            .max();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            cell(&i.id),
            cell(&i.provider),
            cell(i.region.as_deref().unwrap_or("-")),
            cell(i.sku.as_deref().unwrap_or("-")),
            i.started,
            stopped.map_or_else(|| "-".to_string(), |t| t.to_string()),
            i.released
                .map_or_else(|| "not released".to_string(), |t| t.to_string()),
        );
    }
    let _ = writeln!(out, "\n## Findings\n");
    if report.findings.is_empty() {
        let _ = writeln!(
            out,
            "None: the bill and the meter agree within the tolerance."
        );
    }
    for f in &report.findings {
        let lines = f.lines().iter().map(|&n| n + 1).collect::<Vec<_>>();
        let _ = writeln!(
            out,
            "- **{}**: {} ({}; bill lines in bill-lines.csv: {})",
            f.kind().name(),
            describe(f),
            amounts(f),
            lines.len()
        );
    }
    let disputed = report.disputed();
    if !disputed.is_empty() {
        let list: Vec<String> = disputed.0.iter().map(Money::to_string).collect();
        let _ = writeln!(out, "\nIn question in all: {}.", list.join(", "));
    }
    let _ = writeln!(out, "\n## What we ask\n");
    let _ = writeln!(out, "{}", ask(report));
    let _ = writeln!(
        out,
        "\nAttached: actions.csv (every action taken on these instances with the provider's \
         read-back), minutes.csv (the meter's record minute by minute), bill-lines.csv (the \
         bill lines above, with the file and line they come from)."
    );
    out
}

/// One finding in a sentence.
fn describe(f: &Finding) -> String {
    match f {
        Finding::Leftover(l) => {
            let what = l.kind.map_or("the instance itself", |k| k.label());
            let why = match l.why {
                LeftoverWhy::AfterRelease => "after the instance was released",
                LeftoverWhy::AfterGone => "after it was seen deleted",
                LeftoverWhy::InstanceGone => "though its instance is gone",
            };
            let refunded = if l.refunded.is_empty() {
                String::new()
            } else {
                let list: Vec<String> = l.refunded.0.iter().map(Money::to_string).collect();
                format!("; refunded on the bill already: {}", list.join(", "))
            };
            let kept = if l.ended {
                ""
            } else {
                "; the meter's record shows no delete of it, so it may still exist and is not asked back"
            };
            format!(
                "{} ({what}, of {}) charged {why}, since {}{refunded}{kept}",
                cell(&l.resource),
                cell(&l.instance),
                l.since
            )
        }
        Finding::Transfer(t) => format!(
            "{} data transfer from {} to {}, while {} ran",
            if t.scope == super::bill::TransferScope::InterZone {
                "Inter-zone"
            } else {
                "Inter-region"
            },
            cell(t.from_region.as_deref().unwrap_or("?")),
            cell(t.to_region.as_deref().unwrap_or("?")),
            if t.instances.is_empty() {
                "no watched instance".to_string()
            } else {
                t.instances.join(", ")
            }
        ),
        Finding::Overlap(o) => format!(
            "{} and {} ({}) ran at the same time from {} to {}; the later one's compute then",
            cell(&o.first),
            cell(&o.second),
            cell(&o.sku),
            o.from,
            o.until
        ),
        Finding::Mismatch(m) => {
            let money =
                |x: Option<Money>| x.map_or_else(|| "nothing".to_string(), |m| m.to_string());
            let detail = match m.cause {
                Cause::RateChange { bill, sheet } => {
                    format!(": the bill charges {bill}/h, the rate was {sheet}/h")
                }
                Cause::Rounding {
                    bill_hours,
                    meter_hours,
                }
                | Cause::Hours {
                    bill_hours,
                    meter_hours,
                } => {
                    format!(
                        ": the bill charges {} h, the meter saw {} h",
                        bill_hours.round_dp(3),
                        meter_hours.round_dp(3)
                    )
                }
                _ => String::new(),
            };
            format!(
                "{}: the bill charges {} for compute, the meter billed {}; likely {}{detail}",
                cell(&m.instance),
                money(m.billed),
                money(m.metered),
                m.cause.label()
            )
        }
        Finding::Unexplained(u) => format!(
            "{} ({}) matches nothing the meter recorded",
            cell(u.resource.as_deref().unwrap_or("no resource id")),
            cell(&u.service)
        ),
    }
}

fn amounts(f: &Finding) -> String {
    let a = f.amounts();
    if a.is_empty() {
        return "amount not on the bill".to_string();
    }
    a.0.iter()
        .map(Money::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What to ask the provider for, from what was found.
fn ask(report: &AuditReport) -> String {
    let mut asks = Vec::new();
    for f in &report.findings {
        let line = match f {
            Finding::Leftover(l) if !l.ended => continue,
            Finding::Leftover(l) => format!(
                "A refund of the charges for {} after {}, when the meter's record shows it released or deleted.",
                cell(&l.resource),
                l.released
                    .map_or_else(|| l.since.to_string(), |t| t.to_string())
            ),
            Finding::Overlap(o) => format!(
                "A review of {} running beside {} from {} to {}.",
                cell(&o.second),
                cell(&o.first),
                o.from,
                o.until
            ),
            Finding::Mismatch(m) if m.difference.is_some_and(|d| d.amount.is_sign_positive()) => {
                format!(
                    "An explanation of, or a refund for, the compute charged for {} beyond the rate agreed.",
                    cell(&m.instance)
                )
            }
            Finding::Unexplained(u) => format!(
                "What {} is, and a refund if it is not ours.",
                cell(
                    u.resource
                        .as_deref()
                        .unwrap_or("the lines with no resource id")
                )
            ),
            _ => continue,
        };
        if !asks.contains(&line) {
            asks.push(line);
        }
    }
    if asks.is_empty() {
        return "Nothing: the bill matches the record.".to_string();
    }
    asks.iter()
        .map(|a| format!("- {a}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Text from a bill or a provider made one line and safe inside a Markdown table.
fn cell(text: &str) -> String {
    one_line(text, TEXT_CHARS).replace('|', "\\|")
}
