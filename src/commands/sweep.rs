//! `gpumeter sweep`: every billable thing in the account's region that no running instance
//! uses, with its monthly cost and age, the dearest first; exit 3 when anything bills.

use std::fmt::Write as _;
use std::process::ExitCode;

use jiff::Timestamp;
use serde_json::json;

use super::checklist::EXIT_LEFTOVERS;
use super::context::Context;
use super::{CommandResult, EXIT_FAILED, Failure, emit};
use crate::cli::Cli;
use crate::provider::{
    CleanupFilter, LinkedResource, Sharing, SweepRow, findings, findings_of, monthly_total, rank,
};

pub fn run(cli: &Cli, as_json: bool, only: &CleanupFilter) -> CommandResult {
    let ctx = Context::load(cli)?;
    let provider = ctx.provider()?;
    let what = format!("sweeping the account at {}", provider.name());
    let found = super::progress::run(&what, provider.sweep())?
        .map_err(|e| Failure::provider(EXIT_FAILED, provider.name(), &e))?;
    let sheet = ctx.region_sheet()?;
    let now = Timestamp::now();
    let found = found.into_iter().filter(|r| only.matches(r, now)).collect();
    let rows = rank(found, sheet.as_ref(), now);
    let (total, unpriced) = monthly_total(&rows);
    if as_json {
        let items: Vec<_> = rows.iter().map(row_json).collect();
        let doc = json!({
            "provider": provider.name(),
            "sheet": sheet.as_ref().map(|s| s.id.clone()),
            "items": items,
            "monthly_total": total.map(|t| t.cents_string()),
            "currency": total.map(|t| t.currency),
            "unpriced": unpriced,
        });
        emit(&serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        emit(text(&rows, total, unpriced).trim_end());
    }
    Ok(if rows.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_LEFTOVERS)
    })
}

fn row_json(r: &SweepRow) -> serde_json::Value {
    json!({
        "kind": r.resource.kind,
        "id": r.resource.id,
        "name": r.resource.name,
        "state": r.resource.state,
        "size_gib": r.resource.size_gib.normalize().to_string(),
        "created": r.resource.created.to_string(),
        "age_days": r.age_days,
        "monthly_cost": r.monthly.map(|m| m.cents_string()),
        "attached_to": r.resource.attached_to,
        "encrypted": r.resource.exposure.encrypted,
        "public": public(&r.resource.exposure.shared),
        "shared_with": match &r.resource.exposure.shared {
            Sharing::Accounts(accounts) => Some(accounts.clone()),
            _ => None,
        },
        "findings": findings_of(&r.resource),
    })
}

/// Whether anyone may read it; `null` when the provider did not say.
fn public(shared: &Sharing) -> Option<bool> {
    match shared {
        Sharing::Unknown => None,
        Sharing::Public => Some(true),
        Sharing::Private | Sharing::Accounts(_) => Some(false),
    }
}

/// The findings as lines under a heading, the gravest first; nothing when there are none.
fn exposure_lines(found: &[LinkedResource]) -> Vec<String> {
    let found = findings(found);
    if found.is_empty() {
        return Vec::new();
    }
    let mut lines = vec!["data others can read:".to_string()];
    lines.extend(found.iter().map(|f| format!("  {}", f.line())));
    lines
}

fn text(rows: &[SweepRow], total: Option<crate::money::Money>, unpriced: usize) -> String {
    let mut out = String::new();
    if rows.is_empty() {
        return "nothing bills without a running instance in this region".into();
    }
    let _ = writeln!(
        out,
        "{:<13} {:<24} {:>10} {:>7}  {:>14}  state",
        "kind", "id", "size", "age", "a month"
    );
    for r in rows {
        let kind = serde_json::to_value(r.resource.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let size = if r.resource.size_gib.is_zero() {
            "-".to_string()
        } else {
            format!("{} GiB", r.resource.size_gib.normalize())
        };
        let monthly = r
            .monthly
            .map_or_else(|| "unpriced".to_string(), |m| m.to_string());
        let _ = writeln!(
            out,
            "{kind:<13} {:<24} {size:>10} {:>6}d  {monthly:>14}  {}",
            r.resource.id, r.age_days, r.resource.state
        );
    }
    let more = if unpriced > 0 {
        format!(" + {unpriced} unpriced")
    } else {
        String::new()
    };
    let total = total.map_or_else(|| "unknown".to_string(), |t| t.to_string());
    let _ = writeln!(out, "bills {total} a month{more}");
    let resources: Vec<LinkedResource> = rows.iter().map(|r| r.resource.clone()).collect();
    for line in exposure_lines(&resources) {
        let _ = writeln!(out, "{line}");
    }
    out
}
