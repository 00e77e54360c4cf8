//! What the benchmark measured on one GPU, or why it could not. The edge runs the kernels (the
//! CUDA driver API, loaded at run time) and the simulator makes the same shape for the demo and
//! the tests; the verdict is computed from this alone.

use serde::Serialize;

/// One GPU's benchmark.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    /// The NVML index of the GPU (matched by PCI bus id: CUDA's own order may differ).
    pub index: u32,
    /// As NVML writes it (`00000000:17:00.0`); a four-digit domain, as CUDA writes it, names
    /// the same card.
    pub pci_bus_id: Option<String>,
    /// Device-to-device copy, counted as bytes read plus bytes written, GB/s (10^9 bytes).
    pub mem_bandwidth_gbs: Figure,
    /// FP32 fused multiply-add throughput on the CUDA cores, TFLOPS (10^12).
    pub fp32_tflops: Figure,
    /// Tensor-core throughput, dense, FP32 accumulate, TFLOPS.
    pub bf16_tflops: Figure,
    pub fp16_tflops: Figure,
    /// cuBLAS BF16 GEMM (what `torch.matmul` runs), where libcublas could be loaded.
    pub gemm_bf16_tflops: Figure,
    /// The mean SM clock NVML read while the kernels ran, for reading a figure above 100 %.
    pub sm_clock_mhz: Option<u32>,
    /// Wall time the benchmark of this GPU took, seconds.
    pub seconds: f64,
}

/// One measured figure, or why there is none. Never a silent zero.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Figure {
    Measured {
        value: f64,
    },
    /// Not run, with the reason (`cuBLAS not found`, `no BF16 tensor cores before sm_80`, ...).
    NotRun {
        reason: String,
    },
    /// Started and failed, with the CUDA error as the driver named it.
    Failed {
        reason: String,
    },
}

impl Figure {
    pub fn value(&self) -> Option<f64> {
        match self {
            Figure::Measured { value } => Some(*value),
            Figure::NotRun { .. } | Figure::Failed { .. } => None,
        }
    }
}

/// Why no benchmark could run at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{kind}: {detail}")]
pub struct BenchError {
    pub kind: BenchErrorKind,
    /// The driver's or the loader's own words.
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BenchErrorKind {
    /// libcuda.so.1 could not be loaded: no NVIDIA driver here.
    NoDriver,
    /// The driver loaded and sees no device.
    NoDevice,
    /// A CUDA call failed (named in the detail).
    Cuda,
    /// The time bound ran out before the kernels finished.
    Timeout,
}

impl std::fmt::Display for BenchErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BenchErrorKind::NoDriver => "the CUDA driver (libcuda.so.1) could not be loaded",
            BenchErrorKind::NoDevice => "the CUDA driver sees no GPU",
            BenchErrorKind::Cuda => "a CUDA call failed",
            BenchErrorKind::Timeout => "the benchmark ran out of time",
        })
    }
}
