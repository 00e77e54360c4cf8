//! `status` with a `[subscription]`: when the plan ends, whether it renews and what leaving
//! now returns, in JSON (the same in every language) and in text, English and Chinese.

use std::path::Path;
use std::process::Command;

use jiff::{SignedDuration, Timestamp};
use serde_json::Value;

/// `status --demo` with `config` as the config file, in `lang`.
fn status(dir: &Path, config: &str, json: bool, lang: &str) -> String {
    let file = dir.join("config.toml");
    std::fs::write(&file, config).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    cmd.args([
        "status", "--demo", "--gpus", "1", "--lang", lang, "--config",
    ])
    .arg(&file)
    .env("GPUMETER_DATA_DIR", dir)
    .env("GPUMETER_DEMO_DELAY_MS", "0")
    .env("TZ", "UTC");
    if json {
        cmd.arg("--json");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Ten days into a thirty-day month that cost 1,000 (the demo sheet's USD), ending in twenty.
fn month(rest: &str) -> (String, Timestamp) {
    let now = Timestamp::now();
    let day = SignedDuration::from_hours(24);
    let started = now - day * 10;
    let ends = now + day * 20;
    let config = format!(
        "[subscription]\nplan = \"month\"\npaid = \"1000\"\nstarted = \"{started}\"\n\
         ends = \"{ends}\"\nrenews = false\n{rest}"
    );
    (config, ends)
}

/// The status line that starts with `label`.
fn line<'a>(text: &'a str, label: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label} line in\n{text}"))
}

#[test]
fn the_unused_share_comes_back_as_vouchers() {
    let dir = tempfile::tempdir().unwrap();
    let (config, ends) = month("refund = \"unused\"\nrefund_to = \"vouchers\"\n");
    let v: Value = serde_json::from_str(&status(dir.path(), &config, true, "zh-CN")).unwrap();
    let sub = &v["subscription"];
    assert_eq!(sub["plan"], "month");
    let said: Timestamp = sub["ends"].as_str().unwrap().parse().unwrap();
    assert!(
        said.duration_since(ends).abs() < SignedDuration::from_secs(1),
        "{said}"
    );
    assert_eq!(sub["renews"], false);
    let remaining = sub["remaining_s"].as_i64().unwrap();
    assert!(
        (20 * 86_400 - 120..=20 * 86_400).contains(&remaining),
        "{remaining}"
    );
    // 1,000 × 20/30, less the seconds the run took.
    let amount = sub["leaving_now_returns"]["amount"].as_str().unwrap();
    assert!(["666.66", "666.67"].contains(&amount), "{amount}");
    assert_eq!(sub["leaving_now_returns"]["currency"], "USD");
    assert_eq!(sub["leaving_now_unknown"], Value::Null);
    assert_eq!(sub["refund"], "unused");
    assert_eq!(sub["refund_to"], "vouchers");
    assert_eq!(sub["source"], "config");

    let text = status(dir.path(), &config, false, "en");
    let plan = line(&text, "plan ");
    assert!(plan.starts_with("plan      monthly plan, ends "), "{plan}");
    assert!(
        plan.contains(" (in 19d23h), does not renew; leaving now returns 666.6"),
        "{plan}"
    );
    assert!(
        plan.ends_with(" USD as vouchers (end date from the config)"),
        "{plan}"
    );

    let text = status(dir.path(), &config, false, "zh-CN");
    let plan = line(&text, "包期");
    assert!(plan.starts_with("包期      包月，"), "{plan}");
    assert!(plan.contains("不自动续费"), "{plan}");
    assert!(plan.contains("现在退订可退 666.6"), "{plan}");
    assert!(
        plan.contains("USD 代金券（到期时间来自配置）")
            || plan.contains("USD 代金券 (到期时间来自配置)"),
        "{plan}"
    );
}

#[test]
fn no_refund_is_zero_said_as_no_refund_and_unknown_is_null() {
    let dir = tempfile::tempdir().unwrap();
    let (config, _) = month("refund = \"none\"\n");
    let v: Value = serde_json::from_str(&status(dir.path(), &config, true, "en")).unwrap();
    assert_eq!(v["subscription"]["leaving_now_returns"]["amount"], "0.00");
    assert_eq!(v["subscription"]["refund"], "none");
    let text = status(dir.path(), &config, false, "en");
    assert!(
        line(&text, "plan ").contains("; leaving early returns nothing (no refund) ("),
        "{text}"
    );

    // No rule anywhere (the demo sheet states none): unknown, never 0.
    let (config, _) = month("");
    let v: Value = serde_json::from_str(&status(dir.path(), &config, true, "en")).unwrap();
    assert_eq!(v["subscription"]["leaving_now_returns"], Value::Null);
    assert_eq!(v["subscription"]["leaving_now_unknown"], "rule");
    let text = status(dir.path(), &config, false, "en");
    assert!(
        line(&text, "plan ")
            .contains("what leaving now returns is unknown: no early-termination rule"),
        "{text}"
    );
    let text = status(dir.path(), &config, false, "zh-CN");
    assert!(
        line(&text, "包期").contains("现在退订可退金额未知"),
        "{text}"
    );
}

#[test]
fn without_a_subscription_there_is_no_field_value_and_no_line() {
    let dir = tempfile::tempdir().unwrap();
    let v: Value = serde_json::from_str(&status(dir.path(), "", true, "en")).unwrap();
    assert_eq!(v["subscription"], Value::Null);
    let text = status(dir.path(), "", false, "en");
    assert!(!text.lines().any(|l| l.starts_with("plan ")), "{text}");
}

#[test]
fn a_bad_refund_in_the_config_is_refused_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    std::fs::write(&file, "[subscription]\nrefund = \"1.5\"\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["status", "--demo", "--config"])
        .arg(&file)
        .env("GPUMETER_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("config.toml:2:10: subscription.refund: `1.5` is not a fraction"),
        "{err}"
    );
}
