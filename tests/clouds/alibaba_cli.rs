//! The `gpumeter` binary with `--provider alibaba`, against the loopback peer: checklist, a dry
//! run, release, release again, and what the checklist says afterwards.

use std::process::{Output, Stdio};

use serde_json::Value;

use crate::alibaba_peer::cloud::{DATA_DISK, EIP, IMAGE, SLB};
use crate::alibaba_peer::{INSTANCE, KEY_ID, Peer, SECRET};

/// A data directory and an empty config file of the test's own.
fn workdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "gpumeter-alibaba-cli-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "").unwrap();
    dir
}

fn run(peer: &Peer, args: &[&str]) -> Output {
    let dir = workdir("main");
    let out = crate::common::gpumeter()
        .args(args)
        .args([
            "--provider",
            "alibaba",
            "--instance",
            INSTANCE,
            "--region",
            "cn-hangzhou",
        ])
        .arg("--config")
        .arg(dir.join("config.toml"))
        .env("GPUMETER_DATA_DIR", &dir)
        .env("ALIBABA_CLOUD_ACCESS_KEY_ID", KEY_ID)
        .env("ALIBABA_CLOUD_ACCESS_KEY_SECRET", SECRET)
        .env("ALIBABA_CLOUD_REGION_ID", "cn-hangzhou")
        .env("GPUMETER_ALIBABA_ENDPOINT", peer.url())
        .env("GPUMETER_ALIBABA_METADATA", peer.url())
        .env_remove("ALIBABA_CLOUD_SECURITY_TOKEN")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains(SECRET), "the secret leaked: {all}");
    out
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn checklist_release_and_the_leftovers_through_the_binary() {
    let Some(peer) = Peer::start() else {
        return;
    };

    let out = run(&peer, &["checklist", "--json"]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list["instance"], INSTANCE);
    assert_eq!(list["currency"], "CNY");
    let items = list["would_keep_billing"].as_array().unwrap();
    let ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert_eq!(items.len(), 7, "{ids:?}");
    for id in [DATA_DISK, EIP, SLB, IMAGE] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    // Snapshots at 0.12 CNY/GiB-month: 40 + 500 + 40 GiB = 69.60; the idle EIP 0.01/h × 730 h.
    let cost = |id: &str| items.iter().find(|i| i["id"] == id).unwrap()["monthly_cost"].clone();
    assert_eq!(cost(EIP), "7.30");
    assert_eq!(
        cost(DATA_DISK),
        Value::Null,
        "cloud_essd is not priced in the sheet"
    );
    // The unpriced disk keeps billing too: no total, the known part and what it leaves out.
    assert_eq!(list["leftover_monthly_cost"], Value::Null);
    let still = &list["still_billing_monthly"];
    assert_eq!(still["known"], "76.90");
    assert_eq!(still["incomplete"], true);
    assert!(
        still["unknown"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u.as_str().unwrap().contains(DATA_DISK)),
        "{still}"
    );

    let out = run(&peer, &["release", "--dry-run"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("ecs DeleteInstance InstanceId="),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("Force=true"));
    assert!(
        peer.cloud(|c| c.instance.is_some()),
        "a dry run changes nothing"
    );
    assert_eq!(peer.count("DeleteInstance"), 0);

    let out = run(&peer, &["release"]);
    assert!(!out.status.success(), "no terminal and no --yes: refused");
    assert_eq!(peer.count("DeleteInstance"), 0);

    let out = run(&peer, &["release", "--yes"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("release: done"), "{}", text(&out));
    assert!(peer.cloud(|c| c.instance.is_none()));

    let out = run(&peer, &["release", "--yes"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("already released"), "{}", text(&out));

    let out = run(&peer, &["checklist"]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let shown = text(&out);
    for id in [DATA_DISK, EIP, IMAGE] {
        assert!(shown.contains(id), "{id} missing after release: {shown}");
    }
    let _ = std::fs::remove_dir_all(workdir("main"));
}

#[test]
fn a_missing_secret_names_the_variable() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let dir = workdir("nosecret");
    let out = crate::common::gpumeter()
        .args(["checklist", "--provider", "alibaba", "--instance", INSTANCE])
        .env("ALIBABA_CLOUD_ACCESS_KEY_ID", KEY_ID)
        .env_remove("ALIBABA_CLOUD_ACCESS_KEY_SECRET")
        .env("ALIBABA_CLOUD_REGION_ID", "cn-hangzhou")
        .env("GPUMETER_ALIBABA_ENDPOINT", peer.url())
        .arg("--config")
        .arg(dir.join("config.toml"))
        .env("GPUMETER_DATA_DIR", &dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "a missing credential is bad input"
    );
    assert!(
        text(&out).contains("ALIBABA_CLOUD_ACCESS_KEY_SECRET"),
        "{}",
        text(&out)
    );
    assert!(peer.calls().is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn keys_only_in_the_aliyun_cli_file_work_through_the_binary() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let dir = workdir("clifile");
    let home = dir.join("home");
    std::fs::create_dir_all(home.join(".aliyun")).unwrap();
    let config = serde_json::json!({
        "current": "default",
        "profiles": [{"name": "default", "mode": "AK", "access_key_id": KEY_ID,
                      "access_key_secret": SECRET, "region_id": "cn-hangzhou"}]
    });
    std::fs::write(home.join(".aliyun/config.json"), config.to_string()).unwrap();
    let gpumeter = |home: &std::path::Path, more: &[(&str, &str)]| {
        crate::common::gpumeter()
            .args(["checklist", "--provider", "alibaba", "--instance", INSTANCE])
            .arg("--config")
            .arg(dir.join("config.toml"))
            .env("GPUMETER_DATA_DIR", &dir)
            .env("HOME", home)
            .env("GPUMETER_ALIBABA_ENDPOINT", peer.url())
            .env("GPUMETER_ALIBABA_METADATA", peer.url())
            .env_remove("ALIBABA_CLOUD_ACCESS_KEY_ID")
            .env_remove("ALIBABA_CLOUD_ACCESS_KEY_SECRET")
            .env_remove("ALIBABA_CLOUD_SECURITY_TOKEN")
            .env_remove("ALIBABA_CLOUD_REGION_ID")
            .env_remove("ALIBABA_CLOUD_PROFILE")
            .env_remove("ALIBABA_CLOUD_ECS_METADATA_DISABLED")
            .envs(more.iter().copied())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = gpumeter(&home, &[]);
    // 3: the checklist found what keeps billing, so the calls were signed with the file's keys.
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    assert!(text(&out).contains(DATA_DISK), "{}", text(&out));
    // The profile's region picks the bundled cn-hangzhou sheet, as the variable would.
    assert!(text(&out).contains("60.00 CNY/month"), "{}", text(&out));
    assert!(!text(&out).contains(SECRET), "{}", text(&out));
    assert!(!peer.calls().is_empty());
    let empty = dir.join("empty-home");
    std::fs::create_dir_all(&empty).unwrap();
    // With no file and the metadata service switched off, nothing is left to try.
    let off = [
        ("ALIBABA_CLOUD_ECS_METADATA_DISABLED", "true"),
        ("ALIBABA_CLOUD_REGION_ID", "cn-hangzhou"),
    ];
    let out = gpumeter(&empty, &off);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let t = text(&out);
    let vars = t
        .find("ALIBABA_CLOUD_ACCESS_KEY_ID/ALIBABA_CLOUD_ACCESS_KEY_SECRET")
        .expect(&t);
    let file = t.find(".aliyun/config.json").expect(&t);
    let ini = t.find(".alibabacloud/credentials.ini").expect(&t);
    assert!(vars < file && file < ini, "{t}");
    let _ = std::fs::remove_dir_all(dir);
}
