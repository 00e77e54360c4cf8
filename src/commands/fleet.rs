//! `gpumeter fleet [--json]`: every instance in `[[fleet]]` (or the configured one) and what it
//! leaves behind, read from each provider at once, priced, flagged and sorted by cost. Needs no
//! GPU: it reads the providers' APIs, the local ledger's heartbeats and, where given, each
//! instance's `gpumeter serve` endpoint. The cockpit's fleet screen reads `[[fleet]]` the same
//! way, through [`collect`].

use std::collections::BTreeSet;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

use super::context::Context;
use super::{CommandResult, Failure, block_on};
use crate::app::FleetLink;
use crate::cli::Cli;
use crate::cockpit::FleetReader;
use crate::config::{InstanceConfig, ProviderKind};
use crate::fleet::{FleetRow, Origin, Reporting, flag, row, sort_by_cost, table};
use crate::ledger::Ledger;
use crate::provider::http::{Http, HttpPolicy};
use crate::serve::collect::WATCHDOG_STALE_AFTER;

/// A provider that takes longer than this is shown as unreachable.
const READ_TIMEOUT: Duration = Duration::from_secs(20);
/// A `gpumeter serve` endpoint that takes longer than this counts as not reporting.
const METRICS_TIMEOUT: Duration = Duration::from_secs(3);

/// One instance to read.
struct Target {
    origin: Origin,
    instance: InstanceConfig,
    metrics: Option<String>,
}

pub fn run(cli: &Cli, json: bool) -> CommandResult {
    let base = Context::load(cli)?;
    if targets(&base).is_empty() {
        return Err(Failure::bad_input(
            "no fleet: add [[fleet]] tables (or an [instance]) to the config, or try --demo",
        ));
    }
    let rows = block_on(collect(&base, Timestamp::now()))?;
    if json {
        let text = serde_json::to_string_pretty(&rows)
            .map_err(|e| Failure::bad_input(format!("cannot write JSON: {e}")))?;
        super::emit(&text);
    } else {
        super::emit(table::render(&rows).trim_end());
    }
    Ok(ExitCode::SUCCESS)
}

/// Every instance of the fleet (`[[fleet]]`'s; without any, the configured one), read at once
/// with the ledger's heartbeats, flagged and sorted by cost at `now`. A provider that fails or
/// takes longer than its timeout gives a row that says so; no instance to read gives no rows.
pub async fn collect(ctx: &Context, now: Timestamp) -> Vec<FleetRow> {
    let targets = targets(ctx);
    if targets.is_empty() {
        return Vec::new();
    }
    let ledger = Ledger::open_read_only(crate::ledger::path_in(&ctx.data_dir, ctx.demo)).ok();
    let reads = targets.into_iter().map(|t| read(ctx, t, now));
    let mut rows: Vec<FleetRow> = futures_util::future::join_all(reads)
        .await
        .into_iter()
        .map(|mut r| {
            if let Some(guard) = ledger
                .as_ref()
                .and_then(|l| l.guard(&r.origin.instance_id).ok().flatten())
            {
                r.reporting.heartbeat = Some(
                    guard
                        .watchdog
                        .is_some_and(|w| w.alive(now, WATCHDOG_STALE_AFTER)),
                );
            }
            r
        })
        .collect();
    flag(&mut rows);
    sort_by_cost(&mut rows);
    rows
}

/// What the cockpit's fleet screen reads: `[[fleet]]`'s instances only (the configured one is
/// the cockpit's own), as [`collect`] reads them, saying nothing on stderr. `None` when
/// `[[fleet]]` lists no instance.
pub fn for_cockpit(ctx: Context) -> Option<(FleetLink, FleetReader)> {
    let listed: Vec<_> = ctx
        .config
        .fleet
        .iter()
        .filter(|f| !f.instances.is_empty())
        .collect();
    if listed.is_empty() {
        return None;
    }
    let accounts: BTreeSet<_> = listed
        .iter()
        .map(|f| (f.provider.name(), f.account.clone().unwrap_or_default()))
        .collect();
    let link = FleetLink {
        accounts: accounts.len(),
        instances: targets(&ctx).len(),
        ..FleetLink::default()
    };
    let mut ctx = ctx;
    ctx.quiet = true;
    let ctx = Arc::new(ctx);
    let reader: FleetReader = Arc::new(move || {
        let ctx = Arc::clone(&ctx);
        Box::pin(async move { collect(&ctx, Timestamp::now()).await })
    });
    Some((link, reader))
}

/// `[[fleet]]`'s instances; without any, the configured instance (or the demo's).
fn targets(ctx: &Context) -> Vec<Target> {
    let mut out = Vec::new();
    for entry in &ctx.config.fleet {
        for (i, id) in entry.instances.iter().enumerate() {
            if out.iter().any(|t: &Target| {
                t.origin.instance_id == *id && t.instance.provider == Some(entry.provider)
            }) {
                continue;
            }
            out.push(Target {
                origin: Origin {
                    account: entry.account.clone().unwrap_or_default(),
                    provider: entry.provider.name().to_string(),
                    region: entry.region.clone(),
                    instance_id: id.clone(),
                },
                instance: InstanceConfig {
                    provider: Some(entry.provider),
                    id: Some(id.clone()),
                    region: entry.region.clone(),
                    ..InstanceConfig::default()
                },
                metrics: entry.metrics.get(i).cloned(),
            });
        }
    }
    if out.is_empty() && (ctx.demo || ctx.config.instance.provider.is_some()) {
        let kind = if ctx.demo {
            ProviderKind::Demo
        } else {
            ctx.config.instance.provider.unwrap_or(ProviderKind::Demo)
        };
        out.push(Target {
            origin: Origin {
                account: String::new(),
                provider: kind.name().to_string(),
                region: ctx.config.instance.region.clone(),
                instance_id: ctx.config.instance.id.clone().unwrap_or_default(),
            },
            instance: ctx.config.instance.clone(),
            metrics: None,
        });
    }
    out
}

/// Reads one instance: its inventory, its pricing and, where given, its metrics.
async fn read(base: &Context, target: Target, now: Timestamp) -> FleetRow {
    let mut origin = target.origin;
    let reporting = match &target.metrics {
        Some(url) => scrape(url).await,
        None => Reporting::default(),
    };
    let ctx = base.for_instance(target.instance);
    let provider = match ctx.provider() {
        Ok(p) => p,
        Err(e) => return row(origin, Err(&e.message), None, reporting, now),
    };
    let inventory = match tokio::time::timeout(READ_TIMEOUT, provider.inventory()).await {
        Ok(Ok(inventory)) => inventory,
        Ok(Err(e)) => return row(origin, Err(&e.to_string()), None, reporting, now),
        Err(_) => {
            let why = format!("no answer in {} s", READ_TIMEOUT.as_secs());
            return row(origin, Err(&why), None, reporting, now);
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
    row(origin, Ok(&inventory), pricing, reporting, now)
}

/// Asks an instance's `gpumeter serve` whether it is idle and whether its watchdog lives.
async fn scrape(base: &str) -> Reporting {
    let policy = HttpPolicy {
        timeout: METRICS_TIMEOUT,
        connect_timeout: METRICS_TIMEOUT,
        retries: 0,
        ..HttpPolicy::default()
    };
    let Ok(http) = Http::new(policy) else {
        return Reporting::default();
    };
    let url = format!("{}/metrics", base.trim_end_matches('/'));
    let Ok(response) = http.client().get(url).send().await else {
        return Reporting::default();
    };
    let Ok(text) = response.text().await else {
        return Reporting::default();
    };
    reporting_from(&text)
}

/// The two series the fleet needs, from gpumeter's own exposition.
fn reporting_from(text: &str) -> Reporting {
    let value = |name: &str| {
        text.lines()
            .find(|l| {
                l.strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with('{') || rest.starts_with(' '))
            })
            .and_then(|l| l.rsplit_once(' '))
            .and_then(|(_, v)| v.parse::<f64>().ok())
    };
    Reporting {
        heartbeat: value("gpumeter_watchdog_alive").map(|v| v > 0.0),
        idle_s: value("gpumeter_idle_seconds"),
        here: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reporting_is_read_from_the_exposition() {
        let text = "# TYPE gpumeter_idle_seconds gauge\n\
                    gpumeter_idle_seconds{instance_id=\"i-1\",provider=\"aws\"} 1900\n\
                    gpumeter_watchdog_alive{instance_id=\"i-1\",provider=\"aws\"} 0\n";
        let r = reporting_from(text);
        assert_eq!(r.idle_s, Some(1900.0));
        assert_eq!(r.heartbeat, Some(false));
        assert_eq!(reporting_from("garbage"), Reporting::default());
    }
}
