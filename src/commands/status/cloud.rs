//! The cloud half of `status --json`: the instance, its cost so far, the deadline and what
//! would keep billing after a release. Absent (null) when no provider is configured.

use jiff::Timestamp;
use serde::Serialize;

use crate::commands::context::Context;
use crate::commands::{Failure, block_on};
use crate::guard::GuardState;
use crate::meter::{InstanceState, ResourceKind};
use crate::money::{Money, PartialTotalJson};
use crate::provider::{InstanceInfo, Inventory};
use crate::spend::{Account, CostCents, PriceOrigin, PriceSource, Pricing, Recorded, account};

#[derive(Debug, Clone, Serialize)]
pub struct InstanceJson {
    pub id: String,
    pub name: String,
    pub provider: String,
    pub sku: String,
    pub state: InstanceState,
    /// When it was released (a confirmed release, or the first reading without it); `null`
    /// while it is not.
    pub released_at: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CostJson {
    #[serde(flatten)]
    pub cost: CostCents,
    /// What the provider bills so far, after the billing step and minimum.
    pub billed: String,
    pub burn_per_hour: String,
    /// `sheet:<id>` or `live`.
    pub price_source: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct DeadlineJson {
    pub at: String,
    /// `at` as an instant, for the text output to show in the user's zone.
    #[serde(skip)]
    pub instant: Timestamp,
    pub remaining_s: i64,
    pub on_expiry: &'static str,
    pub held_by_provider: bool,
    #[serde(flatten)]
    pub enforcement: crate::guard::EnforcementJson,
    /// Why nothing enforces it and what would, in the user's language, for the text.
    #[serde(skip)]
    pub unenforced_said: Option<(String, String)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ResourceJson {
    pub kind: ResourceKind,
    pub id: String,
    pub size_gib: String,
    pub survives_release: bool,
    /// `null` when the sheet has no price for it.
    pub monthly_cost_after_release: Option<String>,
}

/// Every cloud field of the report; each is `null` when it cannot be known.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CloudJson {
    pub instance: Option<InstanceJson>,
    pub cost: Option<CostJson>,
    /// Where the prices come from: `live`, a `sheet` for this region, or `other_region` (a
    /// sheet for another region, used as an estimate); `null` when nothing prices the instance.
    pub price_source: Option<PriceOrigin>,
    pub deadline: Option<DeadlineJson>,
    /// When the platform itself releases the instance for staying shut down (AutoDL after 15
    /// days) and what that erases; `null` while it runs, or where the platform keeps a stopped
    /// instance until told.
    pub forced_release: Option<crate::provider::ForcedReleaseJson>,
    /// The release a stopped instance is heading for: `stopped_release_after`'s or the
    /// platform's, whichever comes first (`by`), with what it erases and whether anything
    /// enforces it; `null` while it runs, or when nothing releases it.
    pub stopped_release: Option<super::stopped_release::StoppedReleaseJson>,
    pub resources: Option<Vec<ResourceJson>>,
    /// An upload to the internet under way (1 GiB or more in the last 10 minutes): what it has
    /// sent and cost since it began, and the intranet route that would carry it for nothing;
    /// `null` while there is none.
    pub public_upload: Option<gpumeter_core::spend::egress_shown::UploadJson>,
    /// What keeps billing a month after a release; `null` when something in it has no price
    /// (`still_billing_monthly` names it).
    pub leftover_monthly_cost: Option<String>,
    /// The same with what it leaves out: `known`, `incomplete` and `unknown`.
    pub still_billing_monthly: Option<PartialTotalJson>,
    /// What the provider could not read (a listing the key may not make): the resources and
    /// leftovers may leave something out. Absent when it read everything.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown_resources: Vec<String>,
    /// When the keys the provider acts with stop working (`AWS_CREDENTIAL_EXPIRATION`);
    /// `null` when they have no end or renew themselves.
    pub keys_expire_at: Option<String>,
    /// Set when those keys expire before the deadline's stop or release can run, saying so.
    pub keys_warning: Option<String>,
    /// What the prepaid account holds (AutoDL's wallet), or `null` where the provider keeps no
    /// balance or it could not be read.
    pub balance: Option<super::balance::BalanceJson>,
    /// Why the balance could not be read; absent when it was, or when there is none to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balance_error: Option<String>,
    /// When the balance's cash reaches zero at `balance_burn_per_hour` (RFC 3339), or `null`
    /// with no balance, no burn, or a burn in another currency.
    pub balance_runs_out_at: Option<String>,
    /// The burn that time is reckoned at, and whose it is (`this_instance`: a lower bound of
    /// the account's, so `balance_runs_out_at` is the latest it may be).
    pub balance_burn_per_hour: Option<super::balance::BalanceBurnJson>,
    /// The plan paid ahead: its end, renewal and what leaving now returns; `null` when no end
    /// is known.
    pub subscription: Option<super::subscription::SubscriptionJson>,
    /// This instance's burn an hour, for the balance.
    #[serde(skip)]
    pub burn: Option<Money>,
    /// Why the cloud side could not be read, or `null`; in the run's language, which a
    /// `--json` run keeps English.
    pub cloud_error: Option<String>,
    /// The kind of that failure (`auth`, `permission`, ...), or `null`.
    pub cloud_error_kind: Option<&'static str>,
    /// One line of what to fix about it, as the cockpit says it, or `null`.
    pub cloud_fix: Option<String>,
}

/// Reads the provider once and prices what it reports at `now`.
pub fn read(ctx: &Context, now: Timestamp) -> Result<CloudJson, Failure> {
    let provider = ctx.provider()?;
    let inventory = match block_on(provider.inventory())? {
        Ok(inventory) => inventory,
        Err(e) => {
            return Ok(CloudJson {
                cloud_error: Some(e.shown()),
                cloud_error_kind: Some(e.kind_label()),
                cloud_fix: Some(e.shown_fix()),
                ..CloudJson::default()
            });
        }
    };
    let pricing = ctx.pricing_for(inventory.instance.as_ref())?;
    let price_source = ctx.price_origin(pricing.as_ref(), inventory.instance.as_ref());
    let recorded = ctx.recorded(&inventory);
    ctx.record_sighting(Some(&inventory));
    let row = ctx.guard_row(&inventory);
    let ledger = crate::ledger::path_in(&ctx.data_dir, ctx.demo);
    let stale = crate::serve::collect::WATCHDOG_STALE_AFTER;
    let watchdog = row
        .as_ref()
        .and_then(|r| crate::watchdog::liveness::watchdog_of(&ledger, r, stale, now));
    let mut json = describe(
        &inventory,
        pricing.as_ref(),
        &recorded,
        (row.as_ref(), watchdog),
        now,
    );
    json.stopped_release = super::stopped_release::read(
        ctx,
        &inventory,
        pricing
            .as_ref()
            .and_then(|p| p.sheet.billing.released_after_stopped_days),
        watchdog.is_some_and(|(_, alive)| alive),
        now,
    );
    json.unknown_resources = provider.gaps();
    let this_id = inventory.instance.as_ref().map_or("", |i| i.id.as_str());
    let sheet = pricing.as_ref().map(|p| &p.sheet);
    json.set_balance(super::balance::read(provider.as_ref(), sheet, this_id), now);
    json.price_source = price_source;
    json.subscription = super::subscription::read(ctx, provider.as_ref(), pricing.as_ref(), now);
    let keys_expire = provider.keys_expire();
    json.keys_expire_at = keys_expire.map(|t| t.to_string());
    // The keys matter only to a deadline still to act.
    if json.deadline.is_some() {
        json.keys_warning = keys_warning(row, &inventory, keys_expire);
    }
    Ok(json)
}

/// The warning for the deadline that will act: the guard row's (the cockpit's or the
/// watchdog's), else the one the provider holds, which releases.
fn keys_warning(
    row: Option<GuardState>,
    inventory: &Inventory,
    keys_expire: Option<Timestamp>,
) -> Option<String> {
    let (at, grace, on_expiry) = match row.and_then(|r| Some((r.deadline?, r.grace, r.on_expiry))) {
        Some(armed) => armed,
        None => (
            inventory.deadline?.at,
            std::time::Duration::ZERO,
            crate::guard::OnExpiry::Release,
        ),
    };
    crate::provider::outlived_keys(at, grace, on_expiry, keys_expire)
}

/// Renders the instance's account (see [`account`]): what the ledger recorded and what
/// `inventory` lists now; its deadline from the guard row and the row's watchdog `(pid,
/// alive)`, none once it is released (nothing is left to guard).
pub fn describe(
    inventory: &Inventory,
    pricing: Option<&Pricing>,
    recorded: &Recorded,
    (row, watchdog): (Option<&GuardState>, Option<(u32, bool)>),
    now: Timestamp,
) -> CloudJson {
    let account = account(pricing, recorded, inventory, now);
    let cost = pricing.zip(account.as_ref()).map(|(p, a)| cost_json(p, a));
    let sheet = pricing.map(|p| &p.sheet);
    let resources: Vec<ResourceJson> = inventory
        .resources
        .iter()
        .map(|r| ResourceJson {
            kind: r.kind,
            id: r.id.clone(),
            size_gib: r.size_gib.normalize().to_string(),
            survives_release: !r.deleted_with_instance,
            // What goes with the instance bills nothing after its release.
            monthly_cost_after_release: match (sheet, r.deleted_with_instance) {
                (Some(s), true) => Some(Money::zero(s.currency).cents_string()),
                (Some(s), false) => crate::meter::monthly_after_release(s, &r.to_meter())
                    .map(|m| Money::new(m, s.currency).cents_string()),
                (None, _) => None,
            },
        })
        .collect();
    // An instance the provider no longer lists after its release is still the one it was.
    let released = account.as_ref().and_then(|a| a.released);
    let instance = inventory
        .instance
        .clone()
        .or_else(|| recorded.instance.as_ref().map(|(i, _)| gone(i)));
    let public_upload = account.as_ref().and_then(|a| {
        let i = instance.as_ref();
        a.public_upload.as_ref().map(|u| {
            gpumeter_core::spend::egress_shown::UploadJson::of(
                u,
                a.currency,
                i.map_or("", |i| i.provider.as_str()),
                i.and_then(|i| i.region.as_deref()),
            )
        })
    });
    CloudJson {
        public_upload,
        price_source: pricing
            .map(|p| p.origin(instance.as_ref().and_then(|i| i.region.as_deref()))),
        instance: instance.map(|i| InstanceJson {
            id: i.id,
            name: i.name,
            provider: i.provider,
            sku: i.sku,
            state: i.state,
            released_at: released.map(|t| t.to_string()),
        }),
        cost,
        deadline: released
            .is_none()
            .then(|| super::deadline::deadline(inventory, row, watchdog, now))
            .flatten(),
        forced_release: crate::provider::forced_release_of(
            inventory,
            sheet.and_then(|s| s.billing.released_after_stopped_days),
            now,
        ),
        stopped_release: None,
        resources: Some(resources),
        leftover_monthly_cost: account
            .as_ref()
            .and_then(|a| a.still_billing_monthly.exact())
            .map(|m| m.cents_string()),
        still_billing_monthly: account.as_ref().map(|a| a.still_billing_monthly.json()),
        unknown_resources: Vec::new(),
        keys_expire_at: None,
        keys_warning: None,
        balance: None,
        balance_error: None,
        balance_runs_out_at: None,
        balance_burn_per_hour: None,
        subscription: None,
        burn: account.as_ref().map(|a| a.burn_per_hour.total()),
        cloud_error: None,
        cloud_error_kind: None,
        cloud_fix: None,
    }
}

fn gone(listed: &InstanceInfo) -> InstanceInfo {
    InstanceInfo {
        state: InstanceState::Released,
        ..listed.clone()
    }
}

fn cost_json(pricing: &Pricing, account: &Account) -> CostJson {
    CostJson {
        cost: account.cost_cents(),
        billed: account.billed.total().cents_string(),
        burn_per_hour: account.burn_per_hour.total().cents_string(),
        price_source: match &pricing.source {
            PriceSource::Sheet(id) => format!("sheet:{id}"),
            PriceSource::Live => "live".into(),
        },
    }
}
