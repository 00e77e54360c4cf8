//! The checklist and the destructive commands against the demo cloud, run as a user runs them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub(super) struct Cloud {
    dir: PathBuf,
}

impl Cloud {
    pub(super) fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-actions-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Cloud { dir }
    }

    pub(super) fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
        cmd.args(args)
            .arg("--demo")
            .env("GPUMETER_DATA_DIR", &self.dir)
            .env("GPUMETER_DEMO_DELAY_MS", "0")
            .env_remove("GPUMETER_DEMO_FAIL")
            .stdin(Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    }

    pub(super) fn state(&self) -> Value {
        let text = std::fs::read_to_string(self.dir.join("demo-cloud.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    pub(super) fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Cloud {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub(super) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub(super) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn checklist_lists_survivors_with_monthly_cost_and_exits_3() {
    let cloud = Cloud::new("checklist");
    let out = cloud.run(&["checklist", "--json"], &[]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let items = v["would_keep_billing"].as_array().unwrap();
    let ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert!(
        ids.contains(&"vol-0data") && !ids.contains(&"vol-0root"),
        "{ids:?}"
    );
    let data = items.iter().find(|i| i["id"] == "vol-0data").unwrap();
    // 2000 GiB of gp3 at 0.08 per GiB-month.
    assert_eq!(data["monthly_cost"], "160.00");
    assert_eq!(v["currency"], "USD");
    assert!(cloud.path().join("demo-cloud.json").exists());
}

#[test]
fn release_without_a_terminal_or_yes_is_refused_and_changes_nothing() {
    let cloud = Cloud::new("refuse");
    let out = cloud.run(&["release"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--yes"), "{}", stderr(&out));
    assert_eq!(cloud.state()["instance"]["state"], "running");
}

#[test]
fn dry_run_prints_the_calls_and_changes_nothing() {
    let cloud = Cloud::new("dry");
    let out = cloud.run(&["release", "--dry-run"], &[]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("demo: release i-0demo4a100f00d"), "{text}");
    assert!(
        text.contains("keeps billing afterwards") && text.contains("160.00 USD/month"),
        "{text}"
    );
    assert_eq!(cloud.state()["instance"]["state"], "running");
}

#[test]
fn release_with_yes_is_read_back_and_survivors_remain() {
    let cloud = Cloud::new("release");
    let out = cloud.run(&["release", "--yes"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("released"));
    let state = cloud.state();
    assert_eq!(state["instance"]["state"], "released");
    let ids: Vec<&str> = state["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(
        !ids.contains(&"vol-0root") && ids.contains(&"vol-0data"),
        "{ids:?}"
    );
    let again = cloud.run(&["release", "--yes"], &[]);
    assert!(again.status.success());
    assert!(
        stdout(&again).contains("already released"),
        "{}",
        stdout(&again)
    );
}

#[test]
fn a_refused_action_exits_1_and_leaves_the_state_as_the_provider_reports_it() {
    let cloud = Cloud::new("fail");
    let out = cloud.run(&["stop", "--yes"], &[("GPUMETER_DEMO_FAIL", "stop")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("refused to stop"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("\ngpumeter: fix (unreachable): gpumeter demo cloud is failing"),
        "{}",
        stderr(&out)
    );
    assert_eq!(cloud.state()["instance"]["state"], "running");
}

#[test]
fn snapshot_clean_keeps_the_newest_and_extend_moves_the_held_deadline() {
    let cloud = Cloud::new("snap");
    let out = cloud.run(&["snapshot-clean", "--keep", "1", "--yes"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let snaps: Vec<String> = cloud.state()["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "snapshot")
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(snaps, vec!["snap-0c".to_string()]);

    // "Alert only" with no deadline the provider holds: extend sets none there (at Alibaba and
    // Tencent one would delete the instance), and says so. No watchdog runs, so the answer
    // says nothing enforces the new deadline, and how to fix that.
    let out = cloud.run(&["extend", "2h", "--yes"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(cloud.state()["deadline"].is_null(), "{}", cloud.state());
    let said = stdout(&out);
    assert!(
        said.contains("NOT ENFORCED: nothing alerts then: no watchdog runs")
            && said.contains("`gpumeter watchdog`")
            && said.contains("holds no release"),
        "{said}"
    );
    assert!(!said.contains("the watchdog alerts"), "{said}");
    // `status` shows the deadline extend set, not only one the provider holds, as not enforced.
    let status = cloud.run(&["status", "--json"], &[]);
    let v: Value = serde_json::from_slice(&status.stdout).unwrap();
    let d = &v["deadline"];
    assert_eq!(d["on_expiry"], "alert", "{v}");
    assert_eq!(d["held_by_provider"], false, "{d}");
    assert!(d["enforced_by"].is_null(), "{d}");
    assert_eq!(d["not_enforced_reason"], "no watchdog runs", "{d}");
    assert!(
        d["fix"].as_str().unwrap().contains("`gpumeter watchdog`"),
        "{d}"
    );
    let text = stdout(&cloud.run(&["status"], &[]));
    assert!(
        text.contains("enforced  NOT ENFORCED: no watchdog runs"),
        "{text}"
    );

    // With release at expiry, the provider holds it, and a second extend moves it.
    let cloud = Cloud::new("snap-release");
    let config = cloud.path().join("release.toml");
    std::fs::write(&config, "[deadline]\non_expiry = \"release\"\n").unwrap();
    let config = config.to_str().unwrap();
    let out = cloud.run(&["extend", "2h", "--yes", "--config", config], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let first = cloud.state()["deadline"]["at"]
        .as_str()
        .unwrap()
        .to_string();
    // The provider now holds one: moved even under the ledger's policy.
    let out = cloud.run(&["extend", "30m", "--yes"], &[]);
    assert!(out.status.success());
    let second: jiff::Timestamp = cloud.state()["deadline"]["at"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let first: jiff::Timestamp = first.parse().unwrap();
    assert_eq!(second.duration_since(first).as_secs(), 30 * 60);
}

#[test]
fn read_only_refuses_destructive_commands() {
    let cloud = Cloud::new("ro");
    let out = cloud.run(&["release", "--yes", "--read-only"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("read-only"));
    assert!(
        !cloud.path().join("demo-cloud.json").exists(),
        "nothing touched"
    );
}

#[test]
fn extend_moves_the_shared_deadline_and_the_watchdog_sees_it() {
    let cloud = Cloud::new("extend-ledger");
    let out = cloud.run(&["extend", "1h"], &[]);
    assert!(
        out.status.success(),
        "extend does not ask: {}",
        stderr(&out)
    );
    let out = cloud.run(&["watchdog", "--status"], &[]);
    let text = stdout(&out);
    assert!(
        text.contains("deadline") && !text.contains("no deadline"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(1), "no watchdog runs in this test");
    let out = cloud.run(&["extend", "30m", "--dry-run"], &[]);
    assert!(
        stdout(&out).contains("ledger: guard row of i-0demo4a100f00d"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_hostile_name_tag_reaches_neither_the_terminal_nor_a_line_of_its_own() {
    let cloud = Cloud::new("hostile");
    let first = cloud.run(&["checklist", "--json"], &[]);
    assert_eq!(first.status.code(), Some(3), "{}", stderr(&first));
    let forged = "data\n  Total that keeps billing: 0.00 USD/month\x1b]52;c;cHduZWQ=\x07\x1b[2K\r";
    let mut state = cloud.state();
    let data = state["resources"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|r| r["id"] == "vol-0data")
        .unwrap();
    data["name"] = Value::from(forged);
    state["instance"]["name"] = Value::from("llm\x1b[1A\x1b[2Kfinetune");
    std::fs::write(
        cloud.path().join("demo-cloud.json"),
        serde_json::to_string(&state).unwrap(),
    )
    .unwrap();
    for args in [
        &["checklist"][..],
        &["release", "--dry-run"],
        &["snapshot-clean", "--keep", "1", "--dry-run"],
        &["status"],
    ] {
        let out = cloud.run(args, &[]);
        for bytes in [&out.stdout, &out.stderr] {
            assert!(
                !bytes.iter().any(|b| matches!(b, 0x1b | 0x07 | b'\r')),
                "{args:?}: {}",
                String::from_utf8_lossy(bytes)
            );
        }
        let text = stdout(&out);
        assert!(
            !text
                .lines()
                .any(|l| l.trim_start().starts_with("Total that keeps billing: 0.00")),
            "{args:?}: a forged line\n{text}"
        );
    }
}

/// A refused provider write leaves the ledger's deadline where it was, and says so.
#[test]
fn a_failed_extend_leaves_the_ledger_at_the_old_deadline() {
    let cloud = Cloud::new("extend-fail");
    let config = cloud.path().join("release.toml");
    std::fs::write(&config, "[deadline]\non_expiry = \"release\"\n").unwrap();
    let config = config.to_str().unwrap();
    let out = cloud.run(
        &["extend", "1h", "--config", config],
        &[("GPUMETER_DEMO_FAIL", "set deadline")],
    );
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("the ledger keeps the old deadline"),
        "{}",
        stderr(&out)
    );
    let out = cloud.run(&["watchdog", "--status"], &[]);
    assert!(
        !stdout(&out).contains("deadline") || stdout(&out).contains("no deadline"),
        "{}",
        stdout(&out)
    );
}

/// The ids a dry run's confirmation lists under `heading` ("deleted:", "keeps billing
/// afterwards:"), snapshots only.
fn listed_snapshots(text: &str, heading: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| l.trim() != heading)
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .filter_map(|l| l.trim().strip_prefix("snapshot "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

fn snapshot_ids(state: &Value) -> Vec<String> {
    state["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "snapshot")
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn snapshot_clean_deletes_exactly_what_the_dry_run_promised_with_tied_times_and_an_image() {
    let cloud = Cloud::new("snap-plan");
    assert!(cloud.run(&["checklist"], &[]).status.code() == Some(3));
    // Three snapshots of one multi-volume snapshot share a second, listed out of id order,
    // and an older one backs the custom image.
    let mut state = cloud.state();
    let resources = state["resources"].as_array_mut().unwrap();
    let tied = resources
        .iter()
        .find(|r| r["id"] == "snap-0c")
        .unwrap()
        .clone();
    for r in resources.iter_mut() {
        if r["kind"] == "snapshot" {
            r["created"] = tied["created"].clone();
        }
    }
    let mut behind = tied.clone();
    behind["id"] = "snap-00image".into();
    behind["created"] = "2020-01-01T00:00:00Z".into();
    behind["backs_image"] = "ami-0train".into();
    resources.push(behind);
    std::fs::write(
        cloud.path().join("demo-cloud.json"),
        serde_json::to_string(&state).unwrap(),
    )
    .unwrap();
    let before = snapshot_ids(&cloud.state());

    let dry = cloud.run(&["snapshot-clean", "--keep", "2", "--dry-run"], &[]);
    assert!(dry.status.success(), "{}", stderr(&dry));
    let text = stdout(&dry);
    let mut promised = listed_snapshots(&text, "deleted:");
    let survivors = listed_snapshots(&text, "keeps billing afterwards:");
    assert_eq!(promised, vec!["snap-0a"], "{text}");
    assert_eq!(
        survivors,
        vec!["snap-0c", "snap-0b", "snap-00image"],
        "{text}"
    );

    let out = cloud.run(&["snapshot-clean", "--keep", "2", "--yes"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let after = snapshot_ids(&cloud.state());
    let mut gone: Vec<String> = before.into_iter().filter(|b| !after.contains(b)).collect();
    gone.sort();
    promised.sort();
    assert_eq!(gone, promised, "deleted exactly what was promised");
    for s in &survivors {
        assert!(after.contains(s), "{s} was promised to survive: {after:?}");
    }
}

#[test]
fn an_action_with_no_answer_by_the_deadline_is_not_done_and_says_what_to_check() {
    let cloud = Cloud::new("deadline");
    let started = std::time::Instant::now();
    let out = cloud.run(
        &["snapshot-clean", "--keep", "1", "--yes"],
        &[
            ("GPUMETER_DEMO_DELAY_MS", "60000"),
            ("GPUMETER_ACTION_DEADLINE", "2s"),
        ],
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "bounded by the deadline, not the provider"
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("snapshot-clean: NOT confirmed"), "{err}");
    assert!(err.contains("within 2 s"), "{err}");
    assert!(err.contains("gpumeter checklist"), "{err}");
    assert!(!stdout(&out).contains("done"), "{}", stdout(&out));
}

#[test]
fn after_a_release_only_what_still_applies_runs_and_nothing_asks() {
    let cloud = Cloud::new("after-release");
    let out = cloud.run(&["release", "--yes"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let calls_before = cloud.state();
    // No --yes and no terminal: a command that went on to ask would refuse with exit 2.
    for (action, why) in [
        ("stop", "there is nothing to stop"),
        ("release", "already released"),
    ] {
        let out = cloud.run(&[action], &[]);
        assert_eq!(out.status.code(), Some(0), "{action}: {}", stderr(&out));
        let said = stdout(&out);
        assert!(
            said.contains("nothing to do") && said.contains(why),
            "{action}: {said}"
        );
    }
    assert_eq!(cloud.state(), calls_before, "nothing was sent to the cloud");
    let out = cloud.run(&["extend", "2h"], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("nothing to extend"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn sweep_lists_what_bills_with_no_running_instance_before_and_after_a_release() {
    let cloud = Cloud::new("sweep");
    let rows = |out: &Output| -> Vec<String> {
        stdout(out)
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("bills "))
            .filter_map(|l| l.split_whitespace().nth(1).map(str::to_string))
            .collect()
    };
    let before = cloud.run(&["sweep"], &[]);
    assert_eq!(before.status.code(), Some(3), "{}", stderr(&before));
    let running = rows(&before);
    assert!(
        running
            .iter()
            .all(|id| id.starts_with("snap-") || id.starts_with("ami-") || id == "vol-0spare"),
        "the instance's snapshots and image, and the account's leftovers: {running:?}"
    );
    assert!(
        running.iter().any(|id| id == "snap-0c") && !running.iter().any(|id| id == "vol-0data"),
        "a running instance's disks, address and load balancer are in use: {running:?}"
    );
    assert!(cloud.run(&["release", "--yes"], &[]).status.success());
    let after = cloud.run(&["sweep", "--json"], &[]);
    assert_eq!(after.status.code(), Some(3));
    let doc: Value = serde_json::from_slice(&after.stdout).unwrap();
    let ids: Vec<&str> = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    // What the release left: the data disk, the snapshots, the image, the address, the load
    // balancer; the root disk went with the instance.
    for id in [
        "vol-0data",
        "snap-0a",
        "ami-0train",
        "eipalloc-0d",
        "lb-0api",
    ] {
        assert!(
            ids.contains(&id),
            "{id} outlived the release and is not listed: {ids:?}"
        );
    }
    assert!(!ids.contains(&"vol-0root"), "{ids:?}");
    assert_eq!(ids[0], "vol-0data", "the 2000 GiB disk costs most");
    assert_eq!(
        doc["unpriced"], 1,
        "the load balancer has no price, and is not zero"
    );
    let lb = &doc["items"].as_array().unwrap()[ids.len() - 1];
    assert_eq!(lb["monthly_cost"], Value::Null);
}

#[test]
fn start_brings_a_stopped_instance_back_and_says_when_there_is_nothing_to_start() {
    let cloud = Cloud::new("start");
    let out = cloud.run(&["start"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("already running"), "{}", stdout(&out));
    assert!(cloud.run(&["stop", "--yes"], &[]).status.success());
    assert_eq!(cloud.state()["instance"]["state"], "stopped");
    // No terminal and no --yes: starting bills again, so it asks and is refused.
    let out = cloud.run(&["start"], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let out = cloud.run(&["start", "--yes"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("start: done"), "{}", stdout(&out));
    assert_eq!(cloud.state()["instance"]["state"], "running");
    assert!(cloud.run(&["release", "--yes"], &[]).status.success());
    let out = cloud.run(&["start"], &[]);
    assert!(
        stdout(&out).contains("nothing to start"),
        "{}",
        stdout(&out)
    );
}
