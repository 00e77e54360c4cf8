//! `verify --on-fail`: when the verdict is fail, tell the user (stderr and the configured
//! webhooks), or stop or release the instance through the path `gpumeter stop` and `release`
//! take, read back by the provider, saying what the sheet's minimum billed period means for
//! what this machine costs. No question is asked (this is for scripts); `--dry-run` says what
//! it would do and does nothing.

use jiff::Timestamp;
use serde::Serialize;

use crate::app::Level;
use crate::cli::OnFailArg;
use crate::commands::actions::{self, Acted, Done};
use crate::commands::context::Context;
use crate::commands::{block_on, emit_err};
use crate::notify::{Alert, Notifier};
use crate::pricing::Sheet;
use crate::provider::{Action, Inventory};
use crate::spend::Pricing;
use gpumeter_core::text::one_line;

/// What `--on-fail` did.
#[derive(Debug, Clone, Serialize)]
pub struct OnFailOutcome {
    /// `alert`, `stop` or `release`.
    pub action: &'static str,
    pub dry_run: bool,
    /// The provider confirmed it (stop, release; or the instance was already so), or every
    /// configured webhook took the alert.
    pub done: bool,
    /// What happened, one line each.
    pub lines: Vec<String>,
}

/// Does `what` for a failed verdict whose headline is `headline`. `sku_sheet` is the sheet the
/// user named with `--sku`, for the minimum billed period where the instance's own pricing
/// says none.
pub fn run(
    ctx: &Context,
    what: OnFailArg,
    dry_run: bool,
    headline: &str,
    sku_sheet: Option<&Sheet>,
) -> OnFailOutcome {
    match what {
        OnFailArg::Alert => alert(ctx, dry_run, headline),
        OnFailArg::Stop => act(ctx, &Action::Stop, dry_run, sku_sheet),
        OnFailArg::Release => act(ctx, &Action::Release, dry_run, sku_sheet),
    }
}

fn alert(ctx: &Context, dry_run: bool, headline: &str) -> OnFailOutcome {
    let headline = one_line(headline, 300);
    emit_err(&format!(
        "gpumeter: {}",
        crate::t!("verify-failed", headline = headline.as_str())
    ));
    let mut outcome = OnFailOutcome {
        action: "alert",
        dry_run,
        done: false,
        lines: Vec::new(),
    };
    let notifier = match Notifier::new(&ctx.config.notify, ctx.config.instance.id.clone()) {
        Ok(n) => n,
        Err(e) => {
            outcome.lines.push(one_line(&e.to_string(), 300));
            return outcome;
        }
    };
    let hooks: Vec<String> = notifier.hooks().map(ToString::to_string).collect();
    if hooks.is_empty() {
        outcome.done = true;
        outcome
            .lines
            .push(crate::t!("verify-alert-stderr").into_owned());
        return outcome;
    }
    if dry_run {
        outcome
            .lines
            .push(crate::t!("verify-alert-dry-run", hooks = hooks.join(", ")));
        return outcome;
    }
    let alert = Alert::new(
        Level::Error,
        "verify:fail",
        crate::t!("verify-alert-title"),
        headline,
        Timestamp::now(),
    );
    let sent = block_on(async {
        notifier
            .send(&alert, Timestamp::now())
            .outcomes_within(notifier.bound())
            .await
    });
    match sent {
        Ok(outcomes) => {
            outcome.done = !outcomes.iter().any(crate::notify::Outcome::is_failure);
            outcome.lines.extend(outcomes.iter().map(|o| {
                crate::t!(
                    "verify-alert-outcome",
                    outcome = one_line(&o.to_string(), 300)
                )
            }));
        }
        Err(e) => outcome.lines.push(e.message),
    }
    outcome
}

fn act(ctx: &Context, action: &Action, dry_run: bool, sku_sheet: Option<&Sheet>) -> OnFailOutcome {
    let mut outcome = OnFailOutcome {
        action: action.label(),
        dry_run,
        done: false,
        lines: Vec::new(),
    };
    match actions::act(ctx, action, dry_run, true) {
        Ok(Acted::NothingToDo(line)) => {
            outcome.done = true;
            outcome.lines.push(line);
        }
        Ok(Acted::DryRun(lines)) => {
            outcome.lines.extend(lines);
            let pricing = ctx.pricing().ok().flatten();
            let sheet = pricing.as_ref().map(|p| &p.sheet).or(sku_sheet);
            if let Some(min) = sheet.and_then(minimum_words) {
                outcome
                    .lines
                    .push(crate::t!("verify-sheet-minimum", minimum = min));
            }
        }
        Ok(Acted::Done(done)) => {
            let Done {
                line,
                before,
                pricing,
            } = *done;
            outcome.done = true;
            outcome.lines.push(line);
            let sheet = pricing.as_ref().map(|p| &p.sheet).or(sku_sheet);
            if let Some(cost) = cost_line(
                action,
                before.as_ref(),
                pricing.as_ref(),
                sheet,
                Timestamp::now(),
            ) {
                outcome.lines.push(cost);
            }
        }
        Err(failure) => {
            outcome.lines.push(failure.message);
            outcome.lines.extend(failure.fix);
        }
    }
    outcome
}

/// "released 4 min in: the sheet bills a 10-minute minimum, so this machine costs 0.68 USD":
/// how long the instance ran, the sheet's minimum where it has one, and what the meter says
/// its compute is billed at `now`. `None` when the instance's start is not known.
pub fn cost_line(
    action: &Action,
    before: Option<&Inventory>,
    pricing: Option<&Pricing>,
    sheet: Option<&Sheet>,
    now: Timestamp,
) -> Option<String> {
    let inventory = before?;
    let created = inventory.instance.as_ref()?.created;
    let ran = u64::try_from(now.as_second().saturating_sub(created.as_second())).unwrap_or(0);

    let billed = pricing
        .and_then(|p| actions::meter_at(inventory, Some(p), now))
        .map(|r| r.accrual.billed.compute_money().to_string());
    let minimum = sheet.map_or(0, |s| u64::from(s.billing.minimum_seconds));
    let words = sheet.and_then(minimum_words);
    let mut line = match action {
        Action::Stop => crate::t!("verify-ran-stopped", span = span(ran)),
        _ => crate::t!("verify-ran-released", span = span(ran)),
    };
    match (words, ran < minimum) {
        (Some(min), true) => line.push_str(&crate::t!("verify-under-minimum", minimum = min)),
        (Some(min), false) => line.push_str(&crate::t!("verify-past-minimum", minimum = min)),
        (None, _) => {}
    }
    match (billed, ran < minimum) {
        (Some(cost), true) => line.push_str(&crate::t!("verify-so-costs", cost = cost)),
        (Some(cost), false) => line.push_str(&crate::t!("verify-billed", cost = cost)),
        (None, _) => {}
    }
    Some(line)
}

/// The sheet's minimum billed period as an adjective (`10-minute`), where it has one.
fn minimum_words(sheet: &Sheet) -> Option<String> {
    let s = sheet.billing.minimum_seconds;
    match s {
        0 => None,
        s if s % 3600 == 0 => Some(crate::t!(
            "verify-minimum-hours",
            count = (s / 3600).to_string()
        )),
        s if s % 60 == 0 => Some(crate::t!(
            "verify-minimum-minutes",
            count = (s / 60).to_string()
        )),
        s => Some(crate::t!("verify-minimum-seconds", count = s.to_string())),
    }
}

/// `45 s`, `4 min`, `3 h 20 min`.
fn span(seconds: u64) -> String {
    match seconds {
        s if s < 60 => crate::t!("verify-span-seconds", seconds = s.to_string()),
        s if s < 3600 => crate::t!("verify-span-minutes", minutes = (s / 60).to_string()),
        s if s % 3600 < 60 => crate::t!("verify-span-hours", hours = (s / 3600).to_string()),
        s => crate::t!(
            "verify-span-hours-minutes",
            hours = (s / 3600).to_string(),
            minutes = (s % 3600 / 60).to_string()
        ),
    }
}

#[cfg(test)]
#[path = "on_fail_tests.rs"]
mod tests;
