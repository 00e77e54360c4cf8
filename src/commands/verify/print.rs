//! What `verify` prints: the `--json` document, and for people the verdict and headline first,
//! then one row per check. Every string from outside (a GPU's name, the driver's words, a
//! provider's answer) is made one safe line before it reaches a terminal.

use gpumeter_core::cell::Cell;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::gather::Gathered;
use super::on_fail::OnFailOutcome;
use crate::telemetry::Unavailable;
use gpumeter_core::text::one_line;
use gpumeter_core::verify::{
    Amount, BenchError, Check, GpuFacts, Measured, NetworkInput, Reading, TorchProbe, Verdict,
    VerifyReport,
};

/// The longest a string from outside may run on one line.
const MAX_CHARS: usize = 200;

/// The `verify --json` document.
#[derive(Debug, Serialize)]
pub struct Document<'a> {
    /// `nvml` or `demo`.
    pub source: &'static str,
    /// `null` when no GPU could be read (`gpu_error` says why).
    pub verdict: Option<Verdict>,
    pub headline: Option<String>,
    pub checks: &'a [Check],
    pub gpus: Vec<GpuEntry<'a>>,
    /// Why the benchmark could not run at all, or `null`.
    pub bench_error: Option<&'a BenchError>,
    /// Why no GPU could be read, or `null`.
    pub gpu_error: Option<String>,
    /// What `--on-fail` did, or `null` when it was not asked for or the verdict is not fail.
    pub on_fail: Option<&'a OnFailOutcome>,
    /// What the interpreter's torch said (`--python`), or `null` when it was not asked.
    pub python: Option<&'a TorchProbe>,
    /// The download and the promise (`--bandwidth`), or `null` when it was not asked.
    pub bandwidth: Option<&'a NetworkInput>,
}

/// One GPU: its name, NVML's facts (an unreadable one `null`, its reason in `unavailable`)
/// and what the benchmark measured on it.
#[derive(Debug, Serialize)]
pub struct GpuEntry<'a> {
    pub index: u32,
    pub name: Option<&'a str>,
    pub facts: Option<&'a GpuFacts>,
    pub unavailable: BTreeMap<&'static str, String>,
    pub measured: Option<&'a Measured>,
}

impl<'a> Document<'a> {
    pub fn new(
        gathered: &'a Gathered,
        report: &'a VerifyReport,
        on_fail: Option<&'a OnFailOutcome>,
    ) -> Self {
        let gpus = gathered
            .reading
            .gpus
            .iter()
            .map(|g| {
                let facts = gathered.facts.iter().find(|f| f.index == g.index);
                GpuEntry {
                    index: g.index,
                    name: g.name.value().map(String::as_str),
                    facts,
                    unavailable: facts.map(facts_unavailable).unwrap_or_default(),
                    measured: gathered.measured.iter().find(|m| m.index == g.index),
                }
            })
            .collect();
        Document {
            source: gathered.source,
            verdict: Some(report.verdict),
            headline: Some(report.headline.clone()),
            checks: &report.checks,
            gpus,
            bench_error: gathered.bench_error.as_ref(),
            gpu_error: None,
            on_fail,
            python: gathered.torch.as_ref(),
            bandwidth: gathered.network.as_ref(),
        }
    }

    /// The document when no GPU could be read.
    pub fn no_gpu(source: &'static str, why: &str) -> Self {
        Document {
            source,
            verdict: None,
            headline: None,
            checks: &[],
            gpus: Vec::new(),
            bench_error: None,
            gpu_error: Some(one_line(why, MAX_CHARS)),
            on_fail: None,
            python: None,
            bandwidth: None,
        }
    }
}

/// The reason beside each fact that could not be read.
fn facts_unavailable(f: &GpuFacts) -> BTreeMap<&'static str, String> {
    let reasons: [(&'static str, Option<Unavailable>); 16] = [
        ("compute_mode", f.compute_mode.reason()),
        ("power_limit_w", f.power_limit_w.reason()),
        ("power_default_limit_w", f.power_default_limit_w.reason()),
        ("power_max_limit_w", f.power_max_limit_w.reason()),
        ("clock_event_reasons", f.clock_event_reasons.reason()),
        ("sm_clock_max_mhz", f.sm_clock_max_mhz.reason()),
        ("pcie_gen", f.pcie_gen.reason()),
        ("pcie_width", f.pcie_width.reason()),
        ("pcie_gen_max", f.pcie_gen_max.reason()),
        ("pcie_width_max", f.pcie_width_max.reason()),
        ("ecc_enabled", f.ecc_enabled.reason()),
        ("ecc_corrected_volatile", f.ecc_corrected_volatile.reason()),
        (
            "ecc_uncorrected_volatile",
            f.ecc_uncorrected_volatile.reason(),
        ),
        ("retired_pages", f.retired_pages.reason()),
        ("retired_pages_pending", f.retired_pages_pending.reason()),
        ("remapped_rows", f.remapped_rows.reason()),
    ];
    reasons
        .into_iter()
        .filter_map(|(name, why)| Some((name, why?.to_string())))
        .collect()
}

/// The verdict word as people read it, in their language (`FAIL` in English).
pub fn verdict_word(v: Verdict) -> String {
    verdict_shown(v).to_uppercase()
}

/// The verdict in the user's language, as the table's rows give it (`fail` in English).
fn verdict_shown(v: Verdict) -> String {
    match v {
        Verdict::Pass => crate::t!("verify-verdict-pass"),
        Verdict::Incomplete => crate::t!("verify-verdict-incomplete"),
        Verdict::Warn => crate::t!("verify-verdict-warn"),
        Verdict::Fail => crate::t!("verify-verdict-fail"),
    }
    .into_owned()
}

/// The human report: verdict and headline, the checks as a table, what each shortfall means,
/// and why the benchmark did not run where it did not.
pub fn render(gathered: &Gathered, report: &VerifyReport) -> String {
    let mut out = String::new();
    let headline = crate::t!(
        "verify-headline",
        verdict = verdict_word(report.verdict),
        headline = one_line(&report.shown_headline(), MAX_CHARS)
    );
    let _ = writeln!(out, "{headline}");
    let names: Vec<String> = gathered
        .reading
        .gpus
        .iter()
        .map(|g| {
            let name = g.name.value().map_or_else(
                || crate::t!("verify-name-unknown").into_owned(),
                |n| one_line(n, MAX_CHARS),
            );
            let gpu = crate::t!("verify-gpu", index = g.index.to_string(), name = name);
            format!("  {gpu}")
        })
        .collect();
    out.push_str(&names.join("\n"));
    out.push('\n');
    let rows: Vec<[String; 6]> = report.checks.iter().map(row).collect();
    let header = [
        crate::t!("verify-col-gpu"),
        crate::t!("verify-col-check"),
        crate::t!("verify-col-measured"),
        crate::t!("verify-col-rated"),
        crate::t!("verify-col-ratio"),
        crate::t!("verify-col-verdict"),
    ]
    .map(std::borrow::Cow::into_owned);
    let mut widths = [0usize; 6];
    for r in std::iter::once(&header).chain(&rows) {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(gpumeter_core::cell::width(cell));
        }
    }
    for r in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = r
            .iter()
            .zip(widths)
            .map(|(cell, w)| format!("{:<w$}", Cell(cell)))
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    for c in report.checks.iter().filter(|c| c.verdict != Verdict::Pass) {
        let _ = writeln!(
            out,
            "{} {}: {}",
            gpu_label(c.gpu),
            c.code,
            one_line(&c.shown(), MAX_CHARS * 2)
        );
    }
    if let Some(e) = &gathered.bench_error {
        let line = crate::t!(
            "verify-bench-not-run",
            why = one_line(&gpumeter_core::verify::shown_bench_error(e), MAX_CHARS)
        );
        let _ = writeln!(out, "{line}");
    }
    out
}

fn row(c: &Check) -> [String; 6] {
    let gpu = c.gpu.map_or_else(|| "-".to_string(), |g| g.to_string());
    let ratio = c
        .ratio
        .map_or_else(|| "-".to_string(), |r| format!("{:.0} %", r * 100.0));
    [
        gpu,
        c.code.to_string(),
        reading(c.measured.as_ref()),
        reading(c.rated.as_ref()),
        ratio,
        verdict_shown(c.verdict),
    ]
}

fn gpu_label(gpu: Option<u32>) -> String {
    gpu.map_or_else(
        || crate::t!("verify-machine").into_owned(),
        |g| crate::t!("verify-gpu-label", index = g.to_string()),
    )
}

/// A value with its unit; an absent one is `n/a`, never a zero.
fn reading(r: Option<&Reading>) -> String {
    let Some(r) = r else {
        return crate::t!("verify-not-available").into_owned();
    };
    let value = match &r.value {
        Amount::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{n:.0}"),
        Amount::Number(n) => format!("{n:.1}"),
        Amount::Text(t) => value_word(t).map_or_else(|| one_line(t, 40), Cow::into_owned),
    };
    if r.unit.is_empty() {
        value
    } else if r.unit == "%" {
        format!("{value} %")
    } else if r.unit == "errors" {
        crate::t!("verify-value-errors", count = value)
    } else {
        format!("{value} {}", r.unit)
    }
}

/// A reading's word in the user's language; the JSON keeps the word itself (`bare_metal`).
fn value_word(word: &str) -> Option<Cow<'static, str>> {
    Some(match word {
        "on" => crate::t!("verify-value-on"),
        "off" => crate::t!("verify-value-off"),
        "unsupported" => crate::t!("verify-value-unsupported"),
        "bare_metal" => crate::t!("verify-value-bare-metal"),
        "passthrough" => crate::t!("verify-value-passthrough"),
        "vgpu" => crate::t!("verify-value-vgpu"),
        "host_vgpu" => crate::t!("verify-value-host-vgpu"),
        "host_vsga" => crate::t!("verify-value-host-vsga"),
        "bare_metal or passthrough" => crate::t!("verify-value-bare-metal-or-passthrough"),
        "default" => crate::t!("verify-value-default"),
        "prohibited" => crate::t!("verify-value-prohibited"),
        "not prohibited" => crate::t!("verify-value-not-prohibited"),
        "exclusive_process" => crate::t!("verify-value-exclusive-process"),
        "exclusive_thread" => crate::t!("verify-value-exclusive-thread"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(code: &'static str, verdict: Verdict, measured: f64, rated: f64) -> Check {
        let tflops = |v| Reading {
            value: Amount::Number(v),
            unit: "TFLOPS",
        };
        Check::new(
            code,
            Some(0),
            verdict,
            "at 48 % of rated\nBF16\u{1b}[2J throughput".to_string(),
        )
        .measured(tflops(measured))
        .rated(tflops(rated))
        .with_ratio()
    }

    #[test]
    fn a_row_shows_measured_rated_and_the_ratio() {
        let r = row(&check("bf16_throughput", Verdict::Fail, 150.25, 312.0));
        assert_eq!(r[0], "0");
        assert_eq!(r[2], "150.2 TFLOPS");
        assert_eq!(r[3], "312 TFLOPS");
        assert_eq!(r[4], "48 %");
        assert_eq!(r[5], "fail");
    }

    #[test]
    fn an_absent_reading_is_na_never_zero() {
        let mut c = check("mig", Verdict::Warn, 1.0, 1.0);
        c.measured = None;
        c.ratio = None;
        c.gpu = None;
        let r = row(&c);
        assert_eq!(
            (r[0].as_str(), r[2].as_str(), r[4].as_str()),
            ("-", "n/a", "-")
        );
    }

    #[test]
    fn a_message_from_outside_stays_on_its_line() {
        let report =
            VerifyReport::from_checks(vec![check("bf16_throughput", Verdict::Fail, 150.0, 312.0)]);
        let gathered = Gathered {
            source: "demo",
            reading: crate::telemetry::GpuReading {
                driver: crate::telemetry::DriverInfo {
                    driver_version: crate::telemetry::Metric::Unavailable(Unavailable::Unsupported),
                    cuda_version: crate::telemetry::Metric::Unavailable(Unavailable::Unsupported),
                },
                gpus: vec![],
            },
            idle: vec![],
            facts: vec![],
            measured: vec![],
            bench_error: None,
            torch: None,
            network: None,
        };
        let text = render(&gathered, &report);
        let first = text.lines().next().unwrap();
        assert!(
            first.starts_with("verify: FAIL: GPU 0: at 48 % of rated BF16"),
            "{first}"
        );
        assert!(!text.contains('\u{1b}'), "{text}");
        let line = text.lines().find(|l| l.starts_with("GPU 0 bf16")).unwrap();
        assert!(line.contains("rated BF16"), "{line}");
    }
}
