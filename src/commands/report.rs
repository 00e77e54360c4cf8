//! `gpumeter report`: spend history from the ledger, per day and per component, idle spend,
//! energy, actions, what still bills after a release, and instances that overlapped.

pub mod account;
mod bars;
mod focus;
mod json;
mod table;
pub mod window;

use std::process::ExitCode;

use jiff::Timestamp;

use super::context::Context;
use super::{CommandResult, Failure, emit};
use crate::cli::{Cli, ReportArgs};
use crate::ledger::query::LeftoverRow;
use crate::ledger::{self, Ledger, report};
use crate::meter::{Resource, ResourceKind, monthly_after_release};
use crate::money::Money;
use crate::pricing::Sheet;

pub fn run(cli: &Cli, args: &ReportArgs) -> CommandResult {
    let ctx = Context::load(cli)?;
    // Whole seconds: the ledger keeps no finer time, and the report prints none.
    let now = Timestamp::now();
    let now = Timestamp::from_second(now.as_second()).unwrap_or(now);
    let tz = ctx.config.user_zone().tz;
    let since = window::parse_bound(&args.since, now, &tz)
        .map_err(|e| Failure::bad_input(format!("--since: {}", e.shown())))?;
    let until = match &args.until {
        Some(text) => window::parse_bound(text, now, &tz)
            .map_err(|e| Failure::bad_input(format!("--until: {}", e.shown())))?,
        None => now,
    };
    if since >= until {
        return Err(Failure::bad_input(crate::t!(
            "err-since-before-until",
            since = since.to_string(),
            until = until.to_string()
        )));
    }
    let path = ledger::path_in(&ctx.data_dir, ctx.demo);
    if ctx.demo && !path.exists() {
        let mut fresh = Ledger::open(&path).map_err(|e| Failure::failed(e.shown()))?;
        ledger::demo::seed(&mut fresh, now).map_err(|e| Failure::failed(e.shown()))?;
    }
    if !path.exists() {
        return Err(Failure::failed(crate::t!(
            "err-no-history",
            path = path.display().to_string()
        )));
    }
    let ledger = Ledger::open_read_only(&path).map_err(|e| Failure::failed(e.shown()))?;
    let sheet = ctx.pricing().ok().flatten().map(|p| p.sheet);
    let failed = |e: ledger::LedgerError| Failure::failed(e.shown());
    let records = account::records(&ctx, &ledger).map_err(failed)?;
    // Each account as it stands now, cut into the window, its days or its hours.
    let meters = account::meters(&records, now);
    if args.focus {
        let text = focus::csv(&ledger, (since, until), sheet.as_ref(), &meters).map_err(failed)?;
        emit(text.trim_end());
        return Ok(ExitCode::SUCCESS);
    }
    let rows = ledger.report_rows(since, until).map_err(failed)?;
    let price = |row: &LeftoverRow| sheet.as_ref().and_then(|s| monthly_cost(s, row));
    let windows = account::windows(&meters, (since, until), &tz);
    let report = report::build(&rows, (since, until), &tz, &price, &windows);
    if args.csv {
        emit(table::csv(&report).trim_end());
        return Ok(ExitCode::SUCCESS);
    }
    // Lifetime to date, so at now whatever the window.
    let accounts = account::accounts(&records, now);
    if args.json {
        let shape = json::shape(&report, &accounts, &tz);
        emit(&serde_json::to_string_pretty(&shape).unwrap_or_default());
    } else {
        emit(table::text(&report, &accounts, &tz).trim_end());
    }
    Ok(ExitCode::SUCCESS)
}

/// What a leftover costs a month under `sheet`, where the sheet prices its kind.
fn monthly_cost(sheet: &Sheet, row: &LeftoverRow) -> Option<Money> {
    let kind: ResourceKind =
        serde_json::from_value(serde_json::Value::String(row.kind.clone())).ok()?;
    let resource = Resource {
        id: row.id.clone(),
        kind,
        class: row.class.clone(),
        size_gib: row.size_gib.parse().ok()?,
        created: row.created,
        deleted: None,
        deleted_with_instance: false,
    };
    monthly_after_release(sheet, &resource).map(|m| Money::new(m, sheet.currency))
}
