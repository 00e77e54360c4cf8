//! `gpumeter verify --demo --scenario NAME`: each simulated card state gives its verdict, its
//! exit status and the check that says why, with what was measured and what the card is rated
//! for; `--on-fail` releases the demo instance (read back), and `--dry-run` does not.

use serde_json::Value;

use super::actions_cli::{Cloud, stderr, stdout};

/// What one scenario must come to.
struct Expect {
    /// The verdicts that are right for it (a capped card may be slow enough to fail, or only
    /// to warn).
    verdicts: &'static [&'static str],
    /// The checks, any of which must be among those that did not pass.
    codes: &'static [&'static str],
}

/// The check codes the core gives each card state, in one place.
fn expect(scenario: &str) -> Expect {
    let (verdicts, codes): (&'static [&'static str], &'static [&'static str]) = match scenario {
        "training" => (&["pass"], &[]),
        "shared" => (&["fail"], &["foreign_memory", "foreign_utilisation"]),
        "mig-slice" => (&["fail"], &["mig"]),
        "power-capped" => (&["warn", "fail"], &["power_cap"]),
        "throttled" => (&["warn", "fail"], &["clock_events"]),
        "pcie-degraded" => (&["warn", "fail"], &["pcie_link"]),
        other => panic!("no expectation for {other}"),
    };
    Expect { verdicts, codes }
}

fn exit_of(verdict: &str) -> i32 {
    match verdict {
        "pass" => 0,
        "warn" => 1,
        "fail" => 3,
        other => panic!("not a verdict: {other}"),
    }
}

/// `verify --demo --scenario NAME --json`, with its exit status and document.
fn verify(cloud: &Cloud, scenario: &str, extra: &[&str]) -> (Option<i32>, Value, String) {
    let mut args = vec!["verify", "--scenario", scenario, "--json", "--seconds", "5"];
    args.extend_from_slice(extra);
    let out = cloud.run(&args, &[]);
    let v: Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{scenario}: stdout is not JSON ({e}): {}", stderr(&out)));
    (out.status.code(), v, stderr(&out))
}

/// The demo instance's state as the demo cloud reports it now (a fresh cloud if none was made).
fn instance_state(cloud: &Cloud) -> String {
    let out = cloud.run(&["status", "--json"], &[]);
    let v: Value = serde_json::from_str(&stdout(&out)).expect("status prints JSON");
    v["instance"]["state"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn has_value(v: &Value) -> bool {
    v.is_object() && !v["value"].is_null()
}

#[test]
fn a_healthy_demo_with_a_check_it_could_not_read_is_incomplete_never_a_pass_nor_dedicated() {
    let cloud = Cloud::new("verify-training");
    let (code, v, err) = verify(&cloud, "training", &[]);
    // The training job's own process ran in every idle reading: utilisation could not be
    // read, so the verdict is not a pass and the card is not called dedicated.
    assert_eq!(code, Some(1), "{err}\n{v}");
    assert_eq!(v["verdict"], "incomplete");
    let headline = v["headline"].as_str().unwrap();
    assert!(
        headline.contains("could not be read (foreign_utilisation)"),
        "{headline}"
    );
    assert!(!headline.contains("dedicated"), "{headline}");
    assert_eq!(v["source"], "demo");
    assert!(v["headline"].is_string());
    let checks = v["checks"].as_array().unwrap();
    // Every check that could be read passes; one that could not (the training job's own
    // process ran in every idle reading, so utilisation says nothing of another tenant) is
    // listed as unread, with its reason, never as a pass.
    for c in checks {
        if c["read"] == true {
            assert_eq!(c["verdict"], "pass", "{c}");
        } else {
            assert_ne!(c["verdict"], "pass", "{c}");
            assert!(c["unread_reason"].is_string(), "{c}");
        }
    }
    let bf16 = checks
        .iter()
        .find(|c| c["code"] == "bf16_throughput")
        .unwrap_or_else(|| panic!("no bf16_throughput check: {v}"));
    assert!(
        has_value(&bf16["measured"]) && has_value(&bf16["rated"]),
        "{bf16}"
    );
    assert!(bf16["ratio"].as_f64().unwrap() >= 0.7, "{bf16}");
    let gpu = &v["gpus"][0];
    assert_eq!(gpu["index"], 0);
    assert!(
        gpu["facts"].is_object() && gpu["measured"].is_object(),
        "{gpu}"
    );
    assert!(v["bench_error"].is_null() && v["on_fail"].is_null());
}

#[test]
fn each_degraded_demo_names_the_check_with_measured_and_rated() {
    for scenario in [
        "shared",
        "mig-slice",
        "power-capped",
        "throttled",
        "pcie-degraded",
    ] {
        let cloud = Cloud::new(&format!("verify-{scenario}"));
        let want = expect(scenario);
        let (code, v, err) = verify(&cloud, scenario, &[]);
        let verdict = v["verdict"].as_str().unwrap_or_default();
        assert!(
            want.verdicts.contains(&verdict),
            "{scenario}: verdict {verdict}, wanted one of {:?}: {v}",
            want.verdicts
        );
        assert_eq!(code, Some(exit_of(verdict)), "{scenario}: {err}");
        let named: Vec<&Value> = v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["verdict"] != "pass")
            .filter(|c| want.codes.contains(&c["code"].as_str().unwrap_or_default()))
            .collect();
        assert!(
            !named.is_empty(),
            "{scenario}: none of {:?} failed or warned: {v}",
            want.codes
        );
        for c in named {
            assert!(
                has_value(&c["measured"]) && has_value(&c["rated"]),
                "{scenario}: {c}"
            );
            assert!(!c["message"].as_str().unwrap_or_default().is_empty(), "{c}");
        }
        // Without --on-fail nothing is done to the instance.
        assert!(v["on_fail"].is_null(), "{scenario}");
        assert_eq!(instance_state(&cloud), "running");
    }
}

#[test]
fn on_fail_release_releases_the_demo_instance_and_reads_it_back() {
    let cloud = Cloud::new("verify-release");
    let (code, v, err) = verify(&cloud, "shared", &["--on-fail", "release"]);
    assert_eq!(code, Some(3), "{err}\n{v}");
    let acted = &v["on_fail"];
    assert_eq!(acted["action"], "release", "{v}");
    assert_eq!(acted["done"], true, "{acted}\n{err}");
    assert_eq!(acted["dry_run"], false);
    let lines: Vec<&str> = acted["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        lines.iter().any(|l| l.starts_with("release: done")),
        "{lines:?}"
    );
    // The demo sheet bills a one-minute minimum; the demo instance ran 3 h 20 min.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("released 3 h 20 min in, past the sheet's 1-minute minimum")),
        "{lines:?}"
    );
    assert_eq!(instance_state(&cloud), "released");
}

#[test]
fn on_fail_with_dry_run_says_what_it_would_do_and_does_nothing() {
    let cloud = Cloud::new("verify-dry");
    let (code, v, err) = verify(&cloud, "shared", &["--on-fail", "release", "--dry-run"]);
    assert_eq!(code, Some(3), "{err}\n{v}");
    let acted = &v["on_fail"];
    assert_eq!(
        (acted["done"].clone(), acted["dry_run"].clone()),
        (false.into(), true.into())
    );
    let text = acted["lines"].to_string();
    assert!(text.contains("demo: release i-0demo4a100f00d"), "{text}");
    assert!(text.contains("1-minute minimum"), "{text}");
    assert_eq!(instance_state(&cloud), "running");
}

#[test]
fn on_fail_does_nothing_when_the_card_does_not_fail() {
    let cloud = Cloud::new("verify-pass-release");
    let (code, v, _) = verify(&cloud, "training", &["--on-fail", "release"]);
    assert_eq!((code, v["verdict"].as_str()), (Some(1), Some("incomplete")));
    assert!(v["on_fail"].is_null(), "{v}");
    assert_eq!(instance_state(&cloud), "running");
}

#[test]
fn on_fail_alert_says_it_on_stderr_and_changes_nothing() {
    let cloud = Cloud::new("verify-alert");
    let (code, v, err) = verify(&cloud, "shared", &["--on-fail", "alert"]);
    assert_eq!(code, Some(3));
    assert!(err.contains("gpumeter: verify failed: "), "{err}");
    assert_eq!(v["on_fail"]["action"], "alert");
    assert!(
        v["on_fail"]["lines"].to_string().contains("no webhook"),
        "{v}"
    );
    assert_eq!(instance_state(&cloud), "running");
}

#[test]
fn what_on_fail_did_is_an_action_of_verify_in_the_ledger_and_in_report() {
    let cloud = Cloud::new("verify-alert-kept");
    let (code, _, _) = verify(&cloud, "shared", &["--on-fail", "alert"]);
    assert_eq!(code, Some(3));
    let until = (jiff::Timestamp::now() + jiff::SignedDuration::from_mins(1)).to_string();
    let out = cloud.run(
        &["report", "--json", "--since", "1h", "--until", &until],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let actions = report["actions"].as_array().unwrap();
    let kept = actions
        .iter()
        .find(|a| a["intent"] == "verify on-fail alert")
        .unwrap_or_else(|| panic!("verify's on-fail is not among report's actions: {actions:?}"));
    assert_eq!(kept["outcome"], "confirmed", "{kept}");
    assert_eq!(kept["request"]["action"], "verify_on_fail", "{kept}");
    assert!(
        kept["request"]["headline"]
            .as_str()
            .is_some_and(|h| !h.is_empty()),
        "{kept}"
    );
    assert!(
        kept["answer"].as_str().unwrap().contains("no webhook"),
        "{kept}"
    );
}

#[test]
fn the_human_report_starts_with_the_verdict_then_the_table() {
    let cloud = Cloud::new("verify-text");
    let out = cloud.run(&["verify", "--scenario", "shared"], &[]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("verify: FAIL: "), "{text}");
    let header = text.lines().find(|l| l.starts_with("GPU  CHECK")).unwrap();
    for col in ["MEASURED", "RATED", "RATIO", "VERDICT"] {
        assert!(header.contains(col), "{header}");
    }
}

/// Each verdict is kept in the ledger: the line the cockpit shows and the whole report, with
/// every check's measured and rated value, as evidence; the latest run is the one read back.
#[test]
fn each_verdict_is_kept_in_the_ledger_with_its_evidence() {
    let cloud = Cloud::new("verify-ledger");
    let (_, healthy, _) = verify(&cloud, "training", &[]);
    let (_, shared, _) = verify(&cloud, "shared", &[]);
    let ledger = gpumeter::ledger::Ledger::open(cloud.path().join("demo-ledger.sqlite")).unwrap();
    let kept = ledger
        .last_verification("any instance")
        .unwrap()
        .expect("a verify run was kept");
    assert_eq!(kept.verdict, shared["verdict"].as_str().unwrap());
    assert_eq!(kept.headline, shared["headline"].as_str().unwrap());
    assert!(kept.summary.contains("shared"), "{}", kept.summary);
    let evidence: Value = serde_json::from_str(&kept.report).unwrap();
    assert_eq!(evidence["checks"], shared["checks"]);
    assert_ne!(evidence["checks"], healthy["checks"]);
    let failing = evidence["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "bf16_throughput")
        .unwrap();
    assert!(has_value(&failing["measured"]) && has_value(&failing["rated"]));
}

/// The config's `[verify]` bars judge the same card differently: the healthy demo fails under
/// a bar above what it reaches, and a flag still overrides the config.
#[test]
fn the_configs_bars_judge_and_the_flags_override_them() {
    let cloud = Cloud::new("verify-config");
    let config = cloud.path().join("config.toml");
    std::fs::write(&config, "[verify]\nfail_below = 95\nwarn_below = 98\n").unwrap();
    let path = config.display().to_string();
    let (code, v, err) = verify(&cloud, "training", &["--config", &path]);
    assert_eq!(code, Some(3), "{err}\n{v}");
    let bf16 = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "bf16_throughput")
        .unwrap();
    assert_eq!(bf16["verdict"], "fail", "{bf16}");
    assert!(bf16["ratio"].as_f64().unwrap() < 0.95, "{bf16}");
    let (code, v, err) = verify(
        &cloud,
        "training",
        &[
            "--config",
            &path,
            "--fail-below",
            "50",
            "--warn-below",
            "70",
        ],
    );
    // The flags' bars pass every figure; only the unread utilisation keeps it from a pass.
    assert_eq!(code, Some(1), "{err}\n{v}");
    assert_eq!(v["verdict"], "incomplete", "{v}");
}
