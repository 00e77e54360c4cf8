//! CUDA and cuBLAS errors as one line that names the call and the error, the driver's own
//! description made safe for a terminal.

use cudarc::cublas::result::CublasError;
use cudarc::driver::DriverError;
use gpumeter_core::text::one_line;

/// `call: NAME (description)`, the description cut to one line.
pub fn format_error(call: &str, name: &str, description: Option<&str>) -> String {
    match description
        .map(|d| one_line(d, 160))
        .filter(|d| !d.is_empty())
    {
        Some(d) => format!("{call}: {name} ({d})"),
        None => format!("{call}: {name}"),
    }
}

/// Why a benchmark step on the GPU failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// A CUDA or cuBLAS call returned an error.
    #[error("{}", format_error(.call, .name, .description.as_deref()))]
    Call {
        call: String,
        name: String,
        description: Option<String>,
    },
    /// The driver's JIT could not build a kernel: its error, what that means, and its log.
    #[error("kernel {entry}: {cause}{hint}{log}")]
    Jit {
        entry: String,
        cause: Box<GpuError>,
        hint: &'static str,
        log: String,
    },
    #[error("only {free_mib} MiB of device memory free: too little for a 1024³ GEMM")]
    TooLittleForGemm { free_mib: u64 },
    /// A size that does not fit the type the API takes.
    #[error("{0}")]
    Size(&'static str),
}

/// A driver error from `call`. Only for errors the loaded driver returned: the description is
/// asked of it.
pub fn cuda(call: &str, err: DriverError) -> GpuError {
    let description = err
        .error_string()
        .ok()
        .map(|d| d.to_string_lossy().into_owned());
    GpuError::Call {
        call: call.to_owned(),
        name: format!("{:?}", err.0),
        description,
    }
}

/// A cuBLAS error from `call`.
pub fn cublas(call: &str, err: CublasError) -> GpuError {
    GpuError::Call {
        call: call.to_owned(),
        name: format!("{:?}", err.0),
        description: None,
    }
}

#[cfg(test)]
mod tests {
    use cudarc::driver::sys::CUresult;

    use super::*;

    #[test]
    fn the_message_names_the_call_and_the_error() {
        let name = format!("{:?}", CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
        assert_eq!(name, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
        let line = format_error(
            "cuModuleLoadData",
            &name,
            Some("the PTX was\ncompiled with"),
        );
        assert_eq!(
            line,
            "cuModuleLoadData: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (the PTX was compiled with)"
        );
        assert_eq!(format_error("cuInit", "X", Some("  ")), "cuInit: X");
    }
}
