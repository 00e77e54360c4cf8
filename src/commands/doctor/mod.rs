//! `gpumeter doctor`: one line per capability gpumeter needs here, `✓`, `✗` with the fix, or
//! `–` where it does not apply; exit 0 when everything the configured policy needs works.
//!
//! The facts are gathered here and in [`facts`] and [`aws`]; [`checks`] judges them.

mod aws;
pub mod checks;
mod facts;

use std::process::ExitCode;

use serde_json::json;

use self::checks::{Act, Check, Facts, Permission, Probe};
use super::context::Context;
use super::{CommandResult, EXIT_FAILED, Failure, emit};
use crate::cli::{Cli, DoctorArgs};
use crate::config::{Config, ProviderKind};
use crate::detect::Detected;

pub fn run(cli: &Cli, args: &DoctorArgs) -> CommandResult {
    let (config, path) =
        Config::load(cli.config.as_deref()).map_err(|e| Failure::bad_input(e.shown()))?;
    let detected = super::detected::detected_here(cli, &config);
    let ctx = Context::load(cli)?;
    // The JSON's words are English whatever the terminal reads: every fact and check is
    // worded in the language of what is printed.
    let lang = if args.json {
        crate::i18n::Lang::En
    } else {
        crate::i18n::current()
    };
    let checks = crate::i18n::scoped(lang, || {
        let (credentials, permissions) = provider_facts(&ctx, &detected);
        let (service, service_installable) = facts::service();
        let facts = Facts {
            config: path.map(|p| p.display().to_string()),
            policy: facts::policy(&config),
            nvml: facts::nvml(),
            credentials,
            permissions,
            service,
            service_installable,
            sheet: facts::sheet(&config, &detected),
            clock: facts::clock(),
            zone: facts::zone(&config),
        };
        checks::checks(&detected, &facts)
    });
    let healthy = checks::healthy(&checks);
    if args.json {
        emit(&as_json(&checks, healthy).to_string());
    } else {
        for check in &checks {
            emit(&as_line(check));
        }
    }
    Ok(if healthy {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILED)
    })
}

/// `✓ what — detail`.
pub fn as_line(check: &Check) -> String {
    format!("{} {} — {}", check.mark.symbol(), check.what, check.detail)
}

/// The report as JSON: `ok`, and each check's `key`, `status`, `blocking`, `what`, `detail`.
pub fn as_json(checks: &[Check], healthy: bool) -> serde_json::Value {
    let list: Vec<_> = checks
        .iter()
        .map(|c| {
            json!({
                "key": c.key,
                "status": c.mark.key(),
                "blocking": c.blocking,
                "what": c.what,
                "detail": c.detail,
            })
        })
        .collect();
    json!({ "ok": healthy, "checks": list })
}

type ProviderFacts = (Option<Probe>, Vec<(Act, Permission)>);

/// The credentials and, per action, what the key may do, through each provider's own chain.
fn provider_facts(ctx: &Context, detected: &Detected) -> ProviderFacts {
    let Some(kind) = detected.provider.as_ref().map(|p| p.value) else {
        return (None, Vec::new());
    };
    let not_checked = |why: String| -> Vec<(Act, Permission)> {
        Act::ALL
            .iter()
            .map(|a| (*a, Permission::NotChecked(why.clone())))
            .collect()
    };
    let found = |r: Result<(), Failure>| match r {
        Ok(()) => Probe::Found(crate::t!("doctor-found-by-chain").into_owned()),
        Err(f) => Probe::Failed(match f.fix {
            Some(fix) => format!("{}; {fix}", f.message),
            None => f.message,
        }),
    };
    match kind {
        ProviderKind::Demo => (None, Vec::new()),
        ProviderKind::Command => (
            None,
            not_checked(crate::t!(
                "doctor-not-checked",
                why = crate::t!("doctor-command-not-checked")
            )),
        ),
        ProviderKind::Aws => {
            let instance = detected.instance.as_ref().map(|f| f.value.clone());
            let region = detected.region.as_ref().map(|f| f.value.clone());
            let env = crate::provider::aws::credentials::AwsEnv::from_process();
            let policy = crate::provider::http::HttpPolicy::default();
            match super::block_on(aws::probe(&env, instance, region, policy)) {
                Ok((credentials, permissions)) => (Some(credentials), permissions),
                Err(f) => (Some(Probe::Failed(f.message)), Vec::new()),
            }
        }
        ProviderKind::Alibaba | ProviderKind::Tencent => {
            let built = if kind == ProviderKind::Alibaba {
                ctx.alibaba()
            } else {
                ctx.tencent()
            };
            let why = crate::t!(
                "doctor-not-checked",
                why = crate::t!("doctor-only-ec2", provider = kind.id())
            );
            (Some(found(built.map(|_| ()))), not_checked(why))
        }
        ProviderKind::Lambda | ProviderKind::Runpod | ProviderKind::Vast | ProviderKind::Autodl => {
            let why = crate::t!(
                "doctor-not-checked",
                why = crate::t!("doctor-no-dry-run", provider = kind.id())
            );
            (
                Some(found(ctx.gpu_cloud(kind).map(|_| ()))),
                not_checked(why),
            )
        }
    }
}
