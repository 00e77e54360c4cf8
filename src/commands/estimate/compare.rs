//! `gpumeter estimate --compare`: the sheets and rates from flags and the config, the core's
//! [`compare`], and its table or JSON.

use std::process::ExitCode;

use serde::Serialize;

use super::json::{PlanJson, pretty};
use crate::cli::{Cli, EstimateArgs};
use crate::commands::{CommandResult, Failure, today};
use crate::config::{Config, SheetRef};
use crate::meter::estimate::compare::{Comparison, Offer, Query, compare};
use crate::meter::estimate::fx::{FxRate, Rates};
use crate::meter::estimate::{Needs, Plan, PlanMode};
use crate::money::Currency;
use crate::pricing::Sheet;

mod table;

pub fn run(args: &EstimateArgs, cli: &Cli, plan: Plan, needs: &Needs) -> CommandResult {
    for (flag, set) in [
        ("--egress-rate", args.egress_rate.is_some()),
        ("--storage-rate", args.storage_rate.is_some()),
    ] {
        if set {
            return Err(Failure::bad_input(format!(
                "{flag} prices one sheet and cannot be combined with --compare"
            )));
        }
    }
    let (config, config_path) =
        Config::load(cli.config.as_deref()).map_err(|e| Failure::bad_input(e.to_string()))?;
    let rates = rates(&args.fx, &config.fx.rates)?;
    let currency = match args.currency.as_deref() {
        Some(code) => code
            .parse()
            .map_err(|e| Failure::bad_input(format!("--currency: {e}")))?,
        None => rates.first_target().unwrap_or(Currency::USD),
    };
    let sheets = sheets(args, &config, config_path.as_deref())?;
    let query = Query {
        gpu: args.gpu.clone(),
        min_gpus: args.gpus,
    };
    let result = compare(&sheets, &query, plan, needs, &rates, currency, today());
    if args.json {
        super::super::emit(&pretty(&CompareJson::new(&result, plan, args.gpus))?);
    } else {
        super::super::emit_part(&table::render(&result, &plan, &query, &rates));
    }
    Ok(ExitCode::SUCCESS)
}

/// The `--fx` rates first, then the config's `[fx] rates`.
fn rates(flags: &[String], config: &[String]) -> Result<Rates, Failure> {
    let mut out = Vec::new();
    for text in flags {
        out.push(
            text.parse::<FxRate>()
                .map_err(|e| Failure::bad_input(format!("--fx: {e}")))?,
        );
    }
    for text in config {
        out.push(
            text.parse::<FxRate>()
                .map_err(|e| Failure::bad_input(format!("config [fx] rates: {e}")))?,
        );
    }
    Ok(Rates(out))
}

/// Every bundled sheet, the config's sheet when it is a file, and `--sheet`; a sheet of the
/// user's replaces a bundled one of the same id.
fn sheets(
    args: &EstimateArgs,
    config: &Config,
    config_path: Option<&std::path::Path>,
) -> Result<Vec<Sheet>, Failure> {
    let mut sheets: Vec<Sheet> = crate::pricing::bundled().to_vec();
    let mut files = Vec::new();
    if let Some(SheetRef::File(path)) = &config.pricing.sheet {
        let dir = config_path.and_then(std::path::Path::parent);
        files.push(dir.map_or_else(|| path.clone(), |d| d.join(path)));
    }
    files.extend(args.sheet.clone());
    for path in files {
        let sheet =
            crate::pricing::load_file(&path).map_err(|e| Failure::bad_input(e.to_string()))?;
        sheets.retain(|s| s.id != sheet.id);
        sheets.push(sheet);
    }
    Ok(sheets)
}

#[derive(Debug, Serialize)]
struct CompareJson {
    currency: Currency,
    plan: PlanJson,
    offers: Vec<OfferJson>,
    not_comparable: Vec<OfferJson>,
}

#[derive(Debug, Serialize)]
struct OfferJson {
    sheet: String,
    sku: String,
    gpu_model: String,
    gpus: u32,
    mode: PlanMode,
    currency: Currency,
    total: String,
    converted_total: Option<String>,
    compute: String,
    bandwidth: String,
    storage: String,
    extras: String,
    unknown: Vec<&'static str>,
    as_of: String,
    stale: bool,
}

impl OfferJson {
    fn new(o: &Offer) -> Self {
        let c = o.cost.breakdown.cents();
        OfferJson {
            sheet: o.sheet.clone(),
            sku: o.sku.clone(),
            gpu_model: o.gpu_model.clone(),
            gpus: o.gpus,
            mode: o.cost.mode,
            currency: o.cost.breakdown.currency,
            total: c.total,
            converted_total: o.converted_total.map(super::two_decimals),
            compute: c.compute,
            bandwidth: c.bandwidth,
            storage: c.storage,
            extras: c.extras,
            unknown: o.cost.unknown.iter().map(|u| u.key).collect(),
            as_of: o.as_of.to_string(),
            stale: o.stale,
        }
    }
}

impl CompareJson {
    fn new(c: &Comparison, plan: Plan, gpus: u32) -> Self {
        CompareJson {
            currency: c.currency,
            plan: PlanJson {
                hours: plan.hours().normalize().to_string(),
                days: plan.days.normalize().to_string(),
                runs_per_day: plan.runs_per_day,
                gpus,
            },
            offers: c.offers.iter().map(OfferJson::new).collect(),
            not_comparable: c.not_comparable.iter().map(OfferJson::new).collect(),
        }
    }
}
