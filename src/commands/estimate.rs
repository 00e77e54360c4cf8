//! `gpumeter estimate`: the pre-rental budget. Reads flags and sheets, asks the pure
//! [`crate::meter::estimate`] for the numbers, prints a table or JSON. `--compare` prices the
//! same plan across every sheet ([`compare`]).

use std::process::ExitCode;

use rust_decimal::Decimal;

use super::{CommandResult, Failure};
use crate::cli::{Cli, EstimateArgs};
use crate::meter::estimate::{Needs, Plan, estimate};

mod compare;
mod json;
mod prices;
mod table;

pub fn run(args: &EstimateArgs, cli: &Cli) -> CommandResult {
    let plan = plan_from(args)?;
    let needs = needs_from(args)?;
    if args.compare {
        return compare::run(args, cli, plan, &needs);
    }
    let priced = prices::resolve(args)?;
    let result = estimate(&priced.prices, plan, &needs);
    if args.json {
        let json = json::EstimateJson::new(&result, priced.gpus, priced.sku.as_deref());
        super::emit(&json::pretty(&json)?);
    } else {
        super::emit_part(&table::render(&result, &priced));
    }
    Ok(ExitCode::SUCCESS)
}

fn plan_from(args: &EstimateArgs) -> Result<Plan, Failure> {
    if args.hours_per_day < Decimal::ZERO || args.hours_per_day > Decimal::from(24) {
        return Err(Failure::bad_input(crate::t!(
            "err-hours-per-day",
            got = args.hours_per_day.to_string()
        )));
    }
    if args.days <= Decimal::ZERO {
        return Err(Failure::bad_input(crate::t!(
            "err-days",
            got = args.days.to_string()
        )));
    }
    if args.runs_per_day == 0 {
        return Err(Failure::bad_input(crate::t!(
            "err-at-least-one",
            flag = "--runs-per-day"
        )));
    }
    for (flag, value) in [
        ("--egress-gb", args.egress_gb),
        ("--egress-rate", args.egress_rate),
        ("--storage-gb", args.storage_gb),
        ("--storage-rate", args.storage_rate),
        ("--rate", args.rate),
        ("--monthly", args.monthly),
        ("--spot-rate", args.spot_rate),
        ("--bandwidth-mbps", args.bandwidth_mbps),
        ("--reclaims-per-day", args.reclaims_per_day),
    ] {
        if value.is_some_and(|v| v < Decimal::ZERO) {
            return Err(Failure::bad_input(crate::t!(
                "err-not-negative",
                flag = flag
            )));
        }
    }
    Ok(Plan {
        hours_per_day: args.hours_per_day,
        days: args.days,
        runs_per_day: args.runs_per_day,
    })
}

fn needs_from(args: &EstimateArgs) -> Result<Needs, Failure> {
    let checkpoint_every_hours = match args.checkpoint_every.as_deref() {
        None => None,
        Some(text) => {
            let every = crate::config::parse_duration(text)
                .map_err(|e| Failure::bad_input(format!("--checkpoint-every: {}", e.shown())))?;
            if every.is_zero() {
                return Err(Failure::bad_input(crate::t!("err-checkpoint-zero")));
            }
            Some(Decimal::from(every.as_secs()) / Decimal::from(3600))
        }
    };
    Ok(Needs {
        egress_gb: args.egress_gb.unwrap_or_default(),
        storage_gb: args.storage_gb.unwrap_or_default(),
        bandwidth_mbps: args.bandwidth_mbps,
        licenses: args.licenses,
        public_ips: args.public_ips,
        load_balancers: args.load_balancers,
        checkpoint_every_hours,
        reclaims_per_day: args.reclaims_per_day,
    })
}

pub(crate) fn two_decimals(d: Decimal) -> String {
    let mut r = d.round_dp(2);
    r.rescale(2);
    r.to_string()
}
