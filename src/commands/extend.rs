//! `gpumeter extend DURATION`: moves the deadline later where it is enforced. The ledger's
//! guard row always (the watchdog reads it, and a pending stop or release in its grace period
//! is cancelled), and the provider too where it can hold a deadline itself.

use std::process::ExitCode;

use jiff::{SignedDuration, Timestamp};

use super::actions::known;
use super::context::Context;
use super::{CommandResult, Failure, emit};
use crate::cli::{ActionArgs, Cli};
use crate::ledger::{Change, GuardPolicy, Ledger, path_in};
use crate::provider::Action;

pub fn run(cli: &Cli, by: &str, args: &ActionArgs) -> CommandResult {
    let by = crate::config::parse_duration(by)
        .map_err(|e| Failure::bad_input(format!("DURATION: {e}")))?;
    let by =
        SignedDuration::try_from(by).map_err(|e| Failure::bad_input(format!("DURATION: {e}")))?;
    let ctx = Context::load(cli)?;
    if ctx.read_only {
        return Err(Failure::bad_input("refusing to extend: read-only mode"));
    }
    let provider = ctx.provider()?;
    let inventory = known(super::block_on(provider.inventory())?)
        .map_err(|e| Failure::provider(super::EXIT_FAILED, provider.name(), &e))?;
    let instance = inventory
        .as_ref()
        .and_then(|i| i.instance.as_ref())
        .map(|i| i.id.clone())
        .or_else(|| ctx.config.instance.id.clone())
        .ok_or_else(|| Failure::failed("no instance to extend: name it with --instance"))?;
    let mut ledger = Ledger::open(path_in(&ctx.data_dir, ctx.demo))
        .map_err(|e| Failure::failed(e.to_string()))?;
    let guard = ledger
        .guard(&instance)
        .map_err(|e| Failure::failed(e.to_string()))?;
    let now = Timestamp::now();
    let held = inventory.as_ref().and_then(|i| i.deadline).map(|d| d.at);
    let base = [guard.as_ref().and_then(|g| g.deadline), held]
        .into_iter()
        .flatten()
        .fold(now, Timestamp::max);
    let at = base.saturating_add(by).unwrap_or(base);
    let holds = provider.capabilities().deadline;
    if args.dry_run {
        let mut lines = vec![format!(
            "dry run: nothing is changed. The deadline would move to {at}:"
        )];
        lines.push(format!("  ledger: guard row of {instance}"));
        if holds {
            let action = Action::SetDeadline { at: Some(at) };
            lines.extend(provider.plan(&action).iter().map(|c| format!("  {c}")));
        }
        emit(&lines.join("\n"));
        return Ok(ExitCode::SUCCESS);
    }
    let policy = GuardPolicy {
        deadline: Some(at),
        on_expiry: guard
            .as_ref()
            .map_or(ctx.config.deadline.on_expiry, |g| g.on_expiry),
        grace: guard
            .as_ref()
            .map_or(ctx.config.deadline.grace, |g| g.grace),
    };
    ledger
        .set_policy(
            &instance,
            &policy,
            Change {
                at: now,
                by: "extend",
            },
        )
        .map_err(|e| Failure::failed(e.to_string()))?;
    drop(ledger);
    if holds {
        super::actions::run(cli, &Action::SetDeadline { at: Some(at) }, args)
    } else {
        emit(&format!(
            "deadline moved to {at}; the watchdog enforces it ({} cannot hold a deadline itself)",
            provider.name()
        ));
        Ok(ExitCode::SUCCESS)
    }
}
