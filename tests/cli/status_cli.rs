//! `gpumeter status` run as a program: the JSON shape, the no-NVIDIA path and bad input.

use std::process::{Command, Output};

use serde_json::Value;

fn gpumeter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn json(args: &[&str]) -> Value {
    let out = gpumeter(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[test]
fn demo_json_has_the_documented_shape() {
    let v = json(&["status", "--demo", "--json", "--gpus", "2"]);
    assert_eq!(v["source"], "demo");
    assert!(v["time"].as_str().unwrap().ends_with('Z'));
    assert!(v["gpu_error"].is_null());
    let gpus = v["gpus"].as_array().unwrap();
    assert_eq!(gpus.len(), 2);
    let g = &gpus[1];
    assert_eq!(g["index"], 1);
    assert_eq!(g["name"], "NVIDIA A100-SXM4-80GB");
    for key in [
        "util_pct",
        "mem_used_mib",
        "mem_total_mib",
        "power_w",
        "power_limit_w",
        "energy_j",
        "temp_c",
        "power_weighted_load_pct",
    ] {
        assert!(g[key].is_number(), "{key} = {}", g[key]);
    }
    // An A100 SXM has no fan: null, with the reason beside it.
    assert!(g["fan_pct"].is_null());
    assert_eq!(g["unavailable"]["fan_pct"], "unsupported");
    let procs = g["processes"].as_array().unwrap();
    assert_eq!(procs[0]["user"], "ubuntu");
    assert!(procs[0]["pid"].is_number() && procs[0]["used_mem_mib"].is_number());
    assert_eq!(v["driver"]["cuda_version"], "12.4");
    assert!(v["host"]["cpu_pct"].is_number());
    assert_eq!(v["host"]["net"][0]["name"], "eth0");
    assert_eq!(v["host"]["disks"][0]["mount"], "/");
    assert_eq!(v["findings"], Value::Array(vec![]));
}

#[test]
fn the_same_demo_twice_gives_the_same_gpus() {
    let args = [
        "status",
        "--demo",
        "--json",
        "--scenario",
        "memory-leak",
        "--seed",
        "9",
        "--at",
        "1234",
    ];
    let (a, b) = (json(&args), json(&args));
    assert_eq!(a["gpus"], b["gpus"]);
    assert_eq!(a["host"], b["host"]);
}

#[test]
fn demo_findings_cover_cpu_bound_sku_and_cuda() {
    let v = json(&[
        "status",
        "--demo",
        "--json",
        "--scenario",
        "cpu-bound",
        "--gpu-model",
        "NVIDIA A100-SXM4-40GB",
        "--sku",
        "p4de.24xlarge",
        "--provider",
        "aws-us-east-1",
        "--require-cuda",
        "12.8",
    ]);
    let codes: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            "gpu_count_short",
            "gpu_model_mismatch",
            "gpu_memory_short",
            "cuda_too_old",
            "cpu_bound"
        ]
    );
    let first = &v["findings"][0];
    assert_eq!(first["severity"], "critical");
    assert_eq!(
        first["message"],
        "paying for 8 × A100 80GB, NVML reports 1 GPU"
    );
}

#[test]
fn without_nvidia_it_exits_zero_with_no_gpus_and_the_reason() {
    let lib_present = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"]
        .iter()
        .any(|d| std::path::Path::new(d).join("libnvidia-ml.so.1").exists());
    let v = json(&["status", "--json"]);
    assert_eq!(v["source"], "nvml");
    // The host half does not depend on the driver: check it on every machine.
    assert!(
        v["host"]["cpu_pct"].is_number(),
        "the second host read gives a CPU share"
    );
    assert!(
        v["host"]["net"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["name"] != "lo")
    );
    if lib_present {
        // A driver machine: either GPUs with a driver version, or the reason there are none.
        let gpus = v["gpus"].as_array().expect("gpus is a list");
        assert!(
            (!gpus.is_empty() && v["driver"].is_object()) || v["gpu_error"].is_string(),
            "NVML is present but status shows neither GPUs nor a reason: {v}"
        );
        return;
    }
    assert_eq!(v["gpus"], Value::Array(vec![]));
    assert!(v["driver"].is_null());
    let why = v["gpu_error"].as_str().unwrap();
    assert!(why.contains("libnvidia-ml.so.1"), "{why}");
}

#[test]
fn the_human_table_names_the_gpu_the_driver_and_the_host() {
    let out = gpumeter(&["status", "--demo", "--gpus", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("A100-SXM4-80GB"), "{text}");
    assert!(text.contains("driver 550.54.15, CUDA 12.4"), "{text}");
    assert!(text.contains("host  CPU"), "{text}");
}

#[test]
fn bad_input_is_a_one_line_error_with_exit_2() {
    let cases: [&[&str]; 5] = [
        &["status", "--demo", "--scenario", "nope"],
        &["status", "--demo", "--gpus", "9"],
        &["status", "--scenario", "idle"],
        &["status", "--demo", "--sku", "no-such-sku"],
        &["status", "--demo", "--provider", "aws-us-east-1"],
    ];
    for args in cases {
        let out = gpumeter(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("gpumeter: "), "{err}");
    }
    let out = gpumeter(&["status", "--require-cuda", "twelve"]);
    assert_eq!(out.status.code(), Some(2), "clap refuses a bad version");
}

#[test]
fn the_text_says_what_the_json_says_about_the_cloud() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let json = json(&["--demo", "--data-dir", data, "status", "--json"]);
    let out = gpumeter(&["--demo", "--data-dir", data, "status"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let line = |label: &str| {
        text.lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no `{label}` line:\n{text}"))
            .to_string()
    };
    let instance = &json["instance"];
    let said = line("instance");
    for field in ["id", "name", "provider", "sku", "state"] {
        assert!(
            said.contains(instance[field].as_str().unwrap()),
            "{field}: {said}"
        );
    }
    let cost = &json["cost"];
    let said = line("cost");
    assert!(said.contains(cost["currency"].as_str().unwrap()) && said.contains("so far"));
    assert_eq!(
        cost["incomplete"], true,
        "the demo's load balancer is unpriced"
    );
    assert!(
        text.contains("incomplete, left out: load balancer"),
        "{text}"
    );
    assert!(line("prices").contains(json["price_source"]["sheet"].as_str().unwrap()));
    assert!(line("deadline").starts_with("deadline"));
    for r in json["resources"].as_array().unwrap() {
        let row = text
            .lines()
            .find(|l| l.starts_with("  ") && l.split_whitespace().nth(1) == r["id"].as_str())
            .unwrap_or_else(|| panic!("{} is not listed:\n{text}", r["id"]));
        match (
            r["survives_release"].as_bool().unwrap(),
            r["monthly_cost_after_release"].as_str(),
        ) {
            (true, Some(monthly)) => assert!(row.contains(monthly), "{row}"),
            (true, None) => assert!(row.contains("unpriced"), "unknown is not zero: {row}"),
            (false, _) => assert!(row.contains("goes with it"), "{row}"),
        }
    }
    let still = &json["still_billing_monthly"];
    let leftover = line("  keeps billing after a release");
    assert!(
        leftover.contains(still["known"].as_str().unwrap()),
        "{text}"
    );
    // The demo's load balancer has no price: a lower bound, never a zero.
    let unknown = still["unknown"].as_array().unwrap().len();
    assert!(
        unknown > 0 && json["leftover_monthly_cost"].is_null(),
        "{json}"
    );
    assert!(
        leftover.contains(&format!(
            "≥ {} {} + {unknown} unknown a month",
            still["known"].as_str().unwrap(),
            still["currency"].as_str().unwrap()
        )),
        "{text}"
    );
}

/// After the release, what survives it is no longer what "would" keep billing: it is what
/// still bills, with the currency beside the known part and what has no price counted.
#[test]
fn after_a_release_the_text_says_what_still_bills() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let before =
        String::from_utf8_lossy(&gpumeter(&["--demo", "--data-dir", data, "status"]).stdout)
            .into_owned();
    assert!(
        before.contains("  keeps billing after a release: ≥ "),
        "{before}"
    );
    assert!(
        gpumeter(&["--demo", "--data-dir", data, "release", "--yes"])
            .status
            .success()
    );
    let json = json(&["--demo", "--data-dir", data, "status", "--json"]);
    let still = &json["still_billing_monthly"];
    let text = String::from_utf8_lossy(&gpumeter(&["--demo", "--data-dir", data, "status"]).stdout)
        .into_owned();
    let expected = format!(
        "  still billing: ≥ {} {} + {} unknown a month",
        still["known"].as_str().unwrap(),
        still["currency"].as_str().unwrap(),
        still["unknown"].as_array().unwrap().len()
    );
    assert!(text.contains(&expected), "{expected}\n{text}");
    assert!(!text.contains("keeps billing after a release"), "{text}");
}
