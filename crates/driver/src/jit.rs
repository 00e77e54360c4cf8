//! The JIT compiler's own words when the driver refuses a kernel: `cuModuleLoadData` gives
//! only an error code, so the text is loaded once more with an error-log buffer attached.

use std::ffi::{CString, c_void};

use cudarc::driver::sys::{self, CUjit_option};
use gpumeter_core::text::one_line;

const LOG_BYTES: usize = 4096;

/// The JIT's error log for `ptx`, one safe line; `None` if it says nothing or, this time, the
/// text loads. Only after a load failed, with the failing context current on this thread.
pub fn error_log(ptx: &str) -> Option<String> {
    let src = CString::new(ptx).ok()?;
    let mut log = vec![0_u8; LOG_BYTES];
    let mut options = [
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    // The size travels in the pointer-sized slot itself, as the driver API reads it.
    let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), LOG_BYTES as *mut c_void];
    let mut module: sys::CUmodule = std::ptr::null_mut();
    // SAFETY: `src` is NUL-terminated text that outlives the call; the two option arrays have
    // the length passed (2) and pair each option with its value: a buffer of `LOG_BYTES`
    // writable bytes that outlives the call, and that size; `module` is a local to write to.
    let code = unsafe {
        sys::cuModuleLoadDataEx(
            &raw mut module,
            src.as_ptr().cast(),
            2,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
        )
    };
    if code == sys::CUresult::CUDA_SUCCESS {
        // SAFETY: the module was just loaded by this function and is unloaded once, here.
        let _ = unsafe { sys::cuModuleUnload(module) };
        return None;
    }
    log_text(&log)
}

/// The log's text up to its NUL, one line, or `None` if empty.
fn log_text(log: &[u8]) -> Option<String> {
    let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
    Some(one_line(&String::from_utf8_lossy(&log[..end]), 300)).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_is_its_text_up_to_the_nul_on_one_line() {
        let mut log = b"ptxas application ptx input, line 9; error   : Unknown\nsymbol".to_vec();
        log.extend_from_slice(&[0, b'x', b'y']);
        assert_eq!(
            log_text(&log).as_deref(),
            Some("ptxas application ptx input, line 9; error : Unknown symbol")
        );
        assert_eq!(log_text(&[0; 16]), None);
    }
}
