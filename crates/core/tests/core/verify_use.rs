//! The checks of what the user will run on the machine: the interpreter's torch against the
//! card (`--python`) and the download rate against the plan's promise (`--bandwidth`).

use gpumeter_core::i18n::{Lang, scoped};
use gpumeter_core::verify::{Download, NetworkInput, TorchProbe, Verdict, VerifyReport};
use rust_decimal::dec;

use super::verify_fixture::{Machine, check, number, sku, text};

/// torch's answer as the probe writes it.
fn torch(cuda: Option<&str>, available: bool, archs: &[&str]) -> TorchProbe {
    let answer = serde_json::json!({
        "torch": "2.5.1",
        "import_error": null,
        "cuda": cuda,
        "available": available,
        "error": null,
        "arch_list": if available { Some(archs) } else { None },
        "devices": if available {
            serde_json::json!([{"name": "NVIDIA A100-SXM4-80GB", "capability": [8, 0]}])
        } else {
            serde_json::Value::Null
        },
    });
    TorchProbe::parse("python3", &format!("gpumeter-torch-probe {answer}\n"))
}

fn with_torch(mut m: Machine, probe: TorchProbe) -> VerifyReport {
    m.torch = Some(probe);
    m.report()
}

#[test]
fn a_torch_built_for_the_card_passes() {
    let r = with_torch(
        Machine::a100(),
        torch(Some("12.4"), true, &["sm_70", "sm_80", "sm_90"]),
    );
    let c = check(&r, "torch", None);
    assert_eq!(c.verdict, Verdict::Pass, "{}", c.message);
    assert!(
        c.message.contains("2.5.1") && c.message.contains("1 GPU"),
        "{}",
        c.message
    );
    let a = check(&r, "torch_arch", Some(0));
    assert_eq!(
        (a.verdict, text(a.measured.as_ref())),
        (Verdict::Pass, "sm_80".into())
    );
    assert_eq!(text(a.rated.as_ref()), "sm_80");
}

#[test]
fn a_cpu_only_build_fails_with_the_wheel_to_install() {
    let r = with_torch(Machine::a100(), torch(None, false, &[]));
    let c = check(&r, "torch", None);
    assert_eq!(c.verdict, Verdict::Fail);
    assert!(
        c.message.contains("CPU-only") && c.message.contains("whl/cu128"),
        "{}",
        c.message
    );
    assert!(
        r.checks.iter().all(|c| c.code != "torch_arch"),
        "no arch list to judge"
    );
    assert_eq!(r.verdict, Verdict::Fail);
}

#[test]
fn cuda_unavailable_names_the_driver_when_it_is_older_than_torchs_cuda() {
    // The fixture's driver supports CUDA 13.0.
    let r = with_torch(Machine::a100(), torch(Some("13.1"), false, &[]));
    let c = check(&r, "torch", None);
    assert_eq!(c.verdict, Verdict::Fail);
    assert!(c.message.contains("CUDA up to 13.0"), "{}", c.message);
    let r = with_torch(Machine::a100(), torch(Some("12.4"), false, &[]));
    let c = check(&r, "torch", None);
    assert!(c.message.contains("CUDA_VISIBLE_DEVICES"), "{}", c.message);
}

#[test]
fn an_arch_list_without_the_cards_sm_fails_naming_it_and_the_wheels() {
    let r = with_torch(
        Machine::a100(),
        torch(Some("11.8"), true, &["sm_37", "sm_50", "sm_70"]),
    );
    let a = check(&r, "torch_arch", Some(0));
    assert_eq!(a.verdict, Verdict::Fail);
    for said in ["sm_80", "sm_37 sm_50 sm_70", "cu128, cu126, cu118"] {
        assert!(a.message.contains(said), "{said}: {}", a.message);
    }
    assert!(r.headline.contains("sm_80"), "{}", r.headline);
    // PTX at or below the card's capability runs, compiled at first use: a warning.
    let r = with_torch(
        Machine::a100(),
        torch(Some("12.4"), true, &["sm_70", "compute_75"]),
    );
    assert_eq!(check(&r, "torch_arch", Some(0)).verdict, Verdict::Warn);
}

#[test]
fn no_torch_warns_and_an_interpreter_that_does_not_answer_is_unread() {
    let none = TorchProbe::parse("python3", "gpumeter-torch-probe {\"torch\": null}\n");
    let r = with_torch(Machine::a100(), none);
    let c = check(&r, "torch", None);
    assert_eq!(c.verdict, Verdict::Warn);
    assert!(c.message.contains("not installed"), "{}", c.message);
    let r = with_torch(
        Machine::a100(),
        TorchProbe::not_run("python9", "no answer within 2 s"),
    );
    let c = check(&r, "torch", None);
    assert!(
        !c.read && c.message.contains("no answer within 2 s"),
        "{}",
        c.message
    );
    assert_ne!(r.verdict, Verdict::Pass);
}

#[test]
fn a_checks_message_is_kept_in_english_and_shown_in_the_users_language() {
    let r = with_torch(Machine::a100(), torch(None, false, &[]));
    let c = check(&r, "torch", None);
    let shown = scoped(Lang::ZhCn, || c.shown());
    assert!(shown.contains("仅支持 CPU"), "{shown}");
    assert!(c.message.contains("CPU-only"), "{}", c.message);
    assert_eq!(scoped(Lang::En, || c.shown()), c.message);
}

fn with_download(rate_mbps: f64, promised: Option<rust_decimal::Decimal>) -> VerifyReport {
    // Pieces every 0.1 s for 3 s at `rate_mbps`.
    let piece = (rate_mbps * 1e6 / 8.0 / 10.0).round();
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "test rates"
    )]
    let piece = piece as u64;
    let samples: Vec<(f64, u64)> = (0..=30_u32)
        .map(|k| (f64::from(k) * 0.1, piece * u64::from(k + 1)))
        .collect();
    let mut m = Machine::a100();
    m.network = Some(NetworkInput {
        download: Download::from_samples("http://127.0.0.1/file", &samples, None),
        promised_mbps: promised,
    });
    m.report()
}

#[test]
fn the_best_second_is_judged_against_the_promise() {
    for (rate, verdict) in [
        (95.0, Verdict::Pass),
        (60.0, Verdict::Warn),
        (30.0, Verdict::Fail),
    ] {
        let r = with_download(rate, Some(dec!(100)));
        let c = check(&r, "network_bandwidth", None);
        assert_eq!(c.verdict, verdict, "{rate}: {}", c.message);
        assert!((number(c.measured.as_ref()) - rate).abs() < 0.1, "{rate}");
        assert!((number(c.rated.as_ref()) - 100.0).abs() < 1e-9);
        assert!(c.message.contains("of the 100 Mbps"), "{}", c.message);
    }
}

#[test]
fn without_a_promise_or_a_whole_second_the_rate_is_not_judged() {
    let r = with_download(50.0, None);
    let c = check(&r, "network_bandwidth", None);
    assert!(
        !c.read && c.message.contains("fixed_bandwidth_mbps"),
        "{}",
        c.message
    );
    assert!((number(c.measured.as_ref()) - 50.0).abs() < 0.1);
    let mut m = Machine::a100();
    m.network = Some(NetworkInput {
        download: Download::from_samples("http://h/f", &[(0.0, 10), (0.3, 20)], None),
        promised_mbps: Some(dec!(5)),
    });
    let c = m.report();
    let c = check(&c, "network_bandwidth", None);
    assert!(
        !c.read && c.message.contains("larger file"),
        "{}",
        c.message
    );
}

/// Where a telemetry finding decides a check, verify says it in its own words: the same English
/// as the finding's, and the user's language on the terminal.
#[test]
fn verify_says_what_the_findings_decide_in_the_findings_english() {
    use gpumeter_core::telemetry::{CudaVersion, check_cuda, compare_sku};
    for (count, machines) in [(2, 1), (1, 2), (4, 3)] {
        let mut m = Machine::healthy("NVIDIA A100-SXM4-80GB", 81_920, machines);
        m.sku = Some(sku("A100 80GB", count, 80));
        let finding = compare_sku(m.sku.as_ref().unwrap(), &m.reading)
            .into_iter()
            .find(|f| f.code.starts_with("gpu_count"))
            .unwrap();
        let r = m.report();
        let c = check(&r, "gpu_count", None);
        assert_eq!(c.message, finding.message);
        assert!(scoped(Lang::ZhCn, || c.shown()).contains("你付费的是"));
    }
    let mut m = Machine::a100();
    let required = CudaVersion {
        major: 13,
        minor: 1,
    };
    m.require_cuda = Some(required);
    let finding = check_cuda(required, &m.reading.driver).unwrap();
    let r = m.report();
    let c = check(&r, "cuda_version", None);
    assert_eq!(
        (c.verdict, c.message.as_str()),
        (Verdict::Fail, finding.message.as_str())
    );
    assert!(scoped(Lang::ZhCn, || c.shown()).contains("请升级驱动"));
}
