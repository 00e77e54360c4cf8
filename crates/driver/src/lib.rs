//! gpumeter's GPU benchmark, run through the NVIDIA driver alone: the CUDA driver API, loaded
//! at run time like NVML, so it works on any machine with the driver and no CUDA toolkit.
//! Where cuBLAS happens to load, it also runs the BF16 GEMM users measure with PyTorch.
//!
//! The figures (each a [`Figure`] of [`Measured`]):
//! - memory bandwidth: device-to-device copies between two 1 GiB buffers (less when memory is
//!   short), bytes read plus bytes written, GB/s;
//! - FP32: a PTX loop of independent `fma.rn.f32` chains, 2 FLOPs per FMA, TFLOPS;
//! - BF16 and FP16 tensor: PTX loops of warp-level `mma.sync` (m16n8k16, FP32 accumulate, sm_80
//!   and later; FP16 m16n8k8 on sm_75), 2·M·N·K FLOPs per instruction;
//! - cuBLAS BF16 GEMM: `cublasGemmEx` on 8192² matrices (smaller when memory is short).
//!
//! Timing: each figure gets an equal share of the time left when it starts. A first launch
//! warms up and calibrates, launches are sized to about 25 ms, and timed launches (CUDA events)
//! run while the share lasts; the fastest counts. Every launch is synchronised before the next
//! step, and every buffer, event and module is freed on every path.
//!
//! This is the only crate of the workspace with `unsafe` code: launching a kernel, calling
//! cuBLAS and calling an NVML function nvml-wrapper does not wrap (remapped rows; memory on
//! drivers before R510) cannot be done without it.
//! Each unsafe block says why it is sound.

mod cublas;
mod device;
mod error;
mod gpu;
mod isa;
mod jit;
mod kernels;
mod load;
mod nvml_legacy;
mod nvml_raw;
mod ptx;
mod sizing;
mod timing;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use cudarc::driver::sys::CUresult;
use gpumeter_core::verify::{BenchError, BenchErrorKind, Measured};

pub use device::same_pci_bus;
pub use load::CUBLAS_ABSENT;
pub use nvml_legacy::{
    compute_processes as nvml_compute_processes, graphics_processes as nvml_graphics_processes,
    memory_info as nvml_memory_info,
};
pub use nvml_raw::remapped_rows;

/// What to benchmark, and for how long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The whole run's time. GPUs run side by side, each in the whole budget.
    pub budget: Duration,
    /// CUDA ordinals (as `CUDA_VISIBLE_DEVICES` leaves them); `None` is every GPU.
    pub ordinals: Option<Vec<usize>>,
}

impl Default for Plan {
    /// The command line's default: 20 seconds, every GPU.
    fn default() -> Self {
        Plan {
            budget: Duration::from_secs(20),
            ordinals: None,
        }
    }
}

/// How long past the budget `run` waits for a GPU (context creation, the JIT, a last launch)
/// before it gives up on it.
pub const GRACE: Duration = Duration::from_secs(30);

/// Benchmark the GPUs of `plan`, side by side, one thread each. Each [`Measured`] has the CUDA
/// ordinal as its `index` and the PCI bus id in NVML's form (`00000000:17:00.0`; match with
/// [`same_pci_bus`]) for the caller to find NVML's index; `sm_clock_mhz` is left for the
/// caller, who reads NVML while this runs.
///
/// No driver library → [`BenchErrorKind::NoDriver`]; no GPU, or an ordinal the driver does not
/// have → `NoDevice`; `cuInit` failing → `Cuda`; a GPU not done `GRACE` after the budget →
/// `Timeout`. A figure that fails is a `Figure::Failed` with the CUDA error, not an `Err`.
pub fn run(plan: &Plan) -> Result<Vec<Measured>, BenchError> {
    load::driver()?;
    init()?;
    let count = cudarc::driver::CudaContext::device_count()
        .map_err(|e| cuda_error("cuDeviceGetCount", e))?;
    let count = usize::try_from(count).unwrap_or(0);
    let ordinals = pick(plan.ordinals.as_deref(), count)?;
    let cuda_version = load::driver_version().map_err(|e| cuda_error("cuDriverGetVersion", e))?;

    let deadline = Instant::now() + plan.budget;
    let (tx, rx) = mpsc::channel();
    for &ordinal in &ordinals {
        let tx = tx.clone();
        std::thread::Builder::new()
            .name(format!("gpumeter-bench-{ordinal}"))
            .spawn(move || {
                let began = Instant::now();
                let measured =
                    std::panic::catch_unwind(|| gpu::bench(ordinal, deadline, cuda_version))
                        .unwrap_or_else(|panic| {
                            let why = panic
                                .downcast_ref::<String>()
                                .cloned()
                                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
                                .unwrap_or_default();
                            let why = gpumeter_core::text::one_line(&why, 200);
                            gpu::all_failed(
                                ordinal,
                                None,
                                &format!("the benchmark stopped: {why}"),
                                began,
                            )
                        });
                let _ = tx.send((ordinal, measured));
            })
            .map_err(|e| BenchError {
                kind: BenchErrorKind::Cuda,
                detail: format!("could not start the benchmark thread: {e}"),
            })?;
    }
    drop(tx);
    collect(&rx, &ordinals, deadline + GRACE)
}

fn init() -> Result<(), BenchError> {
    cudarc::driver::result::init().map_err(|e| BenchError {
        kind: init_error_kind(e.0),
        detail: error::cuda("cuInit", e).to_string(),
    })
}

/// What a failed `cuInit` means: no GPU, or a library that is not a driver at all (the
/// toolkit's link stub, found first on the library path), or some other CUDA failure.
fn init_error_kind(code: CUresult) -> BenchErrorKind {
    match code {
        CUresult::CUDA_ERROR_NO_DEVICE => BenchErrorKind::NoDevice,
        CUresult::CUDA_ERROR_STUB_LIBRARY => BenchErrorKind::NoDriver,
        _ => BenchErrorKind::Cuda,
    }
}

fn cuda_error(call: &str, e: cudarc::driver::DriverError) -> BenchError {
    BenchError {
        kind: BenchErrorKind::Cuda,
        detail: error::cuda(call, e).to_string(),
    }
}

/// The ordinals to run: those asked for, each one the driver has, or all `count`.
fn pick(asked: Option<&[usize]>, count: usize) -> Result<Vec<usize>, BenchError> {
    let no_device = |detail: String| BenchError {
        kind: BenchErrorKind::NoDevice,
        detail,
    };
    if count == 0 {
        return Err(no_device("the driver loaded and counts no GPU".into()));
    }
    match asked {
        None => Ok((0..count).collect()),
        Some(asked) => {
            if let Some(bad) = asked.iter().find(|&&o| o >= count) {
                return Err(no_device(format!(
                    "no GPU with CUDA ordinal {bad}: the driver counts {count}"
                )));
            }
            let mut picked = asked.to_vec();
            picked.sort_unstable();
            picked.dedup();
            if picked.is_empty() {
                return Err(no_device("no GPU was asked for".into()));
            }
            Ok(picked)
        }
    }
}

/// Every GPU's result by `until`, in ordinal order.
fn collect(
    rx: &mpsc::Receiver<(usize, Measured)>,
    ordinals: &[usize],
    until: Instant,
) -> Result<Vec<Measured>, BenchError> {
    let mut done: Vec<(usize, Measured)> = Vec::with_capacity(ordinals.len());
    while done.len() < ordinals.len() {
        let wait = until.saturating_duration_since(Instant::now());
        let Ok(one) = rx.recv_timeout(wait) else {
            let late: Vec<String> = ordinals
                .iter()
                .filter(|o| !done.iter().any(|(d, _)| d == *o))
                .map(ToString::to_string)
                .collect();
            return Err(BenchError {
                kind: BenchErrorKind::Timeout,
                detail: format!(
                    "GPU (CUDA ordinal) {} did not finish within {} s past the budget",
                    late.join(", "),
                    GRACE.as_secs()
                ),
            });
        };
        done.push(one);
    }
    done.sort_by_key(|(o, _)| *o);
    Ok(done.into_iter().map(|(_, m)| m).collect())
}

#[cfg(test)]
mod tests;
