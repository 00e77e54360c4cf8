//! `--evidence DIR`: the refund case on disk. The directory and every file in it are private
//! to the owner (`files`), since a bill and an account's actions are nobody else's business.

use std::path::Path;

use gpumeter_core::audit::evidence::{actions_csv, bill_lines_csv, minutes_csv, summary};
use gpumeter_core::audit::{AuditLedger, AuditReport, BillLine};
use jiff::Timestamp;

use super::super::Failure;
use crate::files;
use crate::ledger::Ledger;

/// Writes `summary.md`, `actions.csv`, `minutes.csv` and `bill-lines.csv` into `dir`, for the
/// instances the findings concern (every instance of the span when nothing was found).
pub fn write(
    dir: &Path,
    report: &AuditReport,
    view: &AuditLedger,
    lines: &[BillLine],
    ledger: &Ledger,
) -> Result<(), Failure> {
    let mut ids: Vec<&str> = report.findings.iter().flat_map(|f| f.instances()).collect();
    if ids.is_empty() {
        ids = view.instances.iter().map(|i| i.id.as_str()).collect();
    }
    ids.sort_unstable();
    ids.dedup();
    let failed = |e: crate::ledger::LedgerError| Failure::failed(e.to_string());
    let actions = ledger.audit_actions(&ids).map_err(failed)?;
    // The minutes of the span, and the hour before each release in question: the meter's
    // record of the instance's last minutes, which a leftover after it is measured against.
    let from = view
        .instances
        .iter()
        .filter(|i| ids.contains(&i.id.as_str()))
        .filter_map(|i| i.released)
        .map(|r| r - jiff::SignedDuration::from_hours(1))
        .fold(report.since, Timestamp::min);
    let minutes = ledger
        .audit_minutes(&ids, from, report.until)
        .map_err(failed)?;
    let cannot = |what: &str, e: std::io::Error| {
        Failure::failed(format!("cannot write {}: {e}", dir.join(what).display()))
    };
    files::create_private_dir(dir).map_err(|e| cannot("", e))?;
    files::tighten(dir);
    for (name, text) in [
        ("summary.md", summary(report, view, &actions)),
        ("actions.csv", actions_csv(&actions)),
        ("minutes.csv", minutes_csv(&minutes)),
        ("bill-lines.csv", bill_lines_csv(report, lines)),
    ] {
        files::write_private(&dir.join(name), text.as_bytes()).map_err(|e| cannot(name, e))?;
    }
    Ok(())
}
