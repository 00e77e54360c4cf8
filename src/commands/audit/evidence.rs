//! `--evidence DIR`: the refund case on disk. The directory and every file in it are private
//! to the owner (`files`), since a bill and an account's actions are nobody else's business.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use gpumeter_core::audit::evidence::{actions_csv, bill_lines_csv_of, minutes_csv, summary};
use gpumeter_core::audit::{AuditLedger, AuditReport};
use jiff::Timestamp;

use super::super::Failure;
use super::read;
use crate::files;
use crate::ledger::Ledger;

/// Writes `summary.md`, `actions.csv`, `minutes.csv` and `bill-lines.csv` into `dir`, for the
/// instances the findings concern (every instance of the span when nothing was found). The
/// lines behind the findings are read again from `bills`.
pub fn write(
    dir: &Path,
    report: &AuditReport,
    view: &AuditLedger,
    bills: &[PathBuf],
    ledger: &Ledger,
) -> Result<(), Failure> {
    let mut ids: Vec<&str> = report.findings.iter().flat_map(|f| f.instances()).collect();
    if ids.is_empty() {
        ids = view.instances.iter().map(|i| i.id.as_str()).collect();
    }
    ids.sort_unstable();
    ids.dedup();
    let failed = |e: crate::ledger::LedgerError| Failure::failed(e.shown());
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
    let wanted: BTreeSet<usize> = report
        .findings
        .iter()
        .flat_map(|f| f.lines().iter().copied())
        .collect();
    let lines = read::lines_at(bills, &wanted)?;
    let cannot = |what: &str, e: std::io::Error| {
        Failure::failed(format!("cannot write {}: {e}", dir.join(what).display()))
    };
    files::create_private_dir(dir).map_err(|e| cannot("", e))?;
    files::tighten(dir);
    for (name, text) in [
        ("summary.md", summary(report, view, &actions)),
        ("actions.csv", actions_csv(&actions)),
        ("minutes.csv", minutes_csv(&minutes)),
        (
            "bill-lines.csv",
            bill_lines_csv_of(report, |i| lines.get(&i)),
        ),
    ] {
        files::write_private(&dir.join(name), text.as_bytes()).map_err(|e| cannot(name, e))?;
    }
    Ok(())
}
