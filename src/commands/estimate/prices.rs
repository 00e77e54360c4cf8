//! Where an estimate's prices come from: a bundled sheet, a user sheet, or inline flags.

use rust_decimal::Decimal;

use crate::cli::EstimateArgs;
use crate::commands::{Failure, load_sheet_for};
use crate::meter::estimate::PlanPrices;
use crate::money::Currency;
use crate::pricing::Sheet;

/// The prices and labels an estimate runs on, resolved from flags or a sheet.
pub struct Priced {
    pub prices: PlanPrices,
    pub gpus: u32,
    pub sku: Option<String>,
    /// The sheet's id, to name it beside a price it lacks.
    pub sheet: Option<String>,
}

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
            return Err(Failure::bad_input(crate::t!(
                "err-inline-with-sheet",
                flag = flag
            )));
        }
    }
    let sku_name = args.sku.as_deref().ok_or_else(|| {
        Failure::bad_input(crate::t!("err-sku-required", sheet = sheet.id.as_str()))
    })?;
    let sku = sheet.sku(sku_name).ok_or_else(|| {
        Failure::bad_input(crate::t!(
            "estimate-sku-not-in-sheet",
            sku = sku_name,
            sheet = sheet.id.as_str(),
            skus = sheet
                .skus
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    if args.instances == 0 {
        return Err(Failure::bad_input(crate::t!(
            "err-at-least-one",
            flag = "--instances"
        )));
    }
    let mut prices = PlanPrices::from_sheet(sheet, sku, args.instances);
    if let Some(rate) = args.egress_rate {
        prices.egress_per_gb = Some(rate);
    }
    if let Some(rate) = args.storage_rate {
        prices.storage_per_gb_month = Some(rate);
    } else if args.storage_gb.is_some() && sheet.storage.disk.len() > 1 {
        // Several classes is a choice for the user, not a price the sheet lacks.
        return Err(Failure::bad_input(crate::t!(
            "estimate-storage-rate-needed",
            sheet = sheet.id.as_str(),
            classes = sheet
                .storage
                .disk
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(Priced {
        prices,
        gpus: sku.gpu_count * args.instances,
        sku: Some(sku.name.clone()),
        sheet: Some(sheet.id.clone()),
    })
}

fn inline(args: &EstimateArgs) -> Result<Priced, Failure> {
    if args.sku.is_some() {
        return Err(Failure::bad_input(crate::t!("err-sku-needs-sheet")));
    }
    if args.rate.is_none() && args.monthly.is_none() && args.spot_rate.is_none() {
        return Err(Failure::bad_input(crate::t!("err-no-price")));
    }
    let currency: Currency = args
        .currency
        .as_deref()
        .ok_or_else(|| Failure::bad_input(crate::t!("err-currency-required")))?
        .parse()
        .map_err(|e| Failure::bad_input(format!("--currency: {e}")))?;
    if args.gpus == 0 {
        return Err(Failure::bad_input(crate::t!(
            "err-at-least-one",
            flag = "--gpus"
        )));
    }
    for (flag, needs, set) in [
        (
            "--egress-gb",
            "--egress-rate",
            args.egress_gb.is_some() && args.egress_rate.is_none(),
        ),
        (
            "--storage-gb",
            "--storage-rate",
            args.storage_gb.is_some() && args.storage_rate.is_none(),
        ),
        ("--public-ips", "a sheet", args.public_ips > 0),
        ("--load-balancers", "a sheet", args.load_balancers > 0),
        ("--licenses", "a sheet", args.licenses.is_some()),
        ("--bandwidth-mbps", "a sheet", args.bandwidth_mbps.is_some()),
    ] {
        if set {
            return Err(Failure::bad_input(crate::t!(
                "err-inline-needs",
                flag = flag,
                needs = needs
            )));
        }
    }
    let g = Decimal::from(args.gpus);
    let prices = PlanPrices {
        on_demand_per_hour: args.rate.map(|r| r * g),
        spot_per_hour: args.spot_rate.map(|r| r * g),
        monthly: args.monthly.map(|m| m * g),
        egress_per_gb: Some(args.egress_rate.unwrap_or_default()),
        storage_per_gb_month: Some(args.storage_rate.unwrap_or_default()),
        ..PlanPrices::inline(currency)
    };
    Ok(Priced {
        prices,
        gpus: args.gpus,
        sku: None,
        sheet: None,
    })
}
