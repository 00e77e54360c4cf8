//! `gpumeter verify`'s NVML checks on the real NVML path, against the fake libnvidia-ml.so.1:
//! each scenario's fault is the check that fails or warns, with what NVML reported, and a
//! reading NVML refuses is a check that could not be read, never a pass.

use serde_json::Value;

use super::fake_libs;

/// `verify --json` in `scenario`, with no CUDA device: the report and the exit status; `None`
/// where the fake cannot be built.
fn verify(scenario: &str) -> Option<(Value, i32)> {
    verify_loaded(scenario, "no_device")
}

/// Like [`verify`], the fake CUDA driver answering as `cuda`.
fn verify_loaded(scenario: &str, cuda: &str) -> Option<(Value, i32)> {
    let data = tempfile::tempdir().unwrap();
    let out = fake_libs::gpumeter(scenario, data.path())?
        .env("FAKE_CUDA_SCENARIO", cuda)
        .args(["verify", "--seconds", "1", "--json"])
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{scenario}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    Some((json, out.status.code().unwrap()))
}

fn check<'a>(v: &'a Value, gpu: u32, code: &str) -> &'a Value {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["gpu"] == gpu && c["code"] == code)
        .unwrap_or_else(|| panic!("no {code} check for GPU {gpu}: {v}"))
}

/// The check's verdict and what it measured.
fn seen(v: &Value, code: &str) -> (String, Value) {
    let c = check(v, 0, code);
    (
        c["verdict"].as_str().unwrap().to_string(),
        c["measured"]["value"].clone(),
    )
}

const FAIL: i32 = 3;

#[test]
fn a_healthy_card_passes_every_nvml_check_with_nvml_s_figures() {
    let Some((v, _)) = verify("") else {
        return;
    };
    assert_eq!(v["source"], "nvml");
    let expected = [
        ("gpu_memory", serde_json::json!(80.0)),
        ("mig", "off".into()),
        ("vgpu", "bare_metal".into()),
        ("compute_mode", "default".into()),
        ("power_cap", serde_json::json!(400.0)),
        ("clock_events", "0x0".into()),
        ("pcie_link", "Gen4 x16".into()),
        ("ecc", serde_json::json!(0.0)),
        ("compute_capability", "sm_80".into()),
    ];
    for (code, measured) in expected {
        assert_eq!(seen(&v, code), ("pass".to_string(), measured), "{code}");
    }
}

#[test]
fn clock_event_reasons_fail_the_card_by_name() {
    let Some((v, rc)) = verify("throttle") else {
        return;
    };
    assert_eq!(rc, FAIL);
    assert_eq!(
        seen(&v, "clock_events"),
        ("fail".to_string(), "0x48".into())
    );
    let message = check(&v, 0, "clock_events")["message"].as_str().unwrap();
    assert!(
        message.contains("HW slowdown") && message.contains("HW thermal slowdown"),
        "{message}"
    );
}

#[test]
fn uncorrected_ecc_errors_and_a_pending_remap_fail_the_card() {
    let Some((v, rc)) = verify("ecc") else {
        return;
    };
    assert_eq!(rc, FAIL);
    assert_eq!(
        seen(&v, "ecc"),
        ("fail".to_string(), serde_json::json!(2.0))
    );
    let message = check(&v, 0, "ecc")["message"].as_str().unwrap();
    assert!(message.contains("remap waits"), "{message}");
}

#[test]
fn a_slot_that_holds_the_link_down_warns() {
    let Some((v, _)) = verify("pcie_down") else {
        return;
    };
    assert_eq!(
        seen(&v, "pcie_link"),
        ("warn".to_string(), "Gen3 x8".into())
    );
    assert_eq!(check(&v, 0, "pcie_link")["rated"]["value"], "Gen4 x16");
}

#[test]
fn a_link_that_trains_down_is_judged_under_load_only() {
    let Some((idle, _)) = verify("pcie_trained_down") else {
        return;
    };
    // Without a benchmark the link is read at idle, where it drops to save power anyway.
    assert_eq!(seen(&idle, "pcie_link").0, "pass");
    let (loaded, _) = verify_loaded("pcie_trained_down", "working").unwrap();
    assert_eq!(
        seen(&loaded, "pcie_link"),
        ("warn".to_string(), "Gen3 x8".into())
    );
    let message = check(&loaded, 0, "pcie_link")["message"].as_str().unwrap();
    assert!(message.contains("under load"), "{message}");
}

#[test]
fn the_clock_under_load_is_nvml_s_while_the_benchmark_runs() {
    let Some((v, _)) = verify_loaded("throttle", "working") else {
        return;
    };
    assert_eq!(v["gpus"][0]["measured"]["sm_clock_mhz"], 1005, "{v}");
    assert_eq!(seen(&v, "clock_events").1, "0x48");
}

#[test]
fn a_mig_slice_and_a_vgpu_are_not_the_whole_card() {
    let Some((mig, rc)) = verify("mig") else {
        return;
    };
    assert_eq!(rc, FAIL);
    assert_eq!(seen(&mig, "mig"), ("fail".to_string(), "on".into()));
    let (vgpu, _) = verify("vgpu").unwrap();
    assert_eq!(seen(&vgpu, "vgpu"), ("warn".to_string(), "vgpu".into()));
}

#[test]
fn another_tenant_s_memory_and_load_fail_the_card() {
    let Some((v, rc)) = verify("foreign") else {
        return;
    };
    assert_eq!(rc, FAIL);
    assert_eq!(
        seen(&v, "foreign_memory"),
        ("fail".to_string(), serde_json::json!(38912.0))
    );
    assert_eq!(
        seen(&v, "foreign_utilisation"),
        ("fail".to_string(), serde_json::json!(45.0))
    );
}

#[test]
fn readings_nvml_refuses_are_unread_checks_not_passes() {
    let Some((v, _)) = verify("errors") else {
        return;
    };
    for (code, why) in [
        ("clock_events", "unsupported"),
        ("pcie_link", "unsupported"),
        ("ecc", "failed: no_permission"),
    ] {
        let c = check(&v, 0, code);
        assert_eq!(c["read"], false, "{code}: {c}");
        assert_eq!(c["unread_reason"], why, "{code}");
        assert_ne!(c["verdict"], "pass", "{code}");
    }
}

#[test]
fn a_card_off_the_bus_is_unread_as_lost_and_the_other_still_checked() {
    let Some((v, _)) = verify("off_bus") else {
        return;
    };
    for code in ["gpu_memory", "mig", "power_cap", "clock_events", "ecc"] {
        let c = check(&v, 1, code);
        assert_eq!(c["unread_reason"], "failed: gpu_lost", "{code}: {c}");
        assert_eq!(seen(&v, code).0, "pass", "GPU 0 {code}");
    }
}

#[test]
fn no_driver_is_no_gpu_with_nvml_s_reason() {
    let data = tempfile::tempdir().unwrap();
    let Some(mut command) = fake_libs::gpumeter("no_driver", data.path()) else {
        return;
    };
    let out = command.args(["verify", "--seconds", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(4));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("driver not loaded"), "{err}");
}
