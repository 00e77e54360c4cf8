//! The example Prometheus config and alert rules pass `promtool`, and the rules pass their unit
//! tests (`deploy/prometheus/gpumeter-alerts.test.yml`, run by `promtool test rules`). Without
//! `promtool` these tests say so and pass, unless `CI` is set: then they fail. `serve_exposition`
//! checks the metric names always.

use std::io::ErrorKind;
use std::process::{Command, Output};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/prometheus");

/// `promtool ARGS` in deploy/prometheus, or `None` (said as every missing peer is) when promtool
/// is not installed.
fn promtool(args: &[&str]) -> Option<Output> {
    match Command::new("promtool")
        .args(args)
        .current_dir(DIR)
        .output()
    {
        Ok(output) => Some(output),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            crate::peer::missing("promtool");
            None
        }
        Err(e) => panic!("promtool {}: {e}", args.join(" ")),
    }
}

fn assert_success(args: &[&str], output: &Output) {
    assert!(
        output.status.success(),
        "promtool {} failed ({}):\n{}{}",
        args.join(" "),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn promtool_accepts_the_rules_and_the_config() {
    for args in [
        ["check", "rules", "gpumeter-alerts.yml"],
        ["check", "config", "prometheus.yml"],
    ] {
        let Some(output) = promtool(&args) else {
            return;
        };
        assert_success(&args, &output);
    }
}

#[test]
fn the_alert_rules_pass_their_unit_tests() {
    let args = ["test", "rules", "gpumeter-alerts.test.yml"];
    let Some(output) = promtool(&args) else {
        return;
    };
    assert_success(&args, &output);
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("SUCCESS"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

/// Every alert in the rules has unit tests, and the tests name no alert the rules lack; runs
/// without promtool.
#[test]
fn every_alert_has_unit_tests() {
    let read = |name: &str| std::fs::read_to_string(format!("{DIR}/{name}")).unwrap();
    let rules = read("gpumeter-alerts.yml");
    let tests = read("gpumeter-alerts.test.yml");
    let names = |text: &str, key: &str| -> std::collections::BTreeSet<String> {
        text.lines()
            .filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix(key))
            .map(|n| n.trim().to_string())
            .collect()
    };
    let alerts = names(&rules, "alert:");
    assert_eq!(alerts.len(), 5, "{alerts:?}");
    assert_eq!(alerts, names(&tests, "alertname:"));
    assert!(
        tests.contains("- gpumeter-alerts.yml"),
        "the tests load the rules"
    );
}
