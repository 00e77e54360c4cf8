//! What you paid for against what you got, over the simulator.

use std::time::Duration;

use gpumeter_core::pricing::Sku;
use gpumeter_core::telemetry::{
    CpuBoundRule, CudaVersion, Expectations, GpuReading, GpuUnavailable, GpuUnavailableKind,
    HistoryConfig, Metric, MigInfo, Scenario, Severity, SimConfig, Simulator, TelemetryHistory,
    Virtualization, assess, check_cuda, compare_sku, cpu_bound, model_matches,
};
use rust_decimal::Decimal;

fn sku(model: &str, count: u32, gib: u32) -> Sku {
    Sku {
        name: "test.sku".into(),
        gpu_model: model.into(),
        gpu_count: count,
        gpu_memory_gib: Decimal::from(gib),
        on_demand_per_hour: None,
        spot_per_hour: None,
        monthly: None,
        daily: None,
        weekly: None,
        yearly: None,
        compute_units: None,
    }
}

fn sim(scenario: &str, model: &str, gpus: u32) -> Simulator {
    let mut c = SimConfig::new(Scenario::bundled(scenario).unwrap());
    c.gpu_model = model.into();
    c.gpu_count = gpus;
    Simulator::new(c).unwrap()
}

fn reading(model: &str, gpus: u32) -> GpuReading {
    sim("training", model, gpus).gpus_at(Duration::ZERO)
}

fn codes(findings: &[gpumeter_core::telemetry::Finding]) -> Vec<&str> {
    findings.iter().map(|f| f.code).collect()
}

#[test]
fn model_names_match_tolerantly() {
    let same = [
        ("A100 80GB", "NVIDIA A100-SXM4-80GB"),
        ("A100-SXM4-80GB", "NVIDIA A100-SXM4-80GB"),
        ("a100 sxm 80gb", "NVIDIA A100-SXM4-80GB"),
        ("A100 40GB SXM4", "NVIDIA A100-SXM4-40GB"),
        ("A100", "NVIDIA A100 80GB PCIe"),
        ("A100 PCIe 80GB", "NVIDIA A100 80GB PCIe"),
        ("H100 SXM5", "NVIDIA H100 80GB HBM3"),
        ("H100 NVL", "NVIDIA H100 NVL"),
        ("H200 SXM", "NVIDIA H200"),
        ("GH200", "NVIDIA GH200 480GB"),
        ("RTX 4090", "NVIDIA GeForce RTX 4090"),
        ("RTX 6000 Ada", "NVIDIA RTX 6000 Ada Generation"),
        ("Quadro RTX 6000", "Quadro RTX 6000"),
        ("V100 16GB", "Tesla V100-SXM2-16GB"),
        ("T4", "Tesla T4"),
        ("A10G", "NVIDIA A10G"),
        ("L40S", "NVIDIA L40S"),
    ];
    for (paid, got) in same {
        assert!(model_matches(paid, got), "{paid} should match {got}");
    }
    let different = [
        ("A100-SXM4-80GB", "NVIDIA A100-SXM4-40GB"),
        ("A100 80GB", "NVIDIA A100-PCIE-40GB"),
        ("A100 SXM", "NVIDIA A100 80GB PCIe"),
        ("H100 SXM", "NVIDIA H100 NVL"),
        ("A10", "NVIDIA A10G"),
        ("L40", "NVIDIA L40S"),
        ("RTX A6000", "NVIDIA RTX 6000 Ada Generation"),
        ("V100 32GB", "Tesla V100-SXM2-16GB"),
        ("H100", "NVIDIA A100-SXM4-80GB"),
        ("", "NVIDIA A100-SXM4-80GB"),
    ];
    for (paid, got) in different {
        assert!(!model_matches(paid, got), "{paid} should not match {got}");
    }
}

#[test]
fn the_right_card_gives_no_findings() {
    let findings = compare_sku(
        &sku("A100 80GB", 8, 80),
        &reading("NVIDIA A100-SXM4-80GB", 8),
    );
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn a_smaller_card_is_reported_by_name_and_by_memory() {
    let findings = compare_sku(
        &sku("A100-SXM4-80GB", 1, 80),
        &reading("NVIDIA A100-SXM4-40GB", 1),
    );
    assert_eq!(codes(&findings), ["gpu_model_mismatch", "gpu_memory_short"]);
    assert!(findings.iter().all(|f| f.severity == Severity::Critical));
    assert!(
        findings[0]
            .message
            .starts_with("paying for 1 × A100-SXM4-80GB, NVML reports A100-SXM4-40GB"),
        "{}",
        findings[0].message
    );
    assert!(
        findings[1].message.contains("40.0 GiB"),
        "{}",
        findings[1].message
    );
}

#[test]
fn fewer_gpus_than_paid_for_is_critical() {
    let findings = compare_sku(
        &sku("A100 80GB", 8, 80),
        &reading("NVIDIA A100-SXM4-80GB", 4),
    );
    assert_eq!(codes(&findings), ["gpu_count_short"]);
    assert!(findings[0].message.contains("NVML reports 4 GPUs"));
}

/// A card fallen off the bus is still listed by NVML, but it is not one of the GPUs paid for
/// that work: it is named, and the count is short.
#[test]
fn a_gpu_fallen_off_the_bus_is_named_and_not_counted() {
    use gpumeter_core::telemetry::{GPU_LOST, GpuSample};
    let mut r = reading("NVIDIA A100-SXM4-80GB", 2);
    r.gpus[1] = GpuSample::unavailable(1, GPU_LOST);
    let findings = compare_sku(&sku("A100 80GB", 2, 80), &r);
    assert_eq!(
        codes(&findings)[..2],
        ["gpu_lost", "gpu_count_short"],
        "{findings:?}"
    );
    assert!(
        findings[0].message.contains("(GPU 1)"),
        "{}",
        findings[0].message
    );
    assert!(
        findings[1].message.contains("NVML reports 1 working GPU"),
        "{}",
        findings[1].message
    );
    assert_eq!(findings[0].severity, Severity::Critical);
}

#[test]
fn driver_reserved_memory_is_tolerated() {
    // A T4 sold as 16 GB shows 15 GiB to NVML.
    let findings = compare_sku(&sku("T4", 1, 16), &reading("Tesla T4", 1));
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn mig_slices_and_vgpus_are_reported() {
    let mut r = reading("NVIDIA A100-SXM4-80GB", 2);
    r.gpus[0].mig = Metric::Value(MigInfo {
        enabled: true,
        instance_mem_total_mib: vec![10_240, 10_240],
    });
    r.gpus[1].virtualization = Metric::Value(Virtualization::Vgpu);
    let findings = compare_sku(&sku("A100 80GB", 2, 80), &r);
    assert_eq!(codes(&findings), ["gpu_mig_slice", "gpu_vgpu"]);
    assert!(
        findings[0].message.contains("2 instances: 10 GiB, 10 GiB"),
        "{}",
        findings[0].message
    );
    assert_eq!(findings[1].severity, Severity::Warning);
}

#[test]
fn an_old_driver_cuda_is_critical_and_an_unknown_one_a_warning() {
    let driver = reading("NVIDIA A100-SXM4-80GB", 1).driver;
    let need = |v: &str| v.parse::<CudaVersion>().unwrap();
    assert_eq!(check_cuda(need("12.4"), &driver), None);
    let old = check_cuda(need("12.6"), &driver).unwrap();
    assert_eq!(
        (old.code, old.severity),
        ("cuda_too_old", Severity::Critical)
    );
    assert!(
        old.message.contains("up to 12.4, you need 12.6"),
        "{}",
        old.message
    );
    let mut unknown = driver;
    unknown.cuda_version = Metric::Unavailable(gpumeter_core::telemetry::Unavailable::Unsupported);
    assert_eq!(
        check_cuda(need("12.0"), &unknown).unwrap().severity,
        Severity::Warning
    );
}

fn replay(scenario: &str, until: u64) -> TelemetryHistory {
    let s = sim(scenario, "NVIDIA A100-SXM4-80GB", 2);
    let mut h = TelemetryHistory::new(HistoryConfig::default());
    for t in 0..=until {
        let at = Duration::from_secs(t);
        h.record_gpus(at, &Ok(s.gpus_at(at)));
        h.record_host(at, &s.host_at(at));
    }
    h
}

#[test]
fn a_job_on_the_cpu_is_found_after_five_minutes() {
    let rule = CpuBoundRule::default();
    let h = replay("cpu-bound", 400);
    let f = cpu_bound(&h, Duration::from_secs(400), &rule).expect("cpu-bound after 400 s");
    assert_eq!(f.severity, Severity::Warning);
    assert!(f.message.contains("for 5 min"), "{}", f.message);
    // Not yet a full window: nothing.
    let short = replay("cpu-bound", 200);
    assert_eq!(cpu_bound(&short, Duration::from_secs(200), &rule), None);
    // Busy GPUs or an idle CPU: nothing.
    assert_eq!(
        cpu_bound(&replay("training", 400), Duration::from_secs(400), &rule),
        None
    );
    assert_eq!(
        cpu_bound(&replay("idle", 400), Duration::from_secs(400), &rule),
        None
    );
}

#[test]
fn a_failed_gpu_reading_counts_as_active() {
    let rule = CpuBoundRule::default();
    let mut h = replay("cpu-bound", 400);
    let lost = GpuUnavailable {
        kind: GpuUnavailableKind::Other,
        detail: "gpu lost".into(),
    };
    h.record_gpus(Duration::from_secs(401), &Err(lost));
    assert_eq!(cpu_bound(&h, Duration::from_secs(401), &rule), None);
}

#[test]
fn assess_sorts_by_severity_and_reports_an_unreadable_paid_gpu() {
    let h = replay("cpu-bound", 400);
    let paid = sku("H100", 2, 80);
    let expect = Expectations {
        sku: Some(&paid),
        cuda: Some("12.8".parse().unwrap()),
        ..Expectations::default()
    };
    let now = Duration::from_secs(400);
    let round = Ok(sim("cpu-bound", "NVIDIA A100-SXM4-80GB", 2).gpus_at(now));
    let findings = assess(&expect, &round, &h, now);
    assert_eq!(
        codes(&findings),
        ["gpu_model_mismatch", "cuda_too_old", "cpu_bound"]
    );
    let none = GpuUnavailable {
        kind: GpuUnavailableKind::LibraryNotFound,
        detail: "libnvidia-ml.so.1: cannot open".into(),
    };
    let findings = assess(
        &expect,
        &Err(none),
        &TelemetryHistory::new(HistoryConfig::default()),
        now,
    );
    assert_eq!(codes(&findings), ["gpu_unreadable"]);
    assert!(
        findings[0].message.contains("paying for 2 × H100"),
        "{}",
        findings[0].message
    );
}

/// Every kind of finding, said in Chinese for the terminal while its JSON message stays the
/// English one, word for word as an English run makes it.
#[test]
fn every_finding_is_shown_in_chinese_and_kept_in_english_for_json() {
    use gpumeter_core::i18n::{Lang, scoped};
    use gpumeter_core::telemetry::{GPU_LOST, GpuSample};
    let all = || {
        let mut out = Vec::new();
        let mut r = reading("NVIDIA A100-SXM4-40GB", 3);
        r.gpus[1] = GpuSample::unavailable(1, GPU_LOST);
        r.gpus[2].mig = Metric::Value(MigInfo {
            enabled: true,
            instance_mem_total_mib: vec![10_240],
        });
        r.gpus[0].virtualization = Metric::Value(Virtualization::Vgpu);
        out.extend(compare_sku(&sku("A100-SXM4-80GB", 4, 80), &r));
        out.extend(compare_sku(
            &sku("A100 80GB", 1, 80),
            &reading("NVIDIA A100-SXM4-80GB", 2),
        ));
        let driver = reading("NVIDIA A100-SXM4-80GB", 1).driver;
        out.extend(check_cuda("12.6".parse().unwrap(), &driver));
        let mut unknown = driver;
        unknown.cuda_version =
            Metric::Unavailable(gpumeter_core::telemetry::Unavailable::Unsupported);
        out.extend(check_cuda("12.0".parse().unwrap(), &unknown));
        let rule = CpuBoundRule::default();
        out.extend(cpu_bound(
            &replay("cpu-bound", 400),
            Duration::from_secs(400),
            &rule,
        ));
        let paid = sku("H100", 2, 80);
        let expect = Expectations {
            sku: Some(&paid),
            ..Expectations::default()
        };
        let none = GpuUnavailable {
            kind: GpuUnavailableKind::LibraryNotFound,
            detail: "libnvidia-ml.so.1".into(),
        };
        let h = TelemetryHistory::new(HistoryConfig::default());
        out.extend(assess(&expect, &Err(none), &h, Duration::ZERO));
        out
    };
    let english = scoped(Lang::En, all);
    let chinese = scoped(Lang::ZhCn, all);
    assert_eq!(
        codes(&chinese),
        [
            "gpu_lost",
            "gpu_count_short",
            "gpu_model_mismatch",
            "gpu_memory_short",
            "gpu_mig_slice",
            "gpu_vgpu",
            "gpu_count_extra",
            "cuda_too_old",
            "cuda_unknown",
            "cpu_bound",
            "gpu_unreadable",
        ]
    );
    for (en, zh) in english.iter().zip(&chinese) {
        assert_eq!(zh.message, en.message, "JSON keeps the English");
        assert_eq!(en.shown(), en.message);
        let shown = zh.shown();
        assert!(
            shown
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{shown}"
        );
        for word in ["paying", "reports", "driver", "instance", "idle", "the "] {
            assert!(!shown.contains(word), "{word} in {shown}");
        }
    }
    assert!(
        english[1].message.ends_with("NVML reports 2 working GPUs"),
        "{}",
        english[1].message
    );
    assert!(
        english[4].message.ends_with("(1 instance: 10 GiB)"),
        "{}",
        english[4].message
    );
    assert_eq!(
        chinese[1].shown(),
        "付费购买 4 × A100-SXM4-80GB，NVML 只报告 2 块可用的 GPU"
    );
    assert!(
        chinese[4].shown().ends_with("（1 个实例：10 GiB）"),
        "{}",
        chinese[4].shown()
    );
}
