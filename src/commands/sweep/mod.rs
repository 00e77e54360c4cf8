//! `gpumeter sweep`: every billable thing in the account's region that no running instance
//! uses, with its monthly cost and age, the dearest first; exit 3 when anything bills. With
//! `--all-regions`, every region the provider lists for the account, each swept by an adapter
//! of its own and priced by its own sheet; a region that cannot be swept is listed as not
//! checked, and counts as billing (exit 3), since what it holds is unknown. On a platform that
//! releases shut-down instances on its own, each one heading for that release is listed with
//! its countdown (`forced`).

mod forced;

use gpumeter_core::cell::Cell;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::Arc;

use futures_util::StreamExt as _;
use jiff::Timestamp;
use serde_json::json;

use super::checklist::EXIT_LEFTOVERS;
use super::context::Context;
use super::{CommandResult, EXIT_FAILED, Failure, emit};
use crate::cli::Cli;
use crate::money::Money;
use crate::pricing::Sheet;
use crate::provider::{
    CleanupFilter, LinkedResource, Provider, Sharing, SweepRow, findings, findings_of,
    merge_regions, monthly_totals, rank,
};
use crate::t;

/// How many regions are swept at once: each region's calls go to its own endpoint, but a
/// few dozen at once would only wait on each other.
const AT_ONCE: usize = 6;

/// What a sweep found: the rows, the regions it could not read, and the sheet of each region.
struct Swept {
    rows: Vec<SweepRow>,
    /// Region and why, one line each.
    not_checked: Vec<NotChecked>,
    /// The sheet that priced the sweep (one region), or each region's (several).
    sheets: Vec<(Option<String>, Option<String>)>,
    /// Whether the sweep went region by region.
    by_region: bool,
}

pub fn run(cli: &Cli, as_json: bool, all_regions: bool, only: &CleanupFilter) -> CommandResult {
    if all_regions && cli.target().region.is_some() {
        return Err(Failure::bad_input(crate::t!("err-all-regions-and-region")));
    }
    let mut ctx = Context::load(cli)?;
    let provider = ctx.provider()?;
    let now = Timestamp::now();
    let sheet_days = ctx
        .region_sheet()?
        .and_then(|s| s.billing.released_after_stopped_days);
    let tz = ctx.config.user_zone().tz;
    let regions = if all_regions {
        let what = t!("progress-listing-regions", provider = provider.name());
        super::progress::run(&what, provider.regions())?
            .map_err(|e| Failure::provider(EXIT_FAILED, provider.name(), &e))?
    } else {
        None
    };
    let mut swept = match regions {
        None => one(&ctx, provider.as_ref(), only, now)?,
        Some(regions) => every(&mut ctx, provider.name(), regions, only, now)?,
    };
    let pending = forced::read(provider.as_ref(), sheet_days, now).unwrap_or_else(|why| {
        swept.not_checked.push(NotChecked::said(
            t!("sweep-forced-not-checked").into_owned(),
            why,
        ));
        None
    });
    let (totals, unpriced) = monthly_totals(&swept.rows);
    if as_json {
        let mut doc = document(provider.name(), &swept, &totals, unpriced);
        doc["forced_releases"] = json!(pending);
        emit(&serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        let mut out = text(&swept, &totals, unpriced);
        out.push_str(&forced::text(
            pending.as_deref().unwrap_or_default(),
            provider.name(),
            now,
            &tz,
        ));
        emit(out.trim_end());
    }
    Ok(if swept.rows.is_empty() && swept.not_checked.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_LEFTOVERS)
    })
}

/// The configured region (or a provider without regions) swept once, as without
/// `--all-regions`.
fn one(
    ctx: &Context,
    provider: &dyn Provider,
    only: &CleanupFilter,
    now: Timestamp,
) -> Result<Swept, Failure> {
    let what = t!("progress-sweeping", provider = provider.name());
    let found = super::progress::run(&what, provider.sweep())?
        .map_err(|e| Failure::provider(EXIT_FAILED, provider.name(), &e))?;
    let sheet = ctx.region_sheet()?;
    let found = found.into_iter().filter(|r| only.matches(r, now)).collect();
    Ok(Swept {
        rows: rank(found, sheet.as_ref(), now),
        not_checked: Vec::new(),
        sheets: vec![(None, sheet.map(|s| s.id))],
        by_region: false,
    })
}

/// A region name fit to build an endpoint from: letters, digits, `-` and `_`, as every
/// provider's are.
fn plain_region(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Each of `regions` swept by an adapter built for it and priced by its own sheet.
fn every(
    ctx: &mut Context,
    name: &str,
    regions: Vec<String>,
    only: &CleanupFilter,
    now: Timestamp,
) -> Result<Swept, Failure> {
    let mut not_checked = Vec::new();
    let mut ready: Vec<(String, Arc<dyn Provider>, Option<Sheet>)> = Vec::new();
    for region in regions {
        if !plain_region(&region) {
            not_checked.push(NotChecked::not_a_region(region));
            continue;
        }
        // `provider()` builds a new adapter from the config each time: nothing of the first
        // region's is kept.
        ctx.config.instance.region = Some(region.clone());
        match ctx.provider() {
            Ok(adapter) => {
                let sheet = ctx.region_sheet()?;
                ready.push((region, adapter, sheet));
            }
            Err(f) => not_checked.push(NotChecked::said(region, f.message)),
        }
    }
    let what = t!(
        "progress-sweeping-regions",
        count = ready.len(),
        provider = name
    );
    let answers: Vec<_> = super::progress::run(
        &what,
        futures_util::stream::iter(ready.iter().map(|(_, adapter, _)| adapter.sweep()))
            .buffered(AT_ONCE)
            .collect(),
    )?;
    let mut per_region = Vec::new();
    let mut sheets = Vec::new();
    for ((region, _, sheet), answer) in ready.into_iter().zip(answers) {
        match answer {
            Ok(found) => {
                let found = found.into_iter().filter(|r| only.matches(r, now)).collect();
                per_region.push((region.clone(), rank(found, sheet.as_ref(), now)));
                sheets.push((Some(region), sheet.map(|s| s.id)));
            }
            Err(e) => not_checked.push(NotChecked {
                region,
                why: e.to_string(),
                shown: e.shown(),
            }),
        }
    }
    Ok(Swept {
        rows: merge_regions(per_region),
        not_checked,
        sheets,
        by_region: true,
    })
}

/// A region (or a part of the sweep) that could not be read.
struct NotChecked {
    region: String,
    /// Why, in English, as JSON carries it.
    why: String,
    /// The same as the terminal says it.
    shown: String,
}

impl NotChecked {
    /// One whose reason is already in the words the terminal shows.
    fn said(region: String, why: String) -> Self {
        NotChecked {
            region,
            shown: why.clone(),
            why,
        }
    }

    /// A name the regions' listing gave that no endpoint can be built from.
    fn not_a_region(region: String) -> Self {
        NotChecked {
            region,
            why: "not a region name".to_string(),
            shown: t!("sweep-not-a-region").into_owned(),
        }
    }
}

fn document(provider: &str, swept: &Swept, totals: &[Money], unpriced: usize) -> serde_json::Value {
    let items: Vec<_> = swept.rows.iter().map(row_json).collect();
    // One amount only where one currency bills: two are never added.
    let total = match totals {
        [one] => Some(*one),
        _ => None,
    };
    let mut doc = json!({
        "provider": provider,
        "items": items,
        "monthly_total": total.map(|t| t.cents_string()),
        "currency": total.map(|t| t.currency),
        "monthly_totals": totals
            .iter()
            .map(|t| json!({"currency": t.currency, "monthly_total": t.cents_string()}))
            .collect::<Vec<_>>(),
        "unpriced": unpriced,
        "not_checked": swept
            .not_checked
            .iter()
            .map(|n| json!({"region": n.region, "why": n.why}))
            .collect::<Vec<_>>(),
    });
    if swept.by_region {
        doc["regions"] = swept
            .sheets
            .iter()
            .map(|(region, sheet)| json!({"region": region, "sheet": sheet}))
            .collect();
    } else {
        doc["sheet"] = json!(swept.sheets.first().and_then(|(_, s)| s.clone()));
    }
    doc
}

fn row_json(r: &SweepRow) -> serde_json::Value {
    json!({
        "region": r.region,
        "kind": r.resource.kind,
        "id": r.resource.id,
        "name": r.resource.name,
        "state": r.resource.state,
        "size_gib": r.resource.size_gib.normalize().to_string(),
        "created": r.resource.created.to_string(),
        "age_days": r.age_days,
        "monthly_cost": r.monthly.map(|m| m.cents_string()),
        "attached_to": r.resource.attached_to,
        "origin": r.resource.origin,
        "tags": r.resource.tags,
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
    let mut lines = vec![t!("summary-exposed").into_owned()];
    lines.extend(found.iter().map(|f| format!("  {}", f.shown())));
    lines
}

fn text(swept: &Swept, totals: &[Money], unpriced: usize) -> String {
    let mut out = String::new();
    let rows = &swept.rows;
    let not_checked = |out: &mut String| {
        for n in &swept.not_checked {
            let line = t!(
                "sweep-not-checked",
                region = n.region.as_str(),
                why = n.shown.as_str()
            );
            let _ = writeln!(out, "[?] {line}");
        }
    };
    if rows.is_empty() {
        if swept.by_region {
            let line = t!("sweep-nothing-regions", count = swept.sheets.len());
            let _ = writeln!(out, "{line}");
        } else {
            let _ = writeln!(out, "{}", t!("sweep-nothing"));
        }
        not_checked(&mut out);
        return out;
    }
    let region_header = t!("sweep-col-region");
    let width = rows
        .iter()
        .filter_map(|r| r.region.as_deref().map(gpumeter_core::cell::width))
        .max()
        .unwrap_or(0)
        .max(gpumeter_core::cell::width(&region_header));
    let region = |name: &str| {
        if swept.by_region {
            format!("{:<width$} ", Cell(name))
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        out,
        "{}{:<13} {:<24} {:>10} {:>7}  {:>14}  {:<21}  {}",
        region(&region_header),
        Cell(t!("sweep-col-kind")),
        Cell(t!("sweep-col-id")),
        Cell(t!("sweep-col-size")),
        Cell(t!("sweep-col-age")),
        Cell(t!("sweep-col-monthly")),
        Cell(t!("sweep-col-from")),
        t!("sweep-col-state")
    );
    for r in rows {
        let kind = serde_json::to_value(r.resource.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let kind = t!("resource-kind-named", kind = kind);
        let size = if r.resource.size_gib.is_zero() {
            "-".to_string()
        } else {
            format!("{} GiB", r.resource.size_gib.normalize())
        };
        let monthly = r
            .monthly
            .map_or_else(|| t!("status-unpriced").into_owned(), |m| m.to_string());
        let age = t!("sweep-age-days", days = r.age_days.to_string());
        let _ = writeln!(
            out,
            "{}{:<13} {:<24} {:>10} {:>7}  {:>14}  {:<21}  {}",
            region(r.region.as_deref().unwrap_or("-")),
            Cell(kind),
            Cell(&r.resource.id),
            Cell(size),
            Cell(age),
            Cell(monthly),
            Cell(r.resource.origin.as_deref().unwrap_or("-")),
            r.resource.state
        );
    }
    let more = if unpriced > 0 {
        format!(" {}", t!("sweep-plus-unpriced", count = unpriced))
    } else {
        String::new()
    };
    // One total per currency, never one sum of two.
    let total = if totals.is_empty() {
        t!("sweep-total-unknown").into_owned()
    } else {
        totals
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(&*t!("sweep-and"))
    };
    let line = t!("sweep-bills", total = total, more = more);
    let _ = writeln!(out, "{line}");
    not_checked(&mut out);
    let resources: Vec<LinkedResource> = rows.iter().map(|r| r.resource.clone()).collect();
    for line in exposure_lines(&resources) {
        let _ = writeln!(out, "{line}");
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use rust_decimal::Decimal;

    use super::*;
    use crate::meter::ResourceKind;

    fn row(id: &str, region: &str, monthly: Option<(i64, &str)>) -> SweepRow {
        SweepRow {
            resource: LinkedResource {
                id: id.into(),
                name: id.into(),
                kind: ResourceKind::DataDisk,
                class: None,
                size_gib: Decimal::from(10),
                state: "available".into(),
                created: Timestamp::UNIX_EPOCH,
                deleted_with_instance: false,
                backs_image: None,
                attached_to: None,
                exposure: crate::provider::Exposure::default(),
                origin: None,
                tags: BTreeMap::new(),
            },
            monthly: monthly.map(|(a, c)| Money::new(Decimal::from(a), c.parse().unwrap())),
            age_days: 1,
            region: Some(region.into()),
        }
    }

    fn by_region(rows: Vec<SweepRow>, not_checked: &[(&str, &str)]) -> Swept {
        Swept {
            rows,
            not_checked: not_checked
                .iter()
                .map(|(r, w)| NotChecked::said((*r).to_string(), (*w).to_string()))
                .collect(),
            sheets: vec![
                (Some("cn-hangzhou".into()), None),
                (Some("us-east-1".into()), None),
            ],
            by_region: true,
        }
    }

    #[test]
    fn two_currencies_get_two_totals_and_a_region_not_read_is_named() {
        let swept = by_region(
            vec![
                row("d-1", "cn-hangzhou", Some((300, "CNY"))),
                row("vol-1", "us-east-1", Some((12, "USD"))),
                row("vol-2", "us-east-1", None),
            ],
            &[("ap-south-2", "aws: permission denied")],
        );
        let (totals, unpriced) = monthly_totals(&swept.rows);
        let out = text(&swept, &totals, unpriced);
        assert!(
            out.contains("bills 300.00 CNY and 12.00 USD a month + 1 unpriced"),
            "{out}"
        );
        assert!(
            out.contains("[?] not checked: ap-south-2: aws: permission denied"),
            "{out}"
        );
        assert!(
            out.lines()
                .nth(1)
                .unwrap()
                .starts_with("cn-hangzhou data_disk     d-1 "),
            "{out}"
        );
        let doc = document("aws", &swept, &totals, unpriced);
        assert_eq!(doc["monthly_total"], serde_json::Value::Null, "{doc}");
        assert_eq!(doc["monthly_totals"][0]["currency"], "CNY");
        assert_eq!(doc["monthly_totals"][1]["monthly_total"], "12.00");
        assert_eq!(doc["not_checked"][0]["region"], "ap-south-2");
        assert_eq!(doc["items"][0]["region"], "cn-hangzhou");
    }

    #[test]
    fn a_name_that_is_no_region_is_said_in_the_users_language_and_kept_english_in_json() {
        use gpumeter_core::i18n::{Lang, scoped};
        let bad = "eu west/1".to_string();
        assert!(!plain_region(&bad));
        let swept = Swept {
            rows: Vec::new(),
            not_checked: vec![scoped(Lang::ZhCn, || NotChecked::not_a_region(bad.clone()))],
            sheets: Vec::new(),
            by_region: true,
        };
        let out = scoped(Lang::ZhCn, || text(&swept, &[], 0));
        assert!(
            out.contains("eu west/1") && out.contains("不是地域名称"),
            "{out}"
        );
        assert!(!out.contains("not a region"), "{out}");
        let doc = scoped(Lang::ZhCn, || document("aws", &swept, &[], 0));
        assert_eq!(doc["not_checked"][0]["why"], "not a region name");
        let english = scoped(Lang::En, || {
            let swept = Swept {
                not_checked: vec![NotChecked::not_a_region(bad.clone())],
                ..swept
            };
            text(&swept, &[], 0)
        });
        assert!(
            english.contains("eu west/1: not a region name"),
            "{english}"
        );
    }

    #[test]
    fn nothing_found_still_names_the_regions_not_read() {
        let swept = by_region(Vec::new(), &[("me-south-1", "aws: OptInRequired")]);
        let out = text(&swept, &[], 0);
        assert_eq!(
            out.trim_end(),
            "nothing bills without a running instance in the 2 regions checked\n\
             [?] not checked: me-south-1: aws: OptInRequired"
        );
    }

    #[test]
    fn only_plain_names_make_an_endpoint() {
        assert!(plain_region("us-east-1") && plain_region("cn_hangzhou"));
        for bad in ["", "evil.example/x", "us east", "a:1"] {
            assert!(!plain_region(bad), "{bad}");
        }
    }
}
