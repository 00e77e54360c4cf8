//! The driver-only figures on one GPU: device-to-device copy bandwidth, the FP32 FMA loop and
//! the tensor-core `mma` loops. Each is timed with CUDA events by [`measure`] within its
//! share; every buffer, event and module is freed when it goes out of scope, on every path.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cudarc::driver::sys::{CUevent_flags, CUresult};
use cudarc::driver::{CudaEvent, CudaFunction, CudaModule, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use gpumeter_core::verify::Figure;

use crate::device::Gpu;
use crate::error::{self, GpuError};
use crate::isa::{NotBuildable, choose};
use crate::jit;
use crate::ptx::{
    FMA_ENTRY, FMA_NEEDS, FMA_PER_ITERATION, MMA_BF16, MMA_F16, MMA_F16_TURING, MMA_PER_ITERATION,
    Mma, fma_kernel, mma_kernel,
};
use crate::sizing::{
    BLOCK_THREADS, bf16_bits, copy_buffer_bytes, copy_bytes, f16_bits, fma_flops, gbs, grid_blocks,
    mma_flops, pack2, tflops,
};
use crate::timing::{Best, Missed, measure};

/// A pair of timing events around work queued on the GPU's stream.
pub struct Timer {
    start: CudaEvent,
    end: CudaEvent,
}

impl Timer {
    pub fn new(gpu: &Gpu) -> Result<Self, GpuError> {
        let event = || {
            gpu.ctx
                .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
                .map_err(|e| error::cuda("cuEventCreate", e))
        };
        Ok(Timer {
            start: event()?,
            end: event()?,
        })
    }

    /// Milliseconds the device spent on what `work` queued; waits for it to finish.
    pub fn time(
        &self,
        gpu: &Gpu,
        work: impl FnOnce() -> Result<(), GpuError>,
    ) -> Result<f64, GpuError> {
        let timed = self
            .start
            .record(&gpu.stream)
            .map_err(|e| error::cuda("cuEventRecord", e))
            .and_then(|()| work())
            .and_then(|()| {
                self.end
                    .record(&gpu.stream)
                    .map_err(|e| error::cuda("cuEventRecord", e))
            })
            .and_then(|()| {
                // Waits for both events, so for the work between them.
                self.start
                    .elapsed_ms(&self.end)
                    .map_err(|e| error::cuda("cuEventElapsedTime", e))
            });
        if timed.is_err() {
            // Whatever was queued before the failure finishes before we go on: nothing is
            // left running behind an error. Its own error is the one already reported.
            let _ = gpu.stream.synchronize();
        }
        timed.map(f64::from)
    }
}

/// The figure from a measurement, or why there is none.
pub fn figure(result: Result<Best, Missed<GpuError>>, value: impl FnOnce(Best) -> f64) -> Figure {
    match result {
        Ok(best) => Figure::Measured { value: value(best) },
        Err(Missed::OutOfTime) => Figure::Failed {
            reason: "its share of the time ran out before one timed launch: the benchmark ran out of time"
                .into(),
        },
        Err(Missed::Launch(reason)) => failed(reason),
    }
}

/// Device-to-device copies of two equal buffers (1 GiB each when memory allows), bytes read
/// plus bytes written over the fastest timed batch.
pub fn bandwidth(gpu: &Gpu, share: Duration) -> Figure {
    let began = Instant::now();
    let free = match gpu.ctx.mem_get_info() {
        Ok((free, _)) => free as u64,
        Err(e) => return failed(error::cuda("cuMemGetInfo", e)),
    };
    let Some(bytes) = copy_buffer_bytes(free) else {
        return failed(format!(
            "only {} MiB of device memory free: too little to measure bandwidth",
            free >> 20
        ));
    };
    let buffers = usize::try_from(bytes)
        .map_err(|_| GpuError::Size("buffer size"))
        .and_then(|len| {
            let alloc = || {
                gpu.stream
                    .alloc_zeros::<u8>(len)
                    .map_err(|e| error::cuda("cuMemAlloc", e))
            };
            Ok((alloc()?, alloc()?))
        });
    let ((src, mut dst), timer) = match buffers.and_then(|b| Ok((b, Timer::new(gpu)?))) {
        Ok(ready) => ready,
        Err(reason) => return failed(reason),
    };
    let result = measure(
        share,
        1,
        1000,
        || began.elapsed(),
        |copies| {
            timer.time(gpu, || {
                for _ in 0..copies {
                    gpu.stream
                        .memcpy_dtod(&src, &mut dst)
                        .map_err(|e| error::cuda("cuMemcpyDtoDAsync", e))?;
                }
                Ok(())
            })
        },
    );
    figure(result, |best| gbs(copy_bytes(bytes, best.units), best.ms))
}

/// The FP32 FMA loop: 2 FLOPs per `fma.rn.f32`.
pub fn fp32(gpu: &Gpu, share: Duration, cuda_version: u32) -> Figure {
    let began = Instant::now();
    let chosen = match choose(FMA_NEEDS, gpu.info.sm, cuda_version) {
        Ok(chosen) => chosen,
        Err(why) => return not_buildable(FMA_ENTRY, &why),
    };
    let loaded = load(gpu, &fma_kernel(chosen), FMA_ENTRY).and_then(|f| Launch::new(gpu, f));
    let mut launch = match loaded {
        Ok(launch) => launch,
        Err(reason) => return failed(reason),
    };
    // x = x·0.9999 + 0.0001 stays near 1: no overflow, no denormals, however long it runs.
    let (mul, add) = (0.9999_f32, 0.0001_f32);
    let result = measure(
        share,
        64,
        u64::from(u32::MAX),
        || began.elapsed(),
        |iterations| launch.run(gpu, iterations, mul.to_bits(), add.to_bits(), FMA_ENTRY),
    );
    figure(result, |best| {
        tflops(
            fma_flops(launch.threads, best.units, FMA_PER_ITERATION),
            best.ms,
        )
    })
}

/// BF16 tensor throughput (sm_80 and later).
pub fn bf16(gpu: &Gpu, share: Duration, cuda_version: u32) -> Figure {
    if gpu.info.sm < MMA_BF16.needs.sm {
        return not_run(format!(
            "no BF16 tensor cores before sm_80 (this card is sm_{})",
            gpu.info.sm
        ));
    }
    let input = bf16_bits(1.0 / 64.0);
    tensor(gpu, share, cuda_version, MMA_BF16, pack2(input, input))
}

/// FP16 tensor throughput: the sm_80 shape, or Turing's m16n8k8 on sm_75.
pub fn fp16(gpu: &Gpu, share: Duration, cuda_version: u32) -> Figure {
    let mma = if gpu.info.sm >= MMA_F16.needs.sm {
        MMA_F16
    } else if gpu.info.sm >= MMA_F16_TURING.needs.sm {
        MMA_F16_TURING
    } else {
        return not_run(format!(
            "no FP16 mma.sync tensor cores before sm_75 (this card is sm_{})",
            gpu.info.sm
        ));
    };
    let input = f16_bits(1.0 / 64.0);
    tensor(gpu, share, cuda_version, mma, pack2(input, input))
}

fn tensor(gpu: &Gpu, share: Duration, cuda_version: u32, mma: Mma, packed: u32) -> Figure {
    let began = Instant::now();
    let entry = mma.entry();
    let chosen = match choose(mma.needs, gpu.info.sm, cuda_version) {
        Ok(chosen) => chosen,
        Err(why) => return not_buildable(&entry, &why),
    };
    let loaded = load(gpu, &mma_kernel(mma, chosen), &entry).and_then(|f| Launch::new(gpu, f));
    let mut launch = match loaded {
        Ok(launch) => launch,
        Err(reason) => return failed(reason),
    };
    // Inputs of 1/64: each mma adds K/4096 to an accumulator, far from overflow.
    let result = measure(
        share,
        16,
        u64::from(u32::MAX),
        || began.elapsed(),
        |iterations| launch.run(gpu, iterations, packed, packed, &entry),
    );
    figure(result, |best| {
        tflops(
            mma_flops(launch.threads, best.units, MMA_PER_ITERATION, mma.flops()),
            best.ms,
        )
    })
}

/// A loaded kernel of the shape `(out, iterations, x, y)`, its grid and its output buffer.
struct Launch {
    func: CudaFunction,
    cfg: LaunchConfig,
    threads: u64,
    out: cudarc::driver::CudaSlice<f32>,
    timer: Timer,
}

impl Launch {
    fn new(gpu: &Gpu, func: CudaFunction) -> Result<Self, GpuError> {
        let per_sm = func
            .occupancy_max_active_blocks_per_multiprocessor(BLOCK_THREADS, 0, None)
            .map_err(|e| error::cuda("cuOccupancyMaxActiveBlocksPerMultiprocessor", e))?;
        let blocks = grid_blocks(gpu.info.sm_count, per_sm);
        let threads = u64::from(blocks) * u64::from(BLOCK_THREADS);
        let out = gpu
            .stream
            .alloc_zeros::<f32>(usize::try_from(threads).unwrap_or(usize::MAX))
            .map_err(|e| error::cuda("cuMemAlloc", e))?;
        Ok(Launch {
            func,
            cfg: LaunchConfig {
                grid_dim: (blocks, 1, 1),
                block_dim: (BLOCK_THREADS, 1, 1),
                shared_mem_bytes: 0,
            },
            threads,
            out,
            timer: Timer::new(gpu)?,
        })
    }

    /// One launch of `iterations`, timed; `x` and `y` are passed as 32-bit words (f32 bits
    /// or packed halves, as the kernel reads them).
    fn run(
        &mut self,
        gpu: &Gpu,
        iterations: u64,
        x: u32,
        y: u32,
        entry: &str,
    ) -> Result<f64, GpuError> {
        let iterations = u32::try_from(iterations).unwrap_or(u32::MAX);
        let Launch {
            func,
            cfg,
            out,
            timer,
            ..
        } = self;
        timer.time(gpu, || {
            let mut args = gpu.stream.launch_builder(func);
            args.arg(out).arg(&iterations).arg(&x).arg(&y);
            // SAFETY: the arguments match the kernel's parameters one for one (ptx.rs: a
            // 64-bit pointer, then three 32-bit words); `out` holds one f32 per launched
            // thread, the only memory the kernel writes; and `time` synchronises the stream
            // before `out` can be dropped or reused.
            unsafe { args.launch(*cfg) }
                .map(|_| ())
                .map_err(|e| error::cuda(&format!("cuLaunchKernel ({entry})"), e))
        })
    }
}

/// The module for `ptx`, JIT-compiled by the driver, and its `entry`.
fn load(gpu: &Gpu, ptx: &str, entry: &str) -> Result<CudaFunction, GpuError> {
    let module: Arc<CudaModule> = match gpu.ctx.load_module(Ptx::from_src(ptx)) {
        Ok(module) => module,
        Err(e) => {
            let log = gpu
                .ctx
                .bind_to_thread()
                .ok()
                .and_then(|()| jit::error_log(ptx));
            return Err(jit_error(
                entry,
                e.0,
                error::cuda("cuModuleLoadData", e),
                log.as_deref(),
            ));
        }
    };
    module
        .load_function(entry)
        .map_err(|e| error::cuda(&format!("cuModuleGetFunction ({entry})"), e))
}

/// A JIT failure, saying what it means for the errors a driver gives for PTX it cannot build.
/// `cause` is the driver's error for `code`.
fn jit_error(entry: &str, code: CUresult, cause: GpuError, log: Option<&str>) -> GpuError {
    let hint = match code {
        CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION => {
            ": the driver is older than the PTX ISA this kernel needs"
        }
        CUresult::CUDA_ERROR_INVALID_PTX | CUresult::CUDA_ERROR_NO_BINARY_FOR_GPU => {
            ": the driver could not build this kernel for this card"
        }
        _ => "",
    };
    let log = log
        .map(|l| format!("; the JIT said: {l}"))
        .unwrap_or_default();
    GpuError::Jit {
        entry: entry.to_owned(),
        cause: Box::new(cause),
        hint,
        log,
    }
}

fn not_buildable(entry: &str, why: &NotBuildable) -> Figure {
    match why {
        NotBuildable::CardTooOld { .. } => not_run(format!("kernel {entry} {why}")),
        NotBuildable::DriverTooOld { .. } => failed(format!("kernel {entry} {why}")),
    }
}

fn failed(reason: impl std::fmt::Display) -> Figure {
    Figure::Failed {
        reason: reason.to_string(),
    }
}

fn not_run(reason: String) -> Figure {
    Figure::NotRun { reason }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(call: &str, name: &str) -> GpuError {
        GpuError::Call {
            call: call.into(),
            name: name.into(),
            description: None,
        }
    }

    #[test]
    fn a_jit_failure_names_the_kernel_the_error_its_meaning_and_the_log() {
        let line = jit_error(
            "gpumeter_mma_bf16_m16n8k16",
            CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
            call("cuModuleLoadData", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"),
            Some("ptxas fatal"),
        )
        .to_string();
        assert!(line.starts_with("kernel gpumeter_mma_bf16_m16n8k16: cuModuleLoadData: CUDA_ERROR_UNSUPPORTED_PTX_VERSION"));
        assert!(
            line.contains("older than the PTX ISA") && line.ends_with("the JIT said: ptxas fatal")
        );
        let plain = jit_error(
            "k",
            CUresult::CUDA_ERROR_OUT_OF_MEMORY,
            call("cuModuleLoadData", "CUDA_ERROR_OUT_OF_MEMORY"),
            None,
        );
        assert_eq!(
            plain.to_string(),
            "kernel k: cuModuleLoadData: CUDA_ERROR_OUT_OF_MEMORY"
        );
    }

    #[test]
    fn a_share_that_ran_out_is_a_failure_that_says_so() {
        let f = figure(Err(Missed::OutOfTime), |_| 1.0);
        assert!(matches!(f, Figure::Failed { reason } if reason.contains("ran out of time")));
        let m = figure(Ok(Best { units: 4, ms: 2.0 }), |b| b.ms * 10.0);
        assert_eq!(m, Figure::Measured { value: 20.0 });
    }
}
