//! The refund case `audit --evidence DIR` writes, as text: a Markdown summary a support desk
//! can read, and the CSV files behind it (actions with the provider's read-back, the meter's
//! minutes, the bill lines). Pure: the edge reads the ledger and writes the files.

mod csv;
mod words;

pub use csv::{actions_csv, bill_lines_csv, bill_lines_csv_of, minutes_csv};

use std::fmt::Write as _;

use jiff::Timestamp;

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
/// lines behind it, and what to ask the provider. In the current language.
pub fn summary(report: &AuditReport, ledger: &AuditLedger, actions: &[EvidenceAction]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", crate::t!("evidence-title"));
    let _ = writeln!(
        out,
        "{}\n",
        crate::t!(
            "evidence-period",
            since = report.since.to_string(),
            until = report.until.to_string()
        )
    );
    let _ = writeln!(
        out,
        "{}\n",
        crate::t!(
            "evidence-read",
            read = report.lines_read.to_string(),
            in_span = report.lines_in_span.to_string(),
            percent = report.tolerance.percent.to_string(),
            floor = report.tolerance.floor.to_string()
        )
    );
    let _ = writeln!(out, "## {}\n", crate::t!("evidence-heading-instances"));
    let columns = [
        crate::t!("evidence-column-instance"),
        crate::t!("evidence-column-provider"),
        crate::t!("evidence-column-region"),
        crate::t!("evidence-column-type"),
        crate::t!("evidence-column-started"),
        crate::t!("evidence-column-stopped"),
        crate::t!("evidence-column-released"),
    ];
    let _ = writeln!(out, "| {} |", columns.join(" | "));
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
            i.released.map_or_else(
                || crate::t!("evidence-not-released").into_owned(),
                |t| t.to_string()
            ),
        );
    }
    let _ = writeln!(out, "\n## {}\n", crate::t!("evidence-heading-findings"));
    if report.findings.is_empty() {
        let _ = writeln!(out, "{}", crate::t!("evidence-agrees"));
    }
    for f in &report.findings {
        let _ = writeln!(
            out,
            "- {}",
            crate::t!(
                "evidence-finding",
                kind = f.kind().name(),
                what = words::describe(f),
                amounts = words::amounts(f),
                lines = f.lines().len().to_string()
            )
        );
    }
    let disputed = report.disputed();
    if !disputed.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            crate::t!("evidence-in-question", amounts = words::list(&disputed))
        );
    }
    let _ = writeln!(out, "\n## {}\n", crate::t!("evidence-heading-ask"));
    let _ = writeln!(out, "{}", words::ask(report));
    let _ = writeln!(out, "\n{}", crate::t!("evidence-attached"));
    out
}

/// Text from a bill or a provider made one line and safe inside a Markdown table.
fn cell(text: &str) -> String {
    one_line(text, TEXT_CHARS).replace('|', "\\|")
}

#[cfg(test)]
mod tests;
