//! The release a stopped instance is heading for, in `status`: `stopped_release_after` (from
//! the watchdog that enforces it, else the config) or the platform's own rule, whichever comes
//! first, with what it erases. One account: where the platform's comes first, its line is the
//! one shown, and `stopped_release` in JSON says `"by": "platform"`.

use std::fmt::Write as _;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde::Serialize;

use super::super::context::Context;
use crate::ledger::{Ledger, path_in};
use crate::provider::{
    Inventory, ReleaseCountdownJson, ReleasedBy, StoppedPolicy, StoppedSince, release_countdown,
};
use crate::t;

/// `stopped_release` in `status --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoppedReleaseJson {
    #[serde(flatten)]
    pub countdown: ReleaseCountdownJson,
    /// Whether something will carry it out: the platform, or a live watchdog that publishes the
    /// policy. `false`: the config asks for it and no watchdog enforces it.
    pub enforced: bool,
}

/// The countdown of `inventory`'s stopped instance at `now`; `watchdog_alive` is whether the
/// guard row's watchdog lives.
pub fn read(
    ctx: &Context,
    inventory: &Inventory,
    sheet_days: Option<u32>,
    watchdog_alive: bool,
    now: Timestamp,
) -> Option<StoppedReleaseJson> {
    let id = &inventory.instance.as_ref()?.id;
    let ledger = Ledger::open_read_only(path_in(&ctx.data_dir, ctx.demo)).ok();
    let published = ledger
        .as_ref()
        .and_then(|l| l.stopped_release_after(id).ok().flatten())
        .filter(|_| watchdog_alive);
    let after = published.or(ctx.config.idle.stopped_release_after);
    let policy = StoppedPolicy {
        after: after.and_then(|a| jiff::SignedDuration::try_from(a).ok()),
        seen: ledger.and_then(|l| l.stopped_seen(id).ok().flatten()),
        sheet_days,
        final_snapshot: ctx.config.idle.stopped_release_snapshot,
    };
    let countdown = release_countdown(inventory, policy, now)?;
    let enforced = countdown.by == ReleasedBy::Platform || published.is_some();
    Some(StoppedReleaseJson {
        countdown,
        enforced,
    })
}

/// The lines of a countdown `stopped_release_after` leads: when, what it erases, whose clock,
/// and whether anything enforces it. `None` for the platform's, which has its own line.
pub fn lines(json: &StoppedReleaseJson, now: Timestamp, tz: &TimeZone) -> Option<String> {
    let c = &json.countdown;
    if c.by != ReleasedBy::Policy {
        return None;
    }
    let erases = c.erases.join(", ");
    let after = crate::ui::text::short_duration(jiff::SignedDuration::from_secs(c.after_s));
    let from = match c.since_from {
        StoppedSince::Provider => "provider",
        StoppedSince::Watchdog => "watchdog",
    };
    let line = if c.remaining_s <= 0 {
        t!("sr-status-due", erases = erases)
    } else {
        t!(
            "sr-status-in",
            left = crate::ui::text::short_duration(jiff::SignedDuration::from_secs(c.remaining_s)),
            at = gpumeter_core::zone::deadline_label(c.instant, now, tz),
            after = after.as_str(),
            erases = erases,
            from = from
        )
    };
    let mut out = format!(
        "{:<10}{line}\n",
        gpumeter_core::cell::Cell(t!("sr-status-label"))
    );
    if c.final_snapshot_first {
        let _ = writeln!(out, "{:<10}{}", "", t!("sr-status-final-snapshot"));
    }
    if !json.enforced {
        let _ = writeln!(
            out,
            "{:<10}{}",
            "",
            t!("sr-status-not-enforced", after = after.as_str())
        );
    }
    Some(out)
}
