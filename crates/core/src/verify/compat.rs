//! Which compute capabilities a CUDA toolkit can build for: the architectures each release adds
//! and removes. An image built with a toolkit that cannot target the card's sm_XX does not run
//! on it, whatever the driver supports.
//!
// Sources:
// Kitware/CMake, Modules/Internal/CMakeCUDAArchitecturesAll.cmake @ 031593de2564f4ecacebd0c376416eef997c779c
//   (the real architectures each CUDA version builds for),
//   https://github.com/Kitware/CMake/blob/master/Modules/Internal/CMakeCUDAArchitecturesAll.cmake
// "CUDA Toolkit 13.2 Update 2 - Release Notes", Deprecated Architectures (Maxwell, Pascal and
//   Volta, sm_50 to sm_72, removed in 13.0), https://docs.nvidia.com/cuda/archive/13.2.2/cuda-toolkit-release-notes/index.html
// https://github.com/pytorch/pytorch/issues/157517 and https://github.com/NVIDIA/cuDecomp/pull/97
//   ("CUDA 13.0 dropped support for Volta (SM70), but not Turing (SM75)")
// cuRANDDx release notes (Thor's sm_101 is sm_110 from CUDA 13.0),
//   https://docs.nvidia.com/cuda/curanddx/0.2.4/release_notes.html

use crate::telemetry::CudaVersion;

/// Whether a toolkit can build for a compute capability.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Buildable {
    Yes,
    /// It cannot; the reason, in the current language, says which toolkit can.
    No(String),
    /// The table does not know this architecture.
    Unknown,
}

const fn v(major: u32, minor: u32) -> CudaVersion {
    CudaVersion { major, minor }
}

/// The first toolkit that builds for an architecture and the first that no longer does.
struct Span {
    sm: (u32, u32),
    from: CudaVersion,
    until: Option<CudaVersion>,
}

const fn span(sm: (u32, u32), from: CudaVersion, until: Option<CudaVersion>) -> Span {
    Span { sm, from, until }
}

/// CUDA 11.0 is the oldest toolkit the table tracks; an architecture older toolkits already
/// built for starts there.
const SPANS: [Span; 22] = [
    span((3, 5), v(11, 0), Some(v(12, 0))),
    span((3, 7), v(11, 0), Some(v(12, 0))),
    span((5, 0), v(11, 0), Some(v(13, 0))),
    span((5, 2), v(11, 0), Some(v(13, 0))),
    span((5, 3), v(11, 0), Some(v(13, 0))),
    span((6, 0), v(11, 0), Some(v(13, 0))),
    span((6, 1), v(11, 0), Some(v(13, 0))),
    span((6, 2), v(11, 0), Some(v(13, 0))),
    span((7, 0), v(11, 0), Some(v(13, 0))),
    span((7, 2), v(11, 0), Some(v(13, 0))),
    span((7, 5), v(11, 0), None),
    span((8, 0), v(11, 0), None),
    span((8, 6), v(11, 1), None),
    span((8, 7), v(11, 4), None),
    span((8, 9), v(11, 8), None),
    span((9, 0), v(11, 8), None),
    span((10, 0), v(12, 8), None),
    span((10, 1), v(12, 8), Some(v(13, 0))),
    span((10, 3), v(12, 9), None),
    span((11, 0), v(13, 0), None),
    span((12, 0), v(12, 8), None),
    span((12, 1), v(12, 9), None),
];

/// Whether CUDA `cuda` can build for compute capability `sm` (`(7, 0)` for sm_70).
pub fn buildable(cuda: CudaVersion, sm: (u32, u32)) -> Buildable {
    let Some(s) = SPANS.iter().find(|s| s.sm == sm) else {
        return Buildable::Unknown;
    };
    if cuda < s.from {
        return Buildable::No(crate::t!("verify-cuda-needs", from = s.from.to_string()));
    }
    match s.until {
        Some(until) if cuda >= until => {
            let until_s = until.to_string();
            Buildable::No(if until.minor == 0 {
                let major = (until.major - 1).to_string();
                crate::t!("verify-cuda-dropped-major", until = until_s, major = major)
            } else {
                crate::t!("verify-cuda-dropped", until = until_s)
            })
        }
        _ => Buildable::Yes,
    }
}

/// `"8.0"` (NVML's form) as `(8, 0)`.
pub fn parse_capability(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.trim().split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volta_is_gone_from_cuda_13_and_turing_stays() {
        assert!(
            matches!(buildable(v(13, 0), (7, 0)), Buildable::No(why) if why.contains("CUDA 12 image"))
        );
        assert_eq!(buildable(v(12, 9), (7, 0)), Buildable::Yes);
        assert_eq!(buildable(v(13, 2), (7, 5)), Buildable::Yes);
    }

    #[test]
    fn new_architectures_need_new_toolkits() {
        assert!(matches!(buildable(v(12, 4), (10, 0)), Buildable::No(why) if why.contains("12.8")));
        assert_eq!(buildable(v(12, 8), (12, 0)), Buildable::Yes);
        assert!(matches!(buildable(v(11, 7), (9, 0)), Buildable::No(_)));
        assert_eq!(buildable(v(11, 8), (9, 0)), Buildable::Yes);
        assert!(matches!(buildable(v(11, 0), (8, 6)), Buildable::No(_)));
        assert_eq!(buildable(v(11, 1), (8, 6)), Buildable::Yes);
        assert_eq!(buildable(v(12, 0), (9, 9)), Buildable::Unknown);
    }

    #[test]
    fn capabilities_parse_as_nvml_writes_them() {
        assert_eq!(parse_capability("8.0"), Some((8, 0)));
        assert_eq!(parse_capability(" 12.1 "), Some((12, 1)));
        assert_eq!(parse_capability("sm_80"), None);
    }
}
