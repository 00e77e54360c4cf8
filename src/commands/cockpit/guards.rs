//! The cockpit's guards at its edges: the idle rule its flags arm, `stopped_release_after`, and
//! who keeps guarding
//! once it quits.

use crate::app::App;
use crate::cli::CockpitArgs;
use crate::commands::Failure;
use crate::commands::context::Context;

/// The idle rule: the config's `[idle]`, with `--idle-after` and `--on-idle` over it.
pub(super) fn idle_config(
    args: &CockpitArgs,
    ctx: &Context,
) -> Result<crate::config::IdleConfig, Failure> {
    let mut idle = ctx.config.idle.clone();
    if let Some(text) = &args.idle_after {
        idle.after = crate::config::parse_duration(text)
            .map_err(|e| Failure::bad_input(format!("--idle-after: {}", e.shown())))?;
    }
    if let Some(text) = &args.on_idle {
        idle.on_idle = crate::commands::watchdog::parse_policy(text)
            .map_err(|e| Failure::bad_input(format!("--on-idle: {e}")))?;
    }
    if let Some(text) = &args.stopped_release_after {
        let after = crate::commands::watchdog::parse_positive(text)
            .map_err(|e| Failure::bad_input(format!("--stopped-release-after: {}", e.shown())))?;
        idle.stopped_release_after = Some(after);
    }
    Ok(idle)
}

/// `stopped_release_after` for the release panel, with when the watchdog first saw the
/// configured instance stopped (from the ledger, where it has).
pub(super) fn stopped_release(
    ctx: &Context,
    after: Option<std::time::Duration>,
) -> crate::provider::StoppedPolicy {
    let seen = ctx.config.instance.id.as_deref().and_then(|id| {
        crate::ledger::Ledger::open_read_only(crate::ledger::path_in(&ctx.data_dir, ctx.demo))
            .ok()?
            .stopped_seen(id)
            .ok()
            .flatten()
    });
    crate::provider::StoppedPolicy {
        after: after.and_then(|a| jiff::SignedDuration::try_from(a).ok()),
        seen,
        sheet_days: None,
        final_snapshot: ctx.config.idle.stopped_release_snapshot,
    }
}

/// Who keeps guarding once the cockpit is gone. A demo's watchdog is stopped here unless a
/// rule armed stops or releases the (simulated) instance: alerts alone need somebody to read
/// them, and a demo left running in the background is a surprise.
pub(super) fn guard_line(app: &App, demo: bool) -> String {
    let live = app.guard.watchdog.filter(|w| w.alive).map(|w| w.pid);
    match live {
        Some(pid) if demo && !crate::app::guards::armed(app).acts() => {
            let stopped = i32::try_from(pid)
                .ok()
                .and_then(rustix::process::Pid::from_raw)
                .is_some_and(|p| {
                    rustix::process::kill_process(p, rustix::process::Signal::TERM).is_ok()
                });
            if stopped {
                format!(
                    "stopped the demo's watchdog (pid {pid}): nothing armed stops or releases \
                     the instance"
                )
            } else {
                crate::app::guards::quit_line(app)
            }
        }
        _ => crate::app::guards::quit_line(app),
    }
}
