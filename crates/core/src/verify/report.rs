//! The verdict: every check with what was measured and what the card is rated for, and one
//! answer, pass, warn or fail.

use serde::Serialize;

use super::gpu::Gpu;
use super::rated::Quality;
pub use super::said::{Said, What};
use super::{
    GpuFacts, Measured, checks_cuda, checks_health, checks_network, checks_nvml, checks_sku,
    checks_tenant, checks_throughput, checks_torch,
};
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
    /// What the interpreter's torch said, where `--python` asked.
    pub torch: Option<&'a super::TorchProbe>,
    /// The download measured against the plan's promise, where `--bandwidth` asked.
    pub network: Option<&'a super::NetworkInput>,
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
    /// Memory bandwidth's own warn bar (the lower of it and `warn_below` applies): healthy
    /// cards copy at about 70–90 % of rated, HBM parts at the low end, so the tensor bar would
    /// warn on healthy cards. `None`: `warn_below`.
    pub bandwidth_warn_below: Option<f64>,
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
            bandwidth_warn_below: Some(0.6),
        }
    }
}

/// One answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    /// Every check that was read passes, but one or more could not be read: not a pass.
    Incomplete,
    Warn,
    Fail,
}

impl Verdict {
    /// The word JSON and the ledger keep: `pass`, `incomplete`, `warn`, `fail`.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Incomplete => "incomplete",
            Verdict::Warn => "warn",
            Verdict::Fail => "fail",
        }
    }

    /// The verdict a kept word names; `None` for any other word.
    pub fn from_word(word: &str) -> Option<Self> {
        [
            Verdict::Pass,
            Verdict::Incomplete,
            Verdict::Warn,
            Verdict::Fail,
        ]
        .into_iter()
        .find(|v| v.word() == word)
    }
}

/// One check of one GPU (or of the machine, `gpu: None`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// Stable for scripts: `bf16_throughput`, `foreign_memory`, `power_cap`, ...
    pub code: &'static str,
    pub gpu: Option<u32>,
    /// For a check that could not be judged (`read: false`) always `warn`, never `pass`; the
    /// report's verdict leaves such checks out.
    pub verdict: Verdict,
    /// What was measured or read, with its unit, as text for people and as a number for scripts.
    pub measured: Option<Reading>,
    /// What the card is rated for, or what a dedicated, healthy card shows (the bar it must
    /// clear, `off` for MIG, ...).
    pub rated: Option<Reading>,
    /// `measured / rated` where both are numbers.
    pub ratio: Option<f64>,
    /// What it means, in a sentence; for a shortfall, also in money or hours. English, as
    /// JSON and the ledger keep it; [`Check::shown`] is the same in the user's language.
    pub message: String,
    /// `false` when the reading (or the rated figure it is judged against) was not there: the
    /// check is listed, with the reason, and counts neither as a pass nor in the verdict.
    pub read: bool,
    /// Why the check could not be judged (`unsupported`, `failed: no_permission`, `cuBLAS not
    /// found`, `no rated figures for ...`).
    pub unread_reason: Option<String>,
    /// How far the rated figure can be trusted, where one came from the rated table.
    pub rated_quality: Option<Quality>,
    /// The message, said again in whatever language is current; `None`: `message` as it is.
    #[serde(skip)]
    pub said: Option<Said>,
}

impl Check {
    /// A judged check with its verdict and message; readings are added with
    /// [`Check::measured`] and [`Check::rated`].
    pub fn new(code: &'static str, gpu: Option<u32>, verdict: Verdict, message: String) -> Self {
        Check {
            code,
            gpu,
            verdict,
            measured: None,
            rated: None,
            ratio: None,
            message,
            read: true,
            unread_reason: None,
            rated_quality: None,
            said: None,
        }
    }

    /// Like [`Check::new`], the message said from the catalogue: kept in English, shown in the
    /// user's language.
    pub fn says(
        code: &'static str,
        gpu: Option<u32>,
        verdict: Verdict,
        say: impl Fn() -> String + Send + Sync + 'static,
    ) -> Self {
        let said = Said::new(say);
        let mut check = Check::new(code, gpu, verdict, said.english());
        check.said = Some(said);
        check
    }

    /// Sets the message, said from the catalogue.
    pub fn say(&mut self, say: impl Fn() -> String + Send + Sync + 'static) {
        let said = Said::new(say);
        self.message = said.english();
        self.said = Some(said);
    }

    /// The message in the user's language.
    pub fn shown(&self) -> String {
        self.said
            .as_ref()
            .map_or_else(|| self.message.clone(), Said::shown)
    }

    /// A check that could not be judged, and why (the reading's own words, kept as they are):
    /// listed with the reason, verdict `warn`, left out of the report's verdict. `what` names
    /// what could not be read, from the catalogue.
    pub fn unread(
        code: &'static str,
        gpu: Option<u32>,
        reason: impl std::fmt::Display,
        what: What,
    ) -> Self {
        let reason = crate::text::one_line(&reason.to_string(), 200);
        Self::unread_says(code, gpu, move || reason.clone(), what)
    }

    /// Like [`Check::unread`], the reason said from the catalogue too.
    pub fn unread_says(
        code: &'static str,
        gpu: Option<u32>,
        reason: impl Fn() -> String + Send + Sync + 'static,
        what: What,
    ) -> Self {
        let reason = Said::new(reason);
        let english = crate::text::one_line(&reason.english(), 200);
        let mut check = Check::says(code, gpu, Verdict::Warn, move || {
            let reason = crate::text::one_line(&reason.shown(), 200);
            crate::t!("verify-unread", what = what(), reason = reason)
        });
        check.read = false;
        check.unread_reason = Some(english);
        check
    }

    #[must_use]
    pub fn measured(mut self, reading: Reading) -> Self {
        self.measured = Some(reading);
        self
    }

    #[must_use]
    pub fn rated(mut self, reading: Reading) -> Self {
        self.rated = Some(reading);
        self
    }

    /// Sets `ratio` from the two readings where both are numbers and the rated one is not zero.
    #[must_use]
    pub fn with_ratio(mut self) -> Self {
        if let (Some(m), Some(r)) = (&self.measured, &self.rated)
            && let (Amount::Number(m), Amount::Number(r)) = (&m.value, &r.value)
            && *r != 0.0
        {
            self.ratio = Some(m / r);
        }
        self
    }

    /// Where the check stands in the report: fails first, then warnings, then the checks that
    /// could not be judged, then passes.
    fn rank(&self) -> u8 {
        match (self.read, self.verdict) {
            (true, Verdict::Fail) => 0,
            (true, Verdict::Warn) => 1,
            (false, _) | (true, Verdict::Incomplete) => 2,
            (true, Verdict::Pass) => 3,
        }
    }
}

/// A value with its unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reading {
    pub value: Amount,
    /// `GB/s`, `TFLOPS`, `W`, `MiB`, `%`, `gen`, `lanes`, `` for a plain count or word.
    pub unit: &'static str,
}

impl Reading {
    pub fn number(value: f64, unit: &'static str) -> Self {
        Reading {
            value: Amount::Number(value),
            unit,
        }
    }

    pub fn text(value: impl Into<String>, unit: &'static str) -> Self {
        Reading {
            value: Amount::Text(value.into()),
            unit,
        }
    }
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
    /// How many checks could not be judged (`read: false`).
    pub unread: usize,
}

/// The verdict for `input`: every check, most severe first (fails, warnings, the checks that
/// could not be judged, passes), and the worst as the headline; when everything judged passes,
/// the headline says so with [`VerifyReport::summary`].
pub fn assess(input: &VerifyInput<'_>) -> VerifyReport {
    let mut checks = Vec::new();
    checks.extend(checks_sku::machine(input));
    checks.extend(checks_cuda::driver(input));
    checks.extend(checks_throughput::benchmark(input));
    checks.extend(checks_torch::machine(input));
    checks.extend(checks_network::machine(input));
    for gpu in &input.reading.gpus {
        let ctx = Gpu::new(input, gpu);
        checks.extend(checks_sku::per_gpu(input, &ctx));
        checks.extend(checks_nvml::per_gpu(&ctx));
        checks.extend(checks_health::per_gpu(&ctx));
        checks.extend(checks_tenant::per_gpu(input, &ctx));
        checks.push(checks_cuda::per_gpu(input, &ctx));
        checks.extend(checks_throughput::per_gpu(input, &ctx));
        checks.extend(checks_torch::per_gpu(input, &ctx));
    }
    VerifyReport::from_checks(checks)
}

impl VerifyReport {
    /// The report of `checks`: sorted most severe first, the verdict the worst judged check's
    /// (incomplete, never pass, where a check could not be read), and the headline. [`assess`]
    /// ends here; a caller with checks of its own may too.
    pub fn from_checks(mut checks: Vec<Check>) -> Self {
        checks.sort_by_key(Check::rank);
        let unread = checks.iter().filter(|c| !c.read).count();
        let judged = checks
            .iter()
            .filter(|c| c.read)
            .map(|c| c.verdict)
            .max()
            .unwrap_or(Verdict::Pass);
        let verdict = if unread > 0 {
            judged.max(Verdict::Incomplete)
        } else {
            judged
        };
        let mut report = VerifyReport {
            verdict,
            headline: String::new(),
            checks,
            unread,
        };
        report.headline = crate::i18n::scoped(crate::i18n::Lang::En, || report.shown_headline());
        report
    }

    /// The headline in the user's language; [`VerifyReport::headline`] is the same in English.
    pub fn shown_headline(&self) -> String {
        let judged = self.checks.iter().filter(|c| c.read).count();
        let mut line = match self.checks.iter().find(|c| c.read) {
            Some(worst) if worst.verdict != Verdict::Pass => match worst.gpu {
                Some(i) => crate::t!(
                    "verify-headline-gpu",
                    index = i.to_string(),
                    message = worst.shown()
                ),
                None => worst.shown(),
            },
            Some(_) if self.unread > 0 => crate::t!(
                "verify-headline-read-pass",
                count = judged,
                summary = self.shown_summary()
            ),
            Some(_) => crate::t!(
                "verify-headline-all-pass",
                count = judged,
                summary = self.shown_summary()
            ),
            None => crate::t!("verify-headline-none").into_owned(),
        };
        if self.unread > 0 {
            let codes: Vec<&str> = self
                .checks
                .iter()
                .filter(|c| !c.read)
                .map(|c| c.code)
                .collect();
            line.push_str(&crate::t!(
                "verify-headline-unread",
                count = self.unread,
                codes = codes.join(", ")
            ));
        }
        line
    }
}
