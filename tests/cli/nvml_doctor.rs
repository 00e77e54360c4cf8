//! `gpumeter doctor`'s NVML line on the real NVML path, against the fake libnvidia-ml.so.1:
//! what NVML sees when it starts, and NVML's own reason when it does not.

use serde_json::Value;

use super::fake_libs;

/// Doctor's `nvml` check in `scenario`; `None` where the fake cannot be built.
fn nvml_check(scenario: &str) -> Option<Value> {
    let data = tempfile::tempdir().unwrap();
    let out = fake_libs::gpumeter(scenario, data.path())?
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let checks = v["checks"].as_array().unwrap();
    Some(checks.iter().find(|c| c["key"] == "nvml").unwrap().clone())
}

#[test]
fn doctor_names_the_cards_and_the_driver_or_why_nvml_did_not_start() {
    let Some(seen) = nvml_check("eight") else {
        return;
    };
    assert_eq!(seen["status"], "pass");
    assert_eq!(
        seen["detail"],
        "8 × NVIDIA A100-SXM4-80GB, driver 550.54.15"
    );

    let missing = nvml_check("no_driver").unwrap();
    assert_eq!(missing["status"], "fail");
    let detail = missing["detail"].as_str().unwrap();
    assert!(detail.starts_with("NVIDIA driver not loaded"), "{detail}");
}
