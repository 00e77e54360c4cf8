//! The verdict from what NVML sees of how the card is handed over: a healthy card passes, and a
//! card shared with another tenant, sliced (MIG, vGPU, software), prohibited or not the model
//! paid for fails or warns with the evidence; what cannot be read is listed, never passed.

use gpumeter_core::telemetry::{CudaVersion, Metric, MigInfo, Unavailable, Virtualization};
use gpumeter_core::verify::{ComputeMode, GpuFacts, Verdict};

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
fn unreadable_facts_are_listed_never_passed_and_make_the_verdict_incomplete() {
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
    assert_eq!(report.verdict, Verdict::Incomplete);
    assert_eq!(report.unread, 5);
    assert!(
        report.headline.contains("; 5 checks could not be read ("),
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
        (false, _) | (true, Verdict::Incomplete) => 2,
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
fn our_own_process_at_idle_hides_the_utilisation_so_dedicated_is_not_claimed_nor_a_pass() {
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
        report.summary().ends_with("sharing not known"),
        "{}",
        report.summary()
    );
    assert_eq!(report.verdict, Verdict::Incomplete);
    assert!(
        !report.headline.contains("dedicated"),
        "{}",
        report.headline
    );
    assert!(
        report
            .headline
            .ends_with("; 1 check could not be read (foreign_utilisation)"),
        "{}",
        report.headline
    );
}
