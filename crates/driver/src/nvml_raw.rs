//! `nvmlDeviceGetRemappedRows`, which nvml-wrapper 0.13 binds but does not wrap: called through
//! the library the caller's `Nvml` already loaded, on the device's own handle.

use gpumeter_core::verify::RemappedRows;
use nvml_wrapper::Device;
use nvml_wrapper::error::{NvmlError, nvml_sym, nvml_try};

/// The card's row-remapping counts (Ampere and later data-centre cards). An older card or a
/// driver without the call gives `NotSupported` or `FailedToLoadSymbol`, as nvml-wrapper
/// gives them for its own calls.
pub fn remapped_rows(device: &Device<'_>) -> Result<RemappedRows, NvmlError> {
    let sym = nvml_sym(device.nvml().lib().nvmlDeviceGetRemappedRows.as_ref())?;
    let (mut corrected, mut uncorrected, mut pending, mut failure) = (0, 0, 0, 0);
    // SAFETY: the handle belongs to a live `Device`, whose `Nvml` (and so the library the
    // symbol came from) outlives this call; the four pointers are to locals that outlive it,
    // of the `unsigned int` type the function writes.
    let code = unsafe {
        sym(
            device.handle(),
            &raw mut corrected,
            &raw mut uncorrected,
            &raw mut pending,
            &raw mut failure,
        )
    };
    nvml_try(code)?;
    Ok(from_raw(corrected, uncorrected, pending, failure))
}

/// The counts as NVML wrote them: the two flags are C booleans.
fn from_raw(corrected: u32, uncorrected: u32, pending: u32, failure: u32) -> RemappedRows {
    RemappedRows {
        corrected,
        uncorrected,
        pending: pending != 0,
        failure: failure != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_are_any_non_zero_value() {
        let rows = from_raw(3, 1, 2, 0);
        assert_eq!(
            rows,
            RemappedRows {
                corrected: 3,
                uncorrected: 1,
                pending: true,
                failure: false
            }
        );
    }
}
