//! `gpumeter --provider command` run as a user runs it, against the file-backed cloud script in
//! tests/command_scripts.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Prices the script's cloud: its SKU, a default disk class and snapshots.
const SHEET: &str = r#"
id = "cmd-cloud"
provider = "command"
currency = "USD"
as_of = 2026-11-01
source = "made up for the tests"
[billing]
step_seconds = 1
minimum_seconds = 0
stop_policy = "stop-charging"
[[sku]]
name = "A100-80G"
gpu_model = "A100"
gpu_count = 1
gpu_memory_gib = 80
on_demand_per_hour = "1.89"
[network]
egress_per_unit = "0"
[storage]
snapshot_per_gib_month = "0.05"
[storage.disk]
default = "0.10"
"#;

struct Setup {
    dir: PathBuf,
}

impl Setup {
    fn new(name: &str, with_inventory: bool) -> Setup {
        let dir = std::env::temp_dir().join(format!(
            "gpumeter-command-cli-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("cloud")).unwrap();
        let cloud = format!(
            "{}/tests/command_scripts/cloud.sh",
            env!("CARGO_MANIFEST_DIR")
        );
        let state = dir.join("cloud").display().to_string();
        let inventory = if with_inventory {
            format!("inventory = [{cloud:?}, \"inventory\", {state:?}]\n")
        } else {
            String::new()
        };
        let config = format!(
            "[instance]\nid = \"i-cmd\"\n\n[command]\n\
             release = [{cloud:?}, \"release\", {state:?}]\n\
             stop = [\"sh\", \"-c\", \"echo stopping {{instance}} >&2; exit 7\"]\n\
             {inventory}timeout = \"20s\"\n"
        );
        std::fs::write(dir.join("sheet.toml"), SHEET).unwrap();
        std::fs::write(dir.join("config.toml"), config).unwrap();
        Setup { dir }
    }

    /// Names the sheet and SKU in the config, as a user of a cloud without a bundled sheet does.
    fn priced(self) -> Setup {
        let path = self.dir.join("config.toml");
        let config = std::fs::read_to_string(&path).unwrap();
        let pricing = "[pricing]\nsheet = \"sheet.toml\"\nsku = \"A100-80G\"\n\n";
        let config = config.replace("[instance]\n", "[instance]\nprovider = \"command\"\n");
        std::fs::write(&path, format!("{pricing}{config}")).unwrap();
        self
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_gpumeter"))
            .arg("--config")
            .arg(self.dir.join("config.toml"))
            .arg("--data-dir")
            .arg(self.dir.join("data"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn checklist_and_release_through_the_binary() {
    let s = Setup::new("release", true);
    let out = s.run(&["checklist", "--provider", "command"]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let listed = text(&out);
    assert!(listed.contains("After releasing i-cmd"), "{listed}");
    assert!(
        listed.contains("vol-data") && listed.contains("snap-2"),
        "{listed}"
    );

    let json = s.run(&["checklist", "--provider", "command", "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["instance"], "i-cmd");
    assert_eq!(value["would_keep_billing"].as_array().unwrap().len(), 4);

    let dry = s.run(&["release", "--provider", "command", "--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{}", text(&dry));
    assert!(text(&dry).contains("cloud.sh release"), "{}", text(&dry));

    let release = s.run(&["release", "--provider", "command", "--yes"]);
    assert_eq!(release.status.code(), Some(0), "{}", text(&release));
    assert!(
        text(&release).contains("release: done; the provider reports release confirmed"),
        "{}",
        text(&release)
    );
    let after = s.run(&["checklist", "--provider", "command"]);
    assert_eq!(after.status.code(), Some(3), "{}", text(&after));
    // The ledger saw it listed and released: it is named, not "no instance".
    assert!(
        text(&after).contains("i-cmd is released; these are still billing:"),
        "{}",
        text(&after)
    );
}

#[test]
fn a_failing_command_and_an_unverifiable_one_are_not_done() {
    let s = Setup::new("fail", true);
    let stop = s.run(&["stop", "--provider", "command", "--yes"]);
    assert_ne!(stop.status.code(), Some(0), "{}", text(&stop));
    let shown = text(&stop);
    assert!(shown.contains("NOT confirmed"), "{shown}");
    assert!(
        shown.contains("stopping i-cmd") && shown.contains("exit status 7"),
        "{shown}"
    );

    let blind = Setup::new("blind", false);
    let out = blind.run(&["checklist", "--provider", "command"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(text(&out).contains("[command] inventory"), "{}", text(&out));
    let release = blind.run(&["release", "--provider", "command", "--yes"]);
    assert_ne!(release.status.code(), Some(0), "{}", text(&release));
    assert!(
        text(&release).contains("done by exit status; not verified"),
        "{}",
        text(&release)
    );
}

#[test]
fn after_a_release_status_prices_the_leftovers_as_checklist_does() {
    let s = Setup::new("priced", true).priced();
    let json = |args: &[&str]| -> serde_json::Value {
        let out = s.run(args);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{}", text(&out)))
    };
    let status = ["status", "--json"];
    let before = json(&status);
    assert!(before["cost"].is_object(), "{before}");
    let release = s.run(&["release", "--provider", "command", "--yes"]);
    assert_eq!(release.status.code(), Some(0), "{}", text(&release));

    let checklist = json(&["checklist", "--provider", "command", "--json"]);
    // 500 GiB at 0.10 and three 50 GiB snapshots at 0.05, a month.
    assert_eq!(checklist["leftover_monthly_cost"], "57.50");
    // The provider no longer lists it: still the instance released, not "no instance".
    assert_eq!(checklist["instance"], "i-cmd", "{checklist}");
    assert_eq!(checklist["instance_state"], "released", "{checklist}");
    let listed = text(&s.run(&["checklist", "--provider", "command"]));
    assert!(
        listed.contains("i-cmd is released; these are still billing:"),
        "{listed}"
    );
    let after = json(&status);
    // The provider no longer lists it; the ledger saw it and its release.
    assert_eq!(after["instance"]["id"], "i-cmd", "{after}");
    assert_eq!(after["instance"]["state"], "released", "{after}");
    assert!(after["instance"]["released_at"].is_string(), "{after}");
    assert_eq!(after["leftover_monthly_cost"], "57.50", "{after}");
    let cost = &after["cost"];
    assert!(cost.is_object(), "{after}");
    let dec =
        |v: &serde_json::Value| -> rust_decimal::Decimal { v.as_str().unwrap().parse().unwrap() };
    assert!(
        dec(&cost["storage"]) > rust_decimal::Decimal::ZERO,
        "{cost}"
    );
    // What it cost before its release stays counted, and nothing is unknown.
    assert_eq!(cost["incomplete"], false, "{cost}");
    assert!(
        dec(&cost["compute"]) >= dec(&before["cost"]["compute"]),
        "{before} -> {after}"
    );
    assert!(dec(&cost["total"]) >= dec(&before["cost"]["total"]));
    // The report reads the same ledger: what outlived the release is still billing there.
    let report = json(&["report", "--json"]);
    let still: Vec<&str> = report["still_billing"]
        .as_array()
        .unwrap_or_else(|| panic!("{report}"))
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert!(
        still.contains(&"vol-data") && still.contains(&"snap-2"),
        "{report}"
    );
    // Compute stopped at the release: a later reading adds storage only.
    let later = json(&status);
    assert_eq!(later["cost"]["compute"], cost["compute"], "{later}");
    // 57.50 a month of storage over 730 hours; no 1.89 an hour of compute.
    assert_eq!(later["cost"]["burn_per_hour"], "0.08", "{later}");
}

#[test]
fn a_sheet_for_another_region_is_named_as_an_estimate() {
    let s = Setup::new("region", true).priced();
    let sheet = s.dir.join("sheet.toml");
    let with_region = SHEET.replace("currency =", "region = \"us-east-1\"\ncurrency =");
    std::fs::write(&sheet, with_region).unwrap();
    let json = |args: &[&str]| -> serde_json::Value {
        let out = s.run(args);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{}", text(&out)))
    };
    let expected = serde_json::json!({
        "kind": "other_region",
        "sheet": "cmd-cloud",
        "sheet_region": "us-east-1",
        "instance_region": "eu-west-1",
    });
    let line = "prices: sheet cmd-cloud (us-east-1) used as an estimate for eu-west-1";
    for command in ["status", "checklist"] {
        let value = json(&["--region", "eu-west-1", command, "--json"]);
        assert_eq!(value["price_source"], expected, "{command}: {value}");
        let out = s.run(&["--region", "eu-west-1", command]);
        assert!(text(&out).contains(line), "{command}: {}", text(&out));
        // The sheet's own region is no estimate, and says nothing in text.
        let value = json(&["--region", "us-east-1", command, "--json"]);
        assert_eq!(value["price_source"]["kind"], "sheet", "{command}: {value}");
        let out = s.run(&["--region", "us-east-1", command]);
        assert!(
            !text(&out).contains("used as an estimate"),
            "{}",
            text(&out)
        );
    }
}
