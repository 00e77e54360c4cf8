//! Whether the NVIDIA libraries can be loaded, asked before any cudarc call: cudarc panics
//! when a library it needs is absent, and a machine without the driver must get an answer,
//! not a crash.

use cudarc::driver::{DriverError, sys};
use gpumeter_core::verify::{BenchError, BenchErrorKind};

/// The reason a GEMM figure is missing on a machine with the driver and no CUDA libraries.
pub const CUBLAS_ABSENT: &str =
    "cuBLAS (libcublas.so.12) not found: the driver-only figures stand alone";

/// `Ok` if the CUDA driver library (`libcuda.so.1`, installed with the NVIDIA driver) loads,
/// else [`BenchErrorKind::NoDriver`] naming every file name tried.
pub fn driver() -> Result<(), BenchError> {
    // SAFETY: this dlopens the NVIDIA driver's library and closes it again; loading it runs
    // only the library's own initialisers, which every CUDA program runs, and no symbol of it
    // is called here.
    if unsafe { sys::is_culib_present() } {
        return Ok(());
    }
    let mut tried = cudarc::get_lib_name_candidates("cuda");
    let mut seen = std::collections::HashSet::new();
    tried.retain(|name| seen.insert(name.clone()));
    Err(no_driver(&tried))
}

/// The error for a machine where none of `tried` loads.
pub fn no_driver(tried: &[String]) -> BenchError {
    BenchError {
        kind: BenchErrorKind::NoDriver,
        detail: format!(
            "none of {} could be loaded (is the NVIDIA driver installed, and visible in this container?)",
            tried.join(", ")
        ),
    }
}

/// Whether cuBLAS loads. Not part of the driver: present where a CUDA toolkit or a framework
/// that ships it is installed.
pub fn cublas() -> bool {
    // SAFETY: as for the driver above: load, run the library's initialisers, close; nothing of
    // it is called.
    unsafe { cudarc::cublas::sys::is_culib_present() }
}

/// The driver's CUDA version, 1000·major + 10·minor (12.8 is 12080). Only after [`driver`].
pub fn driver_version() -> Result<u32, DriverError> {
    let mut version: std::ffi::c_int = 0;
    // SAFETY: the driver library is loaded (checked by `driver`), and the pointer is to a
    // local that outlives the call.
    unsafe { sys::cuDriverGetVersion(&raw mut version) }.result()?;
    Ok(u32::try_from(version).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_driver_names_every_file_tried() {
        let err = no_driver(&["libcuda.so".into(), "libcuda.so.1".into()]);
        assert_eq!(err.kind, BenchErrorKind::NoDriver);
        assert!(err.detail.contains("libcuda.so,") && err.detail.contains("libcuda.so.1"));
    }

    #[test]
    fn the_candidates_include_the_driver_s_own_name() {
        assert!(cudarc::get_lib_name_candidates("cuda").contains(&"libcuda.so.1".to_string()));
    }
}
