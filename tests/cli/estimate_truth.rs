//! The worked examples of `estimate --json`: every line the provider bills, and none read as
//! free when the sheet does not know its price.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

/// A sheet of one SKU at 25 CNY an hour, billed per second after `minimum` seconds, with the
/// given extra TOML.
fn sheet(name: &str, minimum: u32, extra: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpumeter-truth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.toml"));
    let text = format!(
        "id = \"{name}\"\nprovider = \"demo\"\ncurrency = \"CNY\"\nas_of = 2026-01-01\nsource = \"a test\"\n\n\
         [billing]\nstep_seconds = 1\nminimum_seconds = {minimum}\nstop_policy = \"stop-charging\"\n\n\
         [[sku]]\nname = \"a100\"\ngpu_model = \"A100\"\ngpu_count = 1\ngpu_memory_gib = 80\n\
         on_demand_per_hour = \"25\"\n\n[network]\negress_per_unit = \"0\"\n\n{extra}"
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// `estimate --json` on the SKU `a100` of the sheet at `path`, with `rest`.
fn on_sheet(path: &Path, rest: &[&str]) -> Value {
    let mut args = vec![
        "estimate",
        "--sheet",
        path.to_str().unwrap(),
        "--sku",
        "a100",
        "--json",
    ];
    args.extend_from_slice(rest);
    json(&args)
}

fn inline(rest: &[&str]) -> Value {
    let mut args = vec!["estimate", "--currency", "CNY", "--json"];
    args.extend_from_slice(rest);
    json(&args)
}

#[test]
fn a100_at_25_an_hour_against_5000_a_month_over_80_hours() {
    let v = inline(&[
        "--rate",
        "25",
        "--monthly",
        "5000",
        "--hours-per-day",
        "8",
        "--days",
        "10",
    ]);
    assert_eq!(v["modes"]["on_demand"]["total"]["known"], "2000.00");
    assert_eq!(v["modes"]["monthly"]["total"]["known"], "5000.00");
    assert_eq!(v["cheapest"], "on_demand");
}

#[test]
fn twenty_three_an_hour_ten_hours_a_day_for_a_week_against_6500() {
    let v = inline(&[
        "--rate",
        "23",
        "--monthly",
        "6500",
        "--hours-per-day",
        "10",
        "--days",
        "7",
    ]);
    assert_eq!(v["modes"]["on_demand"]["total"]["known"], "1610.00");
    assert_eq!(v["modes"]["monthly"]["total"]["known"], "6500.00");
    assert_eq!(v["break_even_hours_per_month"], "282.61");
}

#[test]
fn five_hundred_gb_of_egress_at_0_8_and_at_1_per_gb() {
    for (rate, bandwidth) in [("0.8", "400.00"), ("1", "500.00")] {
        let v = inline(&[
            "--rate",
            "25",
            "--hours-per-day",
            "8",
            "--days",
            "10",
            "--egress-gb",
            "500",
            "--egress-rate",
            rate,
        ]);
        assert_eq!(v["modes"]["on_demand"]["bandwidth"], bandwidth);
    }
}

#[test]
fn two_tb_kept_for_a_30_day_plan_is_one_month_of_storage() {
    let v = inline(&[
        "--rate",
        "25",
        "--hours-per-day",
        "8",
        "--days",
        "30",
        "--storage-gb",
        "2000",
        "--storage-rate",
        "1",
    ]);
    assert_eq!(v["month_hours"], 720);
    assert_eq!(v["modes"]["on_demand"]["storage"], "2000.00");
}

#[test]
fn an_idle_load_balancer_bills_every_hour_of_a_month() {
    let path = sheet("lb", 0, "[extras]\nload_balancer_per_hour = \"0.42\"\n");
    let v = on_sheet(
        &path,
        &[
            "--hours-per-day",
            "0",
            "--days",
            "30",
            "--load-balancers",
            "1",
        ],
    );
    // 0.42 x 720 hours, with nothing running.
    assert_eq!(v["modes"]["on_demand"]["compute"], "0.00");
    assert_eq!(v["modes"]["on_demand"]["extras"], "302.40");
}

#[test]
fn four_short_runs_a_day_bill_the_minimum_and_the_boot_fee_each() {
    let path = sheet("boot", 3600, "[extras]\nboot_fee = \"5\"\n");
    let v = on_sheet(
        &path,
        &["--hours-per-day", "1", "--runs-per-day", "4", "--days", "1"],
    );
    // Four 15-minute runs, each billed the 1-hour minimum at 25 and a 5.00 boot fee: not 25.
    assert_eq!(v["modes"]["on_demand"]["compute"], "100.00");
    assert_eq!(v["modes"]["on_demand"]["extras"], "20.00");
    assert_eq!(v["modes"]["on_demand"]["total"]["known"], "120.00");
}

#[test]
fn a_31_day_plan_buys_a_month_and_a_day_on_demand() {
    let v = inline(&[
        "--rate",
        "25",
        "--monthly",
        "5000",
        "--hours-per-day",
        "24",
        "--days",
        "31",
    ]);
    assert_eq!(v["modes"]["monthly"]["total"]["known"], "10000.00");
    assert_eq!(v["modes"]["mixed"]["total"]["known"], "5600.00");
    assert_eq!(v["modes"]["mixed"]["months"], "1");
    assert_eq!(v["modes"]["mixed"]["on_demand_days"], "1");
    assert_eq!(v["cheapest"], "mixed");
}

#[test]
fn unknown_egress_is_named_not_priced_at_zero() {
    let v = json(&[
        "estimate",
        "--provider",
        "tencent-ap-beijing",
        "--sku",
        "GT4.4XLARGE96",
        "--hours-per-day",
        "8",
        "--days",
        "10",
        "--egress-gb",
        "500",
        "--storage-gb",
        "100",
        "--json",
    ]);
    let on_demand = &v["modes"]["on_demand"];
    assert_eq!(on_demand["compute"], "2295.20");
    assert_eq!(
        on_demand["unknown"],
        serde_json::json!(["network.egress_per_unit", "storage.disk"])
    );
    // An unknown amount is null with the reason beside it, never "0.00".
    assert_eq!(on_demand["bandwidth"], Value::Null);
    assert_eq!(on_demand["storage"], Value::Null);
    assert_eq!(
        on_demand["unavailable"]["bandwidth"],
        "no price for network.egress_per_unit"
    );
    assert_eq!(
        on_demand["unavailable"]["storage"],
        "no price for storage.disk"
    );
    assert_eq!(on_demand["total"]["incomplete"], true);
    assert_eq!(on_demand["total"]["unknown"].as_array().unwrap().len(), 2);
}

#[test]
fn the_table_shows_an_incomplete_total_as_a_lower_bound() {
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args([
            "estimate",
            "--provider",
            "tencent-ap-beijing",
            "--sku",
            "GT4.4XLARGE96",
            "--hours-per-day",
            "8",
            "--days",
            "10",
            "--egress-gb",
            "500",
        ])
        .output()
        .expect("the binary runs");
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().find(|l| l.starts_with("on-demand")).unwrap();
    assert!(
        row.contains("unknown") && row.contains("≥ 2295.20 + 1 unknown"),
        "{row}"
    );
}

#[test]
fn spot_shows_its_expected_reruns() {
    let v = inline(&[
        "--spot-rate",
        "2",
        "--hours-per-day",
        "12",
        "--days",
        "10",
        "--checkpoint-every",
        "1h",
        "--reclaims-per-day",
        "0.5",
    ]);
    assert_eq!(v["modes"]["spot"]["rerun"], "2.50");
    assert_eq!(v["modes"]["spot"]["compute"], "242.50");
    let v = inline(&[
        "--spot-rate",
        "2",
        "--hours-per-day",
        "12",
        "--days",
        "10",
        "--checkpoint-every",
        "1h",
    ]);
    assert_eq!(
        v["modes"]["spot"]["unknown"],
        serde_json::json!(["billing.reclaims_per_day"])
    );
}
