//! `status` with a prepaid balance (the demo's, `GPUMETER_DEMO_BALANCE`): the balance, when it
//! runs out at the burn, and whose burn that is.

use std::path::Path;
use std::process::Command;

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde_json::Value;

fn status(dir: &Path, balance: Option<&str>, json: bool) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    cmd.args(["status", "--demo", "--gpus", "1"])
        .env("GPUMETER_DATA_DIR", dir)
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .env("TZ", "UTC");
    if json {
        cmd.arg("--json");
    }
    if let Some(b) = balance {
        cmd.env("GPUMETER_DEMO_BALANCE", b);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn dec(v: &Value) -> Decimal {
    v.as_str().expect("a decimal string").parse().unwrap()
}

#[test]
fn status_says_the_balance_when_it_runs_out_and_at_whose_burn() {
    let dir = tempfile::tempdir().unwrap();
    let before = Timestamp::now();
    let v: Value = serde_json::from_str(&status(dir.path(), Some("300"), true)).unwrap();
    let after = Timestamp::now();
    // 300 less the demo's 3 h 20 min at 27.44705 an hour (91.49), within a minute's slack.
    let available = dec(&v["balance"]["available"]);
    assert!(
        available > "207.9".parse().unwrap() && available <= "208.51".parse().unwrap(),
        "{available}"
    );
    assert_eq!(v["balance"]["currency"], "USD");
    let burn = &v["balance_burn_per_hour"];
    // The demo account has this instance alone, listed with the balance: the account's burn.
    assert_eq!(burn["scope"], "account");
    assert_eq!(burn["uncounted_instances"], 0);
    assert_eq!(burn["currency"], "USD");
    assert_eq!(
        dec(&burn["amount"]).round_dp(2),
        dec(&v["cost"]["burn_per_hour"])
    );
    // Runs out when the cash left is burnt at that rate, to the second.
    let at: Timestamp = v["balance_runs_out_at"].as_str().unwrap().parse().unwrap();
    let hours = |t: Timestamp, from: Timestamp| {
        Decimal::from(t.duration_since(from).as_secs()) / Decimal::from(3600)
    };
    let expected = available / dec(&burn["amount"]);
    assert!(
        hours(at, before) >= expected - Decimal::ONE / Decimal::from(3600),
        "{at}"
    );
    assert!(hours(at, after) <= expected, "{at}");

    let text = status(dir.path(), Some("300"), false);
    let line = text.lines().find(|l| l.starts_with("balance")).unwrap();
    assert!(line.contains(" USD · runs out in 7h"), "{line}");
    assert!(
        line.ends_with("USD/h"),
        "the whole account's, no bound: {line}"
    );
}

#[test]
fn without_a_balance_the_fields_are_null_and_no_line_is_printed() {
    let dir = tempfile::tempdir().unwrap();
    let v: Value = serde_json::from_str(&status(dir.path(), None, true)).unwrap();
    assert_eq!(v["balance"], Value::Null);
    assert_eq!(v["balance_runs_out_at"], Value::Null);
    assert_eq!(v["balance_burn_per_hour"], Value::Null);
    let text = status(dir.path(), None, false);
    assert!(!text.lines().any(|l| l.starts_with("balance")), "{text}");
}
