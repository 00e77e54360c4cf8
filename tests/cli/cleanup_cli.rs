//! `sweep` and `cleanup` against the demo cloud's own leftovers, run as a user runs them: what
//! the sweep flags, that a dry run changes nothing, that each delete is read back, and that
//! what the provider refuses is shown as it said it.

use std::process::Output;

use serde_json::Value;

use super::actions_cli::{Cloud, stderr, stdout};

fn sweep(cloud: &Cloud) -> (Option<i32>, Vec<Value>) {
    let out = cloud.run(&["sweep", "--json"], &[]);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("sweep --json");
    (
        out.status.code(),
        doc["items"].as_array().cloned().unwrap_or_default(),
    )
}

fn ids(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect()
}

fn item<'a>(items: &'a [Value], id: &str) -> &'a Value {
    items.iter().find(|i| i["id"] == id).expect(id)
}

#[test]
fn sweep_flags_the_public_snapshot_and_prices_each_leftover() {
    let cloud = Cloud::new("cleanup-flags");
    let (code, items) = sweep(&cloud);
    assert_eq!(code, Some(3));
    let public = item(&items, "snap-0public");
    assert_eq!(public["public"], true);
    assert_eq!(public["encrypted"], false);
    assert_eq!(public["findings"][0]["severity"], "critical");
    assert_eq!(item(&items, "snap-0gone")["public"], false);
    assert_eq!(item(&items, "vol-0spare")["encrypted"], false);
    assert_eq!(item(&items, "vol-0spare")["monthly_cost"], "80.00");
    let text = cloud.run(&["sweep"], &[]);
    let text = stdout(&text);
    assert!(
        text.contains("CRITICAL snapshot snap-0public: public"),
        "{text}"
    );
}

#[test]
fn a_dry_run_changes_nothing_and_lists_the_calls_in_order() {
    let cloud = Cloud::new("cleanup-dry");
    sweep(&cloud);
    let before = cloud.state();
    let out = cloud.run(
        &[
            "cleanup",
            "--id",
            "snap-0public",
            "--id",
            "vol-0spare",
            "--dry-run",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let disk = text.find("demo: delete data disk vol-0spare").expect(&text);
    let snap = text
        .find("demo: delete snapshot snap-0public")
        .expect(&text);
    assert!(disk < snap, "disks go before snapshots: {text}");
    assert!(text.contains("saves 80.00 USD/month"), "{text}");
    assert!(text.contains("saves: 95.00 USD/month"), "{text}");
    assert_eq!(cloud.state(), before, "a dry run changes nothing");
}

#[test]
fn cleanup_deletes_each_by_id_reads_it_back_and_the_sweep_ends_clean() {
    let cloud = Cloud::new("cleanup-all");
    assert!(cloud.run(&["release", "--yes"], &[]).status.success());
    let (_, items) = sweep(&cloud);
    let found = ids(&items);
    assert!(found.len() >= 8, "{found:?}");
    let mut args = vec!["cleanup", "--yes"];
    for id in &found {
        args.extend(["--id", id.as_str()]);
    }
    let out = cloud.run(&args, &[]);
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    for id in &found {
        assert!(
            text.contains(&format!(" {id}: {id} is no longer listed")),
            "{id}: {text}"
        );
    }
    assert!(
        text.contains(&format!("{0} of {0} deleted", found.len())),
        "{text}"
    );
    let (code, left) = sweep(&cloud);
    assert_eq!((code, left.len()), (Some(0), 0), "{left:?}");
}

#[test]
fn a_refusal_is_shown_as_the_provider_said_it_and_nothing_is_counted_done() {
    let cloud = Cloud::new("cleanup-refused");
    let fail = [("GPUMETER_DEMO_FAIL", "cleanup")];
    let out: Output = cloud.run(&["cleanup", "--id", "vol-0spare", "--yes"], &fail);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("vol-0spare: NOT deleted")
            && text.contains("InternalError")
            && text.contains("0 of 1 deleted"),
        "{text}"
    );
    assert!(ids(&sweep(&cloud).1).contains(&"vol-0spare".to_string()));
}

#[test]
fn filters_choose_and_nothing_is_deleted_by_a_guess() {
    let cloud = Cloud::new("cleanup-filters");
    sweep(&cloud);
    let before = cloud.state();
    let none = cloud.run(&["cleanup", "--yes"], &[]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("--unattached"), "{}", stderr(&none));
    let unknown = cloud.run(&["cleanup", "--id", "vol-0typo", "--yes"], &[]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("vol-0typo"),
        "{}",
        stderr(&unknown)
    );
    let read_only = cloud.run(&["cleanup", "--all", "--yes", "--read-only"], &[]);
    assert_eq!(read_only.status.code(), Some(2), "{}", stderr(&read_only));
    let no_terminal = cloud.run(&["cleanup", "--all"], &[]);
    assert_eq!(no_terminal.status.code(), Some(2));
    assert_eq!(cloud.state(), before, "nothing was deleted");
    // Snapshots older than 30 days: the two orphans, not the instance's own.
    let old = cloud.run(
        &[
            "cleanup",
            "--kind",
            "snapshot",
            "--older-than",
            "30d",
            "--yes",
        ],
        &[],
    );
    assert!(old.status.success(), "{}", stderr(&old));
    let left = ids(&sweep(&cloud).1);
    assert!(!left.contains(&"snap-0gone".into()) && !left.contains(&"snap-0public".into()));
    assert!(
        left.contains(&"snap-0a".into()) && left.contains(&"vol-0spare".into()),
        "{left:?}"
    );
    let unattached = cloud.run(&["cleanup", "--unattached", "--kind", "disk", "--yes"], &[]);
    assert!(unattached.status.success(), "{}", stderr(&unattached));
    assert!(!ids(&sweep(&cloud).1).contains(&"vol-0spare".into()));
}

#[test]
fn sweep_narrows_by_kind_and_age_as_cleanup_does() {
    let cloud = Cloud::new("sweep-narrow");
    let out = cloud.run(
        &[
            "sweep",
            "--json",
            "--kind",
            "snapshot",
            "--older-than",
            "30d",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut found = ids(doc["items"].as_array().unwrap());
    found.sort();
    assert_eq!(found, ["snap-0gone", "snap-0public"]);
    let none = cloud.run(&["sweep", "--kind", "lb"], &[]);
    assert_eq!(
        none.status.code(),
        Some(0),
        "a running instance's load balancer is in use: {}",
        stdout(&none)
    );
    let bad = cloud.run(&["sweep", "--older-than", "soon"], &[]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("--older-than"), "{}", stderr(&bad));
}

#[test]
fn sweep_and_cleanup_choose_by_tag_and_say_where_a_snapshot_came_from() {
    let cloud = Cloud::new("sweep-tags");
    let out = cloud.run(&["sweep", "--json", "--tag", "project=llm"], &[]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = doc["items"].as_array().unwrap();
    assert_eq!(ids(items), ["snap-0gone"]);
    assert_eq!(items[0]["origin"], "i-0gone");
    assert_eq!(items[0]["tags"], serde_json::json!({"project": "llm"}));
    let (_, all) = sweep(&cloud);
    let spare = item(&all, "vol-0spare");
    assert_eq!(spare["origin"], Value::Null);
    assert_eq!(spare["tags"], serde_json::json!({}));
    let by_key = cloud.run(&["sweep", "--json", "--tag", "project"], &[]);
    let doc: Value = serde_json::from_slice(&by_key.stdout).unwrap();
    assert_eq!(ids(doc["items"].as_array().unwrap()), ["snap-0gone"]);
    let text = cloud.run(&["sweep", "--tag", "project=llm"], &[]);
    let text = stdout(&text);
    let header = text.lines().next().unwrap();
    assert!(header.contains(" from "), "{text}");
    let row = text.lines().find(|l| l.contains("snap-0gone")).unwrap();
    assert!(row.contains(" i-0gone "), "{text}");
    let spare = cloud.run(&["sweep"], &[]);
    let spare = stdout(&spare);
    let row = spare.lines().find(|l| l.contains("vol-0spare")).unwrap();
    assert!(row.contains(" - "), "{spare}");
    let other = cloud.run(&["sweep", "--tag", "project=cv"], &[]);
    assert_eq!(other.status.code(), Some(0), "{}", stdout(&other));
    let bad = cloud.run(&["sweep", "--tag", "=llm"], &[]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("--tag"), "{}", stderr(&bad));
    let before = cloud.state();
    let all_and_tag = cloud.run(&["cleanup", "--all", "--tag", "project", "--yes"], &[]);
    assert_eq!(
        all_and_tag.status.code(),
        Some(2),
        "{}",
        stderr(&all_and_tag)
    );
    assert_eq!(cloud.state(), before, "nothing was deleted");
    let tagged = cloud.run(&["cleanup", "--tag", "project=llm", "--yes"], &[]);
    assert!(tagged.status.success(), "{}", stderr(&tagged));
    let left = ids(&sweep(&cloud).1);
    assert!(!left.contains(&"snap-0gone".into()), "{left:?}");
    assert!(
        left.contains(&"snap-0public".into()) && left.contains(&"vol-0spare".into()),
        "{left:?}"
    );
}

#[test]
fn snapshot_clean_by_id_deletes_exactly_the_snapshots_named() {
    let cloud = Cloud::new("snapshot-pick");
    let listed = cloud.run(&["checklist"], &[]);
    assert!(
        stdout(&listed).contains("snap-0a") && stdout(&listed).contains("2d old"),
        "the ages to pick by: {}",
        stdout(&listed)
    );
    let out = cloud.run(
        &[
            "snapshot-clean",
            "--id",
            "snap-0a",
            "--id",
            "snap-0c",
            "--yes",
        ],
        &[],
    );
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let left: Vec<String> = cloud.state()["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "snapshot")
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        left,
        ["snap-0b"],
        "the oldest and the newest were named and went; the one between stayed"
    );
    let orphan = cloud.run(&["snapshot-clean", "--id", "snap-0gone", "--yes"], &[]);
    assert_eq!(
        orphan.status.code(),
        Some(2),
        "not this instance's: {}",
        stderr(&orphan)
    );
    assert!(
        stderr(&orphan).contains("snap-0gone"),
        "{}",
        stderr(&orphan)
    );
    let both = cloud.run(&["snapshot-clean", "--id", "snap-0b", "--keep", "2"], &[]);
    assert_eq!(
        both.status.code(),
        Some(2),
        "--id and --keep are two different plans"
    );
}

#[test]
fn a_delete_past_the_action_deadline_is_reported_unanswered_not_done() {
    let cloud = Cloud::new("cleanup-slow");
    let slow = [
        ("GPUMETER_DEMO_DELAY_MS", "8000"),
        ("GPUMETER_ACTION_DEADLINE", "1s"),
    ];
    let out = cloud.run(&["cleanup", "--id", "vol-0spare", "--yes"], &slow);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        text.contains("vol-0spare: NOT deleted")
            && text.contains("no answer to deleting vol-0spare within 1 s"),
        "{text}"
    );
}
