//! The verdict from what the card did: each figure against its rating, the shortfall in hours
//! and money, figures that were not run, a card the table does not know, no benchmark at all,
//! and the report as scripts read it.

use gpumeter_core::telemetry::Metric;
use gpumeter_core::verify::{
    Amount, BenchError, BenchErrorKind, Figure, Quality, Thresholds, Verdict,
};
use rust_decimal::prelude::FromPrimitive;
use rust_decimal::{Decimal, RoundingStrategy, dec};

use super::verify_fixture::{HEALTHY, Machine, check, close, measured, number, row};

const A100: &str = "NVIDIA A100-SXM4-80GB";

#[test]
fn every_figure_is_measured_over_rated() {
    let report = Machine::a100().report();
    let rated = row(A100);
    for (code, r) in [
        ("memory_bandwidth", rated.memory_bandwidth_gbs.value),
        ("fp32_throughput", rated.fp32_tflops.value),
        ("bf16_throughput", rated.bf16_tflops.unwrap().value),
        ("fp16_throughput", rated.fp16_tflops.unwrap().value),
        ("gemm_throughput", rated.bf16_tflops.unwrap().value),
    ] {
        let c = check(&report, code, Some(0));
        assert_eq!(c.verdict, Verdict::Pass, "{code}");
        assert!(close(number(c.rated.as_ref()), r), "{code}");
        assert!(close(number(c.measured.as_ref()), r * HEALTHY), "{code}");
        assert!(close(c.ratio.unwrap(), HEALTHY), "{code}");
        assert_eq!(c.rated_quality, Some(Quality::Sourced), "{code}");
    }
    assert_eq!(
        report.summary(),
        format!("{:.0} % of rated, dedicated", HEALTHY * 100.0)
    );
}

fn bf16_at(share: f64) -> Machine {
    let mut m = Machine::a100();
    let rated = row(A100).bf16_tflops.unwrap().value;
    m.measured[0].bf16_tflops = Figure::Measured {
        value: rated * share,
    };
    m
}

#[test]
fn half_speed_bf16_fails_and_says_what_it_costs() {
    let share = 0.48;
    let hourly = dec!(4.10);
    let report = bf16_at(share).hourly(hourly).report();
    assert_eq!(report.verdict, Verdict::Fail);
    let c = check(&report, "bf16_throughput", Some(0));
    assert_eq!(c.verdict, Verdict::Fail);
    assert!(close(c.ratio.unwrap(), share));
    let rounded = Decimal::from_f64(share).unwrap().round_dp(2);
    let hours = (Decimal::ONE / rounded)
        .round_dp_with_strategy(1, RoundingStrategy::MidpointAwayFromZero)
        .normalize();
    let buys = (hourly * rounded).round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
    let costs =
        (hourly / rounded).round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
    for part in [
        "at 48 % of rated BF16 throughput".to_owned(),
        format!("each hour of training costs you about {hours} hours"),
        format!("4.10 USD an hour buys what {buys} USD buys on a healthy card"),
        format!("each hour of work costs about {costs} USD"),
    ] {
        assert!(c.message.contains(&part), "{part:?} in {}", c.message);
    }
    assert!(
        report.headline.starts_with("GPU 0: "),
        "{}",
        report.headline
    );
    assert!(
        report.headline.contains("about 2.1 hours"),
        "{}",
        report.headline
    );
    assert_eq!(report.summary(), "48 % of rated BF16, dedicated");
}

#[test]
fn the_bars_are_the_user_s() {
    assert_eq!(
        check(&bf16_at(0.6).report(), "bf16_throughput", Some(0)).verdict,
        Verdict::Warn
    );
    assert_eq!(
        check(&bf16_at(1.08).report(), "bf16_throughput", Some(0)).verdict,
        Verdict::Pass
    );
    let mut strict = Machine::a100();
    strict.thresholds.fail_below = 0.9;
    strict.thresholds.warn_below = 0.95;
    assert_eq!(
        check(&strict.report(), "bf16_throughput", Some(0)).verdict,
        Verdict::Fail
    );
    assert_eq!(strict.report().verdict, Verdict::Fail);
}

#[test]
fn bandwidth_has_its_own_lower_warn_bar() {
    let share = 0.65;
    let mut m = Machine::a100();
    let rated = row(A100).memory_bandwidth_gbs.value;
    m.measured[0].mem_bandwidth_gbs = Figure::Measured {
        value: rated * share,
    };
    assert!(share < Thresholds::default().warn_below);
    assert_eq!(
        check(&m.report(), "memory_bandwidth", Some(0)).verdict,
        Verdict::Pass
    );
    m.thresholds.bandwidth_warn_below = None;
    assert_eq!(
        check(&m.report(), "memory_bandwidth", Some(0)).verdict,
        Verdict::Warn
    );
}

#[test]
fn figures_not_run_are_listed_with_the_reason_and_never_pass() {
    let mut m = Machine::a100();
    m.measured[0].gemm_bf16_tflops = Figure::NotRun {
        reason: "cuBLAS (libcublas.so.12) not found".into(),
    };
    let report = m.report();
    let c = check(&report, "gemm_throughput", Some(0));
    assert!(!c.read);
    assert_ne!(c.verdict, Verdict::Pass);
    assert!(c.measured.is_none() && c.ratio.is_none());
    assert!(c.unread_reason.as_deref().unwrap().contains("cuBLAS"));
    assert_eq!(report.verdict, Verdict::Incomplete);
    assert_eq!(report.unread, 1);
    assert!(
        report
            .headline
            .ends_with("; 1 check could not be read (gemm_throughput)"),
        "{}",
        report.headline
    );
    assert!(
        !report.summary().contains("dedicated"),
        "dedicated beside a check not read: {}",
        report.summary()
    );
}

#[test]
fn a_kernel_that_failed_warns() {
    let mut m = Machine::a100();
    m.measured[0].fp32_tflops = Figure::Failed {
        reason: "CUDA_ERROR_LAUNCH_FAILED\x1b[2J".into(),
    };
    let report = m.report();
    let c = check(&report, "fp32_throughput", Some(0));
    assert_eq!(c.verdict, Verdict::Warn);
    assert!(c.read && !c.message.contains('\x1b'), "{}", c.message);
    assert_eq!(report.verdict, Verdict::Warn);
}

#[test]
fn cards_without_bf16_are_judged_on_fp16() {
    let report = Machine::healthy("Tesla T4", 15_360, 1).report();
    assert!(
        report
            .checks
            .iter()
            .all(|c| c.code != "bf16_throughput" && c.code != "gemm_throughput")
    );
    let c = check(&report, "fp16_throughput", Some(0));
    assert!(close(
        number(c.rated.as_ref()),
        row("Tesla T4").fp16_tflops.unwrap().value
    ));
    assert_eq!(report.verdict, Verdict::Pass, "{}", report.headline);
}

#[test]
fn an_unknown_model_gets_no_rated_figures() {
    let name = "NVIDIA GH200 480GB";
    let mut m = Machine::healthy(name, 97_871, 1);
    m.measured = vec![measured(0, row(A100), 1.0)];
    let report = m.report();
    assert!(!check(&report, "rated_figures", Some(0)).read);
    for code in [
        "memory_bandwidth",
        "fp32_throughput",
        "bf16_throughput",
        "gemm_throughput",
    ] {
        let c = check(&report, code, Some(0));
        assert!(!c.read, "{code}");
        assert!(c.rated.is_none() && c.ratio.is_none(), "{code}");
        assert!(c.measured.is_some(), "{code}");
        assert!(c.unread_reason.as_deref().unwrap().contains(name), "{code}");
    }
    assert!(
        report.summary().starts_with("no rating to compare"),
        "{}",
        report.summary()
    );
}

#[test]
fn an_unverified_rating_says_so() {
    let mut m = Machine::healthy("NVIDIA A10G", 23_028, 1);
    let rated = row("NVIDIA A10G").bf16_tflops.unwrap().value;
    m.measured[0].bf16_tflops = Figure::Measured { value: rated * 0.4 };
    let c = check(&m.report(), "bf16_throughput", Some(0)).clone();
    assert_eq!(c.rated_quality, Some(Quality::Unverified));
    assert!(
        c.message.contains("rated figure unverified"),
        "{}",
        c.message
    );
}

#[test]
fn no_benchmark_weakens_the_verdict_but_nvml_fails_still_fail() {
    let mut m = Machine::a100();
    m.measured.clear();
    m.bench_error = Some(BenchError {
        kind: BenchErrorKind::NoDriver,
        detail: "libcuda.so.1: cannot open shared object file".into(),
    });
    let report = m.report();
    assert_eq!(report.verdict, Verdict::Warn);
    let c = check(&report, "benchmark", None);
    assert_eq!(c.verdict, Verdict::Warn);
    assert!(c.message.contains("libcuda.so.1"), "{}", c.message);
    assert!(report.checks.iter().all(|c| c.code != "bf16_throughput"));

    m.facts[0].ecc_uncorrected_volatile = Metric::Value(2);
    assert_eq!(m.report().verdict, Verdict::Fail);
}

#[test]
fn a_gpu_the_benchmark_missed_is_said_to_be_unmeasured() {
    let mut m = Machine::healthy(A100, 81_920, 2);
    m.measured.truncate(1);
    let report = m.report();
    assert_eq!(check(&report, "benchmark", Some(1)).verdict, Verdict::Warn);
    assert_eq!(
        check(&report, "bf16_throughput", Some(0)).verdict,
        Verdict::Pass
    );
}

#[test]
fn the_json_has_every_check_s_measured_and_rated_value() {
    let report = bf16_at(0.48).hourly(dec!(4.10)).report();
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["verdict"], "fail");
    let checks = json["checks"].as_array().unwrap();
    assert_eq!(checks.len(), report.checks.len());
    for (c, j) in report.checks.iter().zip(checks) {
        for key in [
            "code", "gpu", "verdict", "measured", "rated", "ratio", "message", "read",
        ] {
            assert!(j.get(key).is_some(), "{key} in {j}");
        }
        if let Some(Amount::Number(n)) = c.measured.as_ref().map(|r| &r.value) {
            assert!(close(j["measured"]["value"].as_f64().unwrap(), *n));
        }
    }
    let bf16 = checks
        .iter()
        .find(|j| j["code"] == "bf16_throughput")
        .unwrap();
    assert_eq!(bf16["rated"]["unit"], "TFLOPS");
    assert!(close(
        bf16["rated"]["value"].as_f64().unwrap(),
        row(A100).bf16_tflops.unwrap().value
    ));
    assert!(close(bf16["ratio"].as_f64().unwrap(), 0.48));
}

#[test]
fn an_impossible_figure_is_no_pass() {
    for value in [f64::NAN, -1.0, f64::INFINITY] {
        let mut m = Machine::a100();
        m.measured[0].bf16_tflops = Figure::Measured { value };
        let report = m.report();
        let c = check(&report, "bf16_throughput", Some(0));
        assert_eq!(c.verdict, Verdict::Warn, "{value}");
        assert!(c.ratio.is_none(), "{value}");
    }
}

/// A figure far past the card's rated peak (a timer that broke, a kernel that did no work)
/// is a warning that names it, never a pass.
#[test]
fn a_figure_far_above_the_rated_peak_is_no_pass() {
    let mut m = Machine::a100();
    let rated = row(A100).memory_bandwidth_gbs.value;
    m.measured[0].mem_bandwidth_gbs = Figure::Measured {
        value: rated * 1053.2,
    };
    let report = m.report();
    let c = check(&report, "memory_bandwidth", Some(0));
    assert_eq!(c.verdict, Verdict::Warn);
    assert!(c.message.contains("cannot be trusted"), "{}", c.message);
    assert_ne!(report.verdict, Verdict::Pass);
    // A few percent past the rated boost is a fast card, and passes.
    let mut m = Machine::a100();
    m.measured[0].mem_bandwidth_gbs = Figure::Measured {
        value: rated * 1.04,
    };
    let c = check(&m.report(), "memory_bandwidth", Some(0)).clone();
    assert_eq!(c.verdict, Verdict::Pass, "{}", c.message);
}

#[test]
fn a_report_of_checks_takes_the_worst_judged_one() {
    use gpumeter_core::verify::{Check, Reading, VerifyReport};
    let report = VerifyReport::from_checks(vec![
        Check::new("mig", Some(0), Verdict::Pass, "MIG is off".into()),
        Check::unread("ecc", Some(0), "unsupported", || "the ECC mode".into()),
        Check::new(
            "power_cap",
            Some(1),
            Verdict::Warn,
            "capped at 360 W of 400 W".into(),
        )
        .measured(Reading::number(360.0, "W"))
        .rated(Reading::number(400.0, "W"))
        .with_ratio(),
    ]);
    assert_eq!(report.verdict, Verdict::Warn);
    assert_eq!(report.checks[0].code, "power_cap");
    assert!(close(report.checks[0].ratio.unwrap(), 0.9));
    assert_eq!(report.checks[1].code, "ecc");
    assert_eq!(report.unread, 1);
    assert_eq!(
        report.headline,
        "GPU 1: capped at 360 W of 400 W; 1 check could not be read (ecc)"
    );
}
