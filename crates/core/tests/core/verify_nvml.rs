//! The verdict from what NVML sees: a healthy card passes, and each way a card can be shared,
//! sliced, capped, throttled or degraded fails or warns with the evidence.

use gpumeter_core::telemetry::{CudaVersion, Metric, MigInfo, Unavailable, Virtualization};
use gpumeter_core::verify::{ComputeMode, GpuFacts, RemappedRows, Verdict};

use super::verify_fixture::{Machine, check, close, number, process, row, sku, text};

#[test]
fn healthy_a100_and_h100_pass_every_check_they_can_read() {
    for (name, mib) in [
        ("NVIDIA A100-SXM4-80GB", 81_920),
        ("NVIDIA H100 80GB HBM3", 81_559),
    ] {
        let mut m = Machine::healthy(name, mib, 2);
        m.sku = Some(sku(name, 2, 80));
        m.require_cuda = Some(CudaVersion {
            major: 12,
            minor: 4,
        });
        let report = m.report();
        assert_eq!(report.verdict, Verdict::Pass, "{name}: {}", report.headline);
        assert_eq!(report.unread, 0, "{:#?}", report.checks);
        assert!(
            report
                .checks
                .iter()
                .all(|c| c.read && c.verdict == Verdict::Pass)
        );
        assert!(report.headline.starts_with("all "), "{}", report.headline);
        for code in [
            "mig",
            "vgpu",
            "compute_mode",
            "power_cap",
            "clock_events",
            "pcie_link",
            "ecc",
        ] {
            for gpu in [Some(0), Some(1)] {
                let c = check(&report, code, gpu);
                assert!(c.measured.is_some() && c.rated.is_some(), "{code}");
            }
        }
        assert!(close(
            number(check(&report, "gpu_count", None).measured.as_ref()),
            2.0
        ));
    }
}

#[test]
fn another_tenant_s_memory_and_compute_fail_the_card() {
    // NVML lists the other tenant's process by host PID; /proc here has no such process.
    let theirs_mib = 39_117;
    let ours_mib = 2_048;
    let used = theirs_mib + ours_mib + 300;
    let m = Machine::a100().gpu0(|g| {
        g.mem_used_mib = Metric::Value(used);
        g.util_pct = Metric::Value(45);
        g.processes = Metric::Value(vec![process(4242, theirs_mib, false)]);
    });
    let m = Machine {
        idle: {
            let mut idle = m.idle.clone();
            // Our own process held memory in one idle reading: it is subtracted, and that
            // reading's utilisation is not counted as someone else's.
            idle[2].gpus[0].processes = Metric::Value(vec![
                process(4242, theirs_mib, false),
                process(17, ours_mib, true),
            ]);
            idle[2].gpus[0].util_pct = Metric::Value(99);
            idle
        },
        ..m
    };
    let report = m.report();
    assert_eq!(report.verdict, Verdict::Fail);
    let memory = check(&report, "foreign_memory", Some(0));
    assert_eq!(memory.verdict, Verdict::Fail);
    let expected = (2.0 * f64::from(u32::try_from(used).unwrap())
        + f64::from(u32::try_from(used - ours_mib).unwrap()))
        / 3.0;
    assert!(close(number(memory.measured.as_ref()), expected));
    assert!(close(number(memory.rated.as_ref()), 1024.0));
    assert!(
        memory
            .message
            .contains(&format!("{:.1} GiB", expected / 1024.0)),
        "{}",
        memory.message
    );
    assert!(memory.message.contains("1 process this machine cannot see"));
    let util = check(&report, "foreign_utilisation", Some(0));
    assert_eq!(util.verdict, Verdict::Fail);
    assert!(close(number(util.measured.as_ref()), 45.0));
    assert!(util.message.contains("45 % busy"), "{}", util.message);
    assert!(report.summary().ends_with("shared"), "{}", report.summary());
    assert!(
        report.headline.starts_with("GPU 0: "),
        "{}",
        report.headline
    );
}

#[test]
fn idle_memory_below_the_bar_is_the_driver_s_and_passes() {
    let m = Machine::a100().gpu0(|g| g.mem_used_mib = Metric::Value(500));
    let c = check(&m.report(), "foreign_memory", Some(0)).clone();
    assert_eq!(c.verdict, Verdict::Pass);
    assert!(close(number(c.measured.as_ref()), 500.0));
    let mut strict = Machine::a100().gpu0(|g| g.mem_used_mib = Metric::Value(500));
    strict.thresholds.foreign_memory_mib = 256;
    assert_eq!(
        check(&strict.report(), "foreign_memory", Some(0)).verdict,
        Verdict::Fail
    );
}

#[test]
fn a_mig_slice_is_not_the_card() {
    let slice = 19_968;
    let m = Machine::a100().gpu0(|g| {
        g.mig = Metric::Value(MigInfo {
            enabled: true,
            instance_mem_total_mib: vec![slice],
        });
        g.mem_total_mib = Metric::Value(slice);
    });
    let report = m.report();
    assert_eq!(report.verdict, Verdict::Fail);
    let mig = check(&report, "mig", Some(0));
    assert_eq!(mig.verdict, Verdict::Fail);
    assert!(mig.message.contains("a slice, not the card"));
    assert_eq!(text(mig.measured.as_ref()), "on");
    let memory = check(&report, "gpu_memory", Some(0));
    assert_eq!(memory.verdict, Verdict::Fail);
    assert!(close(number(memory.measured.as_ref()), 19_968.0 / 1024.0));
    let rated_gb = f64::from(row("NVIDIA A100-SXM4-80GB").memory_gb);
    assert!(close(number(memory.rated.as_ref()), rated_gb));
    assert!(close(memory.ratio.unwrap(), 19_968.0 / 1024.0 / rated_gb));
    assert!(report.summary().ends_with("MIG slice"));
}

#[test]
fn a_vgpu_warns_and_passthrough_passes() {
    let vgpu = Machine::a100().gpu0(|g| g.virtualization = Metric::Value(Virtualization::Vgpu));
    assert_eq!(
        check(&vgpu.report(), "vgpu", Some(0)).verdict,
        Verdict::Warn
    );
    assert_eq!(vgpu.report().verdict, Verdict::Warn);
    let pass =
        Machine::a100().gpu0(|g| g.virtualization = Metric::Value(Virtualization::Passthrough));
    assert_eq!(
        check(&pass.report(), "vgpu", Some(0)).verdict,
        Verdict::Pass
    );
}

#[test]
fn software_slicing_shows_a_small_total_even_without_a_sku() {
    let m = Machine::healthy("Tesla V100-PCIE-16GB", 3_000, 1);
    let report = m.report();
    let memory = check(&report, "gpu_memory", Some(0));
    assert_eq!(memory.verdict, Verdict::Fail);
    assert!(close(number(memory.measured.as_ref()), 3_000.0 / 1024.0));
    assert!(close(number(memory.rated.as_ref()), 16.0));
    assert!(memory.message.contains("sliced"), "{}", memory.message);
}

#[test]
fn prohibited_compute_mode_fails() {
    let mut m = Machine::a100();
    m.facts[0].compute_mode = Metric::Value(ComputeMode::Prohibited);
    assert_eq!(
        check(&m.report(), "compute_mode", Some(0)).verdict,
        Verdict::Fail
    );
    m.facts[0].compute_mode = Metric::Value(ComputeMode::ExclusiveProcess);
    let c = check(&m.report(), "compute_mode", Some(0)).clone();
    assert_eq!(c.verdict, Verdict::Pass);
    assert!(c.message.contains("Exclusive Process"));
}

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
fn unreadable_facts_are_listed_never_passed_and_left_out_of_the_verdict() {
    let mut m = Machine::a100();
    m.facts[0] = GpuFacts::unavailable(0, Unavailable::Failed("no_permission"));
    let report = m.report();
    for code in [
        "compute_mode",
        "power_cap",
        "clock_events",
        "pcie_link",
        "ecc",
    ] {
        let c = check(&report, code, Some(0));
        assert!(!c.read, "{code}");
        assert_ne!(c.verdict, Verdict::Pass, "{code}");
        assert!(c.measured.is_none(), "{code}");
        assert_eq!(
            c.unread_reason.as_deref(),
            Some("failed: no_permission"),
            "{code}"
        );
    }
    assert_eq!(report.verdict, Verdict::Pass);
    assert_eq!(report.unread, 5);
    assert!(
        report.headline.ends_with("; 5 checks could not be read"),
        "{}",
        report.headline
    );
}

#[test]
fn a_card_without_mig_support_is_a_whole_card_but_a_failed_read_is_unknown() {
    let m = Machine::a100().gpu0(|g| g.mig = Metric::Unavailable(Unavailable::Unsupported));
    assert_eq!(check(&m.report(), "mig", Some(0)).verdict, Verdict::Pass);
    let m = Machine::a100().gpu0(|g| g.mig = Metric::Unavailable(Unavailable::Failed("gpu_lost")));
    assert!(!check(&m.report(), "mig", Some(0)).read);
}

#[test]
fn without_idle_readings_sharing_is_not_known() {
    let mut m = Machine::a100();
    m.idle.clear();
    let report = m.report();
    for code in ["foreign_memory", "foreign_utilisation"] {
        assert!(!check(&report, code, Some(0)).read, "{code}");
    }
    assert!(
        report.summary().ends_with("sharing not known"),
        "{}",
        report.summary()
    );
}

#[test]
fn a_wrong_model_or_a_missing_gpu_fails_against_the_sku() {
    let mut m = Machine::a100();
    m.sku = Some(sku("H100 SXM", 2, 80));
    let report = m.report();
    let model = check(&report, "gpu_model", Some(0));
    assert_eq!(model.verdict, Verdict::Fail);
    assert_eq!(text(model.measured.as_ref()), "NVIDIA A100-SXM4-80GB");
    let count = check(&report, "gpu_count", None);
    assert_eq!(count.verdict, Verdict::Fail);
    assert!(close(count.ratio.unwrap(), 0.5));
    assert_eq!(report.checks[0].verdict, Verdict::Fail);
}

#[test]
fn checks_come_most_severe_first() {
    let mut m = Machine::a100().gpu0(|g| g.virtualization = Metric::Value(Virtualization::Vgpu));
    m.facts[0].ecc_uncorrected_volatile = Metric::Value(1);
    m.facts[0].sm_clock_max_mhz = Metric::Unavailable(Unavailable::Unsupported);
    m.facts[0].compute_mode = Metric::Unavailable(Unavailable::Unsupported);
    let report = m.report();
    let rank = |c: &gpumeter_core::verify::Check| match (c.read, c.verdict) {
        (true, Verdict::Fail) => 0,
        (true, Verdict::Warn) => 1,
        (false, _) => 2,
        (true, Verdict::Pass) => 3,
    };
    let ranks: Vec<u8> = report.checks.iter().map(rank).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    assert_eq!(report.checks[0].code, "ecc");
    assert!(
        report
            .headline
            .starts_with("GPU 0: 1 uncorrected ECC error"),
        "{}",
        report.headline
    );
}

#[test]
fn our_own_process_at_idle_hides_the_utilisation_but_not_the_memory() {
    let m = Machine::a100().gpu0(|g| {
        g.mem_used_mib = Metric::Value(20_500);
        g.util_pct = Metric::Value(97);
        g.processes = Metric::Value(vec![process(17, 20_000, true)]);
    });
    let report = m.report();
    assert!(!check(&report, "foreign_utilisation", Some(0)).read);
    let memory = check(&report, "foreign_memory", Some(0));
    assert_eq!(memory.verdict, Verdict::Pass);
    assert!(close(number(memory.measured.as_ref()), 500.0));
    assert!(
        report.summary().ends_with("dedicated"),
        "{}",
        report.summary()
    );
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
