//! The Grafana dashboard in deploy/grafana, read as Grafana reads it: its panels' PromQL with
//! the template variables filled in, and its query variables.

use serde_json::Value;

/// The dashboard's path in the repository.
pub const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/grafana/gpumeter.json");

/// The dashboard, parsed.
pub fn load() -> Value {
    let text = std::fs::read_to_string(PATH).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{PATH}: {e}"))
}

/// Every panel (rows' nested panels included).
pub fn panels(dashboard: &Value) -> Vec<&Value> {
    let mut out = Vec::new();
    for panel in dashboard["panels"].as_array().into_iter().flatten() {
        out.push(panel);
        out.extend(panel["panels"].as_array().into_iter().flatten());
    }
    out
}

/// Every `(panel title, expr)` of every panel's targets, as written.
pub fn exprs(dashboard: &Value) -> Vec<(String, String)> {
    panels(dashboard)
        .into_iter()
        .flat_map(|panel| {
            let title = panel["title"].as_str().unwrap_or("?").to_string();
            panel["targets"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|t| t["expr"].as_str())
                .map(move |e| (title.clone(), e.to_string()))
        })
        .collect()
}

/// `expr` as Grafana sends it with every variable at "All": the dashboard's own variables
/// become their `allValue` (a regex matching every value), Grafana's interval variables a
/// fixed range. Fails on a variable it does not know, so a new one needs a value here.
pub fn substitute(dashboard: &Value, expr: &str) -> String {
    let mut out = expr.to_string();
    for (name, value) in [
        ("$__rate_interval", "1m"),
        ("$__interval", "15s"),
        ("$__range", "1d"),
    ] {
        out = out.replace(name, value);
    }
    for var in dashboard["templating"]["list"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let name = var["name"].as_str().unwrap_or_default();
        let all = var["allValue"].as_str().unwrap_or(".*");
        for form in [format!("${{{name}}}"), format!("${name}")] {
            out = out.replace(&form, all);
        }
    }
    assert!(
        !out.contains('$'),
        "an unknown variable in {expr:?}: {out:?}"
    );
    out
}

/// The `(metric, label)` of each `label_values(metric, label)` query variable.
pub fn label_values(dashboard: &Value) -> Vec<(String, String)> {
    dashboard["templating"]["list"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|v| v["type"] == "query")
        .map(|v| {
            let query = v["query"]["query"].as_str().or(v["query"].as_str());
            let inner = query
                .and_then(|q| q.trim().strip_prefix("label_values("))
                .and_then(|q| q.strip_suffix(')'))
                .unwrap_or_else(|| panic!("variable {}: not label_values(...): {v}", v["name"]));
            let (metric, label) = inner.split_once(',').unwrap();
            (metric.trim().to_string(), label.trim().to_string())
        })
        .collect()
}
