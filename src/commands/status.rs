//! `gpumeter status [--json]`: one snapshot of the GPUs, the host and the findings, from NVML and
//! /proc or, with `--demo`, from the simulator.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use serde::{Serialize, Serializer};

use super::{CommandResult, Failure};
use crate::cli::{Cli, StatusArgs};
use crate::meter::InstanceState;
use crate::pricing::{self, Sku};
use crate::telemetry::{
    DriverInfo, Expectations, Finding, GpuRound, GpuSample, GpuSource, HistoryConfig, HostConfig,
    HostReader, HostSample, HostSource, NvmlConfig, NvmlSource, SimConfig, Simulator,
    TelemetryHistory, Unavailability, assess, scenario_file,
};

mod balance;
pub mod cloud;
mod cloud_table;

pub(crate) use cloud_table::forced_release_line;
mod deadline;
pub mod stopped_release;
pub mod subscription;
mod table;
#[cfg(test)]
mod traffic_tests;
#[cfg(test)]
mod zone_tests;

/// The `status --json` document. Later sections (cost, deadline, resources) are added here.
#[derive(Debug, Clone, Serialize)]
pub struct StatusReport {
    #[serde(serialize_with = "as_display")]
    pub time: Timestamp,
    /// `nvml` or `demo`.
    pub source: &'static str,
    /// Driver and CUDA versions; `null` when no GPU could be read.
    pub driver: Option<DriverInfo>,
    #[serde(serialize_with = "gpus_with_reasons")]
    pub gpus: Vec<GpuSample>,
    /// Why no GPU could be read, or `null`; in the run's language, which a `--json` run
    /// keeps English.
    pub gpu_error: Option<String>,
    /// `false` while the instance runs without its GPUs by choice (a card-hour platform's
    /// no-GPU mode): then no GPU is expected, and none read is no fault.
    pub gpus_expected: bool,
    #[serde(serialize_with = "with_reasons")]
    pub host: HostSample,
    pub findings: Vec<Finding>,
    /// The instance, its cost, the deadline and the leftovers, from the provider.
    #[serde(flatten)]
    pub cloud: cloud::CloudJson,
}

impl StatusReport {
    /// Assembles a report from one GPU round and one host sample.
    pub fn new(
        time: Timestamp,
        source: &'static str,
        round: GpuRound,
        host: HostSample,
        findings: Vec<Finding>,
    ) -> Self {
        let (driver, gpus, gpu_error) = match round {
            Ok(r) if r.gpus.is_empty() => (
                Some(r.driver),
                r.gpus,
                Some(crate::t!("status-gpu-none-listed").into_owned()),
            ),
            Ok(r) => (Some(r.driver), r.gpus, None),
            Err(why) => (
                None,
                Vec::new(),
                Some(crate::ui::words::gpu_unavailable_said(&why)),
            ),
        };
        StatusReport {
            time,
            source,
            driver,
            gpus,
            gpu_error,
            gpus_expected: true,
            host,
            findings,
            cloud: cloud::CloudJson::default(),
        }
    }
}

pub fn run(args: &StatusArgs, cli: &Cli) -> CommandResult {
    let demo = cli.demo;
    if !demo {
        refuse_demo_only(args)?;
    }
    let sku = resolve_sku(args)?;
    let expect = Expectations {
        sku: sku.as_ref(),
        cuda: args.require_cuda,
        ..Expectations::default()
    };
    let mut report = if demo {
        demo_report(args, &expect)?
    } else {
        live_report(&expect)
    };
    let ctx = super::context::Context::load(cli)?;
    report.cloud = cloud::read(&ctx, report.time)?;
    report.gpus_expected = report
        .cloud
        .instance
        .as_ref()
        .is_none_or(|i| i.state != InstanceState::NoGpu);
    super::emit(&output(&report, args.json, &ctx.config.user_zone().tz)?);
    Ok(ExitCode::SUCCESS)
}

/// The report as JSON (always UTC: the zone is not read) or as the text table, whose times
/// are in `tz` with the zone named.
pub fn output(
    report: &StatusReport,
    json: bool,
    tz: &jiff::tz::TimeZone,
) -> Result<String, Failure> {
    if json {
        serde_json::to_string_pretty(report)
            .map_err(|e| Failure::bad_input(crate::t!("err-write-json", error = e.to_string())))
    } else {
        Ok(table::render(report, tz).trim_end().to_string())
    }
}

fn refuse_demo_only(args: &StatusArgs) -> Result<(), Failure> {
    let given = [
        ("--scenario", args.scenario.is_some()),
        ("--gpus", args.gpus.is_some()),
        ("--gpu-model", args.gpu_model.is_some()),
        ("--seed", args.seed.is_some()),
        ("--at", args.at.is_some()),
    ];
    match given.iter().find(|(_, set)| *set) {
        Some((flag, _)) => Err(Failure::bad_input(crate::t!("err-demo-only", flag = *flag))),
        None => Ok(()),
    }
}

/// The SKU named by `--sku`, from `--provider`, `--sheet`, or any bundled sheet that has it.
fn resolve_sku(args: &StatusArgs) -> Result<Option<Sku>, Failure> {
    let Some(name) = args.sku.as_deref() else {
        return match (&args.provider, &args.sheet) {
            (None, None) => Ok(None),
            _ => Err(Failure::bad_input(crate::t!("err-sheet-needs-sku"))),
        };
    };
    if let Some(sheet) = super::load_sheet_for(args.provider.as_deref(), args.sheet.as_deref())? {
        return sheet.sku(name).cloned().map(Some).ok_or_else(|| {
            Failure::bad_input(crate::t!(
                "err-no-sku-in-sheet",
                sku = name,
                sheet = sheet.id.as_str()
            ))
        });
    }
    let found = pricing::find_sku(name, None);
    let Some((_, first)) = found.first() else {
        return Err(Failure::bad_input(crate::t!(
            "err-no-sheet-has-sku",
            name = name
        )));
    };
    let same_gpus = found.iter().all(|(_, s)| {
        s.gpu_model == first.gpu_model
            && s.gpu_count == first.gpu_count
            && s.gpu_memory_gib == first.gpu_memory_gib
    });
    if !same_gpus {
        let ids: Vec<&str> = found.iter().map(|(sheet, _)| sheet.id.as_str()).collect();
        return Err(Failure::bad_input(crate::t!(
            "err-sku-in-several-sheets",
            name = name,
            ids = ids.join(", ")
        )));
    }
    Ok(Some((*first).clone()))
}

/// The simulator at `--at` seconds, with the history before it replayed so that window rules
/// (GPUs idle while the CPU is busy) see the same past the cockpit would have.
fn demo_report(args: &StatusArgs, expect: &Expectations<'_>) -> Result<StatusReport, Failure> {
    let scenario = scenario_file::resolve(args.scenario.as_deref().unwrap_or("training"))
        .map_err(|e| Failure::bad_input(e.to_string()))?;
    let mut config = SimConfig::new(scenario);
    config.gpu_count = args.gpus.unwrap_or(config.gpu_count);
    config.seed = args.seed.unwrap_or(config.seed);
    if let Some(model) = &args.gpu_model {
        config.gpu_model.clone_from(model);
    }
    let sim = Simulator::new(config).map_err(|e| Failure::bad_input(e.to_string()))?;
    let at = Duration::from_secs(args.at.unwrap_or(600));
    let history_config = HistoryConfig::default();
    let mut history = TelemetryHistory::new(history_config);
    let mut t = at.saturating_sub(history_config.span);
    while t < at {
        history.record_gpus(t, &Ok(sim.gpus_at(t)));
        history.record_host(t, &sim.host_at(t));
        t += history_config.interval;
    }
    let round: GpuRound = Ok(sim.gpus_at(at));
    let host = sim.host_at(at);
    history.record_gpus(at, &round);
    history.record_host(at, &host);
    let findings = assess(expect, &round, &history, at);
    Ok(StatusReport::new(
        Timestamp::now(),
        "demo",
        round,
        host,
        findings,
    ))
}

/// How long the live snapshot waits between two host reads, to turn counters into rates.
const RATE_WINDOW: Duration = Duration::from_millis(250);

fn live_report(expect: &Expectations<'_>) -> StatusReport {
    let started = Instant::now();
    let mut host = HostReader::new(HostConfig::default());
    host.read(Duration::ZERO);
    let mut nvml = NvmlSource::new(NvmlConfig::default());
    let round = nvml.read(started.elapsed());
    // NVML's own reads usually take most of the window already.
    std::thread::sleep(RATE_WINDOW.saturating_sub(started.elapsed()));
    let host_sample = host.read(started.elapsed());
    let history = TelemetryHistory::new(HistoryConfig::default());
    let findings = assess(expect, &round, &history, started.elapsed());
    StatusReport::new(Timestamp::now(), "nvml", round, host_sample, findings)
}

fn as_display<S: Serializer>(t: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(t)
}

/// A sample with the reasons for its missing metrics beside it: `"unavailable": {"fan_pct":
/// "unsupported"}`.
#[derive(Serialize)]
struct WithReasons<'a, T> {
    #[serde(flatten)]
    sample: &'a T,
    unavailable: BTreeMap<&'static str, String>,
}

impl<'a, T: Unavailability> WithReasons<'a, T> {
    fn new(sample: &'a T) -> Self {
        let unavailable = sample
            .unavailable()
            .into_iter()
            .map(|(name, why)| (name, why.to_string()))
            .collect();
        WithReasons {
            sample,
            unavailable,
        }
    }
}

fn with_reasons<T: Serialize + Unavailability, S: Serializer>(
    v: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    WithReasons::new(v).serialize(s)
}

fn gpus_with_reasons<S: Serializer>(gpus: &[GpuSample], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(gpus.iter().map(WithReasons::new))
}
