//! An action run from the command line is kept in the ledger with the provider's answer, as
//! the audit's evidence needs it, and marked as the command line's: the cockpit never shows it
//! as the watchdog's.

use super::actions_cli::{Cloud, stderr};

#[test]
fn a_release_from_the_command_line_is_recorded_as_the_command_lines() {
    let cloud = Cloud::new("recorded");
    let out = cloud.run(&["release", "--yes"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let id = cloud.state()["instance"]["id"]
        .as_str()
        .expect("the demo instance has an id")
        .to_string();
    let ledger = gpumeter::ledger::Ledger::open(cloud.path().join("demo-ledger.sqlite")).unwrap();
    let actions = ledger.audit_actions(&[id.as_str()]).unwrap();
    let release = actions
        .iter()
        .find(|a| a.intent == "release")
        .unwrap_or_else(|| panic!("no release recorded: {actions:?}"));
    assert_eq!(release.outcome.as_deref(), Some("confirmed"), "{release:?}");
    let request: serde_json::Value =
        serde_json::from_str(release.request.as_deref().unwrap()).unwrap();
    assert_eq!(request["action"], "release", "{request}");
    assert!(release.answer.as_deref().is_some_and(|a| !a.is_empty()));
    let watchdog = ledger.last_watchdog_events(&id, 10).unwrap();
    assert!(
        watchdog.iter().all(|e| !e.text.starts_with("release")),
        "a command line's action read as the watchdog's: {watchdog:?}"
    );
}

#[test]
fn a_cleanup_delete_is_recorded_with_its_read_back_and_what_it_stops_and_report_lists_it() {
    let cloud = Cloud::new("cleanup-recorded");
    let out = cloud.run(&["cleanup", "--id", "vol-0spare", "--yes"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    // A window that ends after the delete: report's end is exclusive, to the second.
    let until = (jiff::Timestamp::now() + jiff::SignedDuration::from_mins(1)).to_string();
    let out = cloud.run(
        &["report", "--json", "--since", "1h", "--until", &until],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let actions = report["actions"].as_array().unwrap();
    let delete = actions
        .iter()
        .find(|a| a["intent"] == "delete data disk" && a["request"]["id"] == "vol-0spare")
        .unwrap_or_else(|| panic!("report does not list the delete: {actions:?}"));
    assert_eq!(delete["outcome"], "confirmed", "{delete}");
    assert!(
        delete["answer"]
            .as_str()
            .is_some_and(|a| a.contains("no longer listed")),
        "{delete}"
    );
    let stops = &delete["request"]["stops_monthly"];
    assert!(
        stops.is_string() || delete["request"]["stops_monthly_unknown"].is_string(),
        "neither what the delete stops nor why it is unknown: {delete}"
    );
    let ledger = gpumeter::ledger::Ledger::open(cloud.path().join("demo-ledger.sqlite")).unwrap();
    let deletes = ledger.confirmed_deletes().unwrap();
    assert!(
        deletes.iter().any(|(id, _)| id == "vol-0spare"),
        "{deletes:?}"
    );
}

#[test]
fn a_start_from_the_command_line_is_recorded_with_its_read_back() {
    let cloud = Cloud::new("start-recorded");
    let out = cloud.run(&["stop", "--yes"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = cloud.run(&["start", "--yes"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let id = cloud.state()["instance"]["id"]
        .as_str()
        .expect("the demo instance has an id")
        .to_string();
    let ledger = gpumeter::ledger::Ledger::open(cloud.path().join("demo-ledger.sqlite")).unwrap();
    let actions = ledger.audit_actions(&[id.as_str()]).unwrap();
    let start = actions
        .iter()
        .find(|a| a.intent == "start")
        .unwrap_or_else(|| panic!("no start recorded: {actions:?}"));
    assert_eq!(start.outcome.as_deref(), Some("confirmed"), "{start:?}");
}
