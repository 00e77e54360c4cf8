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
