//! Plain-text descriptions of sheets and SKUs for `gpumeter pricing`, and the stale-sheet
//! warning. Pure: the date is an argument.

use crate::cell::{self, Cell};
use std::fmt::Write as _;

use jiff::civil::Date;
use rust_decimal::Decimal;

use super::sheet::{OtherPrice, STALE_AFTER_DAYS, Sheet, Sku, StopPolicy};

/// A warning when the sheet's prices are older than [`STALE_AFTER_DAYS`] on `today`.
pub fn stale_warning(sheet: &Sheet, today: Date) -> Option<String> {
    let age = sheet.age_days(today);
    (age > STALE_AFTER_DAYS).then(|| {
        crate::t!(
            "pricing-stale",
            sheet = sheet.id.as_str(),
            date = sheet.as_of.to_string(),
            age = age,
            limit = STALE_AFTER_DAYS
        )
    })
}

/// `aws-us-east-1 (aws, us-east-1): USD, as of 2026-01-21, 15 SKUs`
pub fn sheet_heading(sheet: &Sheet) -> String {
    let place = match &sheet.region {
        Some(region) => crate::t!(
            "pricing-place",
            provider = sheet.provider.as_str(),
            region = region.as_str()
        ),
        None => sheet.provider.clone(),
    };
    crate::t!(
        "pricing-heading",
        id = sheet.id.as_str(),
        place = place,
        currency = sheet.currency.to_string(),
        date = sheet.as_of.to_string(),
        count = sheet.skus.len()
    )
}

/// One line per SKU, names aligned: `g5.xlarge  1x A10G 24 GiB  on-demand 1.006/h`.
pub fn sku_lines(sheet: &Sheet) -> Vec<String> {
    let width = sheet
        .skus
        .iter()
        .map(|s| cell::width(&s.name))
        .max()
        .unwrap_or(0);
    let gpus: Vec<String> = sheet.skus.iter().map(gpu_summary).collect();
    let gpu_width = gpus.iter().map(|g| cell::width(g)).max().unwrap_or(0);
    sheet
        .skus
        .iter()
        .zip(gpus)
        .map(|(sku, gpu)| {
            format!(
                "{:<width$}  {:<gpu_width$}  {}",
                Cell(&sku.name),
                Cell(gpu),
                price_summary(sku)
            )
        })
        .collect()
}

fn gpu_summary(sku: &Sku) -> String {
    crate::t!(
        "pricing-gpus",
        count = sku.gpu_count,
        model = sku.gpu_model.as_str(),
        memory = sku.gpu_memory_gib.to_string()
    )
}

fn price_summary(sku: &Sku) -> String {
    let mut parts = Vec::new();
    if let Some(p) = sku.on_demand_per_hour {
        parts.push(crate::t!("pricing-on-demand-short", price = p.to_string()));
    }
    if let Some(p) = sku.spot_per_hour {
        parts.push(crate::t!("pricing-spot-short", price = p.to_string()));
    }
    if let Some(p) = sku.monthly {
        parts.push(crate::t!("pricing-monthly-short", price = p.to_string()));
    }
    if let Some(p) = sku.daily {
        parts.push(crate::t!("pricing-daily-short", price = p.to_string()));
    }
    if let Some(p) = sku.weekly {
        parts.push(crate::t!("pricing-weekly-short", price = p.to_string()));
    }
    if let Some(p) = sku.yearly {
        parts.push(crate::t!("pricing-yearly-short", price = p.to_string()));
    }
    if let Some(units) = sku.compute_units {
        parts.push(crate::t!(
            "pricing-units-short",
            price = units.per_hour().to_string()
        ));
    }
    parts.join(", ")
}

/// Every price that applies to one SKU of a sheet, one per line.
pub fn sku_details(sheet: &Sheet, sku: &Sku) -> String {
    let cur = sheet.currency;
    let money = |p: Option<Decimal>, per: &str| {
        p.map_or_else(
            || crate::t!("pricing-not-in-sheet").into_owned(),
            |p| format!("{p} {cur}{per}"),
        )
    };
    let mut out = String::new();
    let mut row = |label: &str, value: String| {
        let _ = writeln!(out, "  {:<16}{value}", Cell(label));
    };
    row(&crate::t!("pricing-row-sheet"), sheet_heading(sheet));
    row(&crate::t!("pricing-row-source"), sheet.source.clone());
    row(
        &crate::t!("pricing-row-gpus"),
        crate::t!(
            "pricing-gpus-each",
            count = sku.gpu_count,
            model = sku.gpu_model.as_str(),
            memory = sku.gpu_memory_gib.to_string()
        ),
    );
    row(
        &crate::t!("pricing-row-on-demand"),
        with_per_gpu(sku.on_demand_per_hour, sku, &money),
    );
    row(
        &crate::t!("pricing-row-spot"),
        with_per_gpu(sku.spot_per_hour, sku, &money),
    );
    row(
        &crate::t!("pricing-row-monthly"),
        money(sku.monthly, &crate::t!("pricing-per-month")),
    );
    // Plans by the day, week and year are rare: a row only where the sheet sells one.
    let plans = [
        (
            sku.daily,
            crate::t!("pricing-row-daily"),
            crate::t!("pricing-per-day"),
        ),
        (
            sku.weekly,
            crate::t!("pricing-row-weekly"),
            crate::t!("pricing-per-week"),
        ),
        (
            sku.yearly,
            crate::t!("pricing-row-yearly"),
            crate::t!("pricing-per-year"),
        ),
    ];
    for (price, label, per) in plans {
        if price.is_some() {
            row(&label, money(price, &per));
        }
    }
    if let Some(units) = sku.compute_units {
        row(
            &crate::t!("pricing-row-compute-units"),
            crate::t!(
                "pricing-units",
                units = units.units_per_hour.to_string(),
                price = units.unit_price.to_string(),
                currency = cur.to_string(),
                per_hour = units.per_hour().to_string()
            ),
        );
    }
    row(&crate::t!("pricing-row-billing"), billing_summary(sheet));
    for d in &sheet.billing.duration_discounts {
        let off = (d.off * Decimal::ONE_HUNDRED).normalize().to_string();
        row(
            "",
            crate::t!("pricing-discount", months = d.months, off = off),
        );
    }
    network_and_storage(sheet, &money, &mut row);
    out
}

/// The rows of `sku_details` that are the sheet's, not the SKU's: traffic, disks and extras.
fn network_and_storage(
    sheet: &Sheet,
    money: &dyn Fn(Option<Decimal>, &str) -> String,
    row: &mut dyn FnMut(&str, String),
) {
    let net = &sheet.network;
    let unit = net.unit.as_str();
    let mut egress = money(net.egress_per_unit, &format!("/{unit}"));
    if !net.free_egress_per_month.is_zero() {
        egress.push_str(&crate::t!(
            "pricing-free-egress",
            amount = net.free_egress_per_month.to_string(),
            unit = unit
        ));
    }
    row(&crate::t!("pricing-row-egress"), egress);
    row(
        &crate::t!("pricing-row-ingress"),
        money(Some(net.ingress_per_unit), &format!("/{unit}")),
    );
    if let Some(p) = net.fixed_bandwidth_per_mbps_month {
        row(
            &crate::t!("pricing-row-fixed-bandwidth"),
            money(Some(p), &crate::t!("pricing-per-mbps-month")),
        );
    }
    for (class, disk) in &sheet.storage.disk {
        let stopped = disk.when_stopped.map_or(String::new(), |s| {
            crate::t!("pricing-while-stopped", price = s.to_string())
        });
        row(
            &crate::t!("pricing-row-disk", class = class.as_str()),
            money(
                Some(disk.per_gib_month),
                &crate::t!("pricing-per-gib-month"),
            ) + &stopped,
        );
    }
    let storage = &sheet.storage;
    row(
        &crate::t!("pricing-row-snapshot"),
        money(storage.snapshot, &crate::t!("pricing-per-gib-month")),
    );
    row(
        &crate::t!("pricing-row-image"),
        money(storage.image, &crate::t!("pricing-per-gib-month")),
    );
    row(
        &crate::t!("pricing-row-network-volume"),
        money(storage.network_volume, &crate::t!("pricing-per-gib-month")),
    );
    let extras = &sheet.extras;
    row(
        &crate::t!("pricing-row-public-ip"),
        money(
            extras.public_ip_attached_per_hour,
            &crate::t!("pricing-attached"),
        ),
    );
    row(
        &crate::t!("pricing-row-idle-public-ip"),
        money(
            extras.public_ip_idle_per_hour,
            &crate::t!("pricing-per-hour"),
        ),
    );
    row(
        &crate::t!("pricing-row-load-balancer"),
        money(
            extras.load_balancer_per_hour,
            &crate::t!("pricing-per-hour"),
        ),
    );
    row(
        &crate::t!("pricing-row-license"),
        money(extras.license_per_hour, &crate::t!("pricing-per-hour")),
    );
    row(
        &crate::t!("pricing-row-boot-fee"),
        money(extras.boot_fee, &crate::t!("pricing-per-start")),
    );
    for other in &extras.other {
        let price = match other.price {
            OtherPrice::PerHourUp(p) => money(Some(p), &crate::t!("pricing-per-hour-up")),
            OtherPrice::PerMonth(p) => money(Some(p), &crate::t!("pricing-per-month")),
        };
        row(&other.label, price);
    }
}

fn with_per_gpu(
    price: Option<Decimal>,
    sku: &Sku,
    money: &dyn Fn(Option<Decimal>, &str) -> String,
) -> String {
    let text = money(price, &crate::t!("pricing-per-hour"));
    match price {
        Some(p) if sku.gpu_count > 1 => {
            let per_gpu = (p / Decimal::from(sku.gpu_count)).round_dp(6).normalize();
            crate::t!(
                "pricing-per-gpu-hour",
                price = text,
                per_gpu = per_gpu.to_string()
            )
        }
        _ => text,
    }
}

fn billing_summary(sheet: &Sheet) -> String {
    let b = &sheet.billing;
    let stopped = match b.stop_policy {
        StopPolicy::KeepCharging => crate::t!("pricing-keeps-billing").into_owned(),
        StopPolicy::StopCharging => crate::t!("pricing-stops-billing").into_owned(),
        StopPolicy::Fraction(f) => crate::t!("pricing-fraction-bills", fraction = f.to_string()),
    };
    crate::t!(
        "pricing-billing",
        step = b.step_seconds.to_string(),
        minimum = b.minimum_seconds.to_string(),
        stopped = stopped,
        month = b.month_hours.to_string()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pricing::load_str;
    use jiff::civil::date;

    const SHEET: &str = "id = \"old\"\nprovider = \"p\"\ncurrency = \"EUR\"\n\
        as_of = 2026-01-01\nsource = \"s\"\n\
        [billing]\nstep_seconds = 60\nminimum_seconds = 0\nstop_policy = 0.25\n\
        [[sku]]\nname = \"two\"\ngpu_model = \"L4\"\ngpu_count = 2\ngpu_memory_gib = 24\n\
        on_demand_per_hour = \"1.50\"\n[network]\negress_per_unit = 0\n";

    #[test]
    fn stale_after_180_days_with_the_date() {
        let sheet = load_str("old.toml", SHEET).unwrap();
        assert_eq!(stale_warning(&sheet, date(2026, 6, 30)), None); // 180 days
        let warning = stale_warning(&sheet, date(2026, 7, 1)).unwrap();
        assert!(
            warning.contains("`old` is dated 2026-01-01 (181 days ago"),
            "{warning}"
        );
        assert_eq!(stale_warning(&sheet, date(2025, 1, 1)), None);
    }

    #[test]
    fn details_show_every_price_or_say_it_is_missing() {
        let sheet = load_str("old.toml", SHEET).unwrap();
        let text = sku_details(&sheet, &sheet.skus[0]);
        assert!(text.contains("1.50 EUR/h (0.75 per GPU-hour)"), "{text}");
        assert!(text.contains("spot            not in this sheet"), "{text}");
        assert!(
            text.contains("when stopped, 0.25 of compute bills"),
            "{text}"
        );
        assert_eq!(sku_lines(&sheet), ["two  2x L4 24 GiB  on-demand 1.50/h"]);
    }
}
