//! `gpumeter estimate --compare`: one plan across every bundled sheet, ranked by total.

use std::process::{Command, Output};

use serde_json::Value;

/// Runs with an empty config, so that no user config changes the rates or the sheets.
fn gpumeter(config: &str, args: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("gpumeter-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("config-{}.toml", config.len()));
    std::fs::write(&path, config).unwrap();
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .arg("--config")
        .arg(&path)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(config: &str, args: &[&str]) -> Value {
    let out = gpumeter(config, args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

const A100_80: &[&str] = &[
    "estimate",
    "--compare",
    "--gpu",
    "A100 80GB",
    "--hours-per-day",
    "8",
    "--days",
    "10",
];

#[test]
fn every_bundled_a100_80gb_offer_ranked_by_total_in_cny() {
    let mut args = A100_80.to_vec();
    args.extend(["--fx", "USD:CNY=7.12", "--json"]);
    let v = json("", &args);
    assert_eq!(v["currency"], "CNY");
    assert_eq!(v["plan"]["hours"], "80");
    let offers = v["offers"].as_array().unwrap();
    let totals: Vec<f64> = offers
        .iter()
        .map(|o| o["converted_total"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(totals.windows(2).all(|w| w[0] <= w[1]), "{totals:?}");
    let sheets: std::collections::BTreeSet<&str> = offers
        .iter()
        .map(|o| o["sheet"].as_str().unwrap())
        .collect();
    for sheet in [
        "aws-us-east-1",
        "alibaba-cn-hangzhou",
        "lambda",
        "runpod",
        "vast-typical",
    ] {
        assert!(sheets.contains(sheet), "{sheet} missing: {sheets:?}");
    }
    assert!(
        offers
            .iter()
            .all(|o| o["gpu_model"].as_str().unwrap().contains("A100"))
    );
    // Vast's 0.87 USD for 80 h at 7.12: 495.55 CNY, the cheapest.
    assert_eq!(offers[0]["sku"], "1x-a100-pcie");
    assert_eq!(offers[0]["total"]["known"], "69.60");
    assert_eq!(offers[0]["currency"], "USD");
    assert_eq!(offers[0]["converted_total"], "495.55");
    assert_eq!(offers[0]["as_of"], "2026-11-29");
    let alibaba_spot = offers
        .iter()
        .find(|o| o["sku"] == "ecs.gn7e-c16g1.4xlarge" && o["mode"] == "spot")
        .unwrap();
    assert_eq!(alibaba_spot["converted_total"], "868.32");
    assert_eq!(v["not_comparable"].as_array().unwrap().len(), 0);
}

#[test]
fn the_table_marks_stale_sheets_and_lists_what_cannot_be_converted() {
    let out = gpumeter("", A100_80);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // No rate given: totals in USD, the CNY sheets listed apart, not dropped.
    assert!(text.contains("totals in USD"), "{text}");
    assert!(text.contains("Not comparable: no rate to USD"), "{text}");
    assert!(text.contains("alibaba-cn-hangzhou"), "{text}");
    let aws = text.lines().find(|l| l.contains("p4de.24xlarge")).unwrap();
    assert!(aws.contains("2026-01-21 stale"), "{aws}");
}

#[test]
fn an_incomplete_offer_is_listed_apart_never_ranked_above_a_whole_one() {
    let mut args = A100_80.to_vec();
    args.extend([
        "--egress-gb",
        "500",
        "--storage-gb",
        "100",
        "--fx",
        "USD:CNY=7.12",
        "--json",
    ]);
    let v = json("", &args);
    let offers = v["offers"].as_array().unwrap();
    let incomplete = v["incomplete"].as_array().unwrap();
    assert!(!offers.is_empty() && !incomplete.is_empty(), "{v}");
    for o in offers {
        assert_eq!(o["total"]["incomplete"], false, "{o}");
        assert!(o["per_gpu_hour"].is_string(), "{o}");
    }
    for o in incomplete {
        assert_eq!(o["total"]["incomplete"], true, "{o}");
        assert_eq!(o["converted_total"], Value::Null, "{o}");
        assert_eq!(o["per_gpu_hour"], Value::Null, "{o}");
        assert!(o["converted_known"].is_string(), "{o}");
    }
    // The cheapest-looking offer of all is incomplete (no disk price), yet not first.
    let known = |o: &Value, k: &str| o[k].as_str().unwrap().parse::<f64>().unwrap();
    assert!(known(&incomplete[0], "converted_known") < known(&offers[0], "converted_total"));

    let mut args = A100_80.to_vec();
    args.extend([
        "--egress-gb",
        "500",
        "--storage-gb",
        "100",
        "--fx",
        "USD:CNY=7.12",
    ]);
    let text = String::from_utf8(gpumeter("", &args).stdout).unwrap();
    let first = text
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap();
    assert!(
        !first.contains("incomplete") && !first.contains('≥'),
        "{text}"
    );
    assert!(text.contains("per GPU-h"), "{text}");
    assert!(text.contains("\nIncomplete: "), "{text}");
}

#[test]
fn the_config_fx_table_gives_rates_and_the_currency() {
    let mut args = A100_80.to_vec();
    args.push("--json");
    let v = json("[fx]\nrates = [\"USD:CNY=7.12\"]\n", &args);
    assert_eq!(v["currency"], "CNY");
    assert_eq!(v["offers"][0]["converted_total"], "495.55");
}

#[test]
fn a_malformed_rate_or_currency_names_the_flag() {
    for (flag, value, named) in [
        ("--fx", "USD/CNY=7.12", "--fx"),
        ("--fx", "USD:CNY=abc", "--fx"),
        ("--currency", "yuan", "--currency"),
    ] {
        let mut args = A100_80.to_vec();
        args.extend([flag, value]);
        let out = gpumeter("", &args);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(named) && err.contains("expected"), "{err}");
    }
}

const RTX_4090: &[&str] = &[
    "estimate",
    "--compare",
    "--gpu",
    "4090",
    "--hours-per-day",
    "8",
    "--days",
    "10",
    "--currency",
    "CNY",
];

/// The offer of `sheet`'s `sku` in `list` (`offers` or `incomplete`).
fn offer<'a>(v: &'a Value, list: &str, sheet: &str, sku: &str) -> &'a Value {
    v[list]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["sheet"] == sheet && o["sku"] == sku)
        .unwrap_or_else(|| panic!("{sheet} {sku} is not in {list}: {v}"))
}

#[test]
fn the_card_hour_markets_are_compared_in_cny() {
    let mut args = RTX_4090.to_vec();
    args.push("--json");
    let v = json("", &args);
    assert_eq!(v["currency"], "CNY");
    // 80 GPU-hours at AutoDL's 1.88 and Gpushare's 1.32 per card-hour.
    let autodl = offer(&v, "offers", "autodl", "rtx-4090");
    assert_eq!(autodl["currency"], "CNY");
    assert_eq!(autodl["converted_total"], "150.40");
    assert_eq!(autodl["per_gpu_hour"], "1.88");
    assert_eq!(autodl["as_of"], "2026-08-21");
    let gpushare = offer(&v, "offers", "gpushare", "rtx-4090");
    assert_eq!(gpushare["converted_total"], "105.60");
    assert_eq!(gpushare["per_gpu_hour"], "1.32");
    // Every offer kept has a 4090; the USD sheets wait for a rate, never dropped.
    for o in v["offers"].as_array().unwrap() {
        assert!(o["gpu_model"].as_str().unwrap().contains("4090"), "{o}");
    }
    assert!(!v["not_comparable"].as_array().unwrap().is_empty(), "{v}");

    let text = String::from_utf8(gpumeter("", RTX_4090).stdout).unwrap();
    let row = |sheet: &str| {
        text.lines()
            .find(|l| l.contains(sheet) && l.contains("rtx-4090"))
            .unwrap_or_else(|| panic!("no {sheet} row: {text}"))
            .to_string()
    };
    assert!(row("autodl").contains("150.40 CNY"), "{text}");
    assert!(row("gpushare").contains("105.60 CNY"), "{text}");
}

#[test]
fn a_price_the_market_does_not_publish_is_unknown_not_zero() {
    let mut args = RTX_4090.to_vec();
    args.extend(["--egress-gb", "100", "--storage-gb", "100", "--json"]);
    let v = json("", &args);
    // AutoDL bills no traffic and states its data-disk price, so the offer stays whole. The
    // sheet's per-GiB-month price gives back AutoDL's own per-GB-day one: 100 GB for 10 days
    // at 0.0066 CNY per GB per day is 6.60.
    let autodl = offer(&v, "offers", "autodl", "rtx-4090");
    assert_eq!(autodl["bandwidth"], "0.00", "{autodl}");
    assert_eq!(autodl["storage"], "6.60", "{autodl}");
    // Gpushare's egress and disk prices were not found: unknown, so the offer is only a lower
    // bound and is never ranked.
    let gpushare = offer(&v, "incomplete", "gpushare", "rtx-4090");
    assert_eq!(gpushare["bandwidth"], Value::Null, "{gpushare}");
    assert_eq!(gpushare["storage"], Value::Null, "{gpushare}");
    assert_eq!(gpushare["converted_total"], Value::Null, "{gpushare}");
    assert_eq!(gpushare["converted_known"], "105.60", "{gpushare}");
    let unknown = gpushare["unknown"].to_string();
    assert!(unknown.contains("network.egress_per_unit"), "{unknown}");
}
