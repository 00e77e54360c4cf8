//! Where an estimate's prices come from: a bundled sheet, a user sheet, or inline flags.

use rust_decimal::Decimal;

use super::{Priced, gb_in, month_hours, per_gb};
use crate::cli::EstimateArgs;
use crate::commands::{Failure, load_sheet_for};
use crate::meter::estimate::PlanPrices;
use crate::money::Currency;
use crate::pricing::Sheet;

pub fn resolve(args: &EstimateArgs) -> Result<Priced, Failure> {
    let sheet = load_sheet_for(args.provider.as_deref(), args.sheet.as_deref())?;
    match sheet {
        Some(sheet) => from_sheet(args, &sheet),
        None => inline(args),
    }
}

fn from_sheet(args: &EstimateArgs, sheet: &Sheet) -> Result<Priced, Failure> {
    for (flag, set) in [
        ("--rate", args.rate.is_some()),
        ("--monthly", args.monthly.is_some()),
        ("--spot-rate", args.spot_rate.is_some()),
        ("--currency", args.currency.is_some()),
    ] {
        if set {
            return Err(Failure::bad_input(format!(
                "{flag} prices inline and cannot be combined with a sheet; drop it or drop --provider/--sheet"
            )));
        }
    }
    let sku_name = args.sku.as_deref().ok_or_else(|| {
        Failure::bad_input(format!(
            "--sku is required with a sheet; `gpumeter pricing list` shows the SKUs of `{}`",
            sheet.id
        ))
    })?;
    let sku = sheet.sku(sku_name).ok_or_else(|| {
        Failure::bad_input(format!(
            "--sku: `{sku_name}` is not in sheet `{}`; it has: {}",
            sheet.id,
            sheet
                .skus
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    if args.instances == 0 {
        return Err(Failure::bad_input("--instances must be at least 1"));
    }
    let n = Decimal::from(args.instances);
    let on_demand = sku
        .on_demand_per_hour
        .or_else(|| sku.compute_units.map(|u| u.per_hour()));
    let unit = sheet.network.unit;
    let egress_per_gb = match (args.egress_rate, sheet.network.egress_per_unit) {
        (Some(rate), _) => rate,
        (None, Some(price)) => per_gb(price, unit),
        (None, None) if args.egress_gb.is_none_or(|gb| gb.is_zero()) => Decimal::ZERO,
        (None, None) => {
            return Err(Failure::bad_input(format!(
                "--egress-rate is needed: sheet `{}` does not know its egress price \
                 (network.egress_per_unit is \"unknown\")",
                sheet.id
            )));
        }
    };
    let storage_per_gb_month = match (args.storage_rate, args.storage_gb) {
        (Some(rate), _) => rate,
        (None, None) => Decimal::ZERO,
        (None, Some(_)) => sheet_disk_price(sheet)?,
    };
    Ok(Priced {
        prices: PlanPrices {
            currency: sheet.currency,
            on_demand_per_hour: on_demand.map(|p| p * n),
            spot_per_hour: sku.spot_per_hour.map(|p| p * n),
            monthly: sku.monthly.map(|p| p * n),
            egress_gb: args.egress_gb.unwrap_or_default(),
            egress_per_gb,
            free_egress_gb_per_month: gb_in(sheet.network.free_egress_per_month, unit),
            storage_gb: args.storage_gb.unwrap_or_default(),
            storage_per_gb_month,
            month_hours: month_hours(Some(sheet)),
        },
        gpus: sku.gpu_count * args.instances,
        sku: Some(sku.name.clone()),
    })
}

/// The storage price to use when the user gives storage but no rate: the sheet's only disk
/// class, or its network volume price when it prices no disks (Lambda's file systems).
fn sheet_disk_price(sheet: &Sheet) -> Result<Decimal, Failure> {
    let mut classes = sheet.storage.disk.iter();
    match (classes.next(), classes.next()) {
        (Some((_, price)), None) => Ok(price.per_gib_month),
        (None, _) if sheet.storage.network_volume.is_some() => {
            Ok(sheet.storage.network_volume.unwrap_or_default())
        }
        (None, _) => Err(Failure::bad_input(format!(
            "--storage-rate is needed: sheet `{}` has no disk price",
            sheet.id
        ))),
        (Some(_), Some(_)) => Err(Failure::bad_input(format!(
            "--storage-rate is needed: sheet `{}` prices several disk classes ({})",
            sheet.id,
            sheet
                .storage
                .disk
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

fn inline(args: &EstimateArgs) -> Result<Priced, Failure> {
    if args.sku.is_some() {
        return Err(Failure::bad_input(
            "--sku needs a sheet: add --provider NAME or --sheet FILE",
        ));
    }
    if args.rate.is_none() && args.monthly.is_none() && args.spot_rate.is_none() {
        return Err(Failure::bad_input(
            "no price: give --rate, --monthly or --spot-rate, or a sheet with --provider/--sheet and --sku",
        ));
    }
    let currency: Currency = args
        .currency
        .as_deref()
        .ok_or_else(|| {
            Failure::bad_input(
                "--currency is required with inline prices (for example --currency USD)",
            )
        })?
        .parse()
        .map_err(|e| Failure::bad_input(format!("--currency: {e}")))?;
    if args.gpus == 0 {
        return Err(Failure::bad_input("--gpus must be at least 1"));
    }
    if args.egress_gb.is_some() && args.egress_rate.is_none() {
        return Err(Failure::bad_input(
            "--egress-rate is required with --egress-gb and no sheet",
        ));
    }
    if args.storage_gb.is_some() && args.storage_rate.is_none() {
        return Err(Failure::bad_input(
            "--storage-rate is required with --storage-gb and no sheet",
        ));
    }
    let g = Decimal::from(args.gpus);
    Ok(Priced {
        prices: PlanPrices {
            currency,
            on_demand_per_hour: args.rate.map(|r| r * g),
            spot_per_hour: args.spot_rate.map(|r| r * g),
            monthly: args.monthly.map(|m| m * g),
            egress_gb: args.egress_gb.unwrap_or_default(),
            egress_per_gb: args.egress_rate.unwrap_or_default(),
            free_egress_gb_per_month: Decimal::ZERO,
            storage_gb: args.storage_gb.unwrap_or_default(),
            storage_per_gb_month: args.storage_rate.unwrap_or_default(),
            month_hours: month_hours(None),
        },
        gpus: args.gpus,
        sku: None,
    })
}
