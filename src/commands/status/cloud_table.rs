//! The cloud half of `gpumeter status` as text: the same facts as `--json` (instance, cost,
//! price source, deadline, what keeps billing after a release, what could not be read), one
//! labelled line or table each. Unknown amounts say so; they are never printed as zero.

use gpumeter_core::cell::Cell;
use std::fmt::Write as _;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::cloud::CloudJson;
use crate::spend::PriceKind;

pub(super) fn render(cloud: &CloudJson, now: Timestamp, tz: &TimeZone) -> String {
    let mut out = String::new();
    if let Some(error) = &cloud.cloud_error {
        let kind = cloud.cloud_error_kind.unwrap_or("error");
        let _ = writeln!(out, "cloud     {kind}: {error}");
        if let Some(fix) = &cloud.cloud_fix {
            let _ = writeln!(out, "          {fix}");
        }
        return out;
    }
    let Some(instance) = &cloud.instance else {
        if cloud.resources.is_some() {
            let _ = writeln!(out, "instance  none listed");
        }
        return out + &resources(cloud);
    };
    let state = format!("{:?}", instance.state).to_lowercase();
    let _ = writeln!(
        out,
        "instance  {} \"{}\" on {}, {}, {state}",
        instance.id, instance.name, instance.provider, instance.sku
    );
    match &cloud.cost {
        Some(c) => {
            let _ = writeln!(
                out,
                "cost      {} {} so far (billed {}): compute {}, bandwidth {}, storage {}, extras {}; \
                 {} {}/h now",
                c.cost.total,
                c.cost.currency,
                c.billed,
                c.cost.compute,
                c.cost.bandwidth,
                c.cost.storage,
                c.cost.extras,
                c.burn_per_hour,
                c.cost.currency
            );
            if c.cost.incomplete {
                let _ = writeln!(
                    out,
                    "          incomplete, left out: {}",
                    c.cost.unknown.join("; ")
                );
            }
        }
        None => {
            let _ = writeln!(
                out,
                "cost      unknown: no price sheet prices {}",
                instance.sku
            );
        }
    }
    if let Some(origin) = &cloud.price_source {
        let region = origin.sheet_region.as_deref().unwrap_or("no region");
        let _ = match origin.kind {
            PriceKind::Live => writeln!(
                out,
                "prices    the provider's own for compute; the rest from sheet {}",
                origin.sheet
            ),
            PriceKind::Sheet => writeln!(out, "prices    sheet {} ({region})", origin.sheet),
            PriceKind::OtherRegion => writeln!(
                out,
                "prices    sheet {} ({region}), an estimate for {}",
                origin.sheet,
                origin.instance_region.as_deref().unwrap_or("this region")
            ),
        };
    }
    let _ = match &cloud.deadline {
        Some(d) => writeln!(
            out,
            "deadline  {}, in {} s, then {}{}\n{}",
            gpumeter_core::zone::deadline_label(d.instant, now, tz),
            d.remaining_s,
            d.on_expiry,
            if d.held_by_provider {
                ", held by the provider"
            } else {
                ""
            },
            super::deadline::enforcement_line(d)
        ),
        None if cloud
            .instance
            .as_ref()
            .is_some_and(|i| i.released_at.is_some()) =>
        {
            writeln!(out, "deadline  none: the instance is released")
        }
        None => writeln!(out, "deadline  none set and none held by the provider"),
    };
    if let Some(warning) = &cloud.keys_warning {
        let _ = writeln!(out, "warning   {warning}");
    }
    out + &resources(cloud)
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
    let _ = writeln!(out, "resources ({}), a month after a release:", list.len());
    for r in list {
        let kind = serde_json::to_value(r.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let fate = if r.survives_release {
            "survives"
        } else {
            "goes with it"
        };
        let monthly = match (&r.monthly_cost_after_release, r.survives_release) {
            (_, false) => "-".to_string(),
            (Some(m), true) => format!("{m}{currency}"),
            (None, true) => "unpriced".to_string(),
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
        let when = if released {
            "still billing"
        } else {
            "keeps billing after a release"
        };
        let _ = writeln!(out, "  {when}: {} a month", still.with_currency());
        for unknown in &still.unknown {
            let _ = writeln!(out, "    unpriced: {unknown}");
        }
    }
    for gap in &cloud.unknown_resources {
        let _ = writeln!(out, "  not checked: {gap}");
    }
    out
}
