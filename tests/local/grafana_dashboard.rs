//! The Grafana dashboard in deploy/grafana is one Grafana can provision: an uid, a schema
//! version, a Prometheus data source chosen through its `datasource` variable by every panel
//! and query, distinct panel ids, and a dashboards provider beside it. Runs without Grafana or
//! Prometheus; `prometheus_server` runs every query against a real Prometheus.

use std::collections::BTreeSet;

use serde_json::Value;

use super::prometheus_peer::dashboard;

#[test]
fn the_dashboard_is_provisionable_and_every_query_uses_the_datasource_variable() {
    let board = dashboard::load();
    assert_eq!(board["uid"], "gpumeter-fleet");
    assert!(
        board["schemaVersion"].as_u64().is_some_and(|v| v >= 36),
        "{}",
        board["schemaVersion"]
    );
    assert!(board["title"].as_str().is_some_and(|t| !t.is_empty()));
    let vars = board["templating"]["list"].as_array().unwrap();
    let datasource = vars
        .iter()
        .find(|v| v["name"] == "datasource")
        .expect("a datasource variable");
    assert_eq!(datasource["type"], "datasource");
    assert_eq!(datasource["query"], "prometheus");
    let uses_variable = |ds: &Value| ds["type"] == "prometheus" && ds["uid"] == "${datasource}";
    for var in vars.iter().filter(|v| v["type"] == "query") {
        assert!(uses_variable(&var["datasource"]), "{var}");
    }
    let mut ids = BTreeSet::new();
    for panel in dashboard::panels(&board) {
        let title = panel["title"].as_str().unwrap_or("?");
        assert!(
            ids.insert(panel["id"].as_u64().unwrap()),
            "panel id twice: {title}"
        );
        assert!(
            uses_variable(&panel["datasource"]),
            "{title}: {}",
            panel["datasource"]
        );
        assert!(
            panel["gridPos"]["w"].as_u64().is_some(),
            "{title}: no gridPos"
        );
        let targets = panel["targets"].as_array().unwrap();
        assert!(!targets.is_empty(), "{title}: no query");
        let mut refs = BTreeSet::new();
        for target in targets {
            assert!(uses_variable(&target["datasource"]), "{title}: {target}");
            assert!(
                refs.insert(target["refId"].as_str().unwrap()),
                "{title}: refId twice"
            );
            assert!(
                target["expr"].as_str().is_some_and(|e| !e.is_empty()),
                "{title}: {target}"
            );
        }
    }
}

/// What docs/prometheus-and-fleet.md and the issue promise the dashboard shows, each a panel of
/// its own.
#[test]
fn the_dashboard_has_the_promised_panels() {
    let board = dashboard::load();
    let exprs = dashboard::exprs(&board);
    let has = |title: &str, needle: &str| {
        exprs
            .iter()
            .any(|(t, e)| t.to_lowercase().contains(title) && e.contains(needle))
    };
    for (title, needle) in [
        ("fleet burn", "gpumeter_burn_rate_per_hour"),
        ("per day", "24 *"),
        ("spent per day", "gpumeter_cost_total"),
        ("burn by instance", "by (instance_id"),
        ("idle spend", "gpumeter_idle_seconds"),
        ("leftovers by account", "by (account"),
        ("utilisation", "DCGM_FI_DEV_GPU_UTIL"),
        ("power", "DCGM_FI_DEV_POWER_USAGE"),
        ("firing alerts", "ALERTS"),
        ("no sheet prices", "gpumeter_cost_unknown_lines"),
    ] {
        assert!(
            has(title, needle),
            "no panel {title:?} querying {needle:?}: {exprs:?}"
        );
    }
}

#[test]
fn the_provisioning_file_points_grafana_at_the_dashboard_folder() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/deploy/grafana/provisioning.yaml"
    ))
    .unwrap();
    for needle in ["apiVersion: 1", "providers:", "type: file", "path:"] {
        assert!(text.contains(needle), "provisioning.yaml lacks {needle:?}");
    }
}
