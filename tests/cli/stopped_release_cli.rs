//! `status` on a stopped demo instance with `[idle] stopped_release_after`: the release's
//! countdown, whose clock it is, what it erases and that no watchdog enforces it, in JSON, in
//! text and in Chinese; a start ends it.

use serde_json::Value;

use super::actions_cli::{Cloud, stderr, stdout};

#[test]
fn status_counts_down_to_the_release_of_a_stopped_instance() {
    let cloud = Cloud::new("stopped-release");
    let config = cloud.path().join("config.toml");
    std::fs::write(&config, "[idle]\nstopped_release_after = \"3d\"\n").unwrap();
    let config = config.to_str().unwrap();
    let status = |args: &[&str]| {
        let mut all = vec!["status", "--config", config];
        all.extend_from_slice(args);
        cloud.run(&all, &[])
    };
    let json = |out: &std::process::Output| -> Value {
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(out)))
    };
    let running = json(&status(&["--json"]));
    assert!(running["stopped_release"].is_null(), "{running}");

    let stop = cloud.run(&["stop", "--yes"], &[]);
    assert!(stop.status.success(), "{}", stderr(&stop));
    let v = json(&status(&["--json"]));
    let id = v["instance"]["id"].as_str().unwrap().to_string();
    let s = &v["stopped_release"];
    assert_eq!(s["by"], "policy", "{s}");
    assert_eq!(
        s["since_from"], "provider",
        "the demo dates its shutdowns: {s}"
    );
    assert_eq!(s["after_s"], 3 * 86_400, "{s}");
    let left = s["remaining_s"].as_i64().unwrap();
    assert!((3 * 86_400 - 120..=3 * 86_400).contains(&left), "{s}");
    let erases: Vec<&str> = s["erases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert!(erases.contains(&id.as_str()), "{s}");
    assert!(
        erases.contains(&"vol-0root"),
        "the disk deleted with it: {s}"
    );
    assert!(!erases.contains(&"vol-0data"), "a disk that survives: {s}");
    assert_eq!(s["enforced"], false, "no watchdog runs: {s}");
    assert!(
        v["forced_release"].is_null(),
        "the demo keeps stopped instances"
    );

    let text = stdout(&status(&[]));
    assert!(
        text.contains("released  by stopped_release_after in 2d23h"),
        "{text}"
    );
    assert!(
        text.contains(&format!("erases {id}, vol-0root; a start resets the clock")),
        "{text}"
    );
    assert!(
        text.contains("NOT ENFORCED: no watchdog enforces stopped_release_after"),
        "{text}"
    );
    let chinese = stdout(&status(&["--lang", "zh-CN"]));
    assert!(
        chinese.contains("将按 stopped_release_after 在 2d23h"),
        "{chinese}"
    );
    assert!(chinese.contains("未执行"), "{chinese}");
    assert!(!chinese.contains("NOT ENFORCED"), "{chinese}");

    let start = cloud.run(&["start", "--yes"], &[]);
    assert!(start.status.success(), "{}", stderr(&start));
    let started = json(&status(&["--json"]));
    assert!(
        started["stopped_release"].is_null(),
        "a start ends it: {started}"
    );
}

/// `stopped_release_snapshot`: `status` says the release waits on a final snapshot, in JSON
/// and in text; without it, it says nothing of one.
#[test]
fn status_says_a_final_snapshot_comes_first_where_one_is_chosen() {
    let cloud = Cloud::new("stopped-release-snapshot");
    let stop = cloud.run(&["stop", "--yes"], &[]);
    assert!(stop.status.success(), "{}", stderr(&stop));
    for (chosen, said) in [(true, true), (false, false)] {
        let config = cloud.path().join(format!("config-{chosen}.toml"));
        std::fs::write(
            &config,
            format!(
                "[idle]\nstopped_release_after = \"3d\"\nstopped_release_snapshot = {chosen}\n"
            ),
        )
        .unwrap();
        let config = config.to_str().unwrap();
        let out = cloud.run(&["status", "--json", "--config", config], &[]);
        let v: Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
        assert_eq!(v["stopped_release"]["final_snapshot_first"], said, "{v}");
        let text = stdout(&cloud.run(&["status", "--config", config], &[]));
        assert_eq!(
            text.contains("a final snapshot of its disks is taken first"),
            said,
            "{text}"
        );
    }
}
