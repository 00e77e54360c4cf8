//! `gpumeter status --json` on the real NVML path, against the fake libnvidia-ml.so.1: each
//! scenario's cards read back as the scenario states them, and what NVML refuses is `null` with
//! its reason, never zero.

use serde_json::Value;

use super::fake_libs;

/// The status document in `scenario`, and the pid of the `gpumeter` that wrote it; `None`
/// where the fake cannot be built.
fn status(scenario: &str, extra: &[&str]) -> Option<(Value, u32)> {
    let data = tempfile::tempdir().unwrap();
    let child = fake_libs::gpumeter(scenario, data.path())?
        .args(["status", "--json"])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{scenario}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    Some((json, pid))
}

fn finding_codes(v: &Value) -> Vec<&str> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect()
}

const P4DE: [&str; 4] = ["--sku", "p4de.24xlarge", "--provider", "aws-us-east-1"];

#[test]
fn with_no_scenario_one_healthy_a100_reads_in_full() {
    let Some((v, pid)) = status("", &[]) else {
        return;
    };
    assert_eq!(v["source"], "nvml");
    assert!(v["gpu_error"].is_null(), "{}", v["gpu_error"]);
    assert_eq!(v["driver"]["driver_version"], "550.54.15");
    assert_eq!(v["driver"]["cuda_version"], "12.4");
    let gpus = v["gpus"].as_array().unwrap();
    assert_eq!(gpus.len(), 1);
    let g = &gpus[0];
    assert_eq!(g["name"], "NVIDIA A100-SXM4-80GB");
    assert_eq!(g["uuid"], "GPU-fa4e0000-0000-4000-8000-000000000000");
    assert_eq!(g["pci_bus_id"], "00000000:07:00.0");
    assert_eq!(g["util_pct"], 97);
    assert_eq!(g["mem_util_pct"], 61);
    assert_eq!(g["mem_used_mib"], 61440);
    assert_eq!(g["mem_total_mib"], 81920);
    assert_eq!(g["power_w"], 347.0);
    assert_eq!(g["power_limit_w"], 400.0);
    // 97 % × 347 W ÷ 400 W.
    let load = g["power_weighted_load_pct"].as_f64().unwrap();
    assert!((load - 84.1475).abs() < 1e-9, "{load}");
    assert_eq!(g["energy_j"], 1_432_018.5);
    assert_eq!(g["temp_c"], 64);
    assert_eq!(g["sm_clock_mhz"], 1410);
    assert_eq!(g["mem_clock_mhz"], 1593);
    assert_eq!(g["pcie_tx_kib_s"], 2048);
    assert_eq!(g["pcie_rx_kib_s"], 8192);
    assert_eq!(g["compute_capability"], "8.0");
    assert_eq!(g["virtualization"], "bare_metal");
    assert_eq!(g["mig"]["enabled"], false);
    // An SXM card has no fan: NVML says NOT_SUPPORTED, and it shows as such.
    assert!(g["fan_pct"].is_null());
    assert_eq!(
        g["unavailable"],
        serde_json::json!({"fan_pct": "unsupported"})
    );
    // The fake lists its caller as the card's one compute process.
    let procs = g["processes"].as_array().unwrap();
    assert_eq!(procs.len(), 1, "{procs:?}");
    assert_eq!(procs[0]["pid"], pid);
    assert_eq!(procs[0]["kind"], "compute");
    assert_eq!(procs[0]["used_mem_mib"], 60928);
    assert_eq!(procs[0]["name"], "gpumeter");
    assert!(
        procs[0]["cmdline"]
            .as_str()
            .unwrap()
            .contains("status --json")
    );
    assert!(procs[0]["user"].is_string());
}

#[test]
fn eight_cards_read_in_nvml_order_and_match_the_sku_paid_for() {
    let Some((v, _)) = status("eight", &P4DE) else {
        return;
    };
    let gpus = v["gpus"].as_array().unwrap();
    assert_eq!(gpus.len(), 8);
    let buses: Vec<&str> = gpus
        .iter()
        .map(|g| g["pci_bus_id"].as_str().unwrap())
        .collect();
    for (i, g) in gpus.iter().enumerate() {
        assert_eq!(g["index"], i);
        // Each card's utilisation is its own: 97, 96, ... in NVML's order.
        assert_eq!(g["util_pct"], 97 - i, "GPU {i}");
        assert!(!buses[..i].contains(&buses[i]), "{buses:?}");
    }
    let codes = finding_codes(&v);
    assert!(!codes.iter().any(|c| c.starts_with("gpu_")), "{codes:?}");

    let (one, _) = status("", &P4DE).unwrap();
    assert!(finding_codes(&one).contains(&"gpu_count_short"), "{one}");
}

#[test]
fn a_mig_card_lists_its_instances_and_is_reported_as_a_slice() {
    let Some((v, _)) = status("mig", &P4DE) else {
        return;
    };
    let mig = &v["gpus"][0]["mig"];
    assert_eq!(mig["enabled"], true);
    // Seven slots, two in use: the empty ones (NOT_FOUND) are not instances.
    assert_eq!(
        mig["instance_mem_total_mib"],
        serde_json::json!([9856, 9856])
    );
    assert!(finding_codes(&v).contains(&"gpu_mig_slice"), "{v}");
    // Under MIG NVML does not say how much memory a process holds: unknown, not zero.
    let procs = v["gpus"][0]["processes"].as_array().unwrap();
    assert_eq!(procs.len(), 1, "{procs:?}");
    assert!(procs[0]["used_mem_mib"].is_null(), "{procs:?}");
}

#[test]
fn a_vgpu_is_reported_and_its_hidden_power_is_unknown_not_zero() {
    let Some((v, _)) = status("vgpu", &P4DE) else {
        return;
    };
    let g = &v["gpus"][0];
    assert_eq!(g["virtualization"], "vgpu");
    assert_eq!(g["name"], "GRID A100-40C");
    assert_eq!(g["mem_total_mib"], 40960);
    for key in [
        "power_w",
        "power_limit_w",
        "energy_j",
        "temp_c",
        "power_weighted_load_pct",
    ] {
        assert!(g[key].is_null(), "{key} = {}", g[key]);
        assert_eq!(g["unavailable"][key], "unsupported", "{key}");
    }
    // A card with no graphics list to offer still lists its compute processes.
    assert_eq!(g["processes"].as_array().unwrap().len(), 1, "{g}");
    assert!(g["unavailable"]["processes"].is_null(), "{g}");
    let codes = finding_codes(&v);
    assert!(codes.contains(&"gpu_vgpu"), "{codes:?}");
    assert!(codes.contains(&"gpu_memory_short"), "{codes:?}");
}

#[test]
fn another_tenant_s_processes_are_listed_without_a_name() {
    let Some((v, _)) = status("foreign", &[]) else {
        return;
    };
    let g = &v["gpus"][0];
    assert_eq!(g["util_pct"], 45);
    assert_eq!(g["mem_used_mib"], 38912);
    let procs = g["processes"].as_array().unwrap();
    let pids: Vec<u64> = procs.iter().map(|p| p["pid"].as_u64().unwrap()).collect();
    assert_eq!(pids, [4_194_404, 4_194_405]);
    for p in procs {
        assert_eq!(p["used_mem_mib"], 19456);
        for key in ["name", "cmdline", "user"] {
            assert!(p[key].is_null(), "{key} = {}", p[key]);
        }
    }
}

#[test]
fn a_gpu_fallen_off_the_bus_reads_as_lost_beside_a_healthy_one() {
    let Some((v, _)) = status("off_bus", &[]) else {
        return;
    };
    let gpus = v["gpus"].as_array().unwrap();
    assert_eq!(gpus.len(), 2);
    assert_eq!(gpus[0]["name"], "NVIDIA A100-SXM4-80GB");
    assert_eq!(gpus[0]["util_pct"], 97);
    let lost = &gpus[1];
    assert_eq!(lost["index"], 1);
    for key in [
        "name",
        "util_pct",
        "mem_used_mib",
        "power_w",
        "temp_c",
        "processes",
        "mig",
    ] {
        assert!(lost[key].is_null(), "{key} = {}", lost[key]);
        assert_eq!(lost["unavailable"][key], "failed: gpu_lost", "{key}");
    }
    // Against what was paid for, the lost card is named and not counted as working.
    let Some((v, _)) = status("off_bus", &P4DE) else {
        return;
    };
    let found = finding_codes(&v);
    assert!(found.contains(&"gpu_lost"), "{found:?}");
    let short = v["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["code"] == "gpu_count_short"))
        .unwrap_or_else(|| panic!("{v}"));
    assert!(
        short["message"]
            .as_str()
            .unwrap()
            .contains("NVML reports 1 working GPU"),
        "{short}"
    );
}

#[test]
fn refused_readings_keep_nvml_s_reason_and_are_never_zero() {
    let Some((v, _)) = status("errors", &[]) else {
        return;
    };
    let g = &v["gpus"][0];
    let expected = [
        ("power_w", "unsupported"),
        ("energy_j", "unsupported"),
        ("power_weighted_load_pct", "unsupported"),
        ("temp_c", "failed: unknown"),
        // Only the compute list is refused; the graphics list answering does not make an
        // empty list of it.
        ("processes", "failed: no_permission"),
    ];
    for (key, why) in expected {
        assert!(g[key].is_null(), "{key} = {}", g[key]);
        assert_eq!(g["unavailable"][key], why, "{key}");
    }
    // What NVML did answer still reads.
    assert_eq!(g["util_pct"], 97);
    assert_eq!(g["mem_total_mib"], 81920);
}

#[test]
fn a_driver_before_r510_still_gives_memory_and_processes() {
    let Some((v, pid)) = status("old_driver", &[]) else {
        return;
    };
    assert_eq!(v["driver"]["driver_version"], "470.182.03");
    assert_eq!(v["driver"]["cuda_version"], "11.4");
    let g = &v["gpus"][0];
    assert_eq!(g["mem_total_mib"], 81920, "{g}");
    assert_eq!(g["mem_used_mib"], 61440, "{g}");
    let procs = g["processes"].as_array().unwrap_or_else(|| panic!("{g}"));
    assert_eq!(procs.len(), 1, "{procs:?}");
    assert_eq!(procs[0]["pid"], pid);
    assert_eq!(procs[0]["used_mem_mib"], 60928);
}

#[test]
fn a_driver_that_is_not_loaded_is_a_reason_and_a_finding_not_a_crash() {
    let Some((v, _)) = status("no_driver", &P4DE) else {
        return;
    };
    assert_eq!(v["gpus"], serde_json::json!([]));
    let why = v["gpu_error"].as_str().unwrap();
    assert!(why.contains("driver not loaded"), "{why}");
    assert!(finding_codes(&v).contains(&"gpu_unreadable"), "{v}");
}

#[test]
fn memory_at_the_card_s_size_is_a_finding_before_the_out_of_memory_crash() {
    let Some((v, _)) = status("oom", &[]) else {
        return;
    };
    assert_eq!(v["gpus"][0]["mem_used_mib"], 81920, "{v}");
    assert!(finding_codes(&v).contains(&"gpu_memory_full"), "{v}");
    let Some((healthy, _)) = status("", &[]) else {
        return;
    };
    assert!(
        !finding_codes(&healthy).contains(&"gpu_memory_full"),
        "{healthy}"
    );
}

/// `status` in Chinese on a machine whose driver is not loaded and with no provider set up:
/// the GPU line and the cloud line say why in Chinese, and the JSON keeps the English reasons.
#[test]
fn no_driver_and_no_provider_are_said_in_chinese_and_kept_english_in_json() {
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("empty.toml");
    std::fs::write(&config, "").unwrap();
    let run = |args: &[&str]| {
        let command = fake_libs::gpumeter("no_driver", data.path());
        let out = command?
            .args(["--lang", "zh-CN", "--config"])
            .arg(&config)
            .arg("status")
            .args(args)
            .env("HOME", data.path())
            .env_remove("XDG_CONFIG_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let Some(text) = run(&[]) else {
        return;
    };
    let gpu = text.lines().find(|l| l.starts_with("GPU")).unwrap();
    assert!(gpu.contains("无：NVIDIA 驱动未加载"), "{text}");
    let cloud = text.lines().find(|l| l.starts_with("云")).unwrap();
    assert!(cloud.contains("未配置云服务商"), "{text}");
    assert!(
        !cloud.contains("cannot read") && !cloud.contains("configured"),
        "{text}"
    );
    let json: Value = serde_json::from_str(&run(&["--json"]).unwrap()).unwrap();
    let gpu_error = json["gpu_error"].as_str().unwrap();
    assert!(
        gpu_error.starts_with("NVIDIA driver not loaded"),
        "{gpu_error}"
    );
    let cloud_error = json["cloud_error"].as_str().unwrap();
    assert!(
        cloud_error.contains("no provider configured"),
        "{cloud_error}"
    );
}
