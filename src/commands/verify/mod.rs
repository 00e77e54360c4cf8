//! `gpumeter verify`: did this machine give you the GPU you pay for? One NVML round and a few
//! idle ones, NVML's facts, a short benchmark (or all of it from the simulator with `--demo`),
//! judged by the core against the cards' rated figures. Exit 0 pass, 1 warn, 3 fail, 2 bad
//! input, 4 no GPU; `--on-fail` acts on a fail.

mod bandwidth;
mod bench;
mod gather;
mod on_fail;
mod print;
mod python;
mod record;

use std::process::ExitCode;
use std::time::Duration;

use super::context::Context;
use super::{CommandResult, Failure, emit, emit_err};
use crate::cli::{Cli, VerifyArgs};
use crate::config::VerifyConfig;
use crate::meter::{BillingMode, ComputeTerms};
use crate::money::Money;
use crate::pricing::{Sheet, Sku};
use gather::Gather;
use gpumeter_core::verify::{NetworkInput, Thresholds, Verdict, VerifyInput, assess};

/// Exit status of a warning verdict.
pub const EXIT_WARN: u8 = 1;
/// Exit status of a failing verdict.
pub const EXIT_FAIL: u8 = 3;
/// Exit status when no GPU can be read.
pub const EXIT_NO_GPU: u8 = 4;
/// The longest `--seconds` may ask the benchmark to run.
const MAX_SECONDS: u32 = 600;

pub fn run(args: &VerifyArgs, cli: &Cli) -> CommandResult {
    if !cli.demo {
        refuse_demo_only(args)?;
    }
    if !(1..=MAX_SECONDS).contains(&args.seconds) {
        return Err(Failure::bad_input(crate::t!(
            "err-seconds",
            seconds = args.seconds.to_string(),
            max = MAX_SECONDS.to_string()
        )));
    }
    let ctx = Context::load(cli)?;
    let thresholds = thresholds(args.fail_below, args.warn_below, &ctx.config.verify)?;
    let (priced, hourly, promised) = prices(&ctx, args)?;
    let download = args
        .bandwidth
        .as_deref()
        .map(bandwidth::parse)
        .transpose()?;
    let gathered = if cli.demo {
        let scenario = args.scenario.as_deref().unwrap_or("training");
        gather::demo(scenario, args.gpus, args.seconds)?
    } else {
        gather::live(Duration::from_secs(u64::from(args.seconds)))
    };
    let mut gathered = match gathered {
        Gather::Read(g) => g,
        Gather::NoGpu(why) => {
            let source = if cli.demo { "demo" } else { "nvml" };
            return no_gpu(args.json, source, &why);
        }
    };
    read_uses(args, download.as_ref(), promised, &mut gathered);
    let input = VerifyInput {
        reading: &gathered.reading,
        idle: &gathered.idle,
        facts: &gathered.facts,
        measured: &gathered.measured,
        bench_error: gathered.bench_error.as_ref(),
        sku: priced.as_ref().map(|(_, sku)| sku),
        hourly: hourly.as_ref(),
        require_cuda: args.require_cuda.or(ctx.config.telemetry.cuda_required),
        thresholds: &thresholds,
        torch: gathered.torch.as_ref(),
        network: gathered.network.as_ref(),
    };
    let report = assess(&input);
    if !ctx.read_only {
        let evidence = print::Document::new(&gathered, &report, None);
        record::keep(&ctx, &report, &evidence, jiff::Timestamp::now());
    }
    let on_fail = |report: &gpumeter_core::verify::VerifyReport| {
        args.on_fail
            .filter(|_| report.verdict == Verdict::Fail)
            .map(|what| {
                let sheet = priced.as_ref().map(|(sheet, _)| sheet);
                let outcome =
                    on_fail::run(&ctx, what, args.dry_run, &report.shown_headline(), sheet);
                if !outcome.dry_run && !ctx.read_only {
                    record::keep_on_fail(&ctx, &outcome, &report.headline, jiff::Timestamp::now());
                }
                outcome
            })
    };
    if args.json {
        // What --on-fail says goes into the JSON, so it is said in English there.
        let outcome = crate::i18n::scoped(crate::i18n::Lang::En, || on_fail(&report));
        let doc = print::Document::new(&gathered, &report, outcome.as_ref());
        emit(&to_json(&doc)?);
    } else {
        emit(print::render(&gathered, &report).trim_end());
        if let Some(outcome) = on_fail(&report) {
            for line in &outcome.lines {
                if outcome.done || outcome.dry_run {
                    emit(line);
                } else {
                    emit_err(&format!("gpumeter: {line}"));
                }
            }
        }
    }
    Ok(exit_code(report.verdict))
}

/// The SKU `--sku` names with its sheet, what an hour costs (from it, else from the config's
/// pricing), and the Mbps the plan promises: the config's over the sheet's, as the meter takes
/// them.
fn prices(ctx: &Context, args: &VerifyArgs) -> Result<Priced, Failure> {
    let priced = resolve_sku(args)?;
    let pricing = match priced {
        Some(_) => None,
        None => ctx.pricing()?,
    };
    let hourly = match (&priced, &pricing) {
        (Some((sheet, sku)), _) => hourly_of(sheet, sku),
        (None, Some(p)) => match p.terms {
            ComputeTerms::Hourly { per_hour } => Some(Money::new(per_hour, p.sheet.currency)),
            ComputeTerms::Committed { .. } => None,
        },
        (None, None) => None,
    };
    let sheet = priced
        .as_ref()
        .map(|(s, _)| s)
        .or(pricing.as_ref().map(|p| &p.sheet));
    let promised = ctx
        .config
        .instance
        .bandwidth_mbps
        .or(sheet.and_then(|s| s.network.fixed_bandwidth_mbps));
    Ok((priced, hourly, promised))
}

type Priced = (
    Option<(Sheet, Sku)>,
    Option<Money>,
    Option<rust_decimal::Decimal>,
);

/// What `--python` and `--bandwidth` ask, read once the cards are: the interpreter's torch,
/// and the download with the Mbps promised.
fn read_uses(
    args: &VerifyArgs,
    download: Option<&(reqwest::Url, String)>,
    promised: Option<rust_decimal::Decimal>,
    gathered: &mut gather::Gathered,
) {
    if let Some(interpreter) = &args.python {
        let limit = python::limit(std::env::var(python::LIMIT_VAR).ok().as_deref());
        gathered.torch = Some(python::probe(interpreter, limit));
    }
    if let Some((url, kept)) = download {
        gathered.network = Some(NetworkInput {
            download: bandwidth::measure(url, kept),
            promised_mbps: promised,
        });
    }
}

/// The exit status of a verdict.
pub fn exit_code(verdict: Verdict) -> ExitCode {
    match verdict {
        Verdict::Pass => ExitCode::SUCCESS,
        Verdict::Incomplete | Verdict::Warn => ExitCode::from(EXIT_WARN),
        Verdict::Fail => ExitCode::from(EXIT_FAIL),
    }
}

fn no_gpu(json: bool, source: &'static str, why: &str) -> CommandResult {
    let why = gpumeter_core::text::one_line(why, 300);
    if json {
        emit(&to_json(&print::Document::no_gpu(source, &why))?);
    }
    emit_err(&format!(
        "gpumeter: {}",
        crate::t!("verify-no-gpu", why = why.as_str())
    ));
    Ok(ExitCode::from(EXIT_NO_GPU))
}

fn to_json(doc: &print::Document<'_>) -> Result<String, Failure> {
    serde_json::to_string_pretty(doc)
        .map_err(|e| Failure::failed(format!("cannot write JSON: {e}")))
}

fn refuse_demo_only(args: &VerifyArgs) -> Result<(), Failure> {
    if args.scenario.is_some() {
        return Err(Failure::bad_input(crate::t!(
            "err-demo-only",
            flag = "--scenario"
        )));
    }
    super::refuse_gpus_without_demo(args.gpus, false)
}

/// The bars from `--fail-below` and `--warn-below` (percent of rated), over the config's
/// `[verify]`, over the defaults.
fn thresholds(
    fail_below: Option<f64>,
    warn_below: Option<f64>,
    config: &VerifyConfig,
) -> Result<Thresholds, Failure> {
    let share = |flag: &str, pct: f64| {
        if (0.0..=100.0).contains(&pct) {
            Ok(pct / 100.0)
        } else {
            Err(Failure::bad_input(crate::t!(
                "err-percent",
                flag = flag,
                pct = pct.to_string()
            )))
        }
    };
    let mut t = Thresholds::default();
    if let Some(pct) = fail_below.or(config.fail_below) {
        let from = if fail_below.is_some() {
            "--fail-below"
        } else {
            "[verify] fail_below"
        };
        t.fail_below = share(from, pct)?;
    }
    if let Some(pct) = warn_below.or(config.warn_below) {
        let from = if warn_below.is_some() {
            "--warn-below"
        } else {
            "[verify] warn_below"
        };
        t.warn_below = share(from, pct)?;
    }
    if let Some(pct) = config.bandwidth_warn_below {
        t.bandwidth_warn_below = Some(share("[verify] bandwidth_warn_below", pct)?);
    }
    if let Some(mib) = config.foreign_memory_mib {
        t.foreign_memory_mib = mib;
    }
    if let Some(pct) = config.foreign_utilisation {
        if pct > 100 {
            return Err(Failure::bad_input(crate::t!(
                "verify-config-foreign-pct",
                pct = pct.to_string()
            )));
        }
        t.foreign_util_pct = pct;
    }
    if t.fail_below > t.warn_below {
        return Err(Failure::bad_input(crate::t!(
            "err-fail-above-warn",
            fail = format!("{:.0}", t.fail_below * 100.0),
            warn = format!("{:.0}", t.warn_below * 100.0)
        )));
    }
    Ok(t)
}

/// The SKU named by `--sku`, from the sheet `--provider` or `--sheet` names.
fn resolve_sku(args: &VerifyArgs) -> Result<Option<(Sheet, Sku)>, Failure> {
    let Some(name) = args.sku.as_deref() else {
        return match (&args.provider, &args.sheet) {
            (None, None) => Ok(None),
            _ => Err(Failure::bad_input(crate::t!("err-sheet-needs-sku"))),
        };
    };
    let Some(sheet) = super::load_sheet_for(args.provider.as_deref(), args.sheet.as_deref())?
    else {
        return Err(Failure::bad_input(crate::t!("err-sku-needs-sheet")));
    };
    let sku = sheet.sku(name).cloned().ok_or_else(|| {
        Failure::bad_input(crate::t!(
            "verify-no-sku",
            sku = name,
            sheet = sheet.id.as_str()
        ))
    })?;
    Ok(Some((sheet, sku)))
}

/// What an hour of `sku` costs on demand, where the sheet prices one.
fn hourly_of(sheet: &Sheet, sku: &Sku) -> Option<Money> {
    match ComputeTerms::from_sheet(sheet, sku, BillingMode::OnDemand, 1).ok()? {
        ComputeTerms::Hourly { per_hour } => Some(Money::new(per_hour, sheet.currency)),
        ComputeTerms::Committed { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_become_shares_and_bad_ones_are_refused() {
        let none = VerifyConfig::default();
        let t = thresholds(Some(40.0), Some(90.0), &none).unwrap();
        assert!((t.fail_below - 0.4).abs() < 1e-12 && (t.warn_below - 0.9).abs() < 1e-12);
        let d = thresholds(None, None, &none).unwrap();
        assert_eq!(d, Thresholds::default());
        for (fail, warn) in [
            (Some(150.0), None),
            (Some(-1.0), None),
            (None, Some(f64::NAN)),
            (Some(80.0), Some(60.0)),
        ] {
            let e = thresholds(fail, warn, &none).unwrap_err();
            assert_eq!(e.code, super::super::EXIT_BAD_INPUT, "{fail:?} {warn:?}");
        }
    }

    #[test]
    fn the_config_sets_the_bars_and_the_flags_override_it() {
        let config = VerifyConfig {
            fail_below: Some(60.0),
            warn_below: Some(80.0),
            bandwidth_warn_below: Some(55.0),
            foreign_memory_mib: Some(2048),
            foreign_utilisation: Some(20),
        };
        let t = thresholds(None, None, &config).unwrap();
        assert!((t.fail_below - 0.6).abs() < 1e-12 && (t.warn_below - 0.8).abs() < 1e-12);
        assert!(
            t.bandwidth_warn_below
                .is_some_and(|b| (b - 0.55).abs() < 1e-12)
        );
        assert_eq!((t.foreign_memory_mib, t.foreign_util_pct), (2048, 20));
        let flagged = thresholds(Some(30.0), None, &config).unwrap();
        assert!((flagged.fail_below - 0.3).abs() < 1e-12);
        let bad = VerifyConfig {
            foreign_utilisation: Some(120),
            ..VerifyConfig::default()
        };
        let e = thresholds(None, None, &bad).unwrap_err();
        assert!(
            e.message.contains("[verify] foreign_utilisation"),
            "{}",
            e.message
        );
    }

    #[test]
    fn each_verdict_has_its_exit_status() {
        assert_eq!(exit_code(Verdict::Pass), ExitCode::SUCCESS);
        assert_eq!(exit_code(Verdict::Warn), ExitCode::from(1));
        assert_eq!(exit_code(Verdict::Fail), ExitCode::from(3));
    }

    #[test]
    fn an_hour_is_priced_from_the_sheet() {
        let sheet = crate::pricing::bundled_sheet("aws-us-east-1").unwrap();
        let sku = sheet.sku("p4de.24xlarge").unwrap();
        let hourly = hourly_of(sheet, sku).unwrap();
        assert_eq!(Some(hourly.amount), sku.on_demand_per_hour);
        assert_eq!(hourly.currency, sheet.currency);
    }
}
