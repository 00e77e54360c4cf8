//! The cloud half of `status --json` on the demo cloud: instance, cost, resources, leftovers.

use std::process::Command;

use serde_json::Value;

fn status(dir: &std::path::Path, extra: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["status", "--demo", "--json", "--gpus", "2"])
        .args(extra)
        .env("GPUMETER_DATA_DIR", dir)
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn dec(v: &Value) -> rust_decimal::Decimal {
    v.as_str()
        .expect("money is a decimal string")
        .parse()
        .unwrap()
}

#[test]
fn status_reports_the_instance_its_cost_and_what_survives_release() {
    let dir = std::env::temp_dir().join(format!("gpumeter-status-cloud-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let v = status(&dir, &[]);
    assert_eq!(v["instance"]["id"], "i-0demo4a100f00d");
    assert_eq!(v["instance"]["state"], "running");
    assert_eq!(v["instance"]["sku"], "p4de.24xlarge");
    let cost = &v["cost"];
    assert_eq!(cost["currency"], "USD");
    let parts = ["compute", "bandwidth", "storage", "extras"].map(|k| dec(&cost[k]));
    assert_eq!(
        parts.iter().sum::<rust_decimal::Decimal>(),
        dec(&cost["total"])
    );
    // p4de.24xlarge at 27.44705 per hour for the demo's 3 h 20 min, within a minute of slack.
    let compute = dec(&cost["compute"]);
    assert!(
        compute >= "91.49".parse().unwrap() && compute < "92.00".parse().unwrap(),
        "{compute}"
    );
    assert!(dec(&cost["billed"]) >= dec(&cost["total"]));
    assert_eq!(cost["price_source"], "sheet:aws-us-east-1");
    let resources = v["resources"].as_array().unwrap();
    let root = resources.iter().find(|r| r["id"] == "vol-0root").unwrap();
    assert_eq!(root["survives_release"], false);
    let data = resources.iter().find(|r| r["id"] == "vol-0data").unwrap();
    assert_eq!(data["survives_release"], true);
    assert_eq!(data["monthly_cost_after_release"], "160.00");
    // Something in it has no price (the load balancer): no total, the known part and the
    // reason beside it.
    assert!(v["leftover_monthly_cost"].is_null(), "{v}");
    let still = &v["still_billing_monthly"];
    assert_eq!(still["known"], "293.65");
    assert_eq!(still["incomplete"], true);
    assert!(
        still["unknown"][0]
            .as_str()
            .unwrap()
            .starts_with("load balancer"),
        "{still}"
    );
    assert_eq!(root["monthly_cost_after_release"], "0.00");
    assert!(v["deadline"].is_null());

    // Release at expiry: the demo cloud holds the deadline itself, as Alibaba would.
    let config = dir.join("release.toml");
    std::fs::write(&config, "[deadline]\non_expiry = \"release\"\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["extend", "90m", "--yes", "--demo", "--config"])
        .arg(&config)
        .env("GPUMETER_DATA_DIR", &dir)
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .output()
        .unwrap();
    assert!(out.status.success());
    let v = status(&dir, &[]);
    let left = v["deadline"]["remaining_s"].as_i64().unwrap();
    assert!((90 * 60 - 60..=90 * 60).contains(&left), "{left}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn without_a_provider_the_cloud_fields_are_null_with_a_reason() {
    let dir = std::env::temp_dir().join(format!("gpumeter-status-none-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["status", "--json", "--config", "/nonexistent-dir/none.toml"])
        .env("GPUMETER_DATA_DIR", &dir)
        .output()
        .unwrap();
    // An explicit config path that does not exist is an error naming it.
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("none.toml"));

    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["status", "--json"])
        .env("GPUMETER_DATA_DIR", &dir)
        .env("XDG_CONFIG_HOME", &dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["instance"].is_null() && v["cost"].is_null());
    assert!(
        v["cloud_error"]
            .as_str()
            .unwrap()
            .contains("no provider configured")
    );
}

#[test]
fn the_total_never_goes_down_at_a_release_and_names_what_is_unknown() {
    let dir = std::env::temp_dir().join(format!("gpumeter-status-release-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let before = status(&dir, &[]);
    let cost = &before["cost"];
    assert_eq!(
        cost["unknown"],
        serde_json::json!(["load balancer lb-0api: extras.load_balancer_per_hour unknown"])
    );
    assert_eq!(cost["incomplete"], true);

    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["release", "--yes", "--demo"])
        .env("GPUMETER_DATA_DIR", &dir)
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = status(&dir, &[]);
    assert_eq!(after["instance"]["state"], "released");
    // The root disk went with the instance; what it accrued until then stays counted.
    for line in ["storage", "total"] {
        assert!(
            dec(&after["cost"][line]) >= dec(&cost[line]),
            "{line}: {} -> {}",
            cost[line],
            after["cost"][line]
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
