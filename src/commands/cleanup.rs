//! `gpumeter cleanup`: delete what keeps billing. The account is swept, the flags choose, the
//! core's [`CleanupPlan`] orders and refuses; the user sees what goes, what each costs a month
//! and what stays, and says yes (or `--yes`). Each delete is read back and printed as the
//! provider reports it.

use std::process::ExitCode;

use jiff::{SignedDuration, Timestamp};

use super::context::Context;
use super::{CommandResult, EXIT_FAILED, Failure, emit};
use crate::app::Confirm;
use crate::cli::{ActionArgs, CleanupArgs, CleanupKindArg, Cli};
use crate::ledger::record::FROM_COMMAND;
use crate::ledger::{Delete, Ledger, Unpriced, path_in};
use crate::meter::{ResourceKind, monthly_after_release};
use crate::money::Money;
use crate::pricing::Sheet;
use crate::provider::cleanup::{self, Outcome};
use crate::provider::{Action, CleanupFilter, CleanupKind, CleanupPlan, LinkedResource, Provider};

pub fn run(cli: &Cli, args: &CleanupArgs) -> CommandResult {
    let filter = filter(args)?;
    let ctx = writable(cli, &crate::t!("err-verb-clean-up"))?;
    let provider = ctx.provider()?;
    let what = crate::t!("progress-sweeping", provider = provider.name());
    let found = super::progress::run(&what, provider.sweep())?
        .map_err(|e| Failure::provider(EXIT_FAILED, provider.name(), &e))?;
    let sheet = ctx.region_sheet()?;
    act(
        &ctx,
        provider.as_ref(),
        &found,
        &filter,
        sheet.as_ref(),
        &args.common,
        &CLEANUP,
    )
}

/// The command that asked, and where the user finds the ids it takes.
struct Asker {
    command: &'static str,
    lists: fn() -> std::borrow::Cow<'static, str>,
}

const CLEANUP: Asker = Asker {
    command: "cleanup",
    lists: || crate::t!("cleanup-sweep-lists"),
};
const SNAPSHOT_CLEAN: Asker = Asker {
    command: "snapshot-clean",
    lists: || crate::t!("cleanup-checklist-lists"),
};

/// `snapshot-clean --id ID...`: exactly the instance's snapshots named, by the same plan,
/// dialog and read-back as `cleanup`.
pub fn picked_snapshots(cli: &Cli, ids: &[String], common: &ActionArgs) -> CommandResult {
    let ctx = writable(cli, &crate::t!("verb-snapshot-clean"))?;
    let provider = ctx.provider()?;
    let reading = crate::t!("progress-reading-instance", provider = provider.name());
    let inventory = super::progress::run(&reading, provider.inventory())?
        .map_err(|e| Failure::provider(EXIT_FAILED, provider.name(), &e))?;
    ctx.record_sighting(Some(&inventory));
    let snapshots: Vec<LinkedResource> = inventory
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::Snapshot)
        .cloned()
        .collect();
    let pricing = ctx.pricing_for(inventory.instance.as_ref())?;
    let filter = CleanupFilter {
        ids: ids.to_vec(),
        kinds: vec![CleanupKind::Snapshot],
        ..CleanupFilter::default()
    };
    act(
        &ctx,
        provider.as_ref(),
        &snapshots,
        &filter,
        pricing.as_ref().map(|p| &p.sheet),
        common,
        &SNAPSHOT_CLEAN,
    )
}

fn writable(cli: &Cli, what: &str) -> Result<Context, Failure> {
    let ctx = Context::load(cli)?;
    if ctx.read_only {
        return Err(Failure::bad_input(crate::t!(
            "err-read-only",
            action = what
        )));
    }
    Ok(ctx)
}

/// Plans the deletes of `found` that `filter` chooses, shows them, asks, deletes each and
/// prints what the provider read back.
fn act(
    ctx: &Context,
    provider: &dyn Provider,
    found: &[LinkedResource],
    filter: &CleanupFilter,
    sheet: Option<&Sheet>,
    common: &ActionArgs,
    asker: &Asker,
) -> CommandResult {
    let plan = CleanupPlan::new(found, filter, &[], Timestamp::now())
        .map_err(|e| Failure::bad_input(format!("{}: {e}; {}", asker.command, (asker.lists)())))?;
    let refused: Vec<String> = plan
        .refused
        .iter()
        .map(|r| {
            let line = crate::t!("cleanup-refused", id = r.id.as_str(), why = r.why.as_str());
            format!("  {line}")
        })
        .collect();
    if plan.delete.is_empty() {
        let mut lines = vec![crate::t!(
            "cleanup-nothing",
            command = asker.command,
            provider = provider.name()
        )];
        lines.extend(refused.iter().cloned());
        emit(&lines.join("\n"));
        return Ok(if refused.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(EXIT_FAILED)
        });
    }
    let confirm = Confirm::cleanup(plan.delete.clone(), found, sheet);
    let action = Action::Cleanup {
        delete: plan.delete.clone(),
    };
    let mut summary = confirm.summary_lines();
    summary.extend(refused.iter().cloned());
    if common.dry_run {
        let mut lines = vec![crate::t!("dry-run-would-call").into_owned()];
        lines.extend(provider.plan(&action).iter().map(|c| format!("  {c}")));
        lines.extend(summary);
        emit(&lines.join("\n"));
        return Ok(ExitCode::SUCCESS);
    }
    if !common.yes {
        super::actions::ask_lines(&summary, &crate::t!("cleanup-question"))?;
    }
    let waiting = crate::t!(
        "cleanup-deleting",
        command = asker.command,
        count = plan.delete.len(),
        provider = provider.name()
    );
    let deadline = super::actions::action_deadline()?;
    let outcomes = super::progress::run(
        &waiting,
        cleanup::run_within(provider, &plan.delete, deadline),
    )?;
    record(ctx, &outcomes, sheet);
    emit(&report(&outcomes).join("\n"));
    Ok(if outcomes.iter().all(Outcome::confirmed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILED)
    })
}

/// Keeps each delete in the ledger with what it stops a month, so `report` and the audit show
/// it. Not kept, it is said on stderr; the deletes stand either way.
fn record(ctx: &Context, outcomes: &[Outcome], sheet: Option<&Sheet>) {
    let kept = Ledger::open(path_in(&ctx.data_dir, ctx.demo)).and_then(|mut ledger| {
        outcomes.iter().try_for_each(|o| {
            let monthly = match sheet {
                None => Err(Unpriced::NoSheet),
                Some(s) => monthly_after_release(s, &o.resource.to_meter())
                    .map(|m| Money::new(m, s.currency))
                    .ok_or(Unpriced::NoPrice(o.resource.kind.label())),
            };
            let delete = Delete {
                resource: &o.resource,
                monthly,
                result: &o.result,
                origin: FROM_COMMAND,
            };
            ledger.record_delete(&delete, Timestamp::now())
        })
    });
    if let Err(e) = kept {
        let error = e.to_string();
        super::emit_err(&format!(
            "gpumeter: {}",
            crate::t!("cleanup-not-recorded", error = error)
        ));
    }
}

/// One line per delete, as the provider reported it, and one line of what to do for a failure.
fn report(outcomes: &[Outcome]) -> Vec<String> {
    let mut lines = Vec::new();
    for o in outcomes {
        let what = format!("{} {}", o.resource.kind.shown(), o.resource.id);
        let what = what.as_str();
        match &o.result {
            Ok(r) if r.confirmed => lines.push(crate::t!(
                "cleanup-deleted",
                what = what,
                summary = r.summary.as_str()
            )),
            Ok(r) => lines.push(crate::t!(
                "cleanup-not-confirmed",
                what = what,
                summary = r.summary.as_str()
            )),
            Err(e) => {
                lines.push(crate::t!("cleanup-failed", what = what, error = e.shown()));
                lines.push(format!("  {}", e.shown_fix()));
            }
        }
    }
    let done = outcomes.iter().filter(|o| o.confirmed()).count();
    lines.push(crate::t!(
        "cleanup-done",
        done = done.to_string(),
        count = outcomes.len()
    ));
    lines
}

fn filter(args: &CleanupArgs) -> Result<CleanupFilter, Failure> {
    let chosen = !args.ids.is_empty()
        || !args.kind.is_empty()
        || args.older_than.is_some()
        || !args.tags.is_empty()
        || args.unattached;
    if !chosen && !args.all {
        return Err(Failure::bad_input(crate::t!("err-cleanup-what")));
    }
    Ok(CleanupFilter {
        ids: args.ids.clone(),
        unattached: args.unattached,
        ..narrow(&args.kind, args.older_than.as_deref(), &args.tags)?
    })
}

/// The kind, age and tag choice that `sweep` and `cleanup` share.
pub fn narrow(
    kinds: &[CleanupKindArg],
    older_than: Option<&str>,
    tags: &[String],
) -> Result<CleanupFilter, Failure> {
    let older_than = older_than
        .map(parse_age)
        .transpose()
        .map_err(|e| Failure::bad_input(format!("--older-than: {e}")))?;
    let tags = tags
        .iter()
        .map(|t| parse_tag(t))
        .collect::<Result<_, _>>()
        .map_err(|e| Failure::bad_input(format!("--tag: {e}")))?;
    Ok(CleanupFilter {
        kinds: kinds.iter().map(|k| kind(*k)).collect(),
        older_than,
        tags,
        ..CleanupFilter::default()
    })
}

/// A `--tag` that names no key (`=llm`), as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` names no key: write it like project=llm or project")]
pub struct NoTagKey(String);

/// A tag as `--tag` takes it: `KEY=VALUE` (the first `=` splits), or `KEY` for any value.
pub(super) fn parse_tag(text: &str) -> Result<(String, Option<String>), NoTagKey> {
    let (key, value) = match text.split_once('=') {
        Some((key, value)) => (key, Some(value.to_string())),
        None => (text, None),
    };
    if key.is_empty() {
        return Err(NoTagKey(text.to_string()));
    }
    Ok((key.to_string(), value))
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
fn parse_age(text: &str) -> Result<SignedDuration, AgeError> {
    let span: jiff::Span = text
        .trim()
        .parse()
        .map_err(|_| AgeError::Malformed(text.to_owned()))?;
    let age = span
        .to_duration(jiff::SpanRelativeTo::days_are_24_hours())
        .map_err(|source| AgeError::Span {
            text: text.to_owned(),
            source,
        })?;
    if age.is_negative() {
        return Err(AgeError::Negative(text.to_owned()));
    }
    Ok(age)
}

#[derive(Debug, thiserror::Error)]
enum AgeError {
    #[error("`{0}` is not an age: write it like 30d, 12h or 90m")]
    Malformed(String),
    #[error("`{text}`: {source}")]
    Span { text: String, source: jiff::Error },
    #[error("`{0}` is negative")]
    Negative(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_take_days_and_refuse_what_is_not_one() {
        assert_eq!(parse_age("30d").unwrap(), SignedDuration::from_hours(720));
        assert_eq!(parse_age("1d12h").unwrap(), SignedDuration::from_hours(36));
        assert!(parse_age("soon").unwrap_err().to_string().contains("30d"));
        assert!(parse_age("-2d").is_err());
    }

    #[test]
    fn a_tag_is_a_key_and_a_value_or_a_key_alone() {
        assert_eq!(
            parse_tag("project=llm").unwrap(),
            ("project".into(), Some("llm".into()))
        );
        assert_eq!(
            parse_tag("url=a=b").unwrap(),
            ("url".into(), Some("a=b".into()))
        );
        assert_eq!(parse_tag("keep").unwrap(), ("keep".into(), None));
        assert_eq!(
            parse_tag("keep=").unwrap(),
            ("keep".into(), Some(String::new()))
        );
        let err = parse_tag("=llm").unwrap_err().to_string();
        assert!(
            err.contains("`=llm` names no key") && err.contains("project=llm"),
            "{err}"
        );
    }
}
