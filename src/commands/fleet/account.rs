//! One account read by listing: every GPU instance and what bills with none, priced by the
//! sheet of each instance's region, one price lookup per distinct instance type.

use std::collections::HashMap;
use std::time::Duration;

use jiff::Timestamp;
use rust_decimal::Decimal;

use super::super::context::Context;
use super::targets::Account;
use crate::fleet::{FleetFilter, FleetRow, Origin, Reporting, account_rows, orphans_row, row};
use crate::ledger::Ledger;
use crate::meter::BillingMode;
use crate::provider::ProviderError;
use crate::spend::Pricing;
use crate::t;

/// An account whose listings take longer than this, their pages, retries and rate-limit waits
/// together, is shown as unreachable.
const ACCOUNT_TIMEOUT: Duration = Duration::from_secs(300);

/// Every row of `account`: an instance's each, one of what bills with no instance, and one
/// that says so where a listing could not be read.
pub async fn read_account(
    base: &Context,
    account: Account,
    filter: &FleetFilter,
    now: Timestamp,
) -> Vec<FleetRow> {
    let mut origin = account.origin;
    let mut ctx = base.for_account(account.instance, &account.env);
    // One stderr line per unpriced type would repeat for every instance; the row's flag says it.
    ctx.quiet = true;
    let provider = match ctx.provider() {
        Ok(p) => p,
        Err(e) => {
            let why = Why {
                english: e.message.clone(),
                shown: e.message,
            };
            return vec![unreadable(origin, why, now)];
        }
    };
    let (listed, swept) = tokio::join!(
        tokio::time::timeout(ACCOUNT_TIMEOUT, provider.instances()),
        tokio::time::timeout(ACCOUNT_TIMEOUT, provider.sweep_listed()),
    );
    let instances = match listed {
        Ok(Ok(instances)) => instances,
        Ok(Err(e)) => {
            let why = Why {
                english: format!("could not list the instances: {e}"),
                shown: t!("fleet-could-not-list", error = e.shown()),
            };
            return vec![unreadable(origin, why, now)];
        }
        Err(_) => {
            let e = ProviderError::state(provider.name(), bounded("instances"));
            let why = Why {
                english: format!("could not list the instances: {e}"),
                shown: t!(
                    "fleet-could-not-list",
                    error = t!("fleet-no-answer-instances", seconds = seconds())
                ),
            };
            return vec![unreadable(origin, why, now)];
        }
    };
    if origin.region.is_none() {
        origin.region = instances.iter().find_map(|d| d.instance.region.clone());
    }
    let mut rows = Vec::new();
    let sweep_failed = |e: &ProviderError, shown: String| Why {
        english: format!("could not sweep the account: {e}"),
        shown: t!("fleet-could-not-sweep", error = shown),
    };
    let (swept, sweep_error) = match swept {
        Ok(Ok(found)) => (found, None),
        Ok(Err(e)) => (Vec::new(), Some(sweep_failed(&e, e.shown()))),
        Err(_) => {
            let e = ProviderError::state(provider.name(), bounded("sweep"));
            let shown = t!("fleet-no-answer-sweep", seconds = seconds());
            (Vec::new(), Some(sweep_failed(&e, shown)))
        }
    };
    let mut prices: HashMap<PriceKey, Option<Pricing>> = HashMap::new();
    let ledger = Ledger::open_read_only(crate::ledger::path_in(&ctx.data_dir, ctx.demo)).ok();
    for (at, inventory) in account_rows(&origin, instances, swept, filter) {
        let Some(instance) = &inventory.instance else {
            let sheet = ctx.region_sheet().ok().flatten();
            rows.push(orphans_row(at, &inventory, sheet.as_ref()));
            continue;
        };
        let key = (
            instance.sku.clone(),
            instance.region.clone(),
            instance.mode,
            instance.live_price_per_hour,
        );
        let pricing = prices
            .entry(key)
            .or_insert_with(|| ctx.pricing_for(Some(instance)).ok().flatten())
            .clone();
        let recorded = ledger
            .as_ref()
            .map(|l| l.recorded(&instance.id))
            .unwrap_or_default();
        let read = Ok((&inventory, &recorded));
        rows.push(row(at, read, pricing.as_ref(), Reporting::default(), now));
    }
    // A listing the key may not make (a provider's volumes) leaves the rows short of it.
    let gaps = provider.gaps();
    if !gaps.is_empty() {
        let gaps = gaps.join("; ");
        let why = Why {
            english: format!("listed without {gaps}"),
            shown: t!("fleet-listed-without", gaps = gaps),
        };
        rows.push(unreadable(origin.clone(), why, now));
    }
    if let Some(why) = sweep_error {
        rows.push(unreadable(origin, why, now));
    }
    rows
}

/// Why an account's listing could not be read: in English for JSON, and as a terminal says it.
struct Why {
    english: String,
    shown: String,
}

/// "no answer in 300 s (instances)": a listing that ran past [`ACCOUNT_TIMEOUT`], in English.
fn bounded(what: &str) -> String {
    format!("no answer in {} s ({what})", ACCOUNT_TIMEOUT.as_secs())
}

fn seconds() -> String {
    ACCOUNT_TIMEOUT.as_secs().to_string()
}

/// The instance type, region, billing mode and live price: what picks a price.
type PriceKey = (String, Option<String>, BillingMode, Option<Decimal>);

/// The row that says an account (or one of its listings) could not be read, and why.
fn unreadable(origin: Origin, why: Why, now: Timestamp) -> FleetRow {
    let mut row = row(origin, Err(&why.english), None, Reporting::default(), now);
    row.error_shown = Some(why.shown);
    row
}
