//! One GPU's benchmark, each figure in its share of the time left.

use std::time::Instant;

use gpumeter_core::verify::{Figure, Measured};

use crate::device::Gpu;
use crate::sizing::share;
use crate::{cublas, kernels};

/// The figures in the order they run, each with its weight in the split of the time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    Bandwidth,
    Fp32,
    Bf16,
    Fp16,
    Gemm,
}

/// The run order and weights: equal shares of what is left when each begins.
pub const FIGURES: [(Which, u32); 5] = [
    (Which::Bandwidth, 1),
    (Which::Fp32, 1),
    (Which::Bf16, 1),
    (Which::Fp16, 1),
    (Which::Gemm, 1),
];

/// Every figure of one GPU, all done by `deadline`. `index` is the CUDA ordinal: the caller
/// sets NVML's index after matching `pci_bus_id`.
pub fn bench(ordinal: usize, deadline: Instant, cuda_version: u32) -> Measured {
    let began = Instant::now();
    let gpu = match Gpu::open(ordinal) {
        Ok(gpu) => gpu,
        Err(reason) => return all_failed(ordinal, None, &reason.to_string(), began),
    };
    let mut figures: Vec<Figure> = Vec::with_capacity(FIGURES.len());
    let mut weights_left: u32 = FIGURES.iter().map(|(_, w)| w).sum();
    for (which, weight) in FIGURES {
        let remaining = deadline.saturating_duration_since(Instant::now());
        let slot = share(remaining, weight, weights_left);
        weights_left -= weight;
        figures.push(match which {
            Which::Bandwidth => kernels::bandwidth(&gpu, slot),
            Which::Fp32 => kernels::fp32(&gpu, slot, cuda_version),
            Which::Bf16 => kernels::bf16(&gpu, slot, cuda_version),
            Which::Fp16 => kernels::fp16(&gpu, slot, cuda_version),
            Which::Gemm => cublas::gemm(&gpu, slot),
        });
    }
    let [bandwidth, fp32, bf16, fp16, gemm]: [Figure; 5] = figures
        .try_into()
        .unwrap_or_else(|_| unreachable!("one figure per entry of FIGURES"));
    Measured {
        index: u32::try_from(ordinal).unwrap_or(u32::MAX),
        pci_bus_id: Some(gpu.info.pci_bus_id.clone()),
        mem_bandwidth_gbs: bandwidth,
        fp32_tflops: fp32,
        bf16_tflops: bf16,
        fp16_tflops: fp16,
        gemm_bf16_tflops: gemm,
        sm_clock_mhz: None,
        seconds: began.elapsed().as_secs_f64(),
    }
}

/// A GPU none of whose figures could run, each for `reason`.
pub fn all_failed(
    ordinal: usize,
    pci_bus_id: Option<String>,
    reason: &str,
    began: Instant,
) -> Measured {
    let failed = || Figure::Failed {
        reason: reason.to_string(),
    };
    Measured {
        index: u32::try_from(ordinal).unwrap_or(u32::MAX),
        pci_bus_id,
        mem_bandwidth_gbs: failed(),
        fp32_tflops: failed(),
        bf16_tflops: failed(),
        fp16_tflops: failed(),
        gemm_bf16_tflops: failed(),
        sm_clock_mhz: None,
        seconds: began.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gpu_that_cannot_open_fails_every_figure_with_the_reason() {
        let m = all_failed(2, None, "cuDevicePrimaryCtxRetain: X", Instant::now());
        assert_eq!(m.index, 2);
        for f in [
            &m.mem_bandwidth_gbs,
            &m.fp32_tflops,
            &m.bf16_tflops,
            &m.fp16_tflops,
            &m.gemm_bf16_tflops,
        ] {
            assert_eq!(
                f,
                &Figure::Failed {
                    reason: "cuDevicePrimaryCtxRetain: X".into()
                }
            );
        }
    }
}
