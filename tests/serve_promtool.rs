//! The example Prometheus config and alert rules pass `promtool`, when it is installed (it is
//! not in CI: the test then says so and passes; `serve_exposition` checks the names always).

use std::process::Command;

fn promtool(args: &[&str]) -> Option<std::process::Output> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/prometheus");
    Command::new("promtool")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()
}

#[test]
fn promtool_accepts_the_rules_and_the_config() {
    let Some(rules) = promtool(&["check", "rules", "gpumeter-alerts.yml"]) else {
        eprintln!("promtool is not installed: skipped");
        return;
    };
    assert!(
        rules.status.success(),
        "{}{}",
        String::from_utf8_lossy(&rules.stdout),
        String::from_utf8_lossy(&rules.stderr)
    );
    let config = promtool(&["check", "config", "prometheus.yml"]).expect("promtool ran once");
    assert!(
        config.status.success(),
        "{}{}",
        String::from_utf8_lossy(&config.stdout),
        String::from_utf8_lossy(&config.stderr)
    );
}
