//! One GPU: its context and stream, what the driver says of it, and its benchmark, each figure
//! in its share of the time left.

use std::sync::Arc;
use std::time::Instant;

use cudarc::driver::sys::CUdevice_attribute as Attr;
use cudarc::driver::{CudaContext, CudaStream};
use gpumeter_core::verify::{Figure, Measured};

use crate::sizing::share;
use crate::{cublas, error, kernels};

/// What the driver says of a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// The CUDA ordinal (after `CUDA_VISIBLE_DEVICES`).
    pub ordinal: usize,
    /// In NVML's form, `00000000:17:00.0` (see [`nvml_bus_id`]).
    pub pci_bus_id: String,
    /// Compute capability as 10·major + minor (sm_90 is 90).
    pub sm: u32,
    pub sm_count: u32,
}

/// A card's PCI address as NVML writes it (`nvmlPciInfo_t::busId`): an 8-digit domain, then
/// bus, device and function in upper-case hex, `00000000:17:00.0`. CUDA's own
/// `cuDeviceGetPCIBusId` writes a 4-digit domain; [`same_pci_bus`] matches either form.
pub fn nvml_bus_id(domain: u32, bus: u32, device: u32) -> String {
    format!("{domain:08X}:{bus:02X}:{device:02X}.0")
}

/// Whether two PCI bus ids name the same card, whatever the domain's width or the case.
pub fn same_pci_bus(a: &str, b: &str) -> bool {
    fn parts(id: &str) -> Option<[u32; 4]> {
        let (domain, rest) = id.trim().split_once(':')?;
        let (bus, rest) = rest.split_once(':')?;
        let (device, function) = rest.split_once('.')?;
        let hex = |s: &str| u32::from_str_radix(s, 16).ok();
        Some([hex(domain)?, hex(bus)?, hex(device)?, hex(function)?])
    }
    matches!((parts(a), parts(b)), (Some(x), Some(y)) if x == y)
}

/// An open GPU: its primary context and the stream the benchmark queues on.
pub struct Gpu {
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    pub info: Info,
}

impl Gpu {
    pub fn open(ordinal: usize) -> Result<Self, String> {
        let ctx =
            CudaContext::new(ordinal).map_err(|e| error::cuda("cuDevicePrimaryCtxRetain", e))?;
        let attr = |a: Attr| {
            ctx.attribute(a)
                .map(|v| u32::try_from(v).unwrap_or(0))
                .map_err(|e| error::cuda("cuDeviceGetAttribute", e))
        };
        let info = Info {
            ordinal,
            pci_bus_id: nvml_bus_id(
                attr(Attr::CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID)?,
                attr(Attr::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?,
                attr(Attr::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)?,
            ),
            sm: 10 * attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?
                + attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            sm_count: attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        };
        // Our own stream, not the legacy default one, so nothing else in the process can
        // queue work between the timing events.
        let stream = ctx
            .new_stream()
            .map_err(|e| error::cuda("cuStreamCreate", e))?;
        Ok(Gpu { ctx, stream, info })
    }
}

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
        Err(reason) => return all_failed(ordinal, None, &reason, began),
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
    fn the_bus_id_is_written_as_nvml_writes_it() {
        assert_eq!(nvml_bus_id(0, 0x17, 0), "00000000:17:00.0");
        assert_eq!(nvml_bus_id(1, 0xb3, 0x1f), "00000001:B3:1F.0");
    }

    #[test]
    fn cuda_and_nvml_forms_of_one_address_match() {
        assert!(same_pci_bus("0000:b3:00.0", "00000000:B3:00.0"));
        assert!(!same_pci_bus("0000:b3:00.0", "00000000:B4:00.0"));
        assert!(!same_pci_bus("garbage", "garbage"));
    }

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
