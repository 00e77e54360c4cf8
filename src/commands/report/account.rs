//! Each instance's account to date, the one `status` gives, built from what the ledger recorded
//! alone: `report` does not ask the provider. It is lifetime to date at `now`, whatever the
//! window; the windowed spend beside it is what the metered sessions in the window cost.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::Serialize;

use crate::commands::context::Context;
use crate::ledger::Ledger;
use crate::ledger::error::LedgerError;
use crate::ledger::report::AccountWindow;
use crate::money::PartialTotalJson;
use crate::provider::InstanceInfo;
use crate::spend::{Account, CostCents, Pricing, Recorded, RecordedMeter, recorded_account};

/// Why an instance the ledger knows has no account.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoAccount {
    #[error("the ledger kept no listing of it (an older ledger, or an instance it never listed)")]
    NoListing,
    #[error("no price sheet prices it")]
    NoPrices,
    #[error(
        "the config prices another instance ({provider} {sku}), not this {listed_provider} \
         {listed_sku}"
    )]
    OtherInstance {
        provider: &'static str,
        sku: String,
        listed_provider: String,
        listed_sku: String,
    },
    /// The prices could not be loaded: what loading them said.
    #[error("{0}")]
    Pricing(String),
}

/// One instance's account, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceAccount {
    pub instance: String,
    pub account: Result<Account, NoAccount>,
}

/// One instance the ledger knows: what it recorded and the prices that are its own, or why
/// it has no account.
pub struct InstanceRecord {
    pub instance: String,
    pub record: Result<(Recorded, Option<Pricing>), NoAccount>,
}

/// What the ledger recorded of every instance it knows, each with its prices.
pub fn records(ctx: &Context, ledger: &Ledger) -> Result<Vec<InstanceRecord>, LedgerError> {
    let mut out = Vec::new();
    for id in ledger.instance_ids()? {
        // Its resources and egress are read only where an account is made of them: the egress
        // is a pass over every minute in the ledger, once an instance.
        let record = match ledger.instance_record(&id)? {
            Some(listing) => match pricing(ctx, &id, &listing.0) {
                Ok(prices) => Ok((
                    Recorded {
                        instance: Some(listing),
                        resources: ledger.resources_seen(&id)?,
                        traffic: ledger.traffic(&id)?,
                    },
                    prices,
                )),
                Err(why) => Err(why),
            },
            None => Err(NoAccount::NoListing),
        };
        out.push(InstanceRecord {
            instance: id,
            record,
        });
    }
    Ok(out)
}

/// The account of every instance the ledger knows, at `now`.
pub fn accounts(records: &[InstanceRecord], now: Timestamp) -> Vec<InstanceAccount> {
    records
        .iter()
        .map(|r| InstanceAccount {
            instance: r.instance.clone(),
            account: r
                .record
                .clone()
                .and_then(|(recorded, p)| account_of(p.as_ref(), &recorded, now)),
        })
        .collect()
}

/// Each priced instance's account as it stood at `now`, to be cut into windows.
pub fn meters(records: &[InstanceRecord], now: Timestamp) -> Vec<(InstanceInfo, RecordedMeter)> {
    records
        .iter()
        .filter_map(|r| {
            let (recorded, pricing) = r.record.as_ref().ok()?;
            let (listed, _) = recorded.instance.as_ref()?;
            let meter = RecordedMeter::new(pricing.as_ref(), recorded, now)?;
            Some((listed.clone(), meter))
        })
        .collect()
}

/// Each priced instance's account cut to `[since, until)` and to the local days (in `tz`) in
/// it: the spend `report` shows for it.
pub fn windows(
    meters: &[(InstanceInfo, RecordedMeter)],
    (since, until): (Timestamp, Timestamp),
    tz: &TimeZone,
) -> Vec<AccountWindow> {
    let days: Vec<(Date, Timestamp, Timestamp)> = day_bounds(since, until, tz).collect();
    let mut bounds: Vec<Timestamp> = days.iter().map(|(_, from, _)| *from).collect();
    bounds.push(until);
    let mut out = Vec::new();
    for (listed, meter) in meters {
        let Some(window) = meter.between(since, until) else {
            continue;
        };
        let days = days
            .iter()
            .zip(meter.cut(&bounds))
            .filter(|(_, cost)| !cost.accrued.total().amount.is_zero())
            .map(|((date, _, _), cost)| (*date, cost))
            .collect();
        out.push(AccountWindow {
            instance: listed.id.clone(),
            provider: listed.provider.clone(),
            sku: listed.sku.clone(),
            mode: crate::ledger::record::word(&listed.mode),
            window,
            days,
        });
    }
    out
}

/// The local days (in `tz`) that `[since, until)` touches, each cut to the window.
fn day_bounds(
    since: Timestamp,
    until: Timestamp,
    tz: &TimeZone,
) -> impl Iterator<Item = (Date, Timestamp, Timestamp)> + '_ {
    let mut from = since;
    std::iter::from_fn(move || {
        if from >= until {
            return None;
        }
        let date = tz.to_datetime(from).date();
        let next = crate::spend::end_of_local_day(from, tz).min(until);
        // A zone whose day would not end (no next midnight) ends the walk at the window's end.
        let to = if next > from { next } else { until };
        let day = (date, from, to);
        from = to;
        Some(day)
    })
}

/// The account of `recorded` at `now` under `pricing`, or why there is none.
pub fn account_of(
    pricing: Option<&Pricing>,
    recorded: &Recorded,
    now: Timestamp,
) -> Result<Account, NoAccount> {
    if recorded.instance.is_none() {
        return Err(NoAccount::NoListing);
    }
    recorded_account(pricing, recorded, now).ok_or(NoAccount::NoPrices)
}

/// The config's prices, where they are this instance's: its own instance, or one of the same
/// provider when the config names no SKU (the listing's type then picks it) or the same one.
fn pricing(ctx: &Context, id: &str, listed: &InstanceInfo) -> Result<Option<Pricing>, NoAccount> {
    let config = &ctx.config;
    let same_provider = config
        .instance
        .provider
        .is_none_or(|k| k.id() == listed.provider);
    let same_sku = config.pricing.sku.as_ref().is_none_or(|s| *s == listed.sku);
    let its_own = ctx.demo || config.instance.id.as_deref() == Some(id);
    let same_kind = same_provider && same_sku;
    if !(its_own || same_kind) {
        return Err(NoAccount::OtherInstance {
            provider: config.instance.provider.map_or("?", |k| k.id()),
            sku: config.pricing.sku.as_deref().unwrap_or("?").to_owned(),
            listed_provider: listed.provider.clone(),
            listed_sku: listed.sku.clone(),
        });
    }
    ctx.pricing_for(Some(listed))
        .map_err(|e| NoAccount::Pricing(e.to_string()))
}

/// An account in `report --json`: money as cents strings, the lines adding up to `total`, and
/// what is unknown named, never counted as 0.
#[derive(Debug, Serialize)]
pub struct AccountJson {
    #[serde(flatten)]
    cost: CostCents,
    still_billing_monthly: PartialTotalJson,
    released_at: Option<Timestamp>,
}

/// One entry of `accounts[]`: the account, or `null` and why.
#[derive(Debug, Serialize)]
pub struct InstanceAccountJson {
    instance: String,
    account: Option<AccountJson>,
    reason: Option<String>,
}

pub fn json(entry: &InstanceAccount) -> InstanceAccountJson {
    let (account, reason) = match &entry.account {
        Ok(a) => (Some(account_json(a)), None),
        Err(why) => (None, Some(why.to_string())),
    };
    InstanceAccountJson {
        instance: entry.instance.clone(),
        account,
        reason,
    }
}

fn account_json(account: &Account) -> AccountJson {
    AccountJson {
        cost: account.cost_cents(),
        still_billing_monthly: account.still_billing_monthly.json(),
        released_at: account.released,
    }
}

/// One line of text: the account to date and what still bills a month, or why there is none.
pub fn line(entry: &InstanceAccount) -> String {
    match &entry.account {
        Ok(a) => crate::t!(
            "report-account",
            total = a.total.with_currency(),
            monthly = a.still_billing_monthly.with_currency()
        ),
        Err(why) => crate::t!("report-account-unknown", why = why.shown()),
    }
}

impl NoAccount {
    /// Why there is no account, in the user's language; `Display` stays English for JSON.
    pub fn shown(&self) -> String {
        match self {
            NoAccount::NoListing => crate::t!("report-no-listing").into_owned(),
            NoAccount::NoPrices => crate::t!("report-no-prices").into_owned(),
            NoAccount::OtherInstance {
                provider,
                sku,
                listed_provider,
                listed_sku,
            } => crate::t!(
                "report-other-instance",
                provider = *provider,
                sku = sku.as_str(),
                listed_provider = listed_provider.as_str(),
                listed_sku = listed_sku.as_str()
            ),
            NoAccount::Pricing(why) => why.clone(),
        }
    }
}

#[cfg(test)]
#[path = "account_tests.rs"]
mod tests;
