//! Plain-text descriptions of sheets and SKUs for `gpumeter pricing`, and the stale-sheet
//! warning. Pure: the date is an argument.

use crate::cell::{self, Cell};
use std::fmt::Write as _;

use jiff::civil::Date;
use rust_decimal::Decimal;

use super::sheet::{STALE_AFTER_DAYS, Sheet, Sku, StopPolicy};

/// A warning when the sheet's prices are older than [`STALE_AFTER_DAYS`] on `today`.
pub fn stale_warning(sheet: &Sheet, today: Date) -> Option<String> {
    let age = sheet.age_days(today);
    (age > STALE_AFTER_DAYS).then(|| {
        format!(
            "warning: price sheet `{}` is dated {} ({age} days ago, more than \
             {STALE_AFTER_DAYS}); its prices may have changed",
            sheet.id, sheet.as_of
        )
    })
}

/// `aws-us-east-1 (aws, us-east-1): USD, as of 2026-01-21, 15 SKUs`
pub fn sheet_heading(sheet: &Sheet) -> String {
    let place = match &sheet.region {
        Some(region) => format!("{}, {region}", sheet.provider),
        None => sheet.provider.clone(),
    };
    let count = sheet.skus.len();
    let plural = if count == 1 { "" } else { "s" };
    format!(
        "{} ({place}): {}, as of {}, {count} SKU{plural}",
        sheet.id, sheet.currency, sheet.as_of
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
    format!(
        "{}x {} {} GiB",
        sku.gpu_count, sku.gpu_model, sku.gpu_memory_gib
    )
}

fn price_summary(sku: &Sku) -> String {
    let mut parts = Vec::new();
    if let Some(p) = sku.on_demand_per_hour {
        parts.push(format!("on-demand {p}/h"));
    }
    if let Some(p) = sku.spot_per_hour {
        parts.push(format!("spot {p}/h"));
    }
    if let Some(p) = sku.monthly {
        parts.push(format!("monthly {p}"));
    }
    if let Some(units) = sku.compute_units {
        parts.push(format!("{}/h in units", units.per_hour()));
    }
    parts.join(", ")
}

/// Every price that applies to one SKU of a sheet, one per line.
pub fn sku_details(sheet: &Sheet, sku: &Sku) -> String {
    let cur = sheet.currency;
    let money = |p: Option<Decimal>, per: &str| {
        p.map_or_else(
            || "not in this sheet".to_string(),
            |p| format!("{p} {cur}{per}"),
        )
    };
    let mut out = String::new();
    let mut row = |label: &str, value: String| {
        let _ = writeln!(out, "  {:<16}{value}", Cell(label));
    };
    row("sheet", sheet_heading(sheet));
    row("source", sheet.source.clone());
    row(
        "GPUs",
        format!(
            "{}x {}, {} GiB each",
            sku.gpu_count, sku.gpu_model, sku.gpu_memory_gib
        ),
    );
    row(
        "on-demand",
        with_per_gpu(sku.on_demand_per_hour, sku, &money),
    );
    row("spot", with_per_gpu(sku.spot_per_hour, sku, &money));
    row("monthly", money(sku.monthly, " per month"));
    if let Some(units) = sku.compute_units {
        row(
            "compute units",
            format!(
                "{} units/h x {} {cur} = {} {cur}/h",
                units.units_per_hour,
                units.unit_price,
                units.per_hour()
            ),
        );
    }
    row("billing", billing_summary(sheet));
    let net = &sheet.network;
    let unit = net.unit.as_str();
    let mut egress = money(net.egress_per_unit, &format!("/{unit}"));
    if !net.free_egress_per_month.is_zero() {
        let _ = write!(
            egress,
            ", {} {unit} free per month",
            net.free_egress_per_month
        );
    }
    row("egress", egress);
    row(
        "ingress",
        money(Some(net.ingress_per_unit), &format!("/{unit}")),
    );
    if let Some(p) = net.fixed_bandwidth_per_mbps_month {
        row("fixed bandwidth", money(Some(p), " per Mbps-month"));
    }
    for (class, disk) in &sheet.storage.disk {
        let stopped = disk
            .when_stopped
            .map_or(String::new(), |s| format!(" ({s} while stopped)"));
        row(
            &format!("disk {class}"),
            money(Some(disk.per_gib_month), "/GiB-month") + &stopped,
        );
    }
    let storage = &sheet.storage;
    row("snapshot", money(storage.snapshot, "/GiB-month"));
    row("image", money(storage.image, "/GiB-month"));
    row(
        "network volume",
        money(storage.network_volume, "/GiB-month"),
    );
    let extras = &sheet.extras;
    row(
        "public IP",
        money(extras.public_ip_attached_per_hour, "/h attached"),
    );
    row(
        "idle public IP",
        money(extras.public_ip_idle_per_hour, "/h"),
    );
    row("load balancer", money(extras.load_balancer_per_hour, "/h"));
    row("license", money(extras.license_per_hour, "/h"));
    row("boot fee", money(extras.boot_fee, " per start"));
    out
}

fn with_per_gpu(
    price: Option<Decimal>,
    sku: &Sku,
    money: &dyn Fn(Option<Decimal>, &str) -> String,
) -> String {
    let text = money(price, "/h");
    match price {
        Some(p) if sku.gpu_count > 1 => {
            let per_gpu = (p / Decimal::from(sku.gpu_count)).round_dp(6).normalize();
            format!("{text} ({per_gpu} per GPU-hour)")
        }
        _ => text,
    }
}

fn billing_summary(sheet: &Sheet) -> String {
    let b = &sheet.billing;
    let stopped = match b.stop_policy {
        StopPolicy::KeepCharging => "compute keeps billing".to_string(),
        StopPolicy::StopCharging => "compute stops billing".to_string(),
        StopPolicy::Fraction(f) => format!("{f} of compute bills"),
    };
    format!(
        "per {} s, minimum {} s; when stopped, {stopped}; a month is {} h",
        b.step_seconds, b.minimum_seconds, b.month_hours
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
