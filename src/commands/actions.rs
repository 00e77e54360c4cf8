//! `gpumeter release | stop | snapshot-clean | extend`: say what will happen, ask (or take
//! `--yes`), act through the provider, and report what the provider says afterwards.

use std::io::{BufRead as _, IsTerminal as _, Write as _};
use std::process::ExitCode;
use std::time::Duration;

use jiff::Timestamp;

use super::context::Context;
use super::{CommandResult, EXIT_FAILED, Failure, emit};
use crate::app::Confirm;
use crate::cli::{ActionArgs, Cli};
use crate::provider::{Action, ActionReport, Inventory, Provider, ProviderError};

pub fn run(cli: &Cli, action: &Action, args: &ActionArgs) -> CommandResult {
    let ctx = Context::load(cli)?;
    let lines = match act(&ctx, action, args.dry_run, args.yes)? {
        Acted::NothingToDo(line) => vec![line],
        Acted::DryRun(lines) => lines,
        Acted::Done(done) => vec![done.line],
    };
    emit(&lines.join("\n"));
    Ok(ExitCode::SUCCESS)
}

/// What one action came to, short of a failure.
#[derive(Debug)]
pub enum Acted {
    /// The instance is already in that state, or gone: the line says so.
    NothingToDo(String),
    /// `--dry-run`: the calls it would make and what would happen, one per line.
    DryRun(Vec<String>),
    /// The provider's read-back confirmed it.
    Done(Box<Done>),
}

/// A confirmed action.
#[derive(Debug)]
pub struct Done {
    /// What the provider reports.
    pub line: String,
    /// The instance as read before the action, and how it is priced, for the cost of what was
    /// done.
    pub before: Option<Inventory>,
    pub pricing: Option<crate::spend::Pricing>,
}

/// Says what will happen, asks unless `yes` (or `dry_run`), acts through the provider and
/// reads the result back: the one path every destructive command takes. An action the
/// provider does not confirm is a failure (exit 1).
pub fn act(ctx: &Context, action: &Action, dry_run: bool, yes: bool) -> Result<Acted, Failure> {
    if ctx.read_only {
        return Err(Failure::bad_input(crate::t!(
            "err-read-only",
            action = verb(action)
        )));
    }
    let provider = ctx.provider()?;
    let reading = crate::t!("progress-reading-instance", provider = provider.name());
    let inventory = known(super::progress::run(&reading, provider.inventory())?)
        .map_err(|e| Failure::provider(EXIT_FAILED, provider.name(), &e))?;
    // Not listed after a release the ledger recorded: released, not "unknown".
    let recorded_release = inventory
        .as_ref()
        .filter(|i| i.instance.is_none())
        .and_then(|i| ctx.recorded(i).instance)
        .is_some_and(|(_, released)| released.is_some());
    ctx.record_sighting(inventory.as_ref());
    let state = inventory
        .as_ref()
        .and_then(|i| i.instance.as_ref())
        .map(|i| i.state)
        .or(recorded_release.then_some(crate::meter::InstanceState::Released));
    if let Some(why) = crate::provider::nothing_to_do_shown(action, state) {
        return Ok(Acted::NothingToDo(crate::t!(
            "err-nothing-to-do",
            action = verb(action),
            why = why,
            provider = provider.name()
        )));
    }
    let pricing = ctx.pricing_for(inventory.as_ref().and_then(|i| i.instance.as_ref()))?;
    let confirm = Confirm::build(
        action.clone(),
        inventory.as_ref(),
        pricing.as_ref(),
        inventory
            .as_ref()
            .and_then(|i| burn_now(i, pricing.as_ref())),
    );
    if dry_run {
        let mut lines = vec![crate::t!("dry-run-would-call").into_owned()];
        lines.extend(provider.plan(action).iter().map(|c| format!("  {c}")));
        lines.extend(confirm.summary_lines());
        return Ok(Acted::DryRun(lines));
    }
    // Moving a deadline later destroys nothing, so it does not ask.
    if !yes && !matches!(action, Action::SetDeadline { .. }) {
        ask(&confirm)?;
    }
    let result = perform_bounded(provider.as_ref(), action, action_deadline()?)?;
    ctx.record_action(inventory.as_ref(), action, &result);
    let report = result.map_err(|e| {
        let context = crate::t!("err-action-failed", action = verb(action));
        Failure::provider(EXIT_FAILED, &context, &e)
    })?;
    if report.confirmed {
        Ok(Acted::Done(Box::new(Done {
            line: crate::t!(
                "action-done",
                action = verb(action),
                summary = report.summary
            ),
            before: inventory,
            pricing,
        })))
    } else {
        Err(Failure::failed(crate::t!(
            "err-not-confirmed",
            action = verb(action),
            summary = report.summary
        )))
    }
}

/// Another deadline for the actions (tests, slow private gateways).
pub const ACTION_DEADLINE_ENV: &str = "GPUMETER_ACTION_DEADLINE";

pub(super) fn action_deadline() -> Result<Duration, Failure> {
    match std::env::var(ACTION_DEADLINE_ENV) {
        Ok(text) if !text.trim().is_empty() => crate::config::parse_duration(text.trim())
            .map_err(|e| Failure::bad_input(format!("{ACTION_DEADLINE_ENV}: {}", e.shown()))),
        _ => Ok(crate::provider::ACTION_DEADLINE),
    }
}

/// Runs `action` with a spinner (or a line every few seconds without a terminal), and gives up
/// after `deadline`: then nothing is reported done, and the user is told it may still be under
/// way.
fn perform_bounded(
    provider: &dyn Provider,
    action: &Action,
    deadline: Duration,
) -> Result<Result<ActionReport, ProviderError>, Failure> {
    let name = provider.name().to_string();
    let what = crate::t!(
        "action-waiting",
        action = verb(action),
        provider = name.as_str(),
        seconds = deadline.as_secs().to_string()
    );
    let answer = super::progress::run(
        &what,
        // In a block: the timer is made on the runtime `progress::run` starts.
        async { tokio::time::timeout(deadline, provider.perform(action)).await },
    )?;
    answer.map_err(|_| {
        Failure::failed(crate::t!(
            "err-no-answer",
            action = verb(action),
            provider = name.as_str(),
            seconds = deadline.as_secs().to_string()
        ))
    })
}

/// The deadline `by` later than the one the provider holds (or than now, when it holds none).
/// The inventory, or `None` from a provider that cannot list one (a `command` provider without
/// an inventory command): it can still act, and says it could not verify.
pub fn known(read: Result<Inventory, ProviderError>) -> Result<Option<Inventory>, ProviderError> {
    match read {
        Ok(inventory) => Ok(Some(inventory)),
        Err(e) if e.is_unsupported() => Ok(None),
        Err(e) => Err(e),
    }
}

/// What the instance costs per hour now, from the same meter the cockpit runs.
fn burn_now(
    inventory: &Inventory,
    pricing: Option<&crate::spend::Pricing>,
) -> Option<crate::money::Money> {
    meter_at(inventory, pricing, Timestamp::now()).map(|r| r.accrual.burn_per_hour.total())
}

/// The meter's reading of `inventory`'s instance at `at`: what it has cost, what the provider
/// bills for it (the billing step and minimum applied) and how fast it grows.
pub fn meter_at(
    inventory: &Inventory,
    pricing: Option<&crate::spend::Pricing>,
    at: Timestamp,
) -> Option<crate::spend::SpendReading> {
    let mut spend = crate::spend::Spend::new(pricing.cloned(), None, jiff::tz::TimeZone::UTC);
    spend.record_inventory(inventory, at);
    spend.recompute(Some(inventory), at, None);
    spend.reading
}

fn ask(confirm: &Confirm) -> Result<(), Failure> {
    ask_lines(&confirm.summary_lines(), &verb(&confirm.action))
}

/// An action's verb, as the user's language says it (`release`, `释放`).
fn verb(action: &Action) -> String {
    crate::ui::words::verb(action).into_owned()
}

/// Prints `lines` and asks `{question}? [y/N]` on the terminal; anything but yes cancels.
pub fn ask_lines(lines: &[String], question: &str) -> Result<(), Failure> {
    if !std::io::stdin().is_terminal() {
        return Err(Failure::bad_input(crate::t!(
            "err-no-terminal",
            action = question
        )));
    }
    let mut err = std::io::stderr();
    for line in lines {
        let _ = writeln!(err, "{line}");
    }
    let _ = write!(err, "{} ", crate::t!("action-prompt", question = question));
    let _ = err.flush();
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| {
            let error = e.to_string();
            Failure::bad_input(crate::t!("err-cannot-read-answer", error = error))
        })?;
    if matches!(answer.trim(), "y" | "Y" | "yes") {
        Ok(())
    } else {
        Err(Failure::bad_input(crate::t!(
            "err-cancelled",
            action = question
        )))
    }
}
