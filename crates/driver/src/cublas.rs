//! The matrix multiply users already measure: a square BF16 GEMM through cuBLAS
//! (`cublasGemmEx`, BF16 in and out, FP32 compute, what `torch.matmul` runs on BF16 tensors),
//! where libcublas can be loaded. 2·n³ FLOPs a GEMM.

use std::time::{Duration, Instant};

use cudarc::cublas::result as blas;
use cudarc::cublas::sys::{
    cublasComputeType_t, cublasGemmAlgo_t, cublasHandle_t, cublasOperation_t, cudaDataType,
};
use cudarc::driver::DevicePtr;
use gpumeter_core::verify::Figure;

use crate::device::Gpu;
use crate::error::{self, GpuError};
use crate::kernels::{Timer, figure};
use crate::load::{self, CUBLAS_ABSENT};
use crate::sizing::{bf16_noise, gemm_flops, gemm_side, tflops};
use crate::timing::measure;

/// A cuBLAS handle, destroyed when dropped (an error then is ignored: nothing can be done).
struct Handle(cublasHandle_t);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: the handle came from `cublasCreate` and is destroyed once, here; the stream
        // it used was synchronised by the last timed batch.
        let _ = unsafe { blas::destroy_handle(self.0) };
    }
}

/// The cuBLAS BF16 GEMM figure, TFLOPS.
pub fn gemm(gpu: &Gpu, share: Duration) -> Figure {
    let began = Instant::now();
    if gpu.info.sm < 80 {
        return Figure::NotRun {
            reason: format!(
                "cuBLAS BF16 GEMM needs sm_80 or newer (this card is sm_{})",
                gpu.info.sm
            ),
        };
    }
    if !load::cublas() {
        return Figure::NotRun {
            reason: CUBLAS_ABSENT.into(),
        };
    }
    match run(gpu, share, began) {
        Ok(figure) => figure,
        Err(reason) => Figure::Failed {
            reason: reason.to_string(),
        },
    }
}

fn run(gpu: &Gpu, share: Duration, began: Instant) -> Result<Figure, GpuError> {
    let (free, _) = gpu
        .ctx
        .mem_get_info()
        .map_err(|e| error::cuda("cuMemGetInfo", e))?;
    let n = gemm_side(free as u64).ok_or(GpuError::TooLittleForGemm {
        free_mib: free as u64 >> 20,
    })?;
    let len = usize::try_from(n * n).map_err(|_| GpuError::Size("matrix size"))?;
    let side = i32::try_from(n).map_err(|_| GpuError::Size("matrix side"))?;
    let host = bf16_noise(len, 0x5eed_cafe);
    let upload = |data: &[u16]| {
        gpu.stream
            .clone_htod(data)
            .map_err(|e| error::cuda("cuMemcpyHtoD", e))
    };
    let a = upload(&host)?;
    let b = upload(&host)?;
    drop(host);
    let mut c = gpu
        .stream
        .alloc_zeros::<u16>(len)
        .map_err(|e| error::cuda("cuMemAlloc", e))?;
    let handle = Handle(blas::create_handle().map_err(|e| error::cublas("cublasCreate", e))?);
    // SAFETY: a live handle and the GPU's own stream, which outlives the handle (both are
    // dropped at the end of this function, the handle first).
    unsafe { blas::set_stream(handle.0, gpu.stream.cu_stream().cast()) }
        .map_err(|e| error::cublas("cublasSetStream", e))?;
    let timer = Timer::new(gpu)?;
    let (alpha, beta) = (1.0_f32, 0.0_f32);

    let result = measure(
        share,
        1,
        10_000,
        || began.elapsed(),
        |count| {
            timer.time(gpu, || {
                let (a_ptr, _a_read) = a.device_ptr(&gpu.stream);
                let (b_ptr, _b_read) = b.device_ptr(&gpu.stream);
                let (c_ptr, _c_write) =
                    cudarc::driver::DevicePtrMut::device_ptr_mut(&mut c, &gpu.stream);
                for _ in 0..count {
                    // SAFETY: A, B and C are n×n BF16 matrices on this device (len = n² elements
                    // of 2 bytes each, leading dimension n, no transpose); alpha and beta are host
                    // f32 values (the default host pointer mode) that outlive the call; the
                    // pointers' guards live until the loop ends, and `time` synchronises the stream
                    // before any buffer can be dropped.
                    unsafe {
                        blas::gemm_ex(
                            handle.0,
                            cublasOperation_t::CUBLAS_OP_N,
                            cublasOperation_t::CUBLAS_OP_N,
                            side,
                            side,
                            side,
                            (&raw const alpha).cast(),
                            a_ptr as *const _,
                            cudaDataType::CUDA_R_16BF,
                            side,
                            b_ptr as *const _,
                            cudaDataType::CUDA_R_16BF,
                            side,
                            (&raw const beta).cast(),
                            c_ptr as *mut _,
                            cudaDataType::CUDA_R_16BF,
                            side,
                            cublasComputeType_t::CUBLAS_COMPUTE_32F,
                            cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT_TENSOR_OP,
                        )
                    }
                    .map_err(|e| error::cublas("cublasGemmEx", e))?;
                }
                Ok(())
            })
        },
    );
    Ok(figure(result, |best| {
        tflops(gemm_flops(n, best.units), best.ms)
    }))
}
