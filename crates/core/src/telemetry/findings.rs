//! What you paid for against what you got: the SKU from the price sheet against what NVML
//! reports, the driver's CUDA against the CUDA you need, and a job that runs on the CPU while the
//! GPUs you pay for sit idle. Pure functions over samples and history.

use std::time::Duration;

use rust_decimal::prelude::ToPrimitive;
use serde::Serialize;

use super::history::TelemetryHistory;
use super::metric::{Metric, u64_to_f64};
use super::sample::{CudaVersion, DriverInfo, GpuReading, GpuRound, GpuSample, Virtualization};
use crate::i18n::{Lang, scoped};
use crate::pricing::Sku;
use crate::t;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    /// You are paying for something you do not have, or the job cannot run as intended.
    Critical,
}

impl Severity {
    /// The grade as a terminal lists it, in the user's language: "critical".
    #[must_use]
    pub fn shown(self) -> std::borrow::Cow<'static, str> {
        match self {
            Severity::Info => t!("finding-grade-info"),
            Severity::Warning => t!("finding-grade-warning"),
            Severity::Critical => t!("finding-grade-critical"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    /// Stable identifier for scripts: `gpu_model_mismatch`, `gpu_count_short`, ...
    pub code: &'static str,
    /// What was found, in English, as JSON carries it.
    pub message: String,
    /// The same in the user's language, for a terminal.
    #[serde(skip)]
    shown: String,
}

impl Finding {
    /// A finding whose words `say` looks up in the catalogue: once in English for
    /// [`Finding::message`], once in the user's language for [`Finding::shown`].
    pub(crate) fn said(severity: Severity, code: &'static str, say: impl Fn() -> String) -> Self {
        Finding {
            severity,
            code,
            message: scoped(Lang::En, &say),
            shown: say(),
        }
    }

    /// [`Finding::message`] in the user's language.
    #[must_use]
    pub fn shown(&self) -> &str {
        &self.shown
    }
}

/// NVML reports a card as usable when it has at least this share of the memory the SKU states
/// (drivers reserve some: a T4 sold as 16 GB shows 15 GiB).
pub(crate) const MEMORY_TOLERANCE: f64 = 0.9;

/// Compares the SKU the user rents with the GPUs NVML reports. Most severe first.
pub fn compare_sku(sku: &Sku, reading: &GpuReading) -> Vec<Finding> {
    let mut out = Vec::new();
    let count = sku.gpu_count;
    let model = sku.gpu_model.as_str();
    // A card fallen off the bus is listed but does no work: it is not one of those paid for.
    let lost: Vec<u32> = reading
        .gpus
        .iter()
        .filter(|g| g.lost())
        .map(|g| g.index)
        .collect();
    let listed = u32::try_from(reading.gpus.len()).unwrap_or(u32::MAX);
    let seen = listed.saturating_sub(u32::try_from(lost.len()).unwrap_or(u32::MAX));
    if !lost.is_empty() {
        out.push(Finding::said(Severity::Critical, "gpu_lost", || {
            t!("finding-gpu-lost", gpus = on(&lost))
        }));
    }
    if seen < count {
        let working = if lost.is_empty() { "no" } else { "yes" };
        out.push(Finding::said(Severity::Critical, "gpu_count_short", || {
            t!(
                "finding-gpu-count-short",
                count = count,
                model = model,
                seen = seen,
                working = working
            )
        }));
    } else if seen > count {
        out.push(Finding::said(Severity::Info, "gpu_count_extra", || {
            t!(
                "finding-gpu-count-extra",
                count = count,
                model = model,
                seen = seen
            )
        }));
    }
    for (name, indices) in group(&reading.gpus, |g| g.name.value().cloned()) {
        if !model_matches(&sku.gpu_model, &name) {
            out.push(Finding::said(
                Severity::Critical,
                "gpu_model_mismatch",
                || {
                    t!(
                        "finding-gpu-model-mismatch",
                        count = count,
                        model = model,
                        reported = short_name(&name),
                        gpus = on(&indices)
                    )
                },
            ));
        }
    }
    let promised_gib = sku.gpu_memory_gib.to_f64().unwrap_or(0.0);
    for (mib, indices) in group(&reading.gpus, |g| g.mem_total_mib.get()) {
        let gib = u64_to_f64(mib) / 1024.0;
        if promised_gib > 0.0 && gib < promised_gib * MEMORY_TOLERANCE {
            out.push(Finding::said(
                Severity::Critical,
                "gpu_memory_short",
                || {
                    t!(
                        "finding-gpu-memory-short",
                        promised = promised_gib.to_string(),
                        reported = format!("{gib:.1}"),
                        gpus = on(&indices)
                    )
                },
            ));
        }
    }
    for gpu in &reading.gpus {
        out.extend(slice_finding(gpu));
    }
    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

/// A MIG slice or a vGPU where the SKU sells whole cards.
fn slice_finding(gpu: &GpuSample) -> Option<Finding> {
    let i = gpu.index;
    if let Metric::Value(mig) = &gpu.mig
        && mig.enabled
    {
        let sizes: Vec<String> = mig
            .instance_mem_total_mib
            .iter()
            .map(|m| format!("{:.0} GiB", u64_to_f64(*m) / 1024.0))
            .collect();
        return Some(Finding::said(Severity::Critical, "gpu_mig_slice", || {
            t!(
                "finding-gpu-mig-slice",
                gpu = i,
                count = sizes.len(),
                sizes = sizes.join(", ")
            )
        }));
    }
    (gpu.virtualization.get() == Some(Virtualization::Vgpu)).then(|| {
        Finding::said(Severity::Warning, "gpu_vgpu", || {
            t!("finding-gpu-vgpu", gpu = i)
        })
    })
}

/// The driver must support at least the CUDA version the user needs.
pub fn check_cuda(required: CudaVersion, driver: &DriverInfo) -> Option<Finding> {
    match driver.cuda_version {
        Metric::Value(have) if have < required => {
            Some(Finding::said(Severity::Critical, "cuda_too_old", || {
                t!(
                    "finding-cuda-too-old",
                    have = have.to_string(),
                    required = required.to_string()
                )
            }))
        }
        Metric::Value(_) => None,
        Metric::Unavailable(why) => Some(Finding::said(Severity::Warning, "cuda_unknown", || {
            t!(
                "finding-cuda-unknown",
                why = why.to_string(),
                required = required.to_string()
            )
        })),
    }
}

/// When the GPUs count as idle while the CPU counts as saturated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpuBoundRule {
    pub window: Duration,
    /// Every GPU's utilisation stays at or below this for the whole window.
    pub gpu_idle_max_pct: f64,
    /// The host's mean CPU over the window is at least this.
    pub cpu_busy_min_pct: f64,
}

impl Default for CpuBoundRule {
    fn default() -> Self {
        CpuBoundRule {
            window: Duration::from_secs(300),
            gpu_idle_max_pct: 5.0,
            cpu_busy_min_pct: 90.0,
        }
    }
}

/// GPUs idle while the CPU is saturated for the whole window: the job may be running on the CPU.
/// A window with any failed reading, or not yet full, finds nothing.
pub fn cpu_bound(
    history: &TelemetryHistory,
    now: Duration,
    rule: &CpuBoundRule,
) -> Option<Finding> {
    if history.gpus().is_empty() {
        return None;
    }
    let cpu = history.host().cpu_pct.window(now, rule.window);
    if !cpu.is_complete(rule.window) || cpu.mean? < rule.cpu_busy_min_pct {
        return None;
    }
    let mut busiest: f64 = 0.0;
    for gpu in history.gpus() {
        let util = gpu.util_pct.window(now, rule.window);
        if !util.is_complete(rule.window) || util.max? > rule.gpu_idle_max_pct {
            return None;
        }
        busiest = busiest.max(util.max?);
    }
    let cpu_mean = cpu.mean?;
    Some(Finding::said(Severity::Warning, "cpu_bound", || {
        t!(
            "finding-cpu-bound",
            busiest = format!("{busiest:.0}"),
            cpu = format!("{cpu_mean:.0}"),
            minutes = (rule.window.as_secs() / 60).to_string()
        )
    }))
}

/// What the user expects of this machine; every part is optional.
#[derive(Debug, Clone, Copy, Default)]
pub struct Expectations<'a> {
    /// The SKU they pay for, from the price sheet.
    pub sku: Option<&'a Sku>,
    /// The CUDA version their job needs.
    pub cuda: Option<CudaVersion>,
    pub cpu_bound: CpuBoundRule,
    pub memory_full: super::memory_full::MemoryFullRule,
}

/// Every finding for one moment: the latest GPU round against the expectations, and the
/// history (up to `now`) against the CPU-bound and memory rules. Most severe first.
pub fn assess(
    expect: &Expectations<'_>,
    round: &GpuRound,
    history: &TelemetryHistory,
    now: Duration,
) -> Vec<Finding> {
    let mut out = Vec::new();
    match (round, expect.sku) {
        (Ok(reading), sku) => {
            out.extend(super::memory_full::memory_full(
                history,
                reading,
                now,
                &expect.memory_full,
            ));
            if let Some(sku) = sku {
                out.extend(compare_sku(sku, reading));
            }
            if let Some(cuda) = expect.cuda {
                out.extend(check_cuda(cuda, &reading.driver));
            }
        }
        (Err(why), Some(sku)) => {
            out.push(Finding::said(Severity::Critical, "gpu_unreadable", || {
                t!(
                    "finding-gpu-unreadable",
                    count = sku.gpu_count,
                    model = sku.gpu_model.as_str(),
                    why = why.to_string()
                )
            }));
        }
        (Err(_), None) => {}
    }
    out.extend(cpu_bound(history, now, &expect.cpu_bound));
    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

/// Tolerant model-name matching: "A100 80GB" matches "NVIDIA A100-SXM4-80GB". Every model token
/// the sheet names must appear in NVML's name; form factor (SXM, PCIe, NVL) and memory size must
/// agree where both names state them.
pub fn model_matches(paid: &str, reported: &str) -> bool {
    let p = ModelKey::parse(paid);
    let r = ModelKey::parse(reported);
    let agree = |a: &Option<String>, b: &Option<String>| a.is_none() || b.is_none() || a == b;
    !p.tokens.is_empty()
        && p.tokens.iter().all(|t| r.tokens.contains(t))
        && agree(&p.form, &r.form)
        && agree(&p.memory, &r.memory)
}

/// A model name taken apart: the model tokens, the form factor word (`SXM`, `PCIE`, `NVL`), the
/// memory size in GB and whether a memory technology word (`HBM3`) was named.
#[derive(Debug, Default)]
pub(crate) struct ModelKey {
    pub(crate) tokens: Vec<String>,
    pub(crate) form: Option<String>,
    pub(crate) memory: Option<String>,
    pub(crate) hbm: bool,
}

impl ModelKey {
    pub(crate) fn parse(name: &str) -> Self {
        const NOISE: [&str; 6] = ["NVIDIA", "TESLA", "GEFORCE", "QUADRO", "GPU", "GENERATION"];
        let upper = name.to_ascii_uppercase();
        let words: Vec<&str> = upper
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let mut key = ModelKey::default();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            i += 1;
            let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
            let unit = &w[digits.len()..];
            if !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && matches!(unit, "GB" | "GIB")
            {
                key.memory.get_or_insert_with(|| digits.to_owned());
            } else if w.bytes().all(|b| b.is_ascii_digit())
                && matches!(words.get(i), Some(&("GB" | "GIB")))
            {
                key.memory.get_or_insert_with(|| w.to_owned());
                i += 1;
            } else if w.starts_with("SXM") || w == "PCIE" || w == "NVL" {
                key.form.get_or_insert_with(|| {
                    w.trim_end_matches(|c: char| c.is_ascii_digit()).to_owned()
                });
            } else if w.starts_with("HBM") || w.starts_with("GDDR") || NOISE.contains(&w) {
                // Memory technology and brand words are no model token; HBM is kept as a hint
                // of the form factor (NVML names the H100 SXM part "H100 80GB HBM3").
                key.hbm |= w.starts_with("HBM");
            } else {
                key.tokens.push(w.to_owned());
            }
        }
        key
    }
}

/// GPUs grouped by a key, in index order; GPUs without the key are left out.
fn group<K: PartialEq>(
    gpus: &[GpuSample],
    key: impl Fn(&GpuSample) -> Option<K>,
) -> Vec<(K, Vec<u32>)> {
    let mut groups: Vec<(K, Vec<u32>)> = Vec::new();
    for gpu in gpus {
        let Some(k) = key(gpu) else { continue };
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, indices)) => indices.push(gpu.index),
            None => groups.push((k, vec![gpu.index])),
        }
    }
    groups
}

fn short_name(name: &str) -> &str {
    name.strip_prefix("NVIDIA ").unwrap_or(name)
}

/// The GPUs a finding is about, as its message lists them: "0, 1".
fn on(indices: &[u32]) -> String {
    let list: Vec<String> = indices.iter().map(u32::to_string).collect();
    list.join(", ")
}
