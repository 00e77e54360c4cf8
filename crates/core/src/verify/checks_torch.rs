//! The torch a job would run with (`verify --python`): can it use the GPU at all, and was it
//! built for this card's architecture. Both fail before the first billed hour goes on a job
//! that would stop at its first CUDA call.
//!
//! torch missing from the interpreter warns and does not fail: it is installed in minutes and
//! costs nothing meanwhile, whereas a fail may release the machine (`--on-fail release`).

use super::compat::parse_capability;
use super::gpu::Gpu;
use super::report::{Check, Reading, Verdict, VerifyInput};
use super::torch::{Fit, ProbeState, TorchProbe, fit, sm, wheels_for};
use crate::telemetry::{CudaVersion, Metric};

/// Where PyTorch's CUDA wheels are installed from.
const INDEX: &str = "https://download.pytorch.org/whl/";

/// The `pip` line for the newest wheel that runs on the cards, or the newest wheel.
fn pip_line(wheels: &[&str]) -> String {
    let tag = wheels.first().copied().unwrap_or("cu128");
    format!("pip install torch --index-url {INDEX}{tag}")
}

/// The cards' capabilities, as NVML reports them (else the rated table's).
fn capabilities(input: &VerifyInput<'_>) -> Vec<(u32, u32)> {
    input
        .reading
        .gpus
        .iter()
        .filter_map(|g| match &g.compute_capability {
            Metric::Value(text) => parse_capability(text),
            Metric::Unavailable(_) => None,
        })
        .collect()
}

/// Whether torch can use the GPU: installed, built with CUDA, and CUDA available.
pub(super) fn machine(input: &VerifyInput<'_>) -> Option<Check> {
    let probe = input.torch?;
    let python = probe.interpreter.clone();
    let version = probe.torch_version.clone().unwrap_or_default();
    let wheels = capabilities(input)
        .first()
        .map(|cc| wheels_for(*cc))
        .unwrap_or_default();
    let pip = pip_line(&wheels);
    let measured = Reading::text(
        probe.torch_version.clone().unwrap_or_else(|| "none".into()),
        "",
    );
    let check = match (probe.state, &probe.torch_cuda, probe.cuda_available) {
        (ProbeState::NotRun, ..) => {
            let why = probe.error.clone().unwrap_or_default();
            return Some(Check::unread("torch", None, why, || {
                crate::t!("verify-what-torch")
            }));
        }
        (ProbeState::NotInstalled, ..) => Check::says("torch", None, Verdict::Warn, move || {
            crate::t!("verify-torch-not-installed", python = python.as_str())
        }),
        (ProbeState::ImportFailed, ..) => {
            let error = probe.error.clone().unwrap_or_default();
            Check::says("torch", None, Verdict::Fail, move || {
                crate::t!(
                    "verify-torch-import-failed",
                    python = python.as_str(),
                    error = error.as_str()
                )
            })
        }
        (ProbeState::Read, None, _) => Check::says("torch", None, Verdict::Fail, move || {
            crate::t!(
                "verify-torch-cpu-only",
                version = version.as_str(),
                pip = pip.as_str()
            )
        }),
        (ProbeState::Read, Some(cuda), Some(true)) => {
            let cuda = cuda.clone();
            let count = probe.devices.len();
            let name = probe.device_name.clone().unwrap_or_default();
            Check::says("torch", None, Verdict::Pass, move || {
                crate::t!(
                    "verify-torch-sees",
                    version = version.as_str(),
                    cuda = cuda.as_str(),
                    count = count,
                    name = name.as_str()
                )
            })
        }
        (ProbeState::Read, Some(cuda), _) => unavailable(input, probe, cuda, pip),
    };
    Some(check.measured(measured))
}

/// torch built with CUDA that cannot use it: the driver too old for torch's CUDA, or the GPU
/// hidden from the process.
fn unavailable(input: &VerifyInput<'_>, probe: &TorchProbe, cuda: &str, pip: String) -> Check {
    let version = probe.torch_version.clone().unwrap_or_default();
    let cuda = cuda.to_owned();
    let built: Option<CudaVersion> = cuda.parse().ok();
    let driver = match input.reading.driver.cuda_version {
        Metric::Value(d) => Some(d),
        Metric::Unavailable(_) => None,
    };
    let error = probe
        .error
        .clone()
        .unwrap_or_else(|| "torch.cuda.is_available() is False".to_owned());
    match (built, driver) {
        (Some(built), Some(driver)) if driver < built => {
            let driver = driver.to_string();
            Check::says("torch", None, Verdict::Fail, move || {
                crate::t!(
                    "verify-torch-driver-older",
                    version = version.as_str(),
                    cuda = cuda.as_str(),
                    driver = driver.as_str()
                )
            })
        }
        _ => Check::says("torch", None, Verdict::Fail, move || {
            crate::t!(
                "verify-torch-no-cuda",
                version = version.as_str(),
                cuda = cuda.as_str(),
                error = error.as_str(),
                pip = pip.as_str()
            )
        }),
    }
}

/// Whether torch's compiled architectures run on this card.
pub(super) fn per_gpu(input: &VerifyInput<'_>, gpu: &Gpu<'_>) -> Option<Check> {
    let probe = input.torch?;
    if probe.state != ProbeState::Read || probe.cuda_available != Some(true) {
        return None;
    }
    let at = gpu.at;
    let reported = match &gpu.sample.compute_capability {
        Metric::Value(text) => parse_capability(text),
        Metric::Unavailable(_) => None,
    };
    let Some(cc) = reported.or(gpu.rated.map(|r| r.compute_capability)) else {
        return Some(Check::unread(
            "torch_arch",
            at,
            "NVML gave no compute capability as major.minor",
            || crate::t!("verify-what-cc"),
        ));
    };
    let archs = probe.arch_list.clone().unwrap_or_default();
    let card = sm(cc);
    let model = gpu.model().to_owned();
    let version = probe.torch_version.clone().unwrap_or_default();
    let found = fit(&archs, cc);
    let (verdict, measured) = match &found {
        Fit::Exact(a) | Fit::Compatible(a) => (Verdict::Pass, a.clone()),
        Fit::Ptx(a) => (Verdict::Warn, a.clone()),
        Fit::None => (Verdict::Fail, "none".to_owned()),
    };
    let listed = archs.join(" ");
    let wheels = wheels_for(cc);
    let pip = pip_line(&wheels);
    let wheels = wheels.join(", ");
    let check = Check::says("torch_arch", at, verdict, move || match &found {
        Fit::Exact(a) => crate::t!(
            "verify-torch-arch-exact",
            arch = a.as_str(),
            model = model.as_str()
        ),
        Fit::Compatible(a) => crate::t!(
            "verify-torch-arch-compatible",
            arch = a.as_str(),
            sm = card.as_str(),
            model = model.as_str()
        ),
        Fit::Ptx(a) => crate::t!(
            "verify-torch-arch-ptx",
            sm = card.as_str(),
            ptx = a.as_str()
        ),
        Fit::None if wheels.is_empty() => crate::t!(
            "verify-torch-arch-none-no-wheel",
            version = version.as_str(),
            sm = card.as_str(),
            model = model.as_str(),
            archs = listed.as_str(),
            cc = format!("{}.{}", cc.0, cc.1)
        ),
        Fit::None => crate::t!(
            "verify-torch-arch-none",
            version = version.as_str(),
            sm = card.as_str(),
            model = model.as_str(),
            archs = listed.as_str(),
            wheels = wheels.as_str(),
            pip = pip.as_str()
        ),
    });
    Some(
        check
            .measured(Reading::text(measured, ""))
            .rated(Reading::text(sm(cc), "")),
    )
}
