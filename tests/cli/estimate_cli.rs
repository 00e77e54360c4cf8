//! `gpumeter estimate` run as a user runs it: the built binary, its stdout, stderr and status.

use std::process::{Command, Output};

use serde_json::Value;

fn gpumeter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(args: &[&str]) -> Value {
    let out = gpumeter(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

const ISSUE_EXAMPLE: &[&str] = &[
    "estimate",
    "--rate",
    "25",
    "--monthly",
    "5000",
    "--hours-per-day",
    "8",
    "--days",
    "10",
    "--currency",
    "CNY",
];

#[test]
fn the_issue_example_prints_the_comparison() {
    let out = gpumeter(ISSUE_EXAMPLE);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("80 h"), "{text}");
    let on_demand = text.lines().find(|l| l.starts_with("on-demand")).unwrap();
    assert!(
        on_demand.contains("2000.00") && on_demand.contains("cheapest"),
        "{on_demand}"
    );
    let monthly = text.lines().find(|l| l.starts_with("monthly")).unwrap();
    assert!(monthly.contains("5000.00"), "{monthly}");
    assert!(text.contains("200.00 hours"), "{text}");
    assert!(
        text.contains("checkpoint") && text.contains("cannot be refunded"),
        "{text}"
    );
}

#[test]
fn the_issue_example_as_json() {
    let mut args = ISSUE_EXAMPLE.to_vec();
    args.push("--json");
    let v = json(&args);
    assert_eq!(v["currency"], "CNY");
    assert_eq!(v["plan"]["hours"], "80");
    assert_eq!(v["plan"]["days"], "10");
    assert_eq!(v["plan"]["gpus"], 1);
    assert_eq!(v["modes"]["on_demand"]["compute"], "2000.00");
    assert_eq!(v["modes"]["on_demand"]["total"]["known"], "2000.00");
    assert_eq!(v["modes"]["monthly"]["total"]["known"], "5000.00");
    assert!(
        v["modes"].get("spot").is_none(),
        "a mode with no price is absent"
    );
    assert_eq!(v["cheapest"], "on_demand");
    assert_eq!(v["break_even_hours_per_month"], "200.00");
}

#[test]
fn gpus_multiply_inline_prices_and_storage_covers_the_whole_plan() {
    let v = json(&[
        "estimate",
        "--rate",
        "2",
        "--spot-rate",
        "0.8",
        "--gpus",
        "4",
        "--hours-per-day",
        "6",
        "--days",
        "73",
        "--currency",
        "USD",
        "--storage-gb",
        "100",
        "--storage-rate",
        "0.1",
        "--egress-gb",
        "50",
        "--egress-rate",
        "0.09",
        "--json",
    ]);
    // 4 GPUs x 2 USD x 6 h x 73 days.
    assert_eq!(v["modes"]["on_demand"]["compute"], "3504.00");
    assert_eq!(v["modes"]["spot"]["compute"], "1401.60");
    // 100 GB x 0.1 per GB-month for 73 x 24 = 1752 hours of 720-hour (inline) months: 24.33.
    assert_eq!(v["modes"]["on_demand"]["storage"], "24.33");
    assert_eq!(v["modes"]["on_demand"]["bandwidth"], "4.50");
    assert_eq!(v["modes"]["spot"]["total"]["known"], "1430.43");
    assert_eq!(v["cheapest"], "spot");
    assert!(v["break_even_hours_per_month"].is_null());
}

fn fails_naming(args: &[&str], flag: &str) {
    let out = gpumeter(args);
    assert_eq!(out.status.code(), Some(2), "exit status for {args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(flag), "stderr should name {flag}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
}

#[test]
fn bad_flags_get_a_one_line_error_naming_the_flag() {
    fails_naming(
        &[
            "estimate",
            "--rate",
            "1",
            "--hours-per-day",
            "-1",
            "--days",
            "3",
            "--currency",
            "USD",
        ],
        "--hours-per-day",
    );
    fails_naming(
        &[
            "estimate",
            "--rate",
            "1",
            "--hours-per-day",
            "25",
            "--days",
            "3",
            "--currency",
            "USD",
        ],
        "--hours-per-day",
    );
    fails_naming(
        &[
            "estimate",
            "--rate",
            "1",
            "--hours-per-day",
            "8",
            "--days",
            "3",
        ],
        "--currency",
    );
    fails_naming(
        &[
            "estimate",
            "--rate",
            "1",
            "--hours-per-day",
            "8",
            "--days",
            "0",
            "--currency",
            "USD",
        ],
        "--days",
    );
    fails_naming(
        &[
            "estimate",
            "--rate",
            "1",
            "--hours-per-day",
            "8",
            "--days",
            "3",
            "--currency",
            "usd",
        ],
        "--currency",
    );
    fails_naming(
        &[
            "estimate",
            "--rate",
            "-1",
            "--hours-per-day",
            "8",
            "--days",
            "3",
            "--currency",
            "USD",
        ],
        "--rate",
    );
}

#[test]
fn a_bundled_sheet_prices_per_instance_times_instances() {
    let v = json(&[
        "estimate",
        "--provider",
        "lambda",
        "--sku",
        "gpu_1x_a100",
        "--instances",
        "2",
        "--hours-per-day",
        "10",
        "--days",
        "3",
        "--json",
    ]);
    // 2 instances x 1.99 USD x 30 h.
    assert_eq!(v["currency"], "USD");
    assert_eq!(v["sku"], "gpu_1x_a100");
    assert_eq!(v["plan"]["gpus"], 2);
    assert_eq!(v["modes"]["on_demand"]["compute"], "119.40");
}

#[test]
fn a_user_sheet_extending_a_bundled_one_overrides_only_its_keys() {
    let dir = std::env::temp_dir().join(format!("gpumeter-estimate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.toml");
    std::fs::write(
        &path,
        "extends = \"lambda\"\nid = \"my-lambda\"\n\n[[sku]]\nname = \"gpu_1x_a100\"\non_demand_per_hour = \"1.50\"\nmonthly = \"900\"\n",
    )
    .unwrap();
    let v = json(&[
        "estimate",
        "--sheet",
        path.to_str().unwrap(),
        "--sku",
        "gpu_1x_a100",
        "--hours-per-day",
        "10",
        "--days",
        "3",
        "--json",
    ]);
    assert_eq!(v["modes"]["on_demand"]["compute"], "45.00");
    assert_eq!(v["modes"]["monthly"]["compute"], "900.00");
    assert_eq!(v["break_even_hours_per_month"], "600.00");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_unknown_sku_or_sheet_is_a_one_line_error() {
    fails_naming(
        &[
            "estimate",
            "--provider",
            "lambda",
            "--sku",
            "gpu_9x_nope",
            "--hours-per-day",
            "1",
            "--days",
            "1",
        ],
        "--sku",
    );
    fails_naming(
        &[
            "estimate",
            "--provider",
            "nowhere",
            "--sku",
            "x",
            "--hours-per-day",
            "1",
            "--days",
            "1",
        ],
        "--provider",
    );
    fails_naming(
        &[
            "estimate",
            "--provider",
            "lambda",
            "--rate",
            "3",
            "--sku",
            "gpu_1x_a100",
            "--hours-per-day",
            "1",
            "--days",
            "1",
        ],
        "--rate",
    );
}
