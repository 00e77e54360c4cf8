//! The selected linked resource through `update`: `Enter` shows its details, `D` asks to delete
//! it alone (and says why not where the cleanup plan refuses), and `C` lets the user pick which
//! snapshots go, on the demo fixture.

use std::time::Duration;

use crate::drive::{ch, last_log, press};
use gpumeter_core::app::{
    App, Confirm, Details, Effect, Event, Focus, KeyCode, Level, Mode, update,
};
use gpumeter_core::cloud::{Action, ActionReport, Exposure, LinkedResource, Severity, Sharing};
use gpumeter_core::demo::demo_app;
use gpumeter_core::meter::InstanceState;

const INSTANCE: &str = "i-0demo4a100f00d";

fn app() -> App {
    demo_app(Duration::from_secs(200 * 60))
}

/// The demo with its resources changed by `edit`, read as a fresh inventory.
fn with_resources(edit: impl FnOnce(&mut Vec<LinkedResource>)) -> App {
    let mut app = app();
    let mut inventory = app.cloud.inventory.clone().expect("the demo inventory");
    edit(&mut inventory.resources);
    update(&mut app, Event::Inventory(Ok(inventory)));
    app
}

fn resource<'a>(resources: &'a mut [LinkedResource], id: &str) -> &'a mut LinkedResource {
    resources.iter_mut().find(|r| r.id == id).expect(id)
}

/// The resources panel focused with `id` selected.
fn select(app: &mut App, id: &str) {
    app.focus = Focus::Resources;
    let resources = &app
        .cloud
        .inventory
        .as_ref()
        .expect("an inventory")
        .resources;
    app.selected_resource = resources.iter().position(|r| r.id == id).expect(id);
}

fn dialog(app: &App) -> &Confirm {
    let Mode::Confirm(c) = &app.mode else {
        panic!("a dialog, not {:?}", app.mode)
    };
    c
}

fn details(app: &App) -> &Details {
    let Mode::Details(d) = &app.mode else {
        panic!("the details, not {:?}", app.mode)
    };
    d
}

fn ids(delete: &[LinkedResource]) -> Vec<&str> {
    delete.iter().map(|r| r.id.as_str()).collect()
}

fn row<'a>(d: &'a Details, label: &str) -> &'a str {
    d.rows.iter().find(|(l, _)| *l == label).map_or_else(
        || panic!("no {label} row in {:?}", d.rows),
        |(_, v)| v.as_str(),
    )
}

#[test]
fn d_asks_to_delete_exactly_the_selected_resource_and_y_sends_it() {
    let mut app = app();
    select(&mut app, "snap-0a");
    assert!(ch(&mut app, 'D').is_empty());
    let c = dialog(&app);
    let Action::Cleanup { delete } = &c.action else {
        panic!("a cleanup, not {:?}", c.action)
    };
    assert_eq!(ids(delete), ["snap-0a"]);
    assert_eq!(c.deleted.len(), 1);
    assert!(c.deleted[0].label.contains("snap-0a"), "{:?}", c.deleted);
    assert_eq!(c.survivors.len(), 7, "the rest of the inventory stays");
    assert!(c.survivors.iter().all(|l| !l.label.contains("snap-0a")));
    assert!(c.target.contains("snap-0a (nightly-1)"), "{}", c.target);
    // Cancel is the default: Enter cancels.
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    assert_eq!(app.mode, Mode::Main);
    assert!(last_log(&app).1.contains("cleanup: cancelled"));

    ch(&mut app, 'D');
    let effects = ch(&mut app, 'y');
    let Some(Effect::Perform(Action::Cleanup { delete })) = effects.first() else {
        panic!("a cleanup sent: {effects:?}")
    };
    assert_eq!(ids(delete), ["snap-0a"]);
    assert_eq!(effects.len(), 1);
    let action = Action::Cleanup {
        delete: delete.clone(),
    };
    assert!(
        app.cloud
            .running
            .as_ref()
            .is_some_and(|(a, _)| *a == action)
    );
    let report = |confirmed| ActionReport {
        action: action.clone(),
        confirmed,
        summary: "1 of 1 deleted and read back".into(),
        calls: Vec::new(),
    };
    let effects = update(
        &mut app,
        Event::ActionDone {
            action: action.clone(),
            result: Ok(report(true)),
        },
    );
    assert_eq!(effects, vec![Effect::RefreshInventory]);
    assert_eq!(
        last_log(&app),
        (
            Level::Done,
            "cleanup: done, the provider reports 1 of 1 deleted and read back".into()
        )
    );
    update(
        &mut app,
        Event::ActionDone {
            action: action.clone(),
            result: Ok(report(false)),
        },
    );
    let (level, said) = last_log(&app);
    assert_eq!(level, Level::Error);
    assert!(said.starts_with("cleanup: NOT confirmed"), "{said}");
}

#[test]
fn d_refuses_what_is_attached_to_the_running_instance_until_it_stops() {
    let mut app = with_resources(|r| {
        resource(r, "vol-0data").attached_to = Some(INSTANCE.into());
    });
    select(&mut app, "vol-0data");
    assert!(ch(&mut app, 'D').is_empty());
    assert_eq!(
        app.mode,
        Mode::Main,
        "no dialog that cannot do what it says"
    );
    let (level, said) = last_log(&app);
    assert_eq!(level, Level::Warn);
    assert!(
        said.contains(&format!(
            "vol-0data is not deleted: attached to {INSTANCE}, which is running"
        )),
        "{said}"
    );
    // Stopped, the disk can be detached and deleted.
    let mut inventory = app.cloud.inventory.clone().unwrap();
    inventory.instance.as_mut().unwrap().state = InstanceState::Stopped;
    update(&mut app, Event::Inventory(Ok(inventory)));
    ch(&mut app, 'D');
    let Action::Cleanup { delete } = &dialog(&app).action else {
        panic!("a cleanup")
    };
    assert_eq!(ids(delete), ["vol-0data"]);
}

#[test]
fn d_refuses_a_snapshot_an_image_uses_and_what_goes_with_the_instance() {
    let mut app = with_resources(|r| {
        resource(r, "snap-0b").backs_image = Some("ami-0train".into());
        // Not attached (a provider that does not say), so the other rule is the one asked.
        resource(r, "vol-0root").attached_to = None;
    });
    select(&mut app, "snap-0b");
    ch(&mut app, 'D');
    assert_eq!(app.mode, Mode::Main);
    let (_, said) = last_log(&app);
    assert!(
        said.contains("snap-0b is not deleted: image ami-0train uses it"),
        "{said}"
    );
    // The root disk goes with the instance: a release deletes it.
    select(&mut app, "vol-0root");
    ch(&mut app, 'D');
    assert_eq!(app.mode, Mode::Main);
    let (_, said) = last_log(&app);
    assert!(
        said.contains("vol-0root is not deleted: it goes with the instance"),
        "{said}"
    );
    // The image itself may go, and a snapshot behind it stays listed as staying.
    select(&mut app, "ami-0train");
    ch(&mut app, 'D');
    let Action::Cleanup { delete } = &dialog(&app).action else {
        panic!("a cleanup")
    };
    assert_eq!(ids(delete), ["ami-0train"]);
}

#[test]
fn d_and_enter_need_the_resources_panel_and_read_only_refuses_d() {
    let mut app = app();
    assert_eq!(app.focus, Focus::Gpus);
    ch(&mut app, 'D');
    assert_eq!(app.mode, Mode::Main);
    assert!(last_log(&app).1.contains("Tab to the linked resources"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode, Mode::Main);
    assert!(last_log(&app).1.contains("to see a linked resource"));

    let mut app = self::app();
    app.settings.read_only = true;
    select(&mut app, "snap-0a");
    assert!(ch(&mut app, 'D').is_empty());
    assert_eq!(app.mode, Mode::Main);
    assert_eq!(
        last_log(&app).1,
        "read-only: this cockpit does not delete the selected linked resource"
    );
    // Looking is not writing: Enter still shows the details, and D there is refused too.
    press(&mut app, KeyCode::Enter);
    details(&app);
    assert!(ch(&mut app, 'D').is_empty());
    details(&app);
    assert!(last_log(&app).1.starts_with("read-only:"));
}

#[test]
fn enter_shows_the_selected_resource_and_esc_or_enter_closes_it() {
    let mut app = app();
    select(&mut app, "vol-0data");
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    let d = details(&app);
    assert_eq!(d.title, "data disk vol-0data");
    assert_eq!(row(d, "id"), "vol-0data");
    assert_eq!(row(d, "name"), "datasets");
    assert_eq!(row(d, "kind"), "data disk");
    assert_eq!(row(d, "created"), "2026-11-29 10:40 UTC, 3h20m ago");
    assert_eq!(row(d, "size"), "2000 GiB");
    assert_eq!(row(d, "class"), "gp3");
    assert_eq!(row(d, "state"), "in-use");
    assert_eq!(row(d, "attached to"), "i-0demo4a100f00d");
    assert_eq!(row(d, "per month"), "160.00 USD");
    assert!(!d.unpriced);
    assert!(
        row(d, "on release").starts_with("survives, and bills until deleted"),
        "{:?}",
        d.rows
    );
    assert!(d.findings.is_empty());
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Main);

    // j moves to the next resource in place; Enter closes.
    select(&mut app, "ami-0train");
    press(&mut app, KeyCode::Enter);
    ch(&mut app, 'j');
    ch(&mut app, 'j');
    let d = details(&app);
    assert_eq!(d.title, "load balancer lb-0api");
    assert!(d.unpriced, "the demo sheet has no load balancer price");
    assert!(row(d, "per month").starts_with("unpriced"), "{:?}", d.rows);
    assert!(!row(d, "per month").contains("0.00"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode, Mode::Main);

    select(&mut app, "vol-0root");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        row(details(&app), "on release"),
        "deleted with the instance"
    );
}

#[test]
fn the_details_and_the_panel_marks_say_what_data_others_can_read() {
    let mut app = with_resources(|r| {
        resource(r, "snap-0a").exposure = Exposure {
            encrypted: Some(false),
            shared: Sharing::Public,
        };
        resource(r, "ami-0train").exposure = Exposure {
            encrypted: Some(true),
            shared: Sharing::Accounts(vec!["111122223333".into()]),
        };
    });
    assert_eq!(app.cloud.exposure_of("snap-0a"), Some(Severity::Critical));
    assert_eq!(app.cloud.exposure_of("ami-0train"), Some(Severity::Warning));
    assert_eq!(app.cloud.exposure_of("vol-0data"), None);
    select(&mut app, "snap-0a");
    press(&mut app, KeyCode::Enter);
    let d = details(&app);
    let grades: Vec<Severity> = d.findings.iter().map(|f| f.severity).collect();
    assert_eq!(grades, [Severity::Critical, Severity::Warning]);
    assert!(d.findings[0].what.starts_with("public"), "{:?}", d.findings);
    // Deleted meanwhile, the overlay says so rather than showing another resource.
    let mut inventory = app.cloud.inventory.clone().unwrap();
    inventory.resources.retain(|r| r.id != "snap-0a");
    update(&mut app, Event::Inventory(Ok(inventory)));
    let d = details(&app);
    assert!(d.gone);
    assert_eq!(d.id, "snap-0a");
}

fn picked(c: &Confirm) -> Vec<(&str, bool)> {
    let pick = c.pick.as_ref().expect("a pick");
    pick.rows
        .iter()
        .map(|r| (r.resource.id.as_str(), r.picked))
        .collect()
}

#[test]
fn c_lists_the_snapshots_newest_first_with_the_plan_picked() {
    let mut app = app();
    ch(&mut app, 'C');
    let c = dialog(&app);
    assert_eq!(
        picked(c),
        [("snap-0c", false), ("snap-0b", true), ("snap-0a", true)]
    );
    let pick = c.pick.as_ref().unwrap();
    let ages: Vec<&str> = pick.rows.iter().map(|r| r.age.as_str()).collect();
    assert_eq!(ages, ["1h30m", "1d2h", "2d2h"]);
    assert!(pick.rows[0].newest);
    // As proposed, it is the plan's own snapshot-clean, carrying what it promised.
    assert_eq!(
        c.action,
        Action::SnapshotClean {
            keep: 1,
            final_snapshot: false,
            delete: Some(vec!["snap-0b".into(), "snap-0a".into()]),
        }
    );
}

#[test]
fn space_picks_and_the_action_deletes_exactly_the_pick() {
    let mut app = app();
    ch(&mut app, 'C');
    // The cursor starts on the newest; pick it, then unpick the middle one.
    ch(&mut app, ' ');
    assert_eq!(
        picked(dialog(&app)),
        [("snap-0c", true), ("snap-0b", true), ("snap-0a", true)]
    );
    ch(&mut app, 'j');
    ch(&mut app, ' ');
    let c = dialog(&app);
    let Action::Cleanup { delete } = &c.action else {
        panic!("a pick the plan does not make is a cleanup: {:?}", c.action)
    };
    assert_eq!(ids(delete), ["snap-0c", "snap-0a"]);
    assert_eq!(c.deleted.len(), 2);
    assert_eq!(c.survivors.len(), 1);
    assert!(
        c.note.contains("exactly the picked snapshots"),
        "{}",
        c.note
    );
    let effects = ch(&mut app, 'y');
    let [Effect::Perform(Action::Cleanup { delete })] = effects.as_slice() else {
        panic!("one cleanup sent: {effects:?}")
    };
    assert_eq!(ids(delete), ["snap-0c", "snap-0a"]);
    assert!(last_log(&app).1.starts_with("cleanup: sent to demo"));
}

#[test]
fn the_plans_pick_again_is_the_plans_snapshot_clean() {
    let mut app = app();
    ch(&mut app, 'C');
    ch(&mut app, ' ');
    ch(&mut app, ' ');
    let effects = ch(&mut app, 'y');
    assert_eq!(
        effects,
        vec![Effect::Perform(Action::SnapshotClean {
            keep: 1,
            final_snapshot: false,
            delete: Some(vec!["snap-0b".into(), "snap-0a".into()]),
        })]
    );
}

#[test]
fn a_snapshot_an_image_uses_cannot_be_picked_and_an_empty_pick_deletes_nothing() {
    let mut app = with_resources(|r| {
        resource(r, "snap-0b").backs_image = Some("ami-0train".into());
    });
    ch(&mut app, 'C');
    let pick = dialog(&app).pick.clone().unwrap();
    let locked = pick
        .rows
        .iter()
        .find(|r| r.resource.id == "snap-0b")
        .unwrap();
    assert_eq!(locked.locked.as_deref(), Some("image ami-0train uses it"));
    assert!(!locked.picked);
    // Down to it, Space: it stays unpicked.
    ch(&mut app, 'j');
    ch(&mut app, ' ');
    assert_eq!(
        picked(dialog(&app)),
        [("snap-0c", false), ("snap-0b", false), ("snap-0a", true)]
    );
    // Unpick the last one: nothing is picked, and y deletes nothing.
    ch(&mut app, 'G');
    ch(&mut app, ' ');
    assert_eq!(dialog(&app).action, Action::Cleanup { delete: Vec::new() });
    assert!(ch(&mut app, 'y').is_empty());
    assert_eq!(app.mode, Mode::Main);
    assert_eq!(
        last_log(&app),
        (
            Level::Info,
            "snapshot-clean: nothing picked, nothing deleted".into()
        )
    );
}
