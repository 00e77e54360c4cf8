//! An open GPU: its primary context, the stream the benchmark queues on, and what the driver
//! says of it (PCI address, compute capability, SM count).

use std::sync::Arc;

use cudarc::driver::sys::CUdevice_attribute as Attr;
use cudarc::driver::{CudaContext, CudaStream};

use crate::error;

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
    pub fn open(ordinal: usize) -> Result<Self, error::GpuError> {
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
}
