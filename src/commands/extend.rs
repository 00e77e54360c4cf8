//! `gpumeter extend DURATION`: moves the deadline later where it is enforced. The ledger's
//! guard row always (the watchdog reads it, and a pending stop or release in its grace period
//! is cancelled), and the provider too where it already holds a release deadline, or where the
//! policy at expiry is release: a provider-held deadline deletes the instance, so "alert only"
//! never gets one. The provider is written first and read back, then the ledger.

use std::process::ExitCode;

use jiff::{SignedDuration, Timestamp};

use super::actions::known;
use super::context::Context;
use super::{CommandResult, Failure, emit};
use crate::cli::{ActionArgs, Cli};
use crate::config::OnExpiry;
use crate::ledger::{Change, GuardPolicy, Ledger, path_in};
use crate::provider::Action;

pub fn run(cli: &Cli, by: &str, args: &ActionArgs) -> CommandResult {
    let by = crate::config::parse_duration(by)
        .map_err(|e| Failure::bad_input(format!("DURATION: {}", e.shown())))?;
    let by =
        SignedDuration::try_from(by).map_err(|e| Failure::bad_input(format!("DURATION: {e}")))?;
    let ctx = Context::load(cli)?;
    if ctx.read_only {
        return Err(Failure::bad_input(crate::t!("err-read-only-extend")));
    }
    let provider = ctx.provider()?;
    let inventory = known(super::block_on(provider.inventory())?)
        .map_err(|e| Failure::provider(super::EXIT_FAILED, provider.name(), &e))?;
    let instance = instance_to_extend(inventory.as_ref(), &ctx, provider.name())?;
    let ledger_path = path_in(&ctx.data_dir, ctx.demo);
    let mut ledger = Ledger::open(&ledger_path).map_err(|e| Failure::failed(e.shown()))?;
    let guard = ledger
        .guard(&instance)
        .map_err(|e| Failure::failed(e.shown()))?;
    let now = Timestamp::now();
    let stale = crate::serve::collect::WATCHDOG_STALE_AFTER;
    let watchdog = guard
        .as_ref()
        .and_then(|g| crate::watchdog::liveness::watchdog_of(&ledger_path, g, stale, now));
    let held = inventory.as_ref().and_then(|i| i.deadline).map(|d| d.at);
    let base = [guard.as_ref().and_then(|g| g.deadline), held]
        .into_iter()
        .flatten()
        .fold(now, Timestamp::max);
    let at = base.saturating_add(by).unwrap_or(base);
    let shown = gpumeter_core::zone::full_label(at, &ctx.config.user_zone().tz);
    let on_expiry = guard
        .as_ref()
        .map_or(ctx.config.deadline.on_expiry, |g| g.on_expiry);
    let can_hold = provider.capabilities().deadline;
    let holds = crate::guard::provider_holds_after_extend(can_hold, held.is_some(), on_expiry);
    if args.dry_run {
        let mut lines = vec![crate::t!("extend-dry-run", at = shown.as_str())];
        if holds {
            let action = Action::SetDeadline { at: Some(at) };
            lines.extend(provider.plan(&action).iter().map(|c| format!("  {c}")));
        }
        lines.push(format!(
            "  {}",
            crate::t!("extend-ledger", instance = instance.as_str())
        ));
        lines.push(format!(
            "  {}",
            what_it_does(provider.name(), holds, on_expiry, watchdog)
        ));
        emit(&lines.join("\n"));
        return Ok(ExitCode::SUCCESS);
    }
    // The provider first, read back; the ledger only once the provider holds the new time, so
    // a failure leaves both at the old one.
    if holds {
        let action = Action::SetDeadline { at: Some(at) };
        let result = super::block_on(provider.perform(&action))?;
        ctx.record_action(inventory.as_ref(), &action, &result);
        let report = result.map_err(|e| {
            Failure::provider(super::EXIT_FAILED, &crate::t!("err-extend-failed"), &e)
        })?;
        if !report.confirmed {
            return Err(Failure::failed(crate::t!(
                "err-extend-not-confirmed",
                summary = report.summary
            )));
        }
    }
    let policy = GuardPolicy {
        deadline: Some(at),
        on_expiry,
        grace: guard
            .as_ref()
            .map_or(ctx.config.deadline.grace, |g| g.grace),
    };
    let change = Change {
        at: now,
        by: "extend",
    };
    let written = ledger
        .set_policy(&instance, &policy, change)
        .and_then(|()| {
            if holds {
                ledger.set_provider_held(&instance, Some(at), change)
            } else {
                Ok(())
            }
        });
    if let Err(e) = written {
        return Err(Failure::failed(crate::t!(
            "err-extend-ledger",
            provider = provider.name(),
            at = shown.as_str(),
            error = e.to_string()
        )));
    }
    emit(&crate::t!(
        "extend-moved",
        at = shown.as_str(),
        what = what_it_does(provider.name(), holds, on_expiry, watchdog)
    ));
    Ok(ExitCode::SUCCESS)
}

/// What happens at the new deadline, and who makes it happen: a watchdog is named only while
/// it lives (`watchdog` is the row's, as `(pid, alive)`); with none, the answer says the
/// deadline is not enforced, why and the fix, unless the provider holds its release.
fn what_it_does(
    provider: &str,
    holds: bool,
    on_expiry: OnExpiry,
    watchdog: Option<(u32, bool)>,
) -> String {
    let on = on_expiry.as_str();
    let held = crate::t!("extend-held", provider = provider);
    let enforced = crate::guard::enforcement(&crate::guard::Holders {
        provider: true,
        provider_holds: false,
        watchdog,
        down: None,
    });
    let pid_of = |pid: u32| pid.to_string();
    match enforced {
        crate::guard::Enforcement::Watchdog { pid } if holds => crate::t!(
            "extend-held-watchdog",
            held = held,
            pid = pid_of(pid),
            on_expiry = on
        ),
        crate::guard::Enforcement::Watchdog { pid } => crate::t!(
            "extend-watchdog",
            pid = pid_of(pid),
            on_expiry = on,
            provider = provider
        ),
        crate::guard::Enforcement::Nothing { cause, .. } => {
            let (reason, fix) = cause.said();
            if holds {
                crate::t!(
                    "extend-held-unenforced",
                    held = held,
                    reason = reason,
                    fix = fix
                )
            } else {
                crate::t!(
                    "extend-unenforced",
                    on_expiry = on,
                    reason = reason,
                    fix = fix,
                    provider = provider
                )
            }
        }
        crate::guard::Enforcement::Provider => held,
    }
}

/// The instance whose deadline moves: the one the inventory lists, else the configured one.
/// A released instance has no deadline left to move.
fn instance_to_extend(
    inventory: Option<&crate::provider::Inventory>,
    ctx: &Context,
    provider: &str,
) -> Result<String, Failure> {
    let listed = inventory.and_then(|i| i.instance.as_ref());
    let state = listed.map(|i| i.state);
    let deadline = Action::SetDeadline { at: None };
    if let Some(why) = crate::provider::nothing_to_do_shown(&deadline, state) {
        return Err(Failure::bad_input(crate::t!(
            "err-nothing-to-extend",
            why = why,
            provider = provider
        )));
    }
    listed
        .map(|i| i.id.clone())
        .or_else(|| ctx.config.instance.id.clone())
        .ok_or_else(|| Failure::failed(crate::t!("err-no-instance-to-extend")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_provider_release_is_created_only_where_one_exists_or_the_policy_is_release() {
        use crate::guard::provider_holds_after_extend as holds_at_provider;
        let held = true;
        assert!(!holds_at_provider(true, false, OnExpiry::Alert));
        assert!(!holds_at_provider(true, false, OnExpiry::Stop));
        assert!(holds_at_provider(true, false, OnExpiry::Release));
        assert!(holds_at_provider(true, held, OnExpiry::Alert));
        assert!(!holds_at_provider(false, held, OnExpiry::Release));
        let live = Some((42, true));
        assert!(what_it_does("alibaba", false, OnExpiry::Alert, live).contains("alerts only"));
        assert!(what_it_does("alibaba", true, OnExpiry::Release, live).contains("deletes"));
    }

    #[test]
    fn the_answer_names_a_watchdog_only_while_it_lives() {
        let live = what_it_does("command", false, OnExpiry::Alert, Some((42, true)));
        assert_eq!(
            live,
            "the watchdog (pid 42) alerts only then; command holds no release for it"
        );
        for watchdog in [None, Some((42, false))] {
            let said = what_it_does("command", false, OnExpiry::Alert, watchdog);
            assert!(
                said.starts_with("NOT ENFORCED: nothing alerts then:"),
                "{said}"
            );
            assert!(!said.contains("the watchdog alerts"), "{said}");
            assert!(said.contains("gpumeter watchdog"), "{said}");
        }
        let stop = what_it_does("command", false, OnExpiry::Stop, None);
        assert!(
            stop.starts_with("NOT ENFORCED: nothing stops the instance then"),
            "{stop}"
        );
        let held = what_it_does("alibaba", true, OnExpiry::Release, None);
        assert!(held.contains("deletes") && held.contains("not enforced: no watchdog runs"));
    }
}
