//! What `update` does with the provider: the destructive dialogs, the inventories and the
//! answers to actions, each reported as the provider's read-back says.

use std::borrow::Cow;

use super::Effect;
use crate::app::confirm::verb;
use crate::app::confirm::{Choice, Confirm};
use crate::app::deadline::Deadline;
use crate::app::keymap::{Intent, KeyCode, KeyPress, intent_for};
use crate::app::state::{ActionFailure, App, Level, Mode};
use crate::cloud::{Action, ActionReport, Inventory, ProviderError};
use crate::guard::OnExpiry;
use crate::t;

pub(super) fn open_confirm(app: &mut App, action: Action) {
    if let Some((running, _)) = &app.cloud.running {
        let text = t!("event-wait-running", action = verb(running));
        app.log(Level::Warn, text);
        return;
    }
    let caps = app.cloud.capabilities;
    let unsupported = match action {
        Action::Stop => !caps.stop,
        Action::Start => !caps.start,
        Action::SnapshotClean { .. } => !caps.snapshots,
        _ => false,
    };
    if unsupported {
        let text = t!(
            "event-cannot",
            provider = app.cloud.provider.clone(),
            action = verb(&action)
        );
        app.log(Level::Warn, text);
        return;
    }
    app.mode = Mode::Confirm(Confirm::for_action(app, action));
}

pub(super) fn on_confirm_key(app: &mut App, mut confirm: Confirm, key: KeyPress) -> Vec<Effect> {
    if super::resource::on_pick_key(app, &mut confirm, key) {
        app.mode = Mode::Confirm(confirm);
        return Vec::new();
    }
    let intent = intent_for(key, app.settings.read_only);
    let chosen = match (key.code, intent) {
        (KeyCode::Char('y'), _) => Some(Choice::Confirm),
        (KeyCode::Char('n'), _) | (_, Some(Intent::Close | Intent::Quit)) => Some(Choice::Cancel),
        (KeyCode::Enter, _) => Some(confirm.choice),
        (_, Some(Intent::Left | Intent::Right | Intent::FocusNext | Intent::FocusPrev)) => {
            confirm.choice = match confirm.choice {
                Choice::Cancel => Choice::Confirm,
                Choice::Confirm => Choice::Cancel,
            };
            app.mode = Mode::Confirm(confirm);
            return Vec::new();
        }
        _ => None,
    };
    match chosen {
        Some(Choice::Confirm) if matches!(&confirm.action, Action::Cleanup { delete } if delete.is_empty()) =>
        {
            app.mode = Mode::Main;
            let text = t!("event-nothing-picked", action = label(&confirm));
            app.log(Level::Info, text);
            Vec::new()
        }
        Some(Choice::Confirm) => {
            app.mode = Mode::Main;
            let action = confirm.action;
            let text = t!(
                "event-sent",
                action = verb(&action),
                provider = app.cloud.provider.clone()
            );
            app.log(Level::Info, text);
            app.cloud.running = Some((action.clone(), app.now));
            vec![Effect::Perform(action)]
        }
        Some(Choice::Cancel) => {
            app.mode = Mode::Main;
            let text = t!("event-cancelled", action = label(&confirm));
            app.log(Level::Info, text);
            Vec::new()
        }
        None => Vec::new(),
    }
}

/// What the dialog's events call it: the snapshot-clean it was opened as, even once the pick
/// makes it a cleanup.
fn label(confirm: &Confirm) -> Cow<'static, str> {
    if confirm.pick.is_some() {
        t!("verb-snapshot-clean")
    } else {
        verb(&confirm.action)
    }
}

pub(super) fn on_inventory(app: &mut App, result: Result<Inventory, ProviderError>) -> Vec<Effect> {
    match result {
        Ok(inventory) => {
            app.spend.record_inventory(&inventory, app.now);
            if let Some(held) = inventory.deadline {
                let now = app.now;
                let d = app
                    .deadline
                    .get_or_insert_with(|| Deadline::new(held.at, OnExpiry::Alert, now));
                if d.at != held.at {
                    *d = Deadline::new(held.at, d.on_expiry, now);
                }
                d.held_by_provider = true;
            } else if let Some(d) = app.deadline.as_mut() {
                d.held_by_provider = false;
            }
            let first = app.guard.instance.is_none();
            if let Some(instance) = inventory.instance.as_ref().filter(|_| first) {
                app.guard.instance = Some(instance.id.clone());
            }
            app.cloud.inventory = Some(inventory);
            app.cloud.error = None;
            super::resource::note_exposure(app);
            super::resource::refresh_details(app);
            let deadline = crate::app::offer::live_deadline(app);
            app.spend
                .recompute(app.cloud.inventory.as_ref(), app.now, deadline);
        }
        // Without a provider there is nothing to read: not an error, the screen welcomes.
        Err(_) if !app.cloud.configured => {}
        Err(e) => app.cloud.error = Some(e),
    }
    // Read the row once, when the instance first becomes known: what to write, if anything,
    // is decided when it comes (`Event::GuardFound`).
    if let Some(instance) = app.guard.instance.clone().filter(|_| !app.guard.loading) {
        app.guard.loading = true;
        return vec![Effect::LoadGuard { instance }];
    }
    Vec::new()
}

pub(super) fn on_action_done(
    app: &mut App,
    action: &Action,
    result: Result<ActionReport, ProviderError>,
) -> Vec<Effect> {
    if app.cloud.running.as_ref().is_some_and(|(a, _)| a == action) {
        app.cloud.running = None;
    }
    if result.is_ok() {
        app.cloud.failure = None;
    }
    let held_old =
        matches!(action, Action::SetDeadline { .. }) && !result.as_ref().is_ok_and(|r| r.confirmed);
    match result {
        Ok(report) if report.confirmed => {
            let text = t!(
                "event-done",
                action = verb(action),
                summary = report.summary.clone()
            );
            app.log(Level::Done, text);
            // Compute stops here, whatever a later listing dates the release at.
            if *action == Action::Release {
                app.spend.released(app.now);
            }
        }
        Ok(report) => {
            let text = t!(
                "event-not-confirmed",
                action = verb(action),
                summary = report.summary.clone()
            );
            app.log(Level::Error, text);
        }
        Err(error) => {
            // What to fix first: an entry too long for the panel keeps its start.
            let text = t!(
                "event-failed",
                action = verb(action),
                kind = error.kind_label().to_string(),
                fix = error.shown_fix(),
                error = error.shown()
            );
            app.log(Level::Error, text);
            app.cloud.failure = Some(ActionFailure {
                action: action.clone(),
                error,
                at: app.now,
            });
        }
    }
    if held_old {
        let text = t!("event-may-hold-old", provider = app.cloud.provider.clone());
        app.log(Level::Warn, text);
    }
    if app.quit_after_answer && app.cloud.running.is_none() {
        app.quit = true;
        return Vec::new();
    }
    vec![Effect::RefreshInventory]
}
