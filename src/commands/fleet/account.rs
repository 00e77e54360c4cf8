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
        Err(e) => return vec![unreadable(origin, &e.message, now)],
    };
    let bounded = |what| format!("no answer in {} s ({what})", ACCOUNT_TIMEOUT.as_secs());
    let (listed, swept) = tokio::join!(
        tokio::time::timeout(ACCOUNT_TIMEOUT, provider.instances()),
        tokio::time::timeout(ACCOUNT_TIMEOUT, provider.sweep_listed()),
    );
    let listed =
        listed.unwrap_or_else(|_| Err(ProviderError::state(provider.name(), bounded("instances"))));
    let swept =
        swept.unwrap_or_else(|_| Err(ProviderError::state(provider.name(), bounded("sweep"))));
    let instances = match listed {
        Ok(instances) => instances,
        Err(e) => {
            let why = format!("could not list the instances: {e}");
            return vec![unreadable(origin, &why, now)];
        }
    };
    if origin.region.is_none() {
        origin.region = instances.iter().find_map(|d| d.instance.region.clone());
    }
    let mut rows = Vec::new();
    let (swept, sweep_error) = match swept {
        Ok(found) => (found, None),
        Err(e) => (
            Vec::new(),
            Some(format!("could not sweep the account: {e}")),
        ),
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
        let why = format!("listed without {}", gaps.join("; "));
        rows.push(unreadable(origin.clone(), &why, now));
    }
    if let Some(why) = sweep_error {
        rows.push(unreadable(origin, &why, now));
    }
    rows
}

/// The instance type, region, billing mode and live price: what picks a price.
type PriceKey = (String, Option<String>, BillingMode, Option<Decimal>);

/// The row that says an account (or one of its listings) could not be read, and why.
fn unreadable(origin: Origin, why: &str, now: Timestamp) -> FleetRow {
    row(origin, Err(why), None, Reporting::default(), now)
}
