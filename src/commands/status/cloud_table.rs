//! The cloud half of `gpumeter status` as text: the same facts as `--json` (instance, cost,
//! price source, deadline, what keeps billing after a release, what could not be read), one
//! labelled line or table each. Unknown amounts say so; they are never printed as zero.

use std::borrow::Cow;
use std::fmt::Write as _;

use gpumeter_core::cell::Cell;
use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::cloud::CloudJson;
use crate::meter::unpriced;
use crate::spend::PriceKind;
use crate::t;

pub(super) fn render(cloud: &CloudJson, now: Timestamp, tz: &TimeZone) -> String {
    let mut out = String::new();
    if let Some(error) = &cloud.cloud_error {
        let kind = cloud.cloud_error_kind.unwrap_or("error");
        let _ = writeln!(out, "{}{kind}: {error}", label(t!("status-cloud")));
        if let Some(fix) = &cloud.cloud_fix {
            let _ = writeln!(out, "          {fix}");
        }
        return out;
    }
    let Some(instance) = &cloud.instance else {
        if cloud.resources.is_some() {
            let _ = writeln!(
                out,
                "{}{}",
                label(t!("status-instance")),
                t!("status-none-listed")
            );
        }
        return out + &resources(cloud);
    };
    let state = format!("{:?}", instance.state).to_lowercase();
    let state = t!("status-state", state = state);
    let line = t!(
        "status-instance-line",
        id = instance.id.as_str(),
        name = instance.name.as_str(),
        provider = instance.provider.as_str(),
        sku = instance.sku.as_str(),
        state = state
    );
    let _ = writeln!(out, "{}{line}", label(t!("status-instance")));
    out.push_str(&cost(cloud.cost.as_ref(), &instance.sku));
    if let Some(upload) = &cloud.public_upload {
        let line = upload.line(&gpumeter_core::app::deadline::when(upload.since, now, tz));
        let _ = writeln!(out, "{}{line}", label(t!("traffic-upload-label")));
    }
    if let Some(origin) = &cloud.price_source {
        out.push_str(&prices(origin));
    }
    deadline(&mut out, cloud, now, tz);
    // One account: the policy's line where it comes first, else the platform's.
    match cloud
        .stopped_release
        .as_ref()
        .and_then(|s| super::stopped_release::lines(s, now, tz))
    {
        Some(lines) => out.push_str(&lines),
        None => {
            if let Some(forced) = &cloud.forced_release {
                let line = forced_release_line(forced, &instance.provider, now, tz);
                let _ = writeln!(out, "{line}");
            }
        }
    }
    if let Some(warning) = &cloud.keys_warning {
        let _ = writeln!(out, "{}{warning}", label(t!("status-warning")));
    }
    out + &resources(cloud)
}

/// The deadline line and who enforces it, or why there is none.
fn deadline(out: &mut String, cloud: &CloudJson, now: Timestamp, tz: &TimeZone) {
    let _ = match &cloud.deadline {
        Some(d) => {
            let held = if d.held_by_provider {
                t!("status-held-by-provider")
            } else {
                Cow::Borrowed("")
            };
            let line = t!(
                "status-deadline-line",
                at = gpumeter_core::zone::deadline_label(d.instant, now, tz),
                seconds = d.remaining_s.to_string(),
                on_expiry = d.on_expiry,
                held = held
            );
            writeln!(
                out,
                "{}{line}\n{}",
                label(t!("status-deadline")),
                super::deadline::enforcement_line(d)
            )
        }
        None if cloud
            .instance
            .as_ref()
            .is_some_and(|i| i.released_at.is_some()) =>
        {
            writeln!(
                out,
                "{}{}",
                label(t!("status-deadline")),
                t!("status-deadline-released")
            )
        }
        None => writeln!(
            out,
            "{}{}",
            label(t!("status-deadline")),
            t!("status-deadline-none")
        ),
    };
}

/// "released  by autodl in 2d4h (Tue 09:00 CST): 15 days shut down erases pro-1, vol-1; a
/// start resets the clock", or that it is due.
pub(crate) fn forced_release_line(
    forced: &crate::provider::ForcedReleaseJson,
    provider: &str,
    now: Timestamp,
    tz: &TimeZone,
) -> String {
    let erases = forced.erases.join(", ");
    let line = if forced.remaining_s <= 0 {
        t!(
            "status-forced-release-due",
            provider = provider,
            days = forced.after_days,
            erases = erases
        )
    } else {
        let left = jiff::SignedDuration::from_secs(forced.remaining_s);
        t!(
            "status-forced-release",
            provider = provider,
            left = crate::ui::text::short_duration(left),
            at = gpumeter_core::zone::deadline_label(forced.instant, now, tz),
            days = forced.after_days,
            erases = erases
        )
    };
    format!("{}{line}", label(t!("status-forced-release-label")))
}

fn resources(cloud: &CloudJson) -> String {
    let mut out = String::new();
    let Some(list) = &cloud.resources else {
        return out;
    };
    let currency = cloud
        .cost
        .as_ref()
        .map_or(String::new(), |c| format!(" {}", c.cost.currency));
    let _ = writeln!(out, "{}", t!("status-resources", count = list.len()));
    for r in list {
        let kind = serde_json::to_value(r.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let kind = t!("resource-kind-named", kind = kind);
        let fate = if r.survives_release {
            t!("status-survives")
        } else {
            t!("status-goes-with-it")
        };
        let monthly = match (&r.monthly_cost_after_release, r.survives_release) {
            (_, false) => "-".to_string(),
            (Some(m), true) => format!("{m}{currency}"),
            (None, true) => t!("status-unpriced").into_owned(),
        };
        let size = if r.size_gib == "0" {
            "-".to_string()
        } else {
            format!("{} GiB", r.size_gib)
        };
        let _ = writeln!(
            out,
            "  {:<13} {:<24} {:>10}  {:<12} {monthly}",
            Cell(kind),
            Cell(&r.id),
            Cell(size),
            Cell(fate)
        );
    }
    if let Some(still) = &cloud.still_billing_monthly {
        let released = cloud
            .instance
            .as_ref()
            .is_some_and(|i| i.released_at.is_some());
        let amount = still.with_currency();
        let line = if released {
            t!("status-still-billing", amount = amount)
        } else {
            t!("status-keeps-billing", amount = amount)
        };
        let _ = writeln!(out, "  {line}");
        for unknown in &still.unknown {
            let _ = writeln!(
                out,
                "    {}",
                t!("status-unpriced-line", what = unpriced::shown(unknown))
            );
        }
    }
    for gap in &cloud.unknown_resources {
        let _ = writeln!(out, "  {}", t!("status-not-checked", what = gap.as_str()));
    }
    out
}

/// A line's label, padded to the column where the values start.
fn label(text: Cow<'_, str>) -> String {
    format!("{:<10}", Cell(text))
}

fn cost(cost: Option<&super::cloud::CostJson>, sku: &str) -> String {
    let Some(c) = cost else {
        let line = t!("status-cost-unknown", sku = sku);
        return format!("{}{line}\n", label(t!("status-cost")));
    };
    let line = t!(
        "status-cost-line",
        total = c.cost.total.as_str(),
        currency = c.cost.currency.to_string(),
        billed = c.billed.as_str(),
        compute = c.cost.compute.as_str(),
        bandwidth = c.cost.bandwidth.as_str(),
        storage = c.cost.storage.as_str(),
        extras = c.cost.extras.as_str(),
        burn = c.burn_per_hour.as_str(),
    );
    let mut out = format!("{}{line}\n", label(t!("status-cost")));
    if let Some(split) =
        gpumeter_core::spend::egress_shown::split_line(&c.cost.egress, c.cost.currency)
    {
        let _ = writeln!(out, "{}{split}", label(t!("traffic-label")));
    }
    if c.cost.incomplete {
        let line = t!(
            "status-incomplete",
            unknown = unpriced::all_shown(&c.cost.unknown).join("; ")
        );
        let _ = writeln!(out, "{}{line}", label(Cow::Borrowed("")));
    }
    out
}

fn prices(origin: &crate::spend::PriceOrigin) -> String {
    let region = origin
        .sheet_region
        .clone()
        .unwrap_or_else(|| t!("status-no-region").into_owned());
    let sheet = origin.sheet.as_str();
    let line = match origin.kind {
        PriceKind::Live => t!("status-prices-live", sheet = sheet),
        PriceKind::Sheet => t!("status-prices-sheet", sheet = sheet, region = region),
        PriceKind::OtherRegion => t!(
            "status-prices-other-region",
            sheet = sheet,
            region = region,
            instance_region = origin
                .instance_region
                .clone()
                .unwrap_or_else(|| t!("status-this-region").into_owned()),
        ),
    };
    format!("{}{line}\n", label(t!("status-prices")))
}
