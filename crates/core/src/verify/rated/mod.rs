//! What each GPU model is rated to do, from NVIDIA's published figures (and, where NVIDIA's own
//! page was not at hand, secondary sources, marked so): the yardstick every measured figure is
//! divided by. The rows and their sources live in [`datacenter`] (HBM parts) and [`gddr`]
//! (GDDR cards); a model not in them has no rated figures, and none are invented.

mod datacenter;
mod gddr;

use serde::Serialize;

use crate::telemetry::findings::ModelKey;

/// How far a rated figure can be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    /// From an NVIDIA datasheet, product page or whitepaper.
    Sourced,
    /// From a third-party page or repository, not from NVIDIA.
    Secondary,
    /// Computed from sourced numbers (the table's comment gives the arithmetic).
    Derived,
    /// The commonly published figure, but no source was found for it.
    Unverified,
}

impl Quality {
    /// A few words for a check's message where the figure is weaker than sourced.
    pub fn caveat(self) -> Option<std::borrow::Cow<'static, str>> {
        match self {
            Quality::Sourced | Quality::Secondary => None,
            Quality::Derived => Some(crate::t!("verify-caveat-derived")),
            Quality::Unverified => Some(crate::t!("verify-caveat-unverified")),
        }
    }
}

/// One rated figure and how far it can be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rated {
    pub value: f64,
    pub quality: Quality,
}

/// The card's form factor, as NVML's name states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    Pcie,
    Sxm,
    Nvl,
}

impl Form {
    fn word(self) -> &'static str {
        match self {
            Form::Pcie => "PCIE",
            Form::Sxm => "SXM",
            Form::Nvl => "NVL",
        }
    }
}

/// The card's own PCIe link (the host link of an SXM part).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PcieLink {
    pub generation: u32,
    pub width: u32,
    pub quality: Quality,
}

/// What one GPU model is rated to do. Tensor figures are dense (no sparsity) with FP32
/// accumulate, which is what PyTorch's and cuBLAS's BF16 GEMMs run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RatedGpu {
    /// For people: `A100 80GB SXM4`.
    pub model: &'static str,
    /// The model tokens of NVML's name, brand words (`NVIDIA`, `Tesla`, `GeForce`) left out.
    #[serde(skip)]
    pub tokens: &'static [&'static str],
    pub form: Form,
    /// As NVIDIA prints it (GB); NVML reports about as many GiB less a small reservation.
    pub memory_gb: u32,
    pub memory_bandwidth_gbs: Rated,
    pub board_power_w: Option<Rated>,
    pub pcie: Option<PcieLink>,
    /// `(8, 0)` for sm_80.
    pub compute_capability: (u32, u32),
    pub sms: Option<u32>,
    pub fp32_tflops: Rated,
    /// `None` where the card has no BF16 tensor cores (Turing, Volta).
    pub bf16_tflops: Option<Rated>,
    pub fp16_tflops: Option<Rated>,
    /// HBM datacenter parts, which ship with ECC on: ECC off there is worth a word.
    pub ecc_expected: bool,
    /// Tags of the sources in the table's `Sources` block.
    pub sources: &'static [&'static str],
}

/// Every rated model.
pub fn table() -> impl Iterator<Item = &'static RatedGpu> {
    datacenter::ROWS.iter().chain(gddr::ROWS.iter())
}

/// The rated figures of the card NVML names `nvml_name` (`NVIDIA A100-SXM4-80GB`), or `None`
/// for a model the table does not know or a name that fits more than one row. Every model token
/// must agree exactly (an A10 is neither an A100 nor an A10G); the form factor and the memory
/// size must agree where the name states them; where it does not, NVIDIA names its PCIe and NVL
/// parts as such, so a name without a form word is the SXM part (`NVIDIA H100 80GB HBM3`,
/// `NVIDIA H200`), and the memory total NVML reports picks between sizes (`mem_total_mib`).
pub fn rated_for(nvml_name: &str, mem_total_mib: Option<u64>) -> Option<&'static RatedGpu> {
    let key = ModelKey::parse(nvml_name);
    if key.tokens.is_empty() {
        return None;
    }
    let mut rows: Vec<&'static RatedGpu> = table()
        .filter(|r| same_tokens(r.tokens, &key.tokens))
        .collect();
    if let Some(form) = &key.form {
        rows.retain(|r| r.form.word() == form);
    }
    if let Some(gb) = key.memory.as_deref().and_then(|m| m.parse::<u32>().ok()) {
        rows.retain(|r| r.memory_gb == gb);
    }
    if key.form.is_none() && rows.len() > 1 && rows.iter().any(|r| r.form == Form::Sxm) {
        rows.retain(|r| r.form == Form::Sxm);
    }
    if rows.len() > 1
        && let Some(mib) = mem_total_mib
    {
        let gib = crate::telemetry::metric::u64_to_f64(mib) / 1024.0;
        let distance = |r: &RatedGpu| (f64::from(r.memory_gb) - gib).abs();
        let nearest = rows
            .iter()
            .map(|r| distance(r))
            .fold(f64::INFINITY, f64::min);
        rows.retain(|r| distance(r) <= nearest);
    }
    match rows.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

fn same_tokens(row: &[&str], name: &[String]) -> bool {
    row.len() == name.len() && row.iter().all(|t| name.iter().any(|n| n == t))
}

/// A figure from NVIDIA.
const fn nv(value: f64) -> Rated {
    Rated {
        value,
        quality: Quality::Sourced,
    }
}

/// A figure from a third-party source.
const fn sec(value: f64) -> Rated {
    Rated {
        value,
        quality: Quality::Secondary,
    }
}

/// A figure computed from sourced ones.
const fn der(value: f64) -> Rated {
    Rated {
        value,
        quality: Quality::Derived,
    }
}

/// A figure without a source.
const fn unv(value: f64) -> Rated {
    Rated {
        value,
        quality: Quality::Unverified,
    }
}

const fn link(generation: u32, width: u32, quality: Quality) -> PcieLink {
    PcieLink {
        generation,
        width,
        quality,
    }
}
