//! A real Prometheus server scrapes three `gpumeter serve --demo` processes, each its own
//! instance: one idle, one past its release deadline, one released with its leftovers still
//! billing. Through Prometheus's HTTP API the test checks that the fleet's burn and leftovers
//! add up to what each serve exposes (read and added by the test itself), that every alert
//! rule's expression gives what the serves' readings imply, that the idle, deadline and
//! leftover alerts fire, and that every query of the Grafana dashboard has an answer.
//!
//! Without a `prometheus` binary the test says so and passes, unless `CI` is set: then it fails.

use std::collections::{BTreeMap, BTreeSet};

use jiff::SignedDuration;
use serde_json::Value;

use super::prometheus_peer::http::encode;
use super::prometheus_peer::reference::{self, Exposed, keyed, same, sum_by};
use super::prometheus_peer::{Lab, Spec, dashboard, prometheus_available};

const RULES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/deploy/prometheus/gpumeter-alerts.yml"
));

/// The idle threshold of the rules the test loads, in seconds (the shipped rules say 1800).
const IDLE_AFTER: f64 = 3.0;

/// The shipped rules with their waits shortened so that they fire within seconds: every
/// `for:` becomes 1s and the idle rule's half hour becomes [`IDLE_AFTER`]. The expressions are
/// otherwise the shipped ones, as `promtool test rules` checks them at full length.
fn quick_rules() -> String {
    let idle = "gpumeter_idle_seconds > 1800";
    assert!(
        RULES.contains(idle),
        "the idle rule no longer says {idle:?}"
    );
    let mut waits = 0;
    let rules: Vec<String> = RULES
        .replace(idle, &format!("gpumeter_idle_seconds > {IDLE_AFTER}"))
        .lines()
        .map(|line| match line.split_once("for: ") {
            Some((indent, _)) if indent.trim().is_empty() => {
                waits += 1;
                format!("{indent}for: 1s")
            }
            _ => line.to_string(),
        })
        .collect();
    assert_eq!(
        waits,
        RULES.matches("- alert:").count(),
        "a `for:` per alert"
    );
    rules.join("\n") + "\n"
}

fn specs() -> Vec<Spec> {
    vec![
        Spec {
            instance_id: "i-idle-a",
            account: "lab-a",
            scenario: "idle",
            deadline_ago: None,
            released: false,
        },
        Spec {
            instance_id: "i-late-b",
            account: "lab-b",
            scenario: "training",
            deadline_ago: Some(SignedDuration::from_mins(10)),
            released: false,
        },
        Spec {
            instance_id: "i-gone-c",
            account: "lab-b",
            scenario: "training",
            deadline_ago: None,
            released: true,
        },
    ]
}

/// The alerts that must fire, as (alert, instance id).
const FIRING: [(&str, &str); 3] = [
    ("DeadlinePassed", "i-late-b"),
    ("GpuIdleBurningMoney", "i-idle-a"),
    ("LeftoversAfterRelease", "i-gone-c"),
];

#[test]
fn prometheus_adds_up_the_fleet_fires_the_alerts_and_answers_the_dashboard() {
    if !prometheus_available() {
        return;
    }
    let lab = Lab::start(specs(), &quick_rules());
    lab.wait("every target to be up", || targets_up(&lab));
    let ids: BTreeSet<String> = reference::read_all(&lab)
        .into_iter()
        .map(|e| e.instance_id)
        .collect();
    assert_eq!(
        ids.len(),
        lab.members.len(),
        "one instance id per serve: {ids:?}"
    );
    lab.wait("Prometheus's fleet totals to match the serves' own", || {
        fleet_totals(&lab)
    });
    lab.wait("the idle, deadline and leftover alerts to fire", || {
        firing(&lab)
    });
    rule_expressions(&lab);
    dashboard_queries(&lab);
}

/// `Ok` once Prometheus has scraped every serve successfully.
fn targets_up(lab: &Lab) -> Result<(), String> {
    let data = lab.prometheus.data("targets?state=active")?;
    let targets = data["activeTargets"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let up = targets.iter().filter(|t| t["health"] == "up").count();
    if targets.len() == lab.members.len() && up == targets.len() {
        return Ok(());
    }
    let said: Vec<String> = targets
        .iter()
        .map(|t| format!("{} {} {}", t["scrapeUrl"], t["health"], t["lastError"]))
        .collect();
    Err(format!("{up} of {} up: {said:?}", lab.members.len()))
}

/// The fleet's burn and leftovers, summed by Prometheus and by the test from each `/metrics`.
fn fleet_totals(lab: &Lab) -> Result<(), String> {
    let exposed = lab
        .members
        .iter()
        .map(reference::read)
        .collect::<Result<Vec<Exposed>, String>>()?;
    let burn = r#"gpumeter_burn_rate_per_hour{component="total"}"#;
    let leftover = |e: &Exposed| e.value("gpumeter_leftover_monthly_cost", &[]);
    let checks: [(String, &[&str], BTreeMap<String, f64>); 4] = [
        (
            format!("sum by (currency) ({burn})"),
            &["currency"],
            sum_by(&exposed, Exposed::currency, Exposed::burn),
        ),
        (
            format!("sum by (instance_id, currency) ({burn})"),
            &["instance_id", "currency"],
            sum_by(
                &exposed,
                |e| format!("{}/{}", e.instance_id, e.currency()),
                Exposed::burn,
            ),
        ),
        (
            "sum by (currency) (gpumeter_leftover_monthly_cost)".into(),
            &["currency"],
            sum_by(&exposed, Exposed::currency, leftover),
        ),
        (
            "sum by (account, currency) (gpumeter_leftover_monthly_cost)".into(),
            &["account", "currency"],
            sum_by(
                &exposed,
                |e| format!("{}/{}", e.account, e.currency()),
                leftover,
            ),
        ),
    ];
    for (promql, by, want) in checks {
        same(&promql, &keyed(&lab.prometheus.query(&promql)?, by), &want)?;
    }
    Ok(())
}

/// `Ok` once every alert in [`FIRING`] fires; then no other may, and each summary names its
/// instance.
fn firing(lab: &Lab) -> Result<(), String> {
    let data = lab.prometheus.data("alerts")?;
    let alerts = data["alerts"].as_array().cloned().unwrap_or_default();
    let label = |a: &Value, name: &str| a["labels"][name].as_str().unwrap_or_default().to_string();
    let fired: BTreeSet<(String, String)> = alerts
        .iter()
        .filter(|a| a["state"] == "firing")
        .map(|a| (label(a, "alertname"), label(a, "instance_id")))
        .collect();
    let want: BTreeSet<(String, String)> = FIRING
        .iter()
        .map(|(a, i)| ((*a).to_string(), (*i).to_string()))
        .collect();
    if !want.is_subset(&fired) {
        return Err(format!(
            "firing {fired:?}, waiting for {want:?}; all: {alerts:?}"
        ));
    }
    assert_eq!(fired, want, "only these alerts fire");
    for a in alerts.iter().filter(|a| a["state"] == "firing") {
        let summary = a["annotations"]["summary"].as_str().unwrap_or_default();
        assert!(summary.contains(&label(a, "instance_id")), "{a}");
    }
    Ok(())
}

/// Every alert rule Prometheus loaded, its expression queried as it stands, against what the
/// serves' own readings (taken after the query) say it must give.
fn rule_expressions(lab: &Lab) {
    let data = lab.prometheus.data("rules?type=alert").unwrap();
    let rules: Vec<&Value> = data["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["rules"].as_array().into_iter().flatten())
        .collect();
    assert_eq!(rules.len(), RULES.matches("- alert:").count(), "{data}");
    for rule in rules {
        let name = rule["name"].as_str().unwrap();
        let query = rule["query"].as_str().unwrap();
        let got = keyed(&lab.prometheus.query(query).unwrap(), &["instance_id"]);
        let exposed = reference::read_all(lab);
        let want = reference::alert_expression(name, &exposed, IDLE_AFTER);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "{name}: {query}\n{got:?}\n{want:?}"
        );
        for (id, value) in &got {
            assert!(
                want[id].holds(*value),
                "{name} for {id}: {value}, expected {:?}",
                want[id]
            );
        }
    }
}

/// Every query of the Grafana dashboard, its variables at "All", answers with at least one
/// series; each `label_values` variable lists every instance.
fn dashboard_queries(lab: &Lab) {
    let board = dashboard::load();
    let exprs = dashboard::exprs(&board);
    assert!(exprs.len() >= 10, "{exprs:?}");
    let mut empty = Vec::new();
    for (title, expr) in &exprs {
        let promql = dashboard::substitute(&board, expr);
        match lab.prometheus.query(&promql) {
            Ok(series) if !series.is_empty() => {}
            Ok(_) => empty.push(format!("{title}: {promql}: no series")),
            Err(e) => empty.push(format!("{title}: {e}")),
        }
    }
    assert!(
        empty.is_empty(),
        "dashboard queries without an answer:\n{}",
        empty.join("\n")
    );
    for (metric, label) in dashboard::label_values(&board) {
        let path = format!(
            "label/{label}/values?{}={}",
            encode("match[]"),
            encode(&metric)
        );
        let values = lab.prometheus.data(&path).unwrap();
        let listed = values.as_array().map_or(0, Vec::len);
        assert!(listed > 0, "label_values({metric}, {label}) is empty");
        for m in lab.members.iter().filter(|_| label == "instance_id") {
            assert!(
                values
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|v| v == m.spec.instance_id),
                "label_values({metric}, {label}) lacks {}: {values}",
                m.spec.instance_id
            );
        }
    }
}
