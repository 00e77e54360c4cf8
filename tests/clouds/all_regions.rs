//! `gpumeter sweep --all-regions`: against moto, every region the account has enabled is swept
//! by an adapter of its own and priced by its own sheet, each row naming its region; the flag
//! and `--region` together are refused; a provider without regions (the demo) is swept once.

use std::path::Path;
use std::process::{Output, Stdio};

use gpumeter::provider::aws::credentials::Credentials;
use gpumeter::provider::aws::query::Ec2;
use serde_json::Value;

use crate::aws_moto::{SECRET, call, env, grab, no_secret_anywhere, policy, rt};
use crate::common::moto::moto;

/// The binary with `args`, its files in `dir`, aimed at moto at `url` (when given).
fn gpumeter(dir: &Path, url: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = crate::common::gpumeter();
    cmd.args(args)
        .env("GPUMETER_DATA_DIR", dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE")
        .env_remove("AWS_DEFAULT_REGION")
        .stdin(Stdio::null());
    if let Some(url) = url {
        cmd.env("AWS_ACCESS_KEY_ID", "AKIDMOTOTEST")
            .env("AWS_SECRET_ACCESS_KEY", SECRET)
            .env("AWS_REGION", "us-east-1")
            .env("AWS_ENDPOINT_URL", url);
    }
    cmd.output().unwrap()
}

fn ec2(url: &str, region: &str) -> Ec2 {
    let creds = Credentials::from_env(&env(url)).unwrap();
    Ec2::new(url, region, creds, policy()).unwrap()
}

/// A detached disk of `gib` GiB in `region`'s first zone.
async fn detached_disk(url: &str, region: &str, gib: &str) -> String {
    let zone = format!("{region}a");
    grab(
        &call(
            &ec2(url, region),
            "CreateVolume",
            &[("AvailabilityZone", &zone), ("Size", gib)],
        )
        .await,
        "volumeId",
    )
}

/// An elastic IP in `region`, associated with nothing.
async fn idle_address(url: &str, region: &str) -> String {
    grab(
        &call(&ec2(url, region), "AllocateAddress", &[("Domain", "vpc")]).await,
        "allocationId",
    )
}

#[test]
fn every_enabled_region_is_swept_and_each_row_names_its_region_against_moto() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    // us-east-1's sheet prices the disk (gp2, 10 USD); eu-west-1's prices the address (3.65
    // USD) but no disk class, so its disk is unpriced and comes last.
    let east = rt.block_on(detached_disk(&moto.url, "us-east-1", "100"));
    let west_ip = rt.block_on(idle_address(&moto.url, "eu-west-1"));
    let west = rt.block_on(detached_disk(&moto.url, "eu-west-1", "700"));
    let dir = tempfile::tempdir().unwrap();
    let out = gpumeter(
        dir.path(),
        Some(&moto.url),
        &["sweep", "--provider", "aws", "--all-regions", "--json"],
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let said = format!("{text}{}", String::from_utf8_lossy(&out.stderr));
    no_secret_anywhere(dir.path(), &said);
    assert_eq!(out.status.code(), Some(3), "two disks bill: {said}");
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {said}"));
    let items = doc["items"].as_array().unwrap();
    let region_of = |id: &str| {
        let found: Vec<&Value> = items.iter().filter(|i| i["id"] == id).collect();
        assert_eq!(found.len(), 1, "{id} once: {items:?}");
        found[0]["region"].as_str().unwrap().to_string()
    };
    assert_eq!(region_of(&east), "us-east-1");
    assert_eq!(
        region_of(&west),
        "eu-west-1",
        "swept by eu-west-1's own adapter"
    );
    assert_eq!(region_of(&west_ip), "eu-west-1");
    let ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [east.as_str(), west_ip.as_str(), west.as_str()],
        "the dearest first across regions, the unpriced last, nothing else anywhere"
    );
    assert_eq!(items[0]["monthly_cost"], "10.00");
    assert_eq!(items[2]["monthly_cost"], Value::Null);
    assert_eq!(doc["unpriced"], 1);
    // Each region priced by its own sheet.
    let regions = doc["regions"].as_array().unwrap();
    let sheet_of = |region: &str| {
        regions
            .iter()
            .find(|r| r["region"] == region)
            .unwrap_or_else(|| panic!("{region} not swept: {regions:?}"))["sheet"]
            .clone()
    };
    assert_eq!(sheet_of("us-east-1"), "aws-us-east-1");
    assert_eq!(sheet_of("eu-west-1"), "aws-eu-west-1");
    assert!(regions.len() > 2, "every region moto enables: {regions:?}");
    assert_eq!(doc["not_checked"], Value::Array(Vec::new()));
    let totals = doc["monthly_totals"].as_array().unwrap();
    assert_eq!(totals.len(), 1, "one currency: {totals:?}");
    assert_eq!(totals[0]["currency"], "USD");
    assert_eq!(doc["monthly_total"], totals[0]["monthly_total"]);
    let calls = moto.calls();
    assert_eq!(
        calls
            .iter()
            .filter(|c| c.starts_with("ec2 DescribeRegions"))
            .count(),
        1,
        "the regions asked once: {calls:?}"
    );
    // The text names each row's region.
    let out = gpumeter(
        dir.path(),
        Some(&moto.url),
        &["sweep", "--provider", "aws", "--all-regions"],
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(3), "{text}");
    let row = |id: &str| {
        text.lines()
            .find(|l| l.contains(id))
            .unwrap_or_else(|| panic!("{id}: {text}"))
    };
    assert!(row(&west).starts_with("eu-west-1 "), "{text}");
    assert!(row(&east).starts_with("us-east-1 "), "{text}");
    assert!(text.lines().next().unwrap().starts_with("region"), "{text}");
}

#[test]
fn all_regions_and_one_region_together_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &[
            "sweep",
            "--provider",
            "aws",
            "--all-regions",
            "--region",
            "us-east-1",
        ][..],
        &[
            "--region",
            "us-east-1",
            "sweep",
            "--provider",
            "aws",
            "--all-regions",
        ][..],
    ] {
        let out = gpumeter(dir.path(), None, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("--all-regions"), "{args:?}: {err}");
    }
}

#[test]
fn the_demo_has_no_regions_and_is_swept_once() {
    let dir = tempfile::tempdir().unwrap();
    let once = gpumeter(dir.path(), None, &["--demo", "sweep", "--json"]);
    let all = gpumeter(
        dir.path(),
        None,
        &["--demo", "sweep", "--all-regions", "--json"],
    );
    assert_eq!(all.status.code(), Some(3), "the demo's leftovers bill");
    let (once, all): (Value, Value) = (
        serde_json::from_slice(&once.stdout).unwrap(),
        serde_json::from_slice(&all.stdout).unwrap(),
    );
    let ids = |doc: &Value| -> Vec<String> {
        doc["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                assert_eq!(i["region"], Value::Null, "no region to name: {i}");
                i["id"].as_str().unwrap().to_string()
            })
            .collect()
    };
    assert!(!ids(&all).is_empty());
    assert_eq!(ids(&all), ids(&once), "the same one sweep");
    assert_eq!(all["monthly_total"], once["monthly_total"]);
    assert_eq!(all["not_checked"], Value::Array(Vec::new()));
}
