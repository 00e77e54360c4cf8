//! What `update` does with the selected linked resource and the snapshots: `Enter` shows the
//! resource's details, `D` asks to delete it (the cleanup plan refuses what cannot go), and `C`
//! lets the user pick which snapshots go.

use std::borrow::Cow;

use super::cloud::open_confirm;
use crate::app::confirm::Confirm;
use crate::app::details::Details;
use crate::app::keymap::{Intent, KeyCode, KeyPress, intent_for};
use crate::app::pick::{PickRow, SnapshotPick};
use crate::app::state::{App, Focus, Level, Mode};
use crate::cloud::{Action, CleanupFilter, CleanupPlan, LinkedResource, SnapshotPlan, findings_of};
use crate::meter::InstanceState;
use crate::t;

/// The selected linked resource's index, when the resources panel has the keyboard and the
/// inventory lists any; otherwise says in the events how to select one.
fn selected(app: &mut App, verb: Cow<'static, str>) -> Option<usize> {
    let n = app
        .cloud
        .inventory
        .as_ref()
        .map_or(0, |i| i.resources.len());
    if n == 0 {
        return None;
    }
    if app.focus != Focus::Resources {
        let text = t!("event-select-resource", verb = verb);
        app.log(Level::Info, text);
        return None;
    }
    Some(app.selected_resource.min(n - 1))
}

pub(super) fn open_details(app: &mut App) {
    let Some(index) = selected(app, t!("event-verb-see")) else {
        return;
    };
    if let Some(details) = Details::of(app, index) {
        app.mode = Mode::Details(details);
    }
}

pub(super) fn on_details_key(app: &mut App, details: &Details, key: KeyPress) {
    match intent_for(key, app.settings.read_only) {
        Some(Intent::Close | Intent::Details | Intent::Quit | Intent::Help) => {
            app.mode = Mode::Main;
        }
        Some(intent @ (Intent::Up | Intent::Down)) => {
            super::move_selection(app, if intent == Intent::Up { -1 } else { 1 });
            if let Some(next) = Details::of(app, app.selected_resource) {
                app.mode = Mode::Details(next);
            }
        }
        Some(Intent::Cleanup) => {
            app.mode = Mode::Main;
            let index = app
                .cloud
                .inventory
                .as_ref()
                .and_then(|i| i.resources.iter().position(|r| r.id == details.id));
            if let Some(index) = index {
                app.selected_resource = index;
                open_cleanup(app);
            } else {
                let text = t!("event-cleanup-gone", id = details.id.clone());
                app.log(Level::Info, text);
            }
        }
        _ if key.code == KeyCode::Char('D') && app.settings.read_only => {
            app.log(Level::Info, t!("event-read-only-no-delete"));
        }
        _ => {}
    }
}

/// `D`: the cleanup dialog for the selected resource alone, from the cleanup plan over the
/// inventory, the instance passed as running while it runs. What the plan refuses (attached
/// to the running instance, a snapshot an image uses), and what goes with the instance
/// anyway, is said in the events instead of a dialog that could not do what it says.
pub(super) fn open_cleanup(app: &mut App) {
    let Some(index) = selected(app, t!("event-verb-delete")) else {
        return;
    };
    let Some(inventory) = app.cloud.inventory.as_ref() else {
        return;
    };
    let r = &inventory.resources[index];
    let instance = inventory.instance.as_ref();
    let running: Vec<String> = instance
        .filter(|i| i.state.is_up())
        .map(|i| vec![i.id.clone()])
        .unwrap_or_default();
    let goes_with_instance =
        r.deleted_with_instance && instance.is_some_and(|i| i.state != InstanceState::Released);
    let filter = CleanupFilter {
        ids: vec![r.id.clone()],
        ..CleanupFilter::default()
    };
    let id = r.id.clone();
    let target = describe(r);
    match CleanupPlan::new(&inventory.resources, &filter, &running, app.now) {
        Err(why) => app.log(Level::Warn, t!("event-cleanup-why", why = why.to_string())),
        Ok(plan) if !plan.refused.is_empty() => {
            for refusal in plan.refused {
                let text = t!(
                    "event-cleanup-refused",
                    id = refusal.id.clone(),
                    why = refusal.why.clone()
                );
                app.log(Level::Warn, text);
            }
        }
        Ok(_) if goes_with_instance => {
            let text = t!("event-cleanup-goes-with-instance", id = id);
            app.log(Level::Warn, text);
        }
        Ok(plan) => {
            open_confirm(
                app,
                Action::Cleanup {
                    delete: plan.delete,
                },
            );
            if let Mode::Confirm(c) = &mut app.mode {
                c.target = target;
            }
        }
    }
}

/// `kind id (name)`: the resource a cleanup dialog is about.
fn describe(r: &LinkedResource) -> String {
    if r.name.is_empty() {
        format!("{} {}", r.kind.shown(), r.id)
    } else {
        format!("{} {} ({})", r.kind.shown(), r.id, r.name)
    }
}

/// `C`: the snapshot-clean dialog, with the snapshots to pick from.
pub(super) fn open_snapshot_pick(app: &mut App) {
    let keep = app.settings.keep_snapshots;
    open_confirm(
        app,
        Action::SnapshotClean {
            keep,
            final_snapshot: false,
            delete: None,
        },
    );
    let Mode::Confirm(confirm) = &mut app.mode else {
        return;
    };
    let resources: &[LinkedResource] = app
        .cloud
        .inventory
        .as_ref()
        .map_or(&[], |i| i.resources.as_slice());
    let plan = SnapshotPlan::new(resources, keep, false);
    confirm.pick = Some(SnapshotPick::new(
        resources,
        &plan,
        keep,
        app.spend.pricing.as_ref(),
        app.now,
        confirm.note.clone(),
    ));
    repick(confirm);
}

/// The dialog's lists, note and action as the pick now stands.
pub(super) fn repick(confirm: &mut Confirm) {
    let Some(pick) = &confirm.pick else {
        return;
    };
    confirm.deleted = pick
        .rows
        .iter()
        .filter(|r| r.picked)
        .map(PickRow::line)
        .collect();
    confirm.survivors = pick
        .rows
        .iter()
        .filter(|r| !r.picked)
        .map(PickRow::line)
        .collect();
    confirm.note = pick.note();
    confirm.action = pick.action();
}

/// A key in a dialog with a pick: Space toggles the row under the cursor, the row keys move
/// it. `true` when the key was one of these.
pub(super) fn on_pick_key(app: &App, confirm: &mut Confirm, key: KeyPress) -> bool {
    let Some(pick) = confirm.pick.as_mut() else {
        return false;
    };
    match (key.code, intent_for(key, app.settings.read_only)) {
        (KeyCode::Char(' '), _) => {
            pick.toggle();
        }
        (_, Some(Intent::Up)) => pick.move_by(-1),
        (_, Some(Intent::Down)) => pick.move_by(1),
        (_, Some(Intent::Top)) => pick.move_by(isize::MIN),
        (_, Some(Intent::Bottom)) => pick.move_by(isize::MAX),
        _ => return false,
    }
    repick(confirm);
    true
}

/// The gravest finding about each resource's data, for the resources panel's marks.
pub(super) fn note_exposure(app: &mut App) {
    app.cloud.exposed = app
        .cloud
        .inventory
        .as_ref()
        .map(|i| {
            i.resources
                .iter()
                .filter_map(|r| Some((r.id.clone(), findings_of(r).first()?.severity)))
                .collect()
        })
        .unwrap_or_default();
}

/// The open details overlay, computed again for a fresh inventory or a new second.
pub(super) fn refresh_details(app: &mut App) {
    if let Mode::Details(details) = &app.mode {
        let fresh = details.refreshed(app);
        if fresh != *details {
            app.mode = Mode::Details(fresh);
            app.dirty = true;
        }
    }
}
