//! The real NVML source. On a machine without libnvidia-ml.so.1 this tests the absent path for
//! real; on a machine with a driver it checks that every GPU reads without a silent zero.

use std::time::Duration;

use gpumeter::telemetry::{GpuSource, GpuUnavailableKind, NvmlConfig, NvmlSource};

fn library_present() -> bool {
    [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
        "/usr/local/nvidia/lib64",
    ]
    .iter()
    .any(|dir| std::path::Path::new(dir).join("libnvidia-ml.so.1").exists())
}

#[test]
fn without_the_library_every_read_reports_why_and_nothing_is_reloaded() {
    let mut nvml = NvmlSource::init(NvmlConfig::default());
    let Some(why) = nvml.init_error().cloned() else {
        // NVML started: the other test covers this machine.
        return;
    };
    if !library_present() {
        assert_eq!(why.kind, GpuUnavailableKind::LibraryNotFound, "{why}");
        assert!(why.to_string().contains("libnvidia-ml.so.1"), "{why}");
    }
    for t in 0..50 {
        let round = nvml.read(Duration::from_secs(t));
        assert_eq!(round, Err(why.clone()));
    }
    assert_eq!(
        nvml.init_attempts(),
        1,
        "a read must not load the library again"
    );
    nvml.retry();
    assert_eq!(nvml.init_attempts(), 2);
    assert!(nvml.read(Duration::ZERO).is_err());
}

#[test]
fn with_a_driver_every_gpu_has_a_name_and_memory() {
    let mut nvml = NvmlSource::init(NvmlConfig::default());
    if nvml.init_error().is_some() {
        return;
    }
    let reading = nvml
        .read(Duration::ZERO)
        .expect("NVML started, so a round reads");
    for gpu in &reading.gpus {
        assert!(gpu.name.is_value(), "GPU {}: {:?}", gpu.index, gpu.name);
        assert!(
            gpu.mem_total_mib.get().unwrap_or(0) > 0,
            "GPU {}",
            gpu.index
        );
    }
    nvml.retry();
    assert_eq!(nvml.init_attempts(), 1, "retry after success does nothing");
}
