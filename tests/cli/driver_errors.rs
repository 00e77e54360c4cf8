//! `verify`'s benchmark (gpumeter-driver) against the fake libcuda.so.1: a driver without a
//! device, one that counts no GPU, a card out of memory and a failing launch each come out as
//! a plain error naming the CUDA call and the error, and the NVML checks still stand.

use serde_json::Value;

use super::fake_libs;

/// `verify --json` on one healthy A100 (as the fake NVML has it) with the fake CUDA driver
/// answering as `cuda`; `None` where the fakes cannot be built.
fn verify(cuda: &str) -> Option<Value> {
    let data = tempfile::tempdir().unwrap();
    let out = fake_libs::gpumeter("", data.path())?
        .env("FAKE_CUDA_SCENARIO", cuda)
        .args(["verify", "--seconds", "1", "--json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{cuda}: {stderr}");
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{cuda}: {e}: {stderr}"));
    // The benchmark's trouble is a warning beside NVML's checks, which still read.
    assert_eq!(out.status.code(), Some(1), "{cuda}: {v}");
    let memory = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "gpu_memory")
        .unwrap();
    assert_eq!(memory["verdict"], "pass", "{cuda}");
    Some(v)
}

/// Each of the card's five figures as failed, with its reason.
fn failures(v: &Value) -> Vec<String> {
    let measured = &v["gpus"][0]["measured"];
    [
        "mem_bandwidth_gbs",
        "fp32_tflops",
        "bf16_tflops",
        "fp16_tflops",
        "gemm_bf16_tflops",
    ]
    .iter()
    .map(|figure| {
        assert_eq!(measured[figure]["status"], "failed", "{figure}: {measured}");
        measured[figure]["reason"].as_str().unwrap().to_string()
    })
    .collect()
}

#[test]
fn a_driver_without_a_device_is_no_device_from_cu_init() {
    let Some(v) = verify("no_device") else {
        return;
    };
    assert_eq!(v["bench_error"]["kind"], "no_device");
    assert_eq!(
        v["bench_error"]["detail"],
        "cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)"
    );
    let counted = verify("no_gpu").unwrap();
    assert_eq!(counted["bench_error"]["kind"], "no_device");
    assert_eq!(
        counted["bench_error"]["detail"],
        "the driver loaded and counts no GPU"
    );
}

#[test]
fn a_card_out_of_memory_fails_each_figure_with_the_error() {
    let Some(v) = verify("out_of_memory") else {
        return;
    };
    assert!(v["bench_error"].is_null(), "{}", v["bench_error"]);
    // The card opened, so its figures carry its bus id for NVML's index.
    assert_eq!(v["gpus"][0]["measured"]["pci_bus_id"], "00000000:07:00.0");
    let reasons = failures(&v);
    assert_eq!(
        reasons[0],
        "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"
    );
    for reason in &reasons[1..4] {
        assert!(
            reason.ends_with("cuModuleLoadData: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"),
            "{reason}"
        );
    }
}

#[test]
fn a_failing_launch_fails_each_kernel_with_the_call_and_the_error() {
    let Some(v) = verify("launch_failure") else {
        return;
    };
    let reasons = failures(&v);
    assert_eq!(
        reasons[0],
        "cuMemcpyDtoDAsync: CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)"
    );
    for (reason, kernel) in reasons[1..4].iter().zip([
        "gpumeter_fma_f32",
        "gpumeter_mma_bf16_m16n8k16",
        "gpumeter_mma_f16_m16n8k16",
    ]) {
        assert_eq!(
            reason,
            &format!(
                "cuLaunchKernel ({kernel}): CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)"
            )
        );
    }
    // The fake stands in for cuBLAS too, and refuses to start.
    assert_eq!(reasons[4], "cublasCreate: CUBLAS_STATUS_NOT_INITIALIZED");
}
