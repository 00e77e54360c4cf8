//! The torch a job would run with (`verify --python`): what the interpreter's `torch` says of
//! CUDA ([`PROBE`], run by the program with a time limit) read back into a [`TorchProbe`], and
//! which of its compiled architectures runs on a card of a given compute capability.
//!
// Sources:
// pytorch/pytorch, torch/utils/collect_env.py (torch.__version__, torch.version.cuda,
//   torch.cuda.is_available(): what an environment report reads),
//   https://github.com/pytorch/pytorch/blob/main/torch/utils/collect_env.py
// moi90/pytorch_compute_capabilities, table.md (the architectures of each PyTorch 2.7.0
//   build: cu118 sm_37 to sm_90, cu126 sm_50 to sm_90, cu128 sm_75 to sm_120),
//   https://github.com/moi90/pytorch_compute_capabilities/blob/main/table.md
// "CUDA C++ Programming Guide", Binary Compatibility (a cubin for X.y runs on X.z, z >= y;
//   PTX is compiled by the driver for any later capability),
//   https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility

use serde::{Deserialize, Serialize};

use crate::text::one_line;

/// The snippet the interpreter runs: one line on stdout, [`MARKER`] then JSON.
pub const PROBE: &str = include_str!("torch_probe.py");

/// What starts the probe's line of JSON on stdout.
pub const MARKER: &str = "gpumeter-torch-probe ";

/// The longest a string from the interpreter may run.
const MAX_CHARS: usize = 200;
/// The most architectures and devices kept from an answer.
const MAX_ITEMS: usize = 64;

/// How far the probe got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeState {
    /// torch was imported and answered.
    Read,
    /// The interpreter has no `torch` package.
    NotInstalled,
    /// `import torch` raised (a broken install: a missing library, a wrong build).
    ImportFailed,
    /// The interpreter did not answer: missing, too slow, crashed, or its answer unreadable.
    NotRun,
}

/// One device as torch sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TorchDevice {
    pub name: String,
    /// `[8, 0]` for sm_80.
    pub capability: Option<(u32, u32)>,
}

/// What the interpreter's torch said; `null` in JSON for whatever it did not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TorchProbe {
    /// The interpreter asked, as the user named it (`python3` by default).
    pub interpreter: String,
    pub state: ProbeState,
    /// `torch.__version__`, such as `2.5.1+cu124`.
    pub torch_version: Option<String>,
    /// `torch.version.cuda`: the CUDA it was built with; `None` for a CPU-only build.
    pub torch_cuda: Option<String>,
    /// `torch.cuda.is_available()`.
    pub cuda_available: Option<bool>,
    /// The first device's name, as torch gives it.
    pub device_name: Option<String>,
    pub devices: Vec<TorchDevice>,
    /// `torch.cuda.get_arch_list()`: `sm_80`, `compute_90`, ...
    pub arch_list: Option<Vec<String>>,
    /// What failed: the import's or CUDA's error, or why the interpreter did not answer.
    pub error: Option<String>,
}

/// The probe's JSON as the snippet writes it.
#[derive(Debug, Deserialize)]
struct Raw {
    torch: Option<String>,
    import_error: Option<String>,
    cuda: Option<String>,
    available: Option<bool>,
    error: Option<String>,
    arch_list: Option<Vec<String>>,
    devices: Option<Vec<RawDevice>>,
}

#[derive(Debug, Deserialize)]
struct RawDevice {
    name: String,
    capability: Option<Vec<u32>>,
}

impl TorchProbe {
    /// The interpreter did not answer, and why.
    pub fn not_run(interpreter: &str, why: &str) -> Self {
        TorchProbe {
            interpreter: one_line(interpreter, MAX_CHARS),
            state: ProbeState::NotRun,
            torch_version: None,
            torch_cuda: None,
            cuda_available: None,
            device_name: None,
            devices: Vec::new(),
            arch_list: None,
            error: Some(one_line(why, MAX_CHARS)),
        }
    }

    /// The probe's answer from the interpreter's stdout: the line after [`MARKER`]. No such
    /// line, or one that is not the probe's JSON, is an interpreter that did not answer.
    pub fn parse(interpreter: &str, stdout: &str) -> Self {
        let raw = stdout
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix(MARKER))
            .map(serde_json::from_str::<Raw>);
        let raw = match raw {
            Some(Ok(raw)) => raw,
            Some(Err(e)) => return Self::not_run(interpreter, &format!("unreadable answer: {e}")),
            None => return Self::not_run(interpreter, "no answer on stdout"),
        };
        let line = |s: &str| one_line(s, MAX_CHARS);
        let mut probe = Self::not_run(interpreter, "");
        probe.error = raw.error.as_deref().map(line);
        probe.state = match (&raw.torch, &raw.import_error) {
            (Some(_), _) => ProbeState::Read,
            (None, Some(e)) => {
                probe.error = Some(line(e));
                ProbeState::ImportFailed
            }
            (None, None) => ProbeState::NotInstalled,
        };
        probe.torch_version = raw.torch.as_deref().map(line);
        probe.torch_cuda = raw.cuda.as_deref().map(line);
        probe.cuda_available = raw.available;
        probe.arch_list = raw.arch_list.map(|list| {
            list.iter()
                .filter(|a| {
                    a.len() <= 16 && a.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                })
                .take(MAX_ITEMS)
                .cloned()
                .collect()
        });
        probe.devices = raw
            .devices
            .unwrap_or_default()
            .into_iter()
            .take(MAX_ITEMS)
            .map(|d| TorchDevice {
                name: line(&d.name),
                capability: match d.capability.as_deref() {
                    Some([major, minor]) => Some((*major, *minor)),
                    _ => None,
                },
            })
            .collect();
        probe.device_name = probe.devices.first().map(|d| d.name.clone());
        probe
    }
}

/// How torch's build can run on a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fit {
    /// It has the card's own architecture: `sm_80` for an A100.
    Exact(String),
    /// Kernels of an earlier minor of the same major run as they are (`sm_80` on sm_86).
    Compatible(String),
    /// Only PTX the driver must compile at first use (`compute_90` on sm_120): slow to start.
    Ptx(String),
    None,
}

/// `sm_86`, `sm_90a`, `compute_120` as (kind, (major, minor), arch-specific).
fn parse_arch(arch: &str) -> Option<(bool, (u32, u32), bool)> {
    let (ptx, rest) = match arch.strip_prefix("sm_") {
        Some(rest) => (false, rest),
        None => (true, arch.strip_prefix("compute_")?),
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let specific = rest.len() > digits.len();
    let n: u32 = digits.parse().ok()?;
    (n >= 10).then_some((ptx, (n / 10, n % 10), specific))
}

/// `sm_XY` for a compute capability.
pub fn sm((major, minor): (u32, u32)) -> String {
    format!("sm_{major}{minor}")
}

/// The best way `arch_list` runs on a card of capability `cc`.
pub fn fit(arch_list: &[String], cc: (u32, u32)) -> Fit {
    let parsed: Vec<_> = arch_list
        .iter()
        .filter_map(|a| Some((a, parse_arch(a)?)))
        .collect();
    if let Some((a, _)) = parsed.iter().find(|(_, (ptx, at, _))| !ptx && *at == cc) {
        return Fit::Exact((*a).clone());
    }
    let best = |keep: &dyn Fn(bool, (u32, u32), bool) -> bool| {
        parsed
            .iter()
            .filter(|(_, (ptx, at, specific))| keep(*ptx, *at, *specific))
            .max_by_key(|(_, (_, at, _))| *at)
            .map(|(a, _)| (*a).clone())
    };
    // Arch-specific kernels (sm_90a) run on that capability alone.
    if let Some(a) = best(&|ptx, at, specific| !ptx && !specific && at.0 == cc.0 && at.1 < cc.1) {
        return Fit::Compatible(a);
    }
    best(&|ptx, at, specific| ptx && !specific && at <= cc).map_or(Fit::None, Fit::Ptx)
}

/// PyTorch's CUDA wheels and the architectures each builds for (PyTorch 2.7).
const WHEELS: [(&str, &[(u32, u32)]); 3] = [
    (
        "cu118",
        &[
            (3, 7),
            (5, 0),
            (6, 0),
            (7, 0),
            (7, 5),
            (8, 0),
            (8, 6),
            (9, 0),
        ],
    ),
    (
        "cu126",
        &[(5, 0), (6, 0), (7, 0), (7, 5), (8, 0), (8, 6), (9, 0)],
    ),
    ("cu128", &[(7, 5), (8, 0), (8, 6), (9, 0), (10, 0), (12, 0)]),
];

/// The PyTorch wheels whose kernels run on a card of capability `cc`, newest first.
pub fn wheels_for(cc: (u32, u32)) -> Vec<&'static str> {
    WHEELS
        .iter()
        .rev()
        .filter(|(_, archs)| archs.iter().any(|a| a.0 == cc.0 && a.1 <= cc.1))
        .map(|(tag, _)| *tag)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archs(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn the_cards_own_sm_then_an_earlier_minor_then_ptx() {
        let cu124 = archs(&[
            "sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90",
        ]);
        assert_eq!(fit(&cu124, (8, 0)), Fit::Exact("sm_80".into()));
        assert_eq!(fit(&cu124, (8, 9)), Fit::Compatible("sm_86".into()));
        assert_eq!(fit(&cu124, (12, 0)), Fit::None);
        let ptx = archs(&["sm_80", "sm_90a", "compute_90"]);
        assert_eq!(fit(&ptx, (12, 0)), Fit::Ptx("compute_90".into()));
        assert_eq!(fit(&ptx, (9, 0)), Fit::Exact("sm_90a".into()));
        // sm_90a runs on 9.0 alone, and PTX newer than the card never runs.
        assert_eq!(fit(&archs(&["sm_90a", "compute_100"]), (9, 1)), Fit::None);
        assert_eq!(
            fit(&archs(&["sm_100", "sm_120"]), (12, 1)),
            Fit::Compatible("sm_120".into())
        );
    }

    #[test]
    fn wheels_are_named_for_the_cards_they_run_on() {
        assert_eq!(wheels_for((12, 0)), vec!["cu128"]);
        assert_eq!(wheels_for((8, 9)), vec!["cu128", "cu126", "cu118"]);
        assert_eq!(wheels_for((3, 7)), vec!["cu118"]);
        assert!(wheels_for((11, 0)).is_empty());
    }

    #[test]
    fn an_answer_is_read_and_its_strings_made_safe() {
        let out = "warning: noise\ngpumeter-torch-probe {\"torch\": \"2.5.1+cu124\", \
                   \"import_error\": null, \"cuda\": \"12.4\", \"available\": true, \
                   \"error\": null, \"arch_list\": [\"sm_80\", \"sm_90\\u001b[2J\"], \
                   \"devices\": [{\"name\": \"NVIDIA A100\\nfake\", \"capability\": [8, 0]}]}\n";
        let p = TorchProbe::parse("python3", out);
        assert_eq!(p.state, ProbeState::Read);
        assert_eq!(p.torch_version.as_deref(), Some("2.5.1+cu124"));
        assert_eq!(p.torch_cuda.as_deref(), Some("12.4"));
        assert_eq!(p.cuda_available, Some(true));
        assert_eq!(p.arch_list, Some(archs(&["sm_80"])));
        assert_eq!(p.device_name.as_deref(), Some("NVIDIA A100 fake"));
        assert_eq!(p.devices[0].capability, Some((8, 0)));
    }

    #[test]
    fn no_torch_a_broken_one_and_no_answer_are_told_apart() {
        let none = "gpumeter-torch-probe {\"torch\": null, \"import_error\": null}";
        assert_eq!(
            TorchProbe::parse("py", none).state,
            ProbeState::NotInstalled
        );
        let broken =
            "gpumeter-torch-probe {\"torch\": null, \"import_error\": \"OSError: libcudnn.so.9\"}";
        let p = TorchProbe::parse("py", broken);
        assert_eq!(p.state, ProbeState::ImportFailed);
        assert_eq!(p.error.as_deref(), Some("OSError: libcudnn.so.9"));
        for garbled in ["", "gpumeter-torch-probe {", "{\"torch\": \"2.5\"}"] {
            assert_eq!(
                TorchProbe::parse("py", garbled).state,
                ProbeState::NotRun,
                "{garbled}"
            );
        }
    }
}
