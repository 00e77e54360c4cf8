//! The real NVML source. On a machine without libnvidia-ml.so.1 this tests the absent path for
//! real; on a machine with a driver it checks that every GPU reads without a silent zero.

use std::time::Duration;

use gpumeter::telemetry::{
    GpuSource, GpuUnavailableKind, NvmlConfig, NvmlSource, SamplerConfig, Telemetry,
    spawn_gpu_sampler,
};

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
    let mut nvml = NvmlSource::new(NvmlConfig::default());
    assert_eq!(nvml.init_attempts(), 0, "making the source loads nothing");
    let Err(why) = nvml.read(Duration::ZERO) else {
        // NVML started: the other test covers this machine.
        return;
    };
    assert_eq!(nvml.init_error(), Some(&why));
    if !library_present() {
        assert_eq!(why.kind, GpuUnavailableKind::LibraryNotFound, "{why}");
        assert!(why.to_string().contains("libnvidia-ml.so.1"), "{why}");
    }
    for t in 1..50 {
        assert_eq!(nvml.read(Duration::from_secs(t)), Err(why.clone()));
    }
    assert_eq!(
        nvml.init_attempts(),
        1,
        "a read must not load the library again"
    );
    nvml.retry();
    assert_eq!(nvml.init_attempts(), 2);
    assert!(nvml.read(Duration::ZERO).is_err());
    assert_eq!(nvml.init_attempts(), 2);
}

#[test]
fn with_a_driver_every_gpu_has_a_name_and_memory() {
    let mut nvml = NvmlSource::new(NvmlConfig::default());
    let Ok(reading) = nvml.read(Duration::ZERO) else {
        return;
    };
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

#[tokio::test(start_paused = true)]
async fn the_sampler_reports_a_missing_driver_every_round() {
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Telemetry>(2);
    let nvml = NvmlSource::new(NvmlConfig::default());
    let handle = spawn_gpu_sampler(nvml, SamplerConfig::default(), tx).unwrap();
    for _ in 0..3 {
        let Some(Telemetry::Gpu(round)) = rx.recv().await else {
            panic!("expected a GPU round");
        };
        if round.value.is_ok() {
            return;
        }
        if !library_present() {
            let why = round.value.unwrap_err();
            assert_eq!(why.kind, GpuUnavailableKind::LibraryNotFound);
        }
    }
    drop(rx);
    handle.shutdown().await;
}
