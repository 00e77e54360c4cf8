//! Memory and the process lists on drivers before R510. nvml-wrapper 0.13 reads them through
//! calls R510 added (`nvmlDeviceGetMemoryInfo_v2`, the `_v3` process lists), which an R470
//! driver fails as a missing symbol; there the calls it does have give the same readings.

use nvml_wrapper::Device;
use nvml_wrapper::error::{NvmlError, nvml_sym, nvml_try};
use nvml_wrapper::struct_wrappers::device::{MemoryInfo, ProcessInfo};
use nvml_wrapper_sys::bindings::nvmlMemory_t;

/// The card's (or MIG instance's) memory, from whichever call the driver has.
pub fn memory_info(device: &Device<'_>) -> Result<MemoryInfo, NvmlError> {
    or_older(device.memory_info(), || memory_info_v1(device))
}

/// The processes with a compute context on the card, from whichever call the driver has.
pub fn compute_processes(device: &Device<'_>) -> Result<Vec<ProcessInfo>, NvmlError> {
    or_older(device.running_compute_processes(), || {
        device.running_compute_processes_v2()
    })
}

/// The processes with a graphics context on the card, from whichever call the driver has.
pub fn graphics_processes(device: &Device<'_>) -> Result<Vec<ProcessInfo>, NvmlError> {
    or_older(device.running_graphics_processes(), || {
        device.running_graphics_processes_v2()
    })
}

/// `newer`, or what `older` answers where the driver predates the newer call.
fn or_older<T>(
    newer: Result<T, NvmlError>,
    older: impl FnOnce() -> Result<T, NvmlError>,
) -> Result<T, NvmlError> {
    match newer {
        Err(NvmlError::FailedToLoadSymbol(_) | NvmlError::FunctionNotFound) => older(),
        answered => answered,
    }
}

fn memory_info_v1(device: &Device<'_>) -> Result<MemoryInfo, NvmlError> {
    let sym = nvml_sym(device.nvml().lib().nvmlDeviceGetMemoryInfo.as_ref())?;
    let mut memory = nvmlMemory_t {
        total: 0,
        free: 0,
        used: 0,
    };
    // SAFETY: the handle belongs to a live `Device`, whose `Nvml` (and so the library the
    // symbol came from) outlives this call; the pointer is to a local `nvmlMemory_t`, the
    // struct the function writes.
    nvml_try(unsafe { sym(device.handle(), &raw mut memory) })?;
    Ok(MemoryInfo {
        free: memory.free,
        reserved: 0,
        total: memory.total,
        used: memory.used,
        version: 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_call_the_driver_lacks_falls_back() {
        let older = || Ok(1);
        assert!(matches!(
            or_older(Err(NvmlError::FunctionNotFound), older),
            Ok(1)
        ));
        assert!(matches!(or_older(Ok(2), older), Ok(2)));
        // A refusal is the driver's answer, not a missing call.
        assert!(matches!(
            or_older(Err(NvmlError::NoPermission), older),
            Err(NvmlError::NoPermission)
        ));
    }
}
