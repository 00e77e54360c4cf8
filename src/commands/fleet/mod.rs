//! `gpumeter fleet [--json] [--tag K=V] [--region R] [--provider P]`: every instance of the
//! fleet and what it leaves behind, read from each provider at once, priced, flagged and sorted
//! by cost. A `[[fleet]]` table that names instances reads those; one that names none lists the
//! account: every GPU instance in its region and what bills there with no instance. Needs no
//! GPU: it reads the providers' APIs, the local ledger's heartbeats and, where given, each
//! instance's `gpumeter serve` endpoint. The cockpit's fleet screen reads it the same way,
//! through [`collect`].

mod account;
mod scrape;
mod targets;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt as _;
use jiff::Timestamp;

use super::context::Context;
use super::{CommandResult, Failure, block_on};
use crate::app::FleetLink;
use crate::cli::{Cli, FleetArgs};
use crate::cockpit::FleetReader;
use crate::fleet::{FleetFilter, FleetRow, Reporting, flag, row, sort_by_cost, table};
use crate::ledger::Ledger;
use crate::serve::collect::WATCHDOG_STALE_AFTER;
use targets::{Listed, Target, targets};

/// A provider that takes longer than this for one named instance is shown as unreachable.
const READ_TIMEOUT: Duration = Duration::from_secs(20);
/// How many instances and accounts are read at once: enough to hide each one's latency,
/// few enough that a team's dozen accounts do not meet every provider's rate limit at once.
const READS_AT_ONCE: usize = 8;

pub fn run(cli: &Cli, args: &FleetArgs) -> CommandResult {
    let base = Context::load(cli)?;
    let filter = filter_of(args)?;
    if targets(&base, &filter).is_empty() {
        return Err(Failure::bad_input(if base.config.fleet.is_empty() {
            crate::t!("err-no-fleet")
        } else {
            crate::t!("err-no-fleet-asked")
        }));
    }
    let rows = block_on(collect(&base, &filter, Timestamp::now()))?;
    for r in rows.iter().filter(|r| r.origin.instance_id.is_empty()) {
        if let Some(why) = r.shown_error() {
            let account = if r.origin.account.is_empty() {
                "—"
            } else {
                &r.origin.account
            };
            let region = r
                .origin
                .region
                .clone()
                .unwrap_or_else(|| crate::t!("fleet-default-region").into_owned());
            let line = crate::t!(
                "fleet-account-error",
                account = account,
                provider = r.origin.provider.as_str(),
                region = region,
                why = why
            );
            super::emit_err(&format!("gpumeter: {line}"));
        }
    }
    if args.json {
        let text = serde_json::to_string_pretty(&rows)
            .map_err(|e| Failure::bad_input(crate::t!("err-write-json", error = e.to_string())))?;
        super::emit(&text);
    } else {
        super::emit(table::render(&rows).trim_end());
    }
    Ok(ExitCode::SUCCESS)
}

fn filter_of(args: &FleetArgs) -> Result<FleetFilter, Failure> {
    let tags = args
        .tags
        .iter()
        .map(|t| super::cleanup::parse_tag(t))
        .collect::<Result<_, _>>()
        .map_err(|e| Failure::bad_input(format!("--tag: {e}")))?;
    Ok(FleetFilter {
        tags,
        regions: args.regions.clone(),
        providers: args.providers.iter().map(|p| p.id().to_string()).collect(),
    })
}

/// Every instance and account of the fleet, read `READS_AT_ONCE` at a time with the ledger's
/// heartbeats, flagged and sorted by cost at `now`. A provider that fails or takes longer than
/// its timeout gives a row that says so; nothing to read gives no rows.
pub async fn collect(ctx: &Context, filter: &FleetFilter, now: Timestamp) -> Vec<FleetRow> {
    let reads = targets(ctx, filter).into_iter().map(|t| async move {
        match t {
            Target::Instance(listed) => vec![read(ctx, listed, now).await],
            Target::Account(a) => account::read_account(ctx, a, filter, now).await,
        }
    });
    let read: Vec<Vec<FleetRow>> = futures_util::stream::iter(reads)
        .buffer_unordered(READS_AT_ONCE)
        .collect()
        .await;
    let ledger = Ledger::open_read_only(crate::ledger::path_in(&ctx.data_dir, ctx.demo)).ok();
    let mut rows: Vec<FleetRow> = read.into_iter().flatten().collect();
    if let Some(ledger) = &ledger {
        for r in rows.iter_mut().filter(|r| !r.origin.instance_id.is_empty()) {
            if let Some(guard) = ledger.guard(&r.origin.instance_id).ok().flatten() {
                r.reporting.heartbeat = Some(
                    guard
                        .watchdog
                        .is_some_and(|w| w.alive(now, WATCHDOG_STALE_AFTER)),
                );
            }
        }
    }
    flag(&mut rows);
    sort_by_cost(&mut rows);
    rows
}

/// What the cockpit's fleet screen reads: `[[fleet]]`'s instances and accounts only (the
/// configured one is the cockpit's own), as [`collect`] reads them, saying nothing on stderr.
/// `None` without `[[fleet]]`.
pub fn for_cockpit(ctx: Context) -> Option<(FleetLink, FleetReader)> {
    if ctx.config.fleet.is_empty() {
        return None;
    }
    let accounts: std::collections::BTreeSet<_> = ctx
        .config
        .fleet
        .iter()
        .map(|f| (f.provider.id(), f.account.clone().unwrap_or_default()))
        .collect();
    let filter = FleetFilter::default();
    let link = FleetLink {
        accounts: accounts.len(),
        instances: targets(&ctx, &filter)
            .iter()
            .filter(|t| matches!(t, Target::Instance(_)))
            .count(),
        ..FleetLink::default()
    };
    let mut ctx = ctx;
    ctx.quiet = true;
    let ctx = Arc::new(ctx);
    let reader: FleetReader = Arc::new(move || {
        let ctx = Arc::clone(&ctx);
        Box::pin(async move { collect(&ctx, &FleetFilter::default(), Timestamp::now()).await })
    });
    Some((link, reader))
}

/// Reads one named instance: its inventory, its pricing and, where given, its metrics.
async fn read(base: &Context, target: Listed, now: Timestamp) -> FleetRow {
    let mut origin = target.origin;
    let reporting = match &target.metrics {
        Some(url) => scrape::scrape(url).await,
        None => Reporting::default(),
    };
    let ctx = base.for_account(target.instance, &target.env);
    let provider = match ctx.provider() {
        Ok(p) => p,
        Err(e) => return row(origin, Err(&e.message), None, reporting, now),
    };
    let inventory = match tokio::time::timeout(READ_TIMEOUT, provider.inventory()).await {
        Ok(Ok(inventory)) => inventory,
        Ok(Err(e)) => {
            let mut r = row(origin, Err(&e.to_string()), None, reporting, now);
            r.error_shown = Some(e.shown());
            return r;
        }
        Err(_) => {
            let seconds = READ_TIMEOUT.as_secs().to_string();
            let why = format!("no answer in {seconds} s");
            let mut r = row(origin, Err(&why), None, reporting, now);
            r.error_shown = Some(crate::t!("fleet-no-answer", seconds = seconds));
            return r;
        }
    };
    if let Some(instance) = &inventory.instance {
        if origin.instance_id.is_empty() {
            origin.instance_id.clone_from(&instance.id);
        }
        if origin.region.is_none() {
            origin.region.clone_from(&instance.region);
        }
    }
    // A sheet that cannot price it leaves the cost unknown; the row says so with a flag.
    let pricing = ctx.pricing_for(inventory.instance.as_ref()).ok().flatten();
    let recorded = ctx.recorded(&inventory);
    row(
        origin,
        Ok((&inventory, &recorded)),
        pricing.as_ref(),
        reporting,
        now,
    )
}
