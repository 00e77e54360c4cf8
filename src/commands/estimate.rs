//! `gpumeter estimate`: the pre-rental budget. Reads flags and sheets, asks the pure
//! [`crate::meter::estimate`] for the numbers, prints a table or JSON.

use std::process::ExitCode;

use rust_decimal::Decimal;
use serde::Serialize;

use super::{CommandResult, Failure};
use crate::cli::EstimateArgs;
use crate::meter::CentsBreakdown;
use crate::meter::estimate::{Estimate, Plan, PlanMode, PlanPrices, estimate};
use crate::money::Currency;
use crate::pricing::sheet::DEFAULT_MONTH_HOURS;
use crate::pricing::{DataUnit, Sheet};

mod prices;

pub fn run(args: &EstimateArgs) -> CommandResult {
    let plan = plan_from(args)?;
    let priced = prices::resolve(args)?;
    let result = estimate(&priced.prices, plan);
    if args.json {
        let json = EstimateJson::new(&result, priced.gpus, priced.sku.as_deref());
        let text = serde_json::to_string_pretty(&json)
            .map_err(|e| Failure::bad_input(format!("cannot write JSON: {e}")))?;
        super::emit(&text);
    } else {
        super::emit_part(&render_table(&result, priced.gpus, priced.sku.as_deref()));
    }
    Ok(ExitCode::SUCCESS)
}

fn plan_from(args: &EstimateArgs) -> Result<Plan, Failure> {
    if args.hours_per_day < Decimal::ZERO || args.hours_per_day > Decimal::from(24) {
        return Err(Failure::bad_input(format!(
            "--hours-per-day must be between 0 and 24, got {}",
            args.hours_per_day
        )));
    }
    if args.days <= Decimal::ZERO {
        return Err(Failure::bad_input(format!(
            "--days must be more than 0, got {}",
            args.days
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
    ] {
        if value.is_some_and(|v| v < Decimal::ZERO) {
            return Err(Failure::bad_input(format!("{flag} must not be negative")));
        }
    }
    Ok(Plan {
        hours_per_day: args.hours_per_day,
        days: args.days,
    })
}

/// What `--json` prints: money as decimal strings rounded to the cent.
#[derive(Debug, Serialize)]
pub struct EstimateJson {
    currency: Currency,
    #[serde(skip_serializing_if = "Option::is_none")]
    sku: Option<String>,
    plan: PlanJson,
    modes: ModesJson,
    cheapest: Option<PlanMode>,
    break_even_hours_per_month: Option<String>,
}

#[derive(Debug, Serialize)]
struct PlanJson {
    hours: String,
    days: String,
    gpus: u32,
}

#[derive(Debug, Serialize)]
struct ModesJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    on_demand: Option<ModeJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    monthly: Option<ModeJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spot: Option<ModeJson>,
}

/// A plan has no extras, so a mode shows compute, bandwidth, storage and their total.
#[derive(Debug, Serialize)]
struct ModeJson {
    compute: String,
    bandwidth: String,
    storage: String,
    total: String,
}

impl From<CentsBreakdown> for ModeJson {
    fn from(c: CentsBreakdown) -> Self {
        ModeJson {
            compute: c.compute,
            bandwidth: c.bandwidth,
            storage: c.storage,
            total: c.total,
        }
    }
}

fn two_decimals(d: Decimal) -> String {
    let mut r = d.round_dp(2);
    r.rescale(2);
    r.to_string()
}

impl EstimateJson {
    pub fn new(e: &Estimate, gpus: u32, sku: Option<&str>) -> Self {
        let mode = |m: PlanMode| {
            e.modes
                .iter()
                .find(|(k, _)| *k == m)
                .map(|(_, b)| ModeJson::from(b.cents()))
        };
        EstimateJson {
            currency: e.currency,
            sku: sku.map(str::to_string),
            plan: PlanJson {
                hours: e.plan.hours().normalize().to_string(),
                days: e.plan.days.normalize().to_string(),
                gpus,
            },
            modes: ModesJson {
                on_demand: mode(PlanMode::OnDemand),
                monthly: mode(PlanMode::Monthly),
                spot: mode(PlanMode::Spot),
            },
            cheapest: e.cheapest,
            break_even_hours_per_month: e.break_even_hours_per_month.map(two_decimals),
        }
    }
}

fn render_table(e: &Estimate, gpus: u32, sku: Option<&str>) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let what = sku.map_or_else(
        || format!("{gpus} GPU{}", if gpus == 1 { "" } else { "s" }),
        |s| format!("{s} ({gpus} GPU{})", if gpus == 1 { "" } else { "s" }),
    );
    let _ = writeln!(
        out,
        "{what}, {} h/day for {} days = {} h, in {}\n",
        e.plan.hours_per_day.normalize(),
        e.plan.days.normalize(),
        e.plan.hours().normalize(),
        e.currency
    );
    let _ = writeln!(
        out,
        "{:<11}{:>12}{:>12}{:>12}{:>12}",
        "mode", "compute", "bandwidth", "storage", "total"
    );
    for (mode, b) in &e.modes {
        let [c, bw, s, _, t] = b.to_cents();
        let mark = if e.cheapest == Some(*mode) {
            "  <- cheapest"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{:<11}{c:>12}{bw:>12}{s:>12}{t:>12}{mark}",
            mode.label()
        );
    }
    for mode in [PlanMode::OnDemand, PlanMode::Monthly, PlanMode::Spot] {
        if !e.modes.iter().any(|(m, _)| *m == mode) {
            let _ = writeln!(out, "{:<11}{:>12}", mode.label(), "no price");
        }
    }
    out.push('\n');
    if let Some(hours) = e.break_even_hours_per_month {
        let _ = writeln!(
            out,
            "Break-even: the monthly subscription is cheaper above {} hours of use a month.",
            two_decimals(hours)
        );
    }
    out.push_str(NOTE);
    out
}

const NOTE: &str = "\
Note: spot capacity can be reclaimed at any moment; use it only for work that resumes from a
checkpoint. A monthly commitment is paid up front and cannot be refunded if you stop early.
";

/// The prices and labels an estimate runs on, resolved from flags or a sheet.
pub struct Priced {
    pub prices: PlanPrices,
    pub gpus: u32,
    pub sku: Option<String>,
}

/// The price of one GB in a sheet that prices per `unit`.
fn per_gb(price: Decimal, unit: DataUnit) -> Decimal {
    price * Decimal::from(DataUnit::GB.bytes()) / Decimal::from(unit.bytes())
}

/// GBs in an allowance that a sheet states in `unit`s.
fn gb_in(amount: Decimal, unit: DataUnit) -> Decimal {
    amount * Decimal::from(unit.bytes()) / Decimal::from(DataUnit::GB.bytes())
}

fn month_hours(sheet: Option<&Sheet>) -> u32 {
    sheet.map_or(DEFAULT_MONTH_HOURS, |s| s.billing.month_hours)
}
