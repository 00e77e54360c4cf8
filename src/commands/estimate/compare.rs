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
use crate::meter::estimate::{Line, Needs, Plan, PlanMode};
use crate::money::{Currency, PartialTotalJson};
use crate::pricing::Sheet;

mod table;

pub fn run(args: &EstimateArgs, cli: &Cli, plan: Plan, needs: &Needs) -> CommandResult {
    for (flag, set) in [
        ("--egress-rate", args.egress_rate.is_some()),
        ("--storage-rate", args.storage_rate.is_some()),
    ] {
        if set {
            return Err(Failure::bad_input(crate::t!(
                "err-not-with-compare",
                flag = flag
            )));
        }
    }
    let (config, config_path) =
        Config::load(cli.config.as_deref()).map_err(|e| Failure::bad_input(e.shown()))?;
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
    /// Complete offers, cheapest first.
    offers: Vec<OfferJson>,
    /// Offers with a line no price covers, by what is known of their total.
    incomplete: Vec<OfferJson>,
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
    total: PartialTotalJson,
    /// In the comparison currency; `null` without a rate or when the total is incomplete.
    converted_total: Option<String>,
    /// An incomplete offer's known part in the comparison currency: a lower bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    converted_known: Option<String>,
    /// `converted_total` per GPU-hour of use; `null` where it is.
    per_gpu_hour: Option<String>,
    compute: Option<String>,
    bandwidth: Option<String>,
    storage: Option<String>,
    extras: Option<String>,
    unknown: Vec<&'static str>,
    as_of: String,
    stale: bool,
}

impl OfferJson {
    fn new(o: &Offer) -> Self {
        let c = o.cost.breakdown.cents();
        let complete = o.cost.is_complete();
        let whole =
            |d: Option<rust_decimal::Decimal>| d.filter(|_| complete).map(super::two_decimals);
        let known = |line: Line, cents: String| o.cost.line(line).map(|_| cents);
        OfferJson {
            sheet: o.sheet.clone(),
            sku: o.sku.clone(),
            gpu_model: o.gpu_model.clone(),
            gpus: o.gpus,
            mode: o.cost.mode,
            currency: o.cost.breakdown.currency,
            total: o.cost.total().json(),
            converted_total: whole(o.converted_total),
            converted_known: o
                .converted_total
                .filter(|_| !complete)
                .map(super::two_decimals),
            per_gpu_hour: whole(o.per_gpu_hour),
            compute: known(Line::Compute, c.compute),
            bandwidth: known(Line::Bandwidth, c.bandwidth),
            storage: known(Line::Storage, c.storage),
            extras: known(Line::Extras, c.extras),
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
            incomplete: c.incomplete.iter().map(OfferJson::new).collect(),
            not_comparable: c.not_comparable.iter().map(OfferJson::new).collect(),
        }
    }
}
