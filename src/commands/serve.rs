//! `gpumeter serve`: the Prometheus endpoint. Binds to loopback unless `--listen` says
//! otherwise; the samplers and the provider run in the background.

use std::process::ExitCode;

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use super::context::Context;
use super::{CommandResult, Failure};
use crate::cli::{Cli, ServeArgs};
use crate::config::Release;
use crate::serve::{Collector, ServeSources, Target, serve};
use crate::spend::Spend;
use crate::telemetry::{
    GpuSource, HostReader, HostSource, NvmlConfig, NvmlSource, SamplerConfig, SimConfig, Simulator,
    scenario_file,
};

pub fn run(cli: &Cli, args: &ServeArgs) -> CommandResult {
    let ctx = Context::load(cli)?;
    super::refuse_gpus_without_demo(cli.cockpit.gpus, ctx.demo)?;
    let provider = ctx.provider()?;
    let now = Timestamp::now();
    let pricing = ctx.pricing_with(provider.as_ref())?;
    let target = Target {
        instance_id: ctx
            .config
            .instance
            .id
            .clone()
            .unwrap_or_else(|| "unknown".to_string()),
        provider: provider.name().to_string(),
    };
    let deadline = ctx.config.deadline.release().map(|r| match r {
        Release::In(d) => now + SignedDuration::try_from(d).unwrap_or(SignedDuration::ZERO),
        Release::At(time) => {
            gpumeter_core::zone::next_clock_time(now, time, &ctx.config.user_zone().tz).at
        }
    });
    let mut spend = Spend::new(pricing, None, TimeZone::UTC);
    ctx.restore_spend(&mut spend);
    let collector = Collector::new(target, spend, deadline).with_idle_rule(ctx.config.idle.rule());
    if !args.listen.ip().is_loopback() {
        super::emit_err(&format!(
            "gpumeter: warning: serving on {}, not loopback: anyone who can reach it sees your \
             costs and instance ids",
            args.listen
        ));
    }
    let sampling = SamplerConfig {
        interval: ctx.config.telemetry.refresh,
    };
    let ledger = Some(crate::ledger::path_in(&ctx.data_dir, ctx.demo));
    if ctx.demo {
        let gpu = simulator(cli)?;
        let host = gpu.clone();
        drive(
            args,
            collector,
            ServeSources {
                gpu,
                host,
                sampling,
                inventory_every: crate::serve::run::DEMO_INVENTORY_EVERY,
                provider,
                ledger,
            },
        )
    } else {
        let host = HostReader::new(ctx.host_config());
        let gpu = NvmlSource::new(NvmlConfig::default());
        drive(
            args,
            collector,
            ServeSources {
                gpu,
                host,
                sampling,
                inventory_every: super::watchdog::inventory_interval_from_env()?,
                provider,
                ledger,
            },
        )
    }
}

fn drive<G, H>(args: &ServeArgs, collector: Collector, sources: ServeSources<G, H>) -> CommandResult
where
    G: GpuSource + 'static,
    H: HostSource + 'static,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failure::failed(crate::t!("err-runtime", error = e.to_string())))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .map_err(|e| Failure::bad_input(format!("--listen {}: {e}", args.listen)))?;
        let bound = listener
            .local_addr()
            .map_or_else(|_| args.listen.to_string(), |a| a.to_string());
        super::emit_err(&format!(
            "gpumeter: {}",
            crate::t!("serve-listening", url = format!("http://{bound}/metrics"))
        ));
        serve(listener, collector, sources)
            .await
            .map_err(|e| Failure::failed(format!("serve: {e}")))
    })?;
    Ok(ExitCode::SUCCESS)
}

fn simulator(cli: &Cli) -> Result<Simulator, Failure> {
    let scenario = scenario_file::resolve(cli.cockpit.scenario())
        .map_err(|e| Failure::bad_input(format!("--scenario: {e}")))?;
    let mut config = SimConfig::new(scenario);
    config.gpu_count = cli.cockpit.gpus.unwrap_or(crate::cli::DEMO_GPUS);
    Simulator::new(config).map_err(|e| Failure::bad_input(format!("--gpus: {e}")))
}
