//! The verdict from the card's health as NVML reports it: a capped power limit, throttle bits,
//! a degraded PCIe link, memory errors, and CUDA against the driver and the card.

use gpumeter_core::telemetry::{CudaVersion, Metric, Unavailable};
use gpumeter_core::verify::{RemappedRows, Verdict};

use super::verify_fixture::{Machine, check, close, number, row, text};

#[test]
fn a_capped_power_limit_warns_then_fails() {
    let mut m = Machine::a100();
    let default = 400.0;
    for (limit, verdict) in [
        (250.0, Verdict::Fail),
        (360.0, Verdict::Warn),
        (395.0, Verdict::Pass),
    ] {
        m.facts[0].power_limit_w = Metric::Value(limit);
        m.facts[0].power_default_limit_w = Metric::Value(default);
        let report = m.report();
        let c = check(&report, "power_cap", Some(0));
        assert_eq!(c.verdict, verdict, "{limit} W");
        assert!(close(c.ratio.unwrap(), limit / default));
        assert!(close(number(c.measured.as_ref()), limit));
        assert!(close(number(c.rated.as_ref()), default));
    }
    m.facts[0].power_limit_w = Metric::Value(250.0);
    m.facts[0].clock_event_reasons = Metric::Value(0x4);
    let report = m.report();
    assert!(
        check(&report, "power_cap", Some(0))
            .message
            .contains("capped at 250 W of 400 W")
    );
    let clocks = check(&report, "clock_events", Some(0));
    assert_eq!(clocks.verdict, Verdict::Pass);
    assert!(clocks.message.contains("SW power cap") && clocks.message.contains("lowered limit"));
    assert!(report.summary().ends_with("power-capped"));
}

#[test]
fn without_a_default_limit_the_rated_board_power_is_the_yardstick() {
    let mut m = Machine::a100();
    m.facts[0].power_default_limit_w = Metric::Unavailable(Unavailable::Unsupported);
    m.facts[0].power_limit_w = Metric::Value(200.0);
    let board = row("NVIDIA A100-SXM4-80GB").board_power_w.unwrap().value;
    let c = check(&m.report(), "power_cap", Some(0)).clone();
    assert!(close(number(c.rated.as_ref()), board));
    assert_eq!(c.verdict, Verdict::Fail);
}

#[test]
fn clock_event_bits_are_named_and_weighed() {
    let mut m = Machine::a100();
    for (bits, verdict, words) in [
        (
            0x8 | 0x40,
            Verdict::Fail,
            &["HW slowdown", "HW thermal slowdown"][..],
        ),
        (0x8, Verdict::Fail, &["HW slowdown (clocks cut"][..]),
        (0x40, Verdict::Fail, &["HW thermal slowdown"][..]),
        (
            0x20 | 0x1,
            Verdict::Warn,
            &["SW thermal slowdown", "GPU idle"][..],
        ),
        (0x80, Verdict::Fail, &["HW power brake"][..]),
        (0x20, Verdict::Warn, &["SW thermal slowdown"][..]),
        (
            0x4,
            Verdict::Pass,
            &["SW power cap", "the card's own limit"][..],
        ),
        (0x1, Verdict::Pass, &["GPU idle"][..]),
        (0x0, Verdict::Pass, &["no clock-event reason"][..]),
    ] {
        m.facts[0].clock_event_reasons = Metric::Value(bits);
        let report = m.report();
        let c = check(&report, "clock_events", Some(0));
        assert_eq!(c.verdict, verdict, "{bits:#x}");
        assert_eq!(text(c.measured.as_ref()), format!("{bits:#x}"));
        for w in words {
            assert!(c.message.contains(w), "{bits:#x}: {}", c.message);
        }
    }
    m.facts[0].clock_event_reasons = Metric::Value(0x8);
    assert!(m.report().summary().ends_with("throttled"));
}

#[test]
fn a_degraded_pcie_link_warns_with_both_links() {
    let mut m = Machine::a100();
    m.facts[0].pcie_gen_max = Metric::Value(3);
    m.facts[0].pcie_width_max = Metric::Value(8);
    m.facts[0].pcie_gen = Metric::Value(3);
    m.facts[0].pcie_width = Metric::Value(8);
    let report = m.report();
    let c = check(&report, "pcie_link", Some(0));
    assert_eq!(c.verdict, Verdict::Warn);
    assert!(
        c.message.contains("the slot runs the card at Gen3 x8"),
        "{}",
        c.message
    );
    assert_eq!(text(c.measured.as_ref()), "Gen3 x8");
    let card = row("NVIDIA A100-SXM4-80GB").pcie.unwrap();
    assert_eq!(
        text(c.rated.as_ref()),
        format!("Gen{} x{}", card.generation, card.width)
    );
    // Gen3 is half of Gen4 per lane, and 8 lanes half of 16.
    let per_lane = 2f64.powi(i32::try_from(card.generation).unwrap() - 3);
    assert!(close(
        c.ratio.unwrap(),
        8.0 / (f64::from(card.width) * per_lane)
    ));
    assert!(report.summary().ends_with("PCIe degraded"));
}

#[test]
fn the_link_under_load_is_judged_only_when_the_benchmark_ran() {
    let mut m = Machine::a100();
    m.facts[0].pcie_gen = Metric::Value(4);
    m.facts[0].pcie_width = Metric::Value(8);
    let c = check(&m.report(), "pcie_link", Some(0)).clone();
    assert_eq!(c.verdict, Verdict::Warn);
    assert!(
        c.message
            .contains("under load the link ran at Gen4 x8 of its Gen4 x16")
    );
    assert_eq!(text(c.measured.as_ref()), "Gen4 x8");
    // At idle the link drops to save power: without a benchmark that is no evidence.
    m.measured.clear();
    m.facts[0].pcie_gen = Metric::Value(1);
    assert_eq!(
        check(&m.report(), "pcie_link", Some(0)).verdict,
        Verdict::Pass
    );
}

#[test]
fn memory_errors_fail_and_ecc_off_warns() {
    let mut m = Machine::a100();
    m.facts[0].ecc_uncorrected_volatile = Metric::Value(3);
    let c = check(&m.report(), "ecc", Some(0)).clone();
    assert_eq!(c.verdict, Verdict::Fail);
    assert!(close(number(c.measured.as_ref()), 3.0));
    assert!(c.message.contains("3 uncorrected ECC errors"));

    let mut m = Machine::a100();
    m.facts[0].remapped_rows = Metric::Value(RemappedRows {
        corrected: 1,
        uncorrected: 1,
        pending: true,
        failure: false,
    });
    assert_eq!(check(&m.report(), "ecc", Some(0)).verdict, Verdict::Fail);
    m.facts[0].remapped_rows = Metric::Unavailable(Unavailable::Unsupported);
    m.facts[0].retired_pages_pending = Metric::Value(true);
    assert_eq!(check(&m.report(), "ecc", Some(0)).verdict, Verdict::Fail);

    let mut m = Machine::a100();
    m.facts[0].ecc_enabled = Metric::Value(false);
    assert_eq!(check(&m.report(), "ecc", Some(0)).verdict, Verdict::Warn);

    let mut m = Machine::a100();
    m.facts[0].ecc_corrected_volatile = Metric::Value(5);
    let c = check(&m.report(), "ecc", Some(0)).clone();
    assert_eq!(c.verdict, Verdict::Pass);
    assert!(c.message.contains("5 corrected"));
}

#[test]
fn cuda_13_cannot_build_for_a_v100() {
    let mut m = Machine::healthy("Tesla V100-SXM2-32GB", 32_768, 1);
    m.require_cuda = Some(CudaVersion {
        major: 13,
        minor: 0,
    });
    let report = m.report();
    assert_eq!(report.verdict, Verdict::Fail);
    let c = check(&report, "compute_capability", Some(0));
    assert_eq!(c.verdict, Verdict::Fail);
    assert!(
        c.message.contains("CUDA 13.0 cannot build for sm_70"),
        "{}",
        c.message
    );
    assert!(c.message.contains("use a CUDA 12 image"), "{}", c.message);
    assert_eq!(check(&report, "cuda_version", None).verdict, Verdict::Pass);

    m.require_cuda = Some(CudaVersion {
        major: 12,
        minor: 4,
    });
    assert_eq!(
        check(&m.report(), "compute_capability", Some(0)).verdict,
        Verdict::Pass
    );
}

#[test]
fn a_driver_older_than_the_cuda_required_fails() {
    let mut m = Machine::a100();
    m.reading.driver.cuda_version = Metric::Value(CudaVersion {
        major: 12,
        minor: 2,
    });
    m.require_cuda = Some(CudaVersion {
        major: 12,
        minor: 4,
    });
    let c = check(&m.report(), "cuda_version", None).clone();
    assert_eq!(c.verdict, Verdict::Fail);
    assert_eq!(text(c.measured.as_ref()), "12.2");
    assert_eq!(text(c.rated.as_ref()), "12.4");
}

#[test]
fn a_card_reporting_another_model_s_capability_warns() {
    let m = Machine::a100().gpu0(|g| g.compute_capability = Metric::Value("8.6".into()));
    let c = check(&m.report(), "compute_capability", Some(0)).clone();
    assert_eq!(c.verdict, Verdict::Warn);
    assert!(c.message.contains("sm_86") && c.message.contains("sm_80"));
}

#[test]
fn the_clock_check_says_how_fast_the_sms_ran() {
    let mut m = Machine::a100();
    m.facts[0].clock_event_reasons = Metric::Value(0x40);
    m.facts[0].sm_clock_max_mhz = Metric::Value(1410);
    m.measured[0].sm_clock_mhz = Some(705);
    let c = check(&m.report(), "clock_events", Some(0)).clone();
    assert!(
        c.message.contains("the SMs ran at 705 of 1410 MHz"),
        "{}",
        c.message
    );
}

#[test]
fn a_power_limit_that_is_no_number_is_not_read() {
    let mut m = Machine::a100();
    m.facts[0].power_limit_w = Metric::Value(f64::NAN);
    let c = check(&m.report(), "power_cap", Some(0)).clone();
    assert!(!c.read);
    assert_ne!(c.verdict, Verdict::Pass);
}
