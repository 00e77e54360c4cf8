//! `gpumeter checklist`: what would keep billing after a release, and what it costs a month.
//! Exit 3 when anything would, so scripts can refuse to walk away from a billing leftover.

use std::process::ExitCode;

use rust_decimal::Decimal;
use serde::Serialize;

use super::context::Context;
use super::{CommandResult, Failure, emit};
use crate::cli::Cli;
use crate::meter::{InstanceState, ResourceKind, monthly_after_release};
use crate::provider::{Finding, Inventory, findings};
use crate::spend::PriceOrigin;

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
    leftover_monthly_cost: Option<String>,
    /// Where the prices come from (see `status --json`); `null` when nothing prices them.
    price_source: Option<PriceOrigin>,
    /// What the provider could not read: something there may keep billing too.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unknown: Vec<String>,
    /// What of the survivors' data others can read (public, shared, unencrypted), the gravest
    /// first.
    exposed: Vec<Finding>,
}

pub fn run(cli: &Cli, json: bool) -> CommandResult {
    let ctx = Context::load(cli)?;
    let provider = ctx.provider()?;
    let inventory = super::block_on(provider.inventory())?
        .map_err(|e| Failure::provider(super::EXIT_FAILED, provider.name(), &e))?;
    let pricing = ctx.pricing_for(inventory.instance.as_ref())?;
    let mut list = checklist(
        &inventory,
        pricing.as_ref().map(|p| &p.sheet),
        jiff::Timestamp::now(),
    );
    list.unknown = provider.gaps();
    list.price_source = ctx.price_origin(pricing.as_ref(), inventory.instance.as_ref());
    if json {
        emit(&serde_json::to_string_pretty(&list).unwrap_or_default());
    } else {
        let mut text = render(&list);
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

fn checklist(
    inventory: &Inventory,
    sheet: Option<&crate::pricing::Sheet>,
    now: jiff::Timestamp,
) -> Checklist {
    let currency = sheet.map(|s| s.currency);
    let cents = |d: Decimal| {
        crate::money::Money::new(d, currency.unwrap_or(crate::money::Currency::USD)).cents_string()
    };
    // Each survivor's monthly cost once; the total is their sum.
    let survivors: Vec<(&crate::provider::LinkedResource, Option<Decimal>)> = inventory
        .resources
        .iter()
        .filter(|r| !r.deleted_with_instance)
        .map(|r| {
            (
                r,
                sheet.and_then(|s| monthly_after_release(s, &r.to_meter())),
            )
        })
        .collect();
    let total: Option<Decimal> =
        sheet.map(|_| survivors.iter().filter_map(|(_, monthly)| *monthly).sum());
    let items: Vec<Item> = survivors
        .into_iter()
        .map(|(r, monthly)| Item {
            kind: r.kind,
            id: r.id.clone(),
            name: r.name.clone(),
            size_gib: r.size_gib,
            state: r.state.clone(),
            monthly_cost: monthly.map(cents),
            age_days: now.duration_since(r.created).as_hours() / 24,
        })
        .collect();
    Checklist {
        instance: inventory.instance.as_ref().map(|i| i.id.clone()),
        instance_state: inventory.instance.as_ref().map(|i| i.state),
        currency: currency.map(|c| c.to_string()),
        would_keep_billing: items,
        leftover_monthly_cost: total.map(cents),
        price_source: None,
        unknown: Vec::new(),
        exposed: findings(
            &inventory
                .resources
                .iter()
                .filter(|r| !r.deleted_with_instance)
                .cloned()
                .collect::<Vec<_>>(),
        ),
    }
}

fn render(list: &Checklist) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let released = list.instance_state == Some(InstanceState::Released);
    let heading = match (&list.instance, released) {
        (Some(id), false) => format!("After releasing {id}, these keep billing:"),
        (Some(id), true) => format!("{id} is released; these are still billing:"),
        (None, _) => "Still billing:".into(),
    };
    let unknown = |out: &mut String| {
        for gap in &list.unknown {
            let _ = writeln!(out, "  [?] not checked: {gap}");
        }
    };
    if list.would_keep_billing.is_empty() {
        if list.unknown.is_empty() {
            let _ = writeln!(out, "Nothing would keep billing after a release.");
        } else {
            let _ = writeln!(
                out,
                "Nothing listed would keep billing after a release, but not everything could be read:"
            );
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
            || "price unknown".to_string(),
            |c| format!("{c} {cur}/month"),
        );
        let _ = writeln!(
            out,
            "  [ ] {:<15} {:<16} {:<14} {:>9}  {:<11} {cost:<18} {}d old",
            item.kind.label(),
            item.id,
            item.name,
            size,
            item.state,
            item.age_days
        );
    }
    unknown(&mut out);
    if let Some(total) = &list.leftover_monthly_cost {
        let more = if list.unknown.is_empty() {
            ""
        } else {
            " (and what could not be checked)"
        };
        let _ = writeln!(out, "Total that keeps billing: {total} {cur}/month{more}");
    }
    if !list.exposed.is_empty() {
        let _ = writeln!(out, "Data others can read:");
        for f in &list.exposed {
            let _ = writeln!(out, "  {}", f.line());
        }
    }
    out
}
