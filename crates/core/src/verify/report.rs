//! The verdict: every check with what was measured and what the card is rated for, and one
//! answer, pass, warn or fail.

use serde::Serialize;

use super::{GpuFacts, Measured};
use crate::money::Money;
use crate::pricing::Sku;
use crate::telemetry::{CudaVersion, GpuReading};

/// Everything `verify` knows when it decides.
#[derive(Debug, Clone, Copy)]
pub struct VerifyInput<'a> {
    /// The ordinary NVML round: models, memory, MIG, vGPU, processes, utilisation.
    pub reading: &'a GpuReading,
    /// Readings taken while no process of ours ran, before the benchmark: a card busy or
    /// holding memory then is busy for someone else.
    pub idle: &'a [GpuReading],
    pub facts: &'a [GpuFacts],
    /// Empty when the benchmark could not run (`bench_error` says why) or was not asked for.
    pub measured: &'a [Measured],
    pub bench_error: Option<&'a super::BenchError>,
    /// The SKU paid for, from the price sheet, when the user named one.
    pub sku: Option<&'a Sku>,
    /// What an hour of this machine costs, from the sheet, for the verdict in money.
    pub hourly: Option<&'a Money>,
    pub require_cuda: Option<CudaVersion>,
    pub thresholds: &'a Thresholds,
}

/// The bars a check must clear, as a share of the rated figure (0.0–1.0). A user may change
/// each (`--min-ratio`, the config's `[verify]`).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Thresholds {
    /// Below this share of rated: fail.
    pub fail_below: f64,
    /// Below this share of rated (and not failing): warn.
    pub warn_below: f64,
    /// Memory held by processes this machine cannot see, MiB, above which the card is shared.
    pub foreign_memory_mib: u64,
    /// Utilisation while none of our processes ran, percent, above which the card is shared.
    pub foreign_util_pct: u32,
}

impl Default for Thresholds {
    /// From published large-GEMM results on healthy cards (80–87 % of dense peak): below 50 %
    /// is the seeds' "release and leave", below 70 % is worth a look.
    fn default() -> Self {
        Thresholds {
            fail_below: 0.5,
            warn_below: 0.7,
            foreign_memory_mib: 1024,
            foreign_util_pct: 10,
        }
    }
}

/// One answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Warn,
    Fail,
}

/// One check of one GPU (or of the machine, `gpu: None`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// Stable for scripts: `bf16_throughput`, `foreign_memory`, `power_capped`, ...
    pub code: &'static str,
    pub gpu: Option<u32>,
    pub verdict: Verdict,
    /// What was measured or read, with its unit, as text for people and as a number for scripts.
    pub measured: Option<Reading>,
    pub rated: Option<Reading>,
    /// `measured / rated` where both are numbers.
    pub ratio: Option<f64>,
    /// What it means, in a sentence; for a shortfall, also in money or hours.
    pub message: String,
}

/// A value with its unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reading {
    pub value: Amount,
    /// `GB/s`, `TFLOPS`, `W`, `MiB`, `%`, `gen`, `lanes`, `` for a plain count or word.
    pub unit: &'static str,
}

/// A number where there is one (JSON number), else a word (JSON string).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Amount {
    Number(f64),
    Text(String),
}

/// The whole answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifyReport {
    pub verdict: Verdict,
    /// The worst check's message: what a user reads first.
    pub headline: String,
    pub checks: Vec<Check>,
}

/// The verdict for `input`: every check, most severe first, and the worst as the headline.
pub fn assess(input: &VerifyInput<'_>) -> VerifyReport {
    let _ = input;
    todo!("the checks are built in this module")
}
