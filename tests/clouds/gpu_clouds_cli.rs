//! `gpumeter checklist|status|stop|release --provider lambda|runpod|vast` through the binary,
//! pointed at loopback peers with a fake key: what keeps billing, the live price, and the key
//! never in stdout or stderr.

use std::path::PathBuf;
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::gpu_peer::{self, KEY, Kind, Peer};

pub(crate) struct Run {
    pub(crate) dir: PathBuf,
}

impl Run {
    pub(crate) fn new(name: &str) -> Run {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-gpu-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), "").unwrap();
        Run { dir }
    }

    pub(crate) fn gpumeter(&self, peer: &Peer, kind: Kind, args: &[&str]) -> (Output, String) {
        let (provider, id) = match kind {
            Kind::Lambda => ("lambda", gpu_peer::cloud::LAMBDA_ID),
            Kind::Runpod => ("runpod", gpu_peer::cloud::POD_ID),
            Kind::Vast => ("vast", gpu_peer::cloud::VAST_ID),
        };
        let mut cmd = crate::common::gpumeter();
        // Before the subcommand, where every subcommand takes them.
        cmd.args(["--provider", provider, "--instance", id])
            .args(args)
            .arg("--config")
            .arg(self.dir.join("config.toml"))
            .env("GPUMETER_DATA_DIR", &self.dir)
            .stdin(Stdio::null());
        for var in [
            "LAMBDA_API_KEY",
            "RUNPOD_API_KEY",
            "RUNPOD_POD_ID",
            "VAST_API_KEY",
        ] {
            cmd.env_remove(var);
        }
        cmd.env_remove("CONTAINER_ID")
            .env_remove("CONTAINER_API_KEY");
        for (k, v) in peer.env_pairs(kind) {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!all.contains(KEY), "the key was shown: {all}");
        (out, all)
    }
}

#[test]
fn lambda_checklist_lists_the_file_systems_that_survive_termination() {
    let peer = Peer::start(Kind::Lambda);
    let run = Run::new("lambda");
    let (out, text) = run.gpumeter(&peer, Kind::Lambda, &["checklist"]);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains("network volume") && text.contains("fs-old"),
        "{text}"
    );
    // 100 GiB at 0.20 per GiB-month, each.
    assert!(text.contains("20.00 USD/month"), "{text}");
    assert!(
        text.contains("Total that keeps billing: 40.00 USD/month"),
        "{text}"
    );
    let (out, text) = run.gpumeter(&peer, Kind::Lambda, &["stop", "--yes"]);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("lambda cannot stop"), "{text}");
    let (out, text) = run.gpumeter(&peer, Kind::Lambda, &["release", "--yes"]);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("release: done"), "{text}");
}

#[test]
fn runpod_status_prices_compute_live_and_checklist_keeps_the_network_volume() {
    let peer = Peer::start(Kind::Runpod);
    let run = Run::new("runpod");
    let (out, text) = run.gpumeter(&peer, Kind::Runpod, &["checklist", "--json"]);
    assert_eq!(out.status.code(), Some(3), "{text}");
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = list["would_keep_billing"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{list}");
    assert_eq!(items[0]["id"], "nv-data");
    assert_eq!(items[0]["monthly_cost"], "14.00");
    let (out, text) = run.gpumeter(&peer, Kind::Runpod, &["status", "--json"]);
    assert!(out.status.success(), "{text}");
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cost = &status["cost"];
    assert_eq!(cost["price_source"], "live", "{status}");
    let (out, text) = run.gpumeter(&peer, Kind::Runpod, &["stop", "--yes"]);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("EXITED"), "{text}");
}

#[test]
fn runpod_checklist_says_what_it_could_not_check_when_the_key_may_not_list_volumes() {
    const FORBIDDEN: &str = r#"{"title":"Forbidden","status":403,"detail":"this API key may not list network volumes"}"#;
    let peer = Peer::start(Kind::Runpod);
    peer.fault(
        gpu_peer::Fault::Answer(403, FORBIDDEN),
        Some("GET /v2/network-volumes"),
        None,
    );
    let run = Run::new("runpod-scoped");
    let (out, text) = run.gpumeter(&peer, Kind::Runpod, &["checklist"]);
    assert_eq!(out.status.code(), Some(3), "unknown is not nothing: {text}");
    assert!(text.contains("not everything could be read"), "{text}");
    assert!(text.contains("network volumes unknown"), "{text}");
    let (out, text) = run.gpumeter(&peer, Kind::Runpod, &["checklist", "--json"]);
    assert_eq!(out.status.code(), Some(3), "{text}");
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list["instance"], gpu_peer::cloud::POD_ID, "{list}");
    assert!(
        list["unknown"][0].as_str().unwrap().contains("403"),
        "{list}"
    );
    let (out, text) = run.gpumeter(&peer, Kind::Runpod, &["status", "--json"]);
    assert!(out.status.success(), "{text}");
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["cost"]["price_source"], "live", "{status}");
    let unknown = status["unknown_resources"].as_array().unwrap();
    assert_eq!(unknown.len(), 1, "{status}");
}

#[test]
fn vast_checklist_finds_nothing_left_after_destroy_and_missing_keys_are_named() {
    let peer = Peer::start(Kind::Vast);
    let run = Run::new("vast");
    let (out, text) = run.gpumeter(&peer, Kind::Vast, &["checklist"]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("Nothing would keep billing"), "{text}");
    let (out, text) = run.gpumeter(&peer, Kind::Vast, &["release", "--dry-run"]);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("DELETE /api/v0/instances/4242/"), "{text}");
    assert!(
        peer.cloud(|c| c.status.is_some()),
        "a dry run changes nothing"
    );
    let out = crate::common::gpumeter()
        .args([
            "checklist",
            "--provider",
            "vast",
            "--instance",
            "1",
            "--config",
        ])
        .arg(run.dir.join("config.toml"))
        .env("GPUMETER_DATA_DIR", &run.dir)
        .env_remove("VAST_API_KEY")
        .env_remove("CONTAINER_API_KEY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("set VAST_API_KEY"));
}
