//! The bill in `report`: each session's compute rounded up to the step and minimum it was
//! recorded with, beside what accrued.

use std::process::Command;

use gpumeter::ledger::report::build;
use gpumeter::ledger::{BillingStep, GpuMinute, Ledger, MinuteBucket, SessionStart};
use gpumeter::meter::{BillingMode, Breakdown};
use gpumeter::money::Currency;
use jiff::Timestamp;
use jiff::tz::TimeZone;
use rust_decimal::dec;

const START: &str = "2026-05-01T10:00:00Z";

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

/// One session of 61 s at 3.60/h on a sheet that bills whole hours: 0.001 a second accrued.
fn short_session(dir: &std::path::Path) {
    let mut ledger = Ledger::open(dir.join("ledger.sqlite")).unwrap();
    let session = ledger
        .start_session(&SessionStart {
            instance: "i-short".into(),
            provider: "demo".into(),
            region: None,
            sku: "gpu.1x".into(),
            mode: BillingMode::OnDemand,
            rate_per_hour: Some(dec!(3.60)),
            currency: Currency::USD,
            at: t(START),
            billing: Some(BillingStep {
                step_seconds: 3600,
                minimum_seconds: 0,
            }),
        })
        .unwrap();
    ledger
        .record_minute(MinuteBucket {
            session,
            start: t(START),
            cost: Breakdown {
                compute: dec!(0.061),
                ..Breakdown::zero(Currency::USD)
            },
            idle: false,
            gpu: GpuMinute::default(),
            egress_bytes: 0,
            egress_split: gpumeter_core::traffic::EgressSplit::default(),
            split_cost: gpumeter::ledger::SplitCost::default(),
        })
        .unwrap();
    ledger
        .end_session(session, t("2026-05-01T10:01:01Z"))
        .unwrap();
}

#[test]
fn a_61_second_session_is_billed_a_whole_hour() {
    let dir = tempfile::tempdir().unwrap();
    short_session(dir.path());
    let ledger = Ledger::open_read_only(dir.path().join("ledger.sqlite")).unwrap();
    let (since, until) = (t("2026-05-01T00:00:00Z"), t("2026-05-02T00:00:00Z"));
    let rows = ledger.report_rows(since, until).unwrap();
    let report = build(&rows, (since, until), &TimeZone::UTC, &|_| None, &[]);
    let usd = &report.spend[0];
    assert_eq!(usd.total.compute, dec!(0.061));
    assert_eq!(usd.billed.compute, dec!(3.60));
    assert_eq!(usd.billed.total().amount, dec!(3.60));
    assert_eq!(report.instances[0].billed.compute, dec!(3.60));
}

fn cli(dir: &std::path::Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["report", "--since", "2026-05-01", "--until", "2026-05-02"])
        .args(args)
        .env("GPUMETER_DATA_DIR", dir)
        .env("TZ", "UTC")
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn text_and_json_show_the_bill_beside_the_spend() {
    let dir = tempfile::tempdir().unwrap();
    short_session(dir.path());
    let text = cli(dir.path(), &[]);
    let billed = text.lines().find(|l| l.starts_with("Billed")).unwrap();
    assert_eq!(billed.split_whitespace().nth(1), Some("3.60"), "{text}");
    assert!(text.contains("billed 3.60"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&cli(dir.path(), &["--json"])).unwrap();
    assert_eq!(json["spend"][0]["total"]["total"], "0.06");
    assert_eq!(json["spend"][0]["billed"]["compute"], "3.60");
    assert_eq!(json["spend"][0]["billed"]["total"], "3.60");
    assert_eq!(json["instances"][0]["billed"]["total"], "3.60");
}
