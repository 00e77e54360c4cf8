//! `gpumeter cleanup`: delete what keeps billing. The account is swept, the flags choose, the
//! core's [`CleanupPlan`] orders and refuses; the user sees what goes, what each costs a month
//! and what stays, and says yes (or `--yes`). Each delete is read back and printed as the
//! provider reports it.

use std::process::ExitCode;

use jiff::{SignedDuration, Timestamp};

use super::context::Context;
use super::{CommandResult, EXIT_FAILED, Failure, emit};
use crate::app::Confirm;
use crate::cli::{CleanupArgs, CleanupKindArg, Cli};
use crate::provider::cleanup::{self, Outcome};
use crate::provider::{Action, CleanupFilter, CleanupKind, CleanupPlan};

pub fn run(cli: &Cli, args: &CleanupArgs) -> CommandResult {
    let filter = filter(args)?;
    let ctx = Context::load(cli)?;
    if ctx.read_only {
        return Err(Failure::bad_input(
            "refusing to clean up: read-only mode (--read-only or read_only in the config)",
        ));
    }
    let provider = ctx.provider()?;
    let what = format!("sweeping the account at {}", provider.name());
    let found = super::progress::run(&what, provider.sweep())?
        .map_err(|e| Failure::provider(EXIT_FAILED, provider.name(), &e))?;
    let plan = CleanupPlan::new(&found, &filter, &[], Timestamp::now())
        .map_err(|e| Failure::bad_input(format!("cleanup: {e}; `gpumeter sweep` lists them")))?;
    let refused: Vec<String> = plan
        .refused
        .iter()
        .map(|r| format!("  not deleted: {}: {}", r.id, r.why))
        .collect();
    if plan.delete.is_empty() {
        let mut lines = vec!["cleanup: nothing to delete among what the sweep found".to_string()];
        lines.extend(refused.iter().cloned());
        emit(&lines.join("\n"));
        return Ok(if refused.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(EXIT_FAILED)
        });
    }
    let sheet = ctx.region_sheet()?;
    let confirm = Confirm::cleanup(plan.delete.clone(), &found, sheet.as_ref());
    let action = Action::Cleanup {
        delete: plan.delete.clone(),
    };
    let mut summary = confirm.summary_lines();
    summary.extend(refused.iter().cloned());
    if args.common.dry_run {
        let mut lines = vec!["dry run: nothing is changed. It would call:".to_string()];
        lines.extend(provider.plan(&action).iter().map(|c| format!("  {c}")));
        lines.extend(summary);
        emit(&lines.join("\n"));
        return Ok(ExitCode::SUCCESS);
    }
    if !args.common.yes {
        super::actions::ask_lines(&summary, "delete these")?;
    }
    let waiting = format!(
        "cleanup: deleting {} at {} and reading each back",
        plan.delete.len(),
        provider.name()
    );
    let outcomes = super::progress::run(&waiting, cleanup::run(provider.as_ref(), &plan.delete))?;
    emit(&report(&outcomes).join("\n"));
    Ok(if outcomes.iter().all(Outcome::confirmed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILED)
    })
}

/// One line per delete, as the provider reported it, and one line of what to do for a failure.
fn report(outcomes: &[Outcome]) -> Vec<String> {
    let mut lines = Vec::new();
    for o in outcomes {
        let what = format!("{} {}", o.resource.kind.label(), o.resource.id);
        match &o.result {
            Ok(r) if r.confirmed => lines.push(format!("deleted {what}: {}", r.summary)),
            Ok(r) => lines.push(format!(
                "{what}: NOT confirmed; the provider reports {}",
                r.summary
            )),
            Err(e) => {
                lines.push(format!("{what}: NOT deleted: {e}"));
                lines.push(format!("  {}", e.fix()));
            }
        }
    }
    let done = outcomes.iter().filter(|o| o.confirmed()).count();
    lines.push(format!(
        "cleanup: {done} of {} deleted and read back",
        outcomes.len()
    ));
    lines
}

fn filter(args: &CleanupArgs) -> Result<CleanupFilter, Failure> {
    let chosen = !args.ids.is_empty()
        || !args.kind.is_empty()
        || args.older_than.is_some()
        || args.unattached;
    if !chosen && !args.all {
        return Err(Failure::bad_input(
            "cleanup: say what to delete: --id, --kind, --older-than, --unattached, or --all \
             (`gpumeter sweep` lists what bills)",
        ));
    }
    let older_than = args
        .older_than
        .as_deref()
        .map(parse_age)
        .transpose()
        .map_err(|e| Failure::bad_input(format!("--older-than: {e}")))?;
    Ok(CleanupFilter {
        ids: args.ids.clone(),
        kinds: args.kind.iter().map(|k| kind(*k)).collect(),
        older_than,
        unattached: args.unattached,
    })
}

fn kind(arg: CleanupKindArg) -> CleanupKind {
    match arg {
        CleanupKindArg::Disk => CleanupKind::Disk,
        CleanupKindArg::Snapshot => CleanupKind::Snapshot,
        CleanupKindArg::Image => CleanupKind::Image,
        CleanupKindArg::Ip => CleanupKind::Ip,
        CleanupKindArg::Lb => CleanupKind::Lb,
        CleanupKindArg::Volume => CleanupKind::Volume,
    }
}

/// An age such as `30d`, `12h` or `1d12h`: days count 24 hours, as a resource's age does.
fn parse_age(text: &str) -> Result<SignedDuration, String> {
    let span: jiff::Span = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not an age: write it like 30d, 12h or 90m"))?;
    let age = span
        .to_duration(jiff::SpanRelativeTo::days_are_24_hours())
        .map_err(|e| format!("`{text}`: {e}"))?;
    if age.is_negative() {
        return Err(format!("`{text}` is negative"));
    }
    Ok(age)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_take_days_and_refuse_what_is_not_one() {
        assert_eq!(parse_age("30d").unwrap(), SignedDuration::from_hours(720));
        assert_eq!(parse_age("1d12h").unwrap(), SignedDuration::from_hours(36));
        assert!(parse_age("soon").unwrap_err().contains("30d"));
        assert!(parse_age("-2d").is_err());
    }
}
