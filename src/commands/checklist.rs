//! `gpumeter checklist`: what would keep billing after a release, and what it costs a month.
//! Exit 3 when anything would, so scripts can refuse to walk away from a billing leftover.

use gpumeter_core::cell::Cell;
use std::process::ExitCode;

use rust_decimal::Decimal;
use serde::Serialize;

use super::context::Context;
use super::{CommandResult, Failure, emit};
use crate::cli::Cli;
use crate::meter::{InstanceState, ResourceKind};
use crate::money::{Money, PartialTotalJson};
use crate::provider::{Finding, Inventory, LinkedResource, findings};
use crate::spend::{Account, PriceOrigin, Recorded, account};
use crate::t;

/// Exit status when something would keep billing after a release.
pub const EXIT_LEFTOVERS: u8 = 3;

#[derive(Debug, Serialize)]
struct Item {
    kind: ResourceKind,
    id: String,
    name: String,
    size_gib: Decimal,
    state: String,
    /// `null` when the sheet has no price for it.
    monthly_cost: Option<String>,
    /// Whole days since the provider says it was created.
    age_days: i64,
}

#[derive(Debug, Serialize)]
struct Checklist {
    instance: Option<String>,
    instance_state: Option<InstanceState>,
    currency: Option<String>,
    would_keep_billing: Vec<Item>,
    /// `null` when something that keeps billing has no price: `still_billing_monthly` names it.
    leftover_monthly_cost: Option<String>,
    /// What keeps billing a month (`known`), whether that leaves something out, and what.
    still_billing_monthly: Option<PartialTotalJson>,
    /// Where the prices come from (see `status --json`); `null` when nothing prices them.
    price_source: Option<PriceOrigin>,
    /// What the provider could not read: something there may keep billing too.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unknown: Vec<String>,
    /// What of the survivors' data others can read (public, shared, unencrypted), the gravest
    /// first.
    exposed: Vec<Finding>,
    /// When the platform releases the stopped instance on its own, erasing it (see `status`).
    forced_release: Option<crate::provider::ForcedReleaseJson>,
    /// The provider's id, for the text.
    #[serde(skip)]
    provider: String,
}

pub fn run(cli: &Cli, json: bool) -> CommandResult {
    let ctx = Context::load(cli)?;
    let provider = ctx.provider()?;
    let inventory = super::block_on(provider.inventory())?
        .map_err(|e| Failure::provider(super::EXIT_FAILED, provider.name(), &e))?;
    let pricing = ctx.pricing_for(inventory.instance.as_ref())?;
    let recorded = ctx.recorded(&inventory);
    let now = jiff::Timestamp::now();
    let account = account(pricing.as_ref(), &recorded, &inventory, now);
    let mut list = checklist(&inventory, &recorded, account.as_ref(), now);
    let days = pricing
        .as_ref()
        .and_then(|p| p.sheet.billing.released_after_stopped_days);
    list.forced_release = crate::provider::forced_release_of(&inventory, days, now);
    list.provider = provider.name().to_string();
    list.unknown = provider.gaps();
    list.price_source = ctx.price_origin(pricing.as_ref(), inventory.instance.as_ref());
    if json {
        emit(&serde_json::to_string_pretty(&list).unwrap_or_default());
    } else {
        let mut text = render(&list, &ctx.config.user_zone().tz);
        // Monthly costs from another region's sheet are an estimate: say so.
        if let Some(line) = list
            .price_source
            .as_ref()
            .and_then(PriceOrigin::estimate_line)
        {
            text.push_str(&line);
            text.push('\n');
        }
        emit(&text);
    }
    // Unknown is not nothing: a script must not walk away from what could not be checked.
    Ok(
        if list.would_keep_billing.is_empty() && list.unknown.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(EXIT_LEFTOVERS)
        },
    )
}

/// The checklist the instance's account gives: each resource that keeps billing after a
/// release, as the provider lists it, and their monthly total with what has no price.
fn checklist(
    inventory: &Inventory,
    recorded: &Recorded,
    account: Option<&Account>,
    now: jiff::Timestamp,
) -> Checklist {
    let survivors: Vec<&LinkedResource> = inventory
        .resources
        .iter()
        .filter(|r| !r.deleted_with_instance)
        .collect();
    let monthly = |id: &str| {
        let a = account?;
        let left = a.leftovers.iter().find(|l| l.id == id)?;
        left.monthly
            .map(|m| Money::new(m, a.currency).cents_string())
    };
    let items: Vec<Item> = survivors
        .iter()
        .map(|r| Item {
            kind: r.kind,
            id: r.id.clone(),
            name: r.name.clone(),
            size_gib: r.size_gib,
            state: r.state.clone(),
            monthly_cost: monthly(&r.id),
            age_days: now.duration_since(r.created).as_hours() / 24,
        })
        .collect();
    // An instance the provider stops listing after its release is still the one released.
    let instance = inventory.instance.as_ref().map_or_else(
        || {
            recorded
                .instance
                .as_ref()
                .map(|(i, _)| (i.id.clone(), InstanceState::Released))
        },
        |i| Some((i.id.clone(), i.state)),
    );
    Checklist {
        instance: instance.as_ref().map(|i| i.0.clone()),
        instance_state: instance.map(|i| i.1),
        currency: account.map(|a| a.currency.to_string()),
        would_keep_billing: items,
        leftover_monthly_cost: account
            .and_then(|a| a.still_billing_monthly.exact())
            .map(|m| m.cents_string()),
        still_billing_monthly: account.map(|a| a.still_billing_monthly.json()),
        price_source: None,
        unknown: Vec::new(),
        exposed: findings(&survivors.into_iter().cloned().collect::<Vec<_>>()),
        forced_release: None,
        provider: String::new(),
    }
}

fn render(list: &Checklist, tz: &jiff::tz::TimeZone) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    // Before anything that survives a release: on these platforms the release is the danger.
    if let Some(forced) = &list.forced_release {
        let line =
            super::status::forced_release_line(forced, &list.provider, jiff::Timestamp::now(), tz);
        let _ = writeln!(out, "{line}");
    }
    let released = list.instance_state == Some(InstanceState::Released);
    let heading = match (&list.instance, released) {
        (Some(id), false) => t!("checklist-after-release", instance = id.as_str()),
        (Some(id), true) => t!("checklist-released", instance = id.as_str()),
        (None, _) => t!("checklist-still-billing").into_owned(),
    };
    let unknown = |out: &mut String| {
        for gap in &list.unknown {
            let _ = writeln!(
                out,
                "  [?] {}",
                t!("checklist-not-checked", what = gap.as_str())
            );
        }
    };
    if list.would_keep_billing.is_empty() {
        if list.unknown.is_empty() {
            let _ = writeln!(out, "{}", t!("checklist-nothing"));
        } else {
            let _ = writeln!(out, "{}", t!("checklist-nothing-listed"));
            unknown(&mut out);
        }
        return out;
    }
    let _ = writeln!(out, "{heading}");
    let cur = list.currency.as_deref().unwrap_or("");
    for item in &list.would_keep_billing {
        let size = if item.size_gib.is_zero() {
            String::new()
        } else {
            format!("{} GiB", item.size_gib.normalize())
        };
        let cost = item.monthly_cost.as_deref().map_or_else(
            || t!("checklist-price-unknown").into_owned(),
            |c| t!("checklist-per-month", amount = format!("{c} {cur}")),
        );
        let _ = writeln!(
            out,
            "  [ ] {:<15} {:<16} {:<14} {:>9}  {:<11} {:<18} {}",
            Cell(item.kind.shown()),
            Cell(&item.id),
            Cell(&item.name),
            Cell(size),
            Cell(&item.state),
            Cell(cost),
            t!("checklist-days-old", days = item.age_days)
        );
    }
    unknown(&mut out);
    if let Some(still) = &list.still_billing_monthly {
        let _ = writeln!(out, "{}", total_line(still, !list.unknown.is_empty()));
    }
    if !list.exposed.is_empty() {
        let _ = writeln!(out, "{}", t!("checklist-exposed"));
        for f in &list.exposed {
            let _ = writeln!(out, "  {}", f.shown());
        }
    }
    out
}

/// The total that keeps billing: the amount with its unit, then how many things it leaves out,
/// and whether some of the account could not be checked.
fn total_line(still: &PartialTotalJson, unchecked: bool) -> String {
    let known = format!("{} {}", still.known, still.currency);
    let count = still.unknown.len();
    if unchecked {
        t!(
            "checklist-total-and-unchecked",
            known = known,
            count = count
        )
    } else {
        t!("checklist-total", known = known, count = count)
    }
}

#[cfg(test)]
mod tests {
    use gpumeter_core::i18n::{Lang, scoped};

    use super::total_line;
    use crate::money::{Currency, Money, PartialTotal};

    #[test]
    fn the_total_keeps_its_unit_with_the_amount_in_chinese_and_reads_as_before_in_english() {
        let mut total = PartialTotal::zero(Currency::CNY);
        total
            .add(
                Some(Money::new(rust_decimal::Decimal::from(12), Currency::CNY)),
                "disk",
            )
            .unwrap();
        let whole = total.json();
        total
            .add(None, "load balancer lb-1: no price in the sheet")
            .unwrap();
        let part = total.json();
        let en = |t: &crate::money::PartialTotalJson, u| scoped(Lang::En, || total_line(t, u));
        assert_eq!(
            en(&whole, false),
            "Total that keeps billing: 12.00 CNY/month"
        );
        assert_eq!(
            en(&part, false),
            format!("Total that keeps billing: {}/month", part.with_currency())
        );
        assert_eq!(
            en(&part, true),
            "Total that keeps billing: ≥ 12.00 CNY + 1 unknown/month (and what could not be checked)"
        );
        let zh = |t, u| scoped(Lang::ZhCn, || total_line(t, u));
        assert_eq!(zh(&whole, false), "继续计费合计：12.00 CNY/月");
        assert_eq!(zh(&part, false), "继续计费合计：≥ 12.00 CNY/月 + 1 项未知");
        assert_eq!(
            zh(&part, true),
            "继续计费合计：≥ 12.00 CNY/月 + 1 项未知（另加未能检查的部分）"
        );
    }
}
