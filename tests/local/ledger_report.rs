//! Every report figure against a hand-built ledger: known minutes, events and inventories in a
//! temporary directory, with the expected numbers worked out by hand in the comments.

use std::collections::BTreeMap;
use std::process::Command;

use gpumeter::ledger::query::LeftoverRow;
use gpumeter::ledger::report::{Report, build};
use gpumeter::ledger::{
    EventLevel, EventRecord, GpuMinute, Ledger, MinuteBucket, SessionId, SessionStart,
};
use gpumeter::meter::{BillingMode, Breakdown, InstanceState, ResourceKind};
use gpumeter::money::{Currency, Money};
use gpumeter::provider::{Action, ActionReport, InstanceInfo, Inventory, LinkedResource};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use rust_decimal::{Decimal, dec};

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn start(ledger: &mut Ledger, instance: &str, currency: Currency, at: &str) -> SessionId {
    ledger
        .start_session(&SessionStart {
            instance: instance.into(),
            provider: "demo".into(),
            region: None,
            sku: "p4de.24xlarge".into(),
            mode: BillingMode::OnDemand,
            rate_per_hour: Some(dec!(30)),
            currency,
            at: t(at),
            billing: None,
        })
        .unwrap()
}

fn minute(session: SessionId, at: &str, cost: [Decimal; 4], idle: bool, util: f64) -> MinuteBucket {
    let [compute, bandwidth, storage, extras] = cost;
    MinuteBucket {
        session,
        start: t(at),
        cost: Breakdown {
            currency: Currency::USD,
            compute,
            bandwidth,
            storage,
            extras,
        },
        idle,
        gpu: GpuMinute {
            util_samples: 2,
            util_mean_pct: Some(util),
            util_max_pct: Some(if util >= 50.0 { 100.0 } else { util + 5.0 }),
            power_samples: 2,
            power_mean_w: Some(300.0),
            energy_j: 3_600_000.0,
        },
        egress_bytes: 1000,
        egress_split: gpumeter_core::traffic::EgressSplit::default(),
        split_cost: gpumeter::ledger::SplitCost::default(),
    }
}

fn resource(id: &str, kind: ResourceKind, with_instance: bool) -> LinkedResource {
    LinkedResource {
        id: id.into(),
        name: format!("{id}-name"),
        kind,
        class: None,
        size_gib: dec!(100),
        state: "available".into(),
        created: t("2026-05-01T00:00:00Z"),
        deleted_with_instance: with_instance,
        backs_image: None,
        attached_to: None,
        exposure: gpumeter::provider::Exposure::default(),
        origin: None,
        tags: BTreeMap::new(),
    }
}

fn instance(state: InstanceState) -> InstanceInfo {
    InstanceInfo {
        id: "i-a".into(),
        name: "a".into(),
        provider: "demo".into(),
        region: None,
        sku: "p4de.24xlarge".into(),
        mode: BillingMode::OnDemand,
        state,
        created: t("2026-05-01T22:00:00Z"),
        live_price_per_hour: None,
        history: Vec::new(),
    }
}

/// Session A (USD): five minutes across midnight UTC, each compute 0.5, bandwidth 0.1,
/// storage 0.01, extras 0.001 (0.611 a minute); 23:58 and 00:00 idle. Session B (CNY): one
/// minute of 2 CNY, overlapping A from 00:01 to 00:03. One minute outside the window.
fn fixture(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("ledger.sqlite");
    let mut ledger = Ledger::open(&path).unwrap();
    let a = start(&mut ledger, "i-a", Currency::USD, "2026-05-01T22:00:00Z");
    let c = [dec!(0.5), dec!(0.1), dec!(0.01), dec!(0.001)];
    let utils = [10.0, 20.0, 30.0, 40.0, 50.0];
    let times = ["23:58", "23:59"].map(|m| format!("2026-05-01T{m}:00Z"));
    let later = ["00:00", "00:01", "00:02"].map(|m| format!("2026-05-02T{m}:00Z"));
    for (i, at) in times.iter().chain(later.iter()).enumerate() {
        let idle = i == 0 || i == 2;
        ledger
            .record_minute(minute(a, at, c, idle, utils[i]))
            .unwrap();
    }
    ledger
        .record_minute(minute(a, "2026-04-30T12:00:00Z", c, true, 0.0))
        .unwrap();
    ledger
        .record_inventory(
            a,
            Inventory {
                instance: Some(instance(InstanceState::Running)),
                resources: vec![
                    resource("snap-1", ResourceKind::Snapshot, false),
                    resource("vol-root", ResourceKind::SystemDisk, true),
                    resource("vol-data", ResourceKind::DataDisk, true),
                    resource("ip-1", ResourceKind::PublicIp, false),
                ],
                deadline: None,
            },
            t("2026-05-01T22:00:00Z"),
        )
        .unwrap();
    // After the release: the snapshot and (unexpectedly) the data disk are still listed.
    ledger
        .record_inventory(
            a,
            Inventory {
                instance: Some(instance(InstanceState::Released)),
                resources: vec![
                    resource("snap-1", ResourceKind::Snapshot, false),
                    resource("vol-data", ResourceKind::DataDisk, true),
                ],
                deadline: None,
            },
            t("2026-05-02T00:03:00Z"),
        )
        .unwrap();
    ledger
        .record_event(
            EventRecord::alert(t("2026-05-02T00:00:10Z"), EventLevel::Warn, "idle")
                .in_session(a, "i-a"),
        )
        .unwrap();
    let release = Action::Release;
    let report = ActionReport {
        action: release.clone(),
        confirmed: true,
        summary: "released".into(),
        calls: Vec::new(),
    };
    let ok = Ok(report);
    for at in ["2026-05-02T00:03:00Z", "2026-04-29T00:00:00Z"] {
        ledger
            .record_event(EventRecord::action(t(at), &release, &ok).in_session(a, "i-a"))
            .unwrap();
    }
    ledger.end_session(a, t("2026-05-02T00:03:00Z")).unwrap();

    let b = start(&mut ledger, "i-b", Currency::CNY, "2026-05-02T00:01:00Z");
    let mut m = minute(
        b,
        "2026-05-02T00:01:00Z",
        [dec!(2), dec!(0), dec!(0), dec!(0)],
        false,
        0.0,
    );
    m.cost.currency = Currency::CNY;
    m.gpu = GpuMinute::default();
    m.egress_bytes = 0;
    ledger.record_minute(m).unwrap();
    ledger.end_session(b, t("2026-05-02T00:05:00Z")).unwrap();
    path
}

fn report(path: &std::path::Path, tz: &TimeZone) -> Report {
    let ledger = Ledger::open_read_only(path).unwrap();
    let (since, until) = (t("2026-05-01T00:00:00Z"), t("2026-05-03T00:00:00Z"));
    let rows = ledger.report_rows(since, until).unwrap();
    let price =
        |r: &LeftoverRow| (r.kind == "snapshot").then(|| Money::new(dec!(5), Currency::USD));
    build(&rows, (since, until), tz, &price, &[])
}

#[test]
fn spend_per_day_and_component_idle_share_energy_and_usage() {
    let dir = tempfile::tempdir().unwrap();
    let r = report(&fixture(dir.path()), &TimeZone::UTC);
    assert_eq!(r.spend.len(), 2, "one block per currency, never summed");
    let usd = r
        .spend
        .iter()
        .find(|s| s.currency == Currency::USD)
        .unwrap();
    // 05-01: two minutes; 05-02: three minutes. The 04-30 minute is outside the window.
    let days: Vec<String> = usd.days.iter().map(|d| d.date.to_string()).collect();
    assert_eq!(days, ["2026-05-01", "2026-05-02"]);
    assert_eq!(
        usd.days[0].cost.parts(),
        [dec!(1.0), dec!(0.2), dec!(0.02), dec!(0.002)]
    );
    assert_eq!(usd.days[0].idle, dec!(0.611));
    assert_eq!(
        usd.days[1].cost.parts(),
        [dec!(1.5), dec!(0.3), dec!(0.03), dec!(0.003)]
    );
    assert_eq!(usd.days[1].idle, dec!(0.611));
    assert_eq!(usd.total.total().amount, dec!(3.055));
    assert_eq!(usd.idle, dec!(1.222));
    // 1.222 / 3.055 = 40 %.
    assert_eq!(usd.idle_share_pct().unwrap().normalize(), dec!(40));
    let cny = r
        .spend
        .iter()
        .find(|s| s.currency == Currency::CNY)
        .unwrap();
    assert_eq!(cny.total.total().amount, dec!(2));
    assert_eq!(cny.idle, dec!(0));
    // Five minutes of 1 kWh each; the CNY minute used none.
    assert!((r.energy_kwh - 5.0).abs() < 1e-9, "{}", r.energy_kwh);
    // (10 + 20 + 30 + 40 + 50) × 2 samples over 10 samples (the CNY minute has none).
    assert!((r.gpu_util_mean_pct.unwrap() - 30.0).abs() < 1e-9);
    assert_eq!(r.gpu_util_max_pct, Some(100.0));
    assert_eq!(r.egress_bytes, 5000);
}

#[test]
fn days_follow_the_time_zone() {
    let dir = tempfile::tempdir().unwrap();
    let r = report(&fixture(dir.path()), &TimeZone::fixed(jiff::tz::offset(8)));
    let usd = r
        .spend
        .iter()
        .find(|s| s.currency == Currency::USD)
        .unwrap();
    // 23:58Z to 00:02Z is 07:58 to 08:02 on 05-02 in UTC+8: one day.
    assert_eq!(usd.days.len(), 1);
    assert_eq!(usd.days[0].date.to_string(), "2026-05-02");
    assert_eq!(usd.days[0].cost.total().amount, dec!(3.055));
}

#[test]
fn per_instance_actions_alerts_leftovers_and_overlaps() {
    let dir = tempfile::tempdir().unwrap();
    let r = report(&fixture(dir.path()), &TimeZone::UTC);
    let names: Vec<&str> = r.instances.iter().map(|i| i.instance.as_str()).collect();
    assert_eq!(names, ["i-a", "i-b"]);
    assert_eq!(r.instances[0].cost.total().amount, dec!(3.055));
    assert_eq!(r.instances[0].idle, dec!(1.222));
    assert_eq!(r.instances[0].sessions, 1);
    assert_eq!(
        r.instances[1].cost.total(),
        Money::new(dec!(2), Currency::CNY)
    );
    // Only the release inside the window; the alert counted.
    assert_eq!(r.actions.len(), 1);
    assert_eq!(r.actions[0].intent, "release");
    assert_eq!(r.actions[0].outcome.as_deref(), Some("confirmed"));
    assert_eq!(r.actions[0].answer.as_deref(), Some("released"));
    assert_eq!(r.alerts, 1);
    // The snapshot survives by design; the data disk should have gone with the instance but
    // was still listed after the release. The root disk and the IP went.
    let left: Vec<(&str, Option<Money>)> = r
        .still_billing
        .iter()
        .map(|s| (s.resource.id.as_str(), s.monthly))
        .collect();
    assert_eq!(
        left,
        [
            ("snap-1", Some(Money::new(dec!(5), Currency::USD))),
            ("vol-data", None)
        ]
    );
    assert_eq!(
        r.still_billing[0].resource.released,
        t("2026-05-02T00:03:00Z")
    );
    // A ran until 00:03, B from 00:01: two minutes together.
    assert_eq!(r.overlaps.len(), 1);
    let o = &r.overlaps[0];
    assert_eq!((o.first.as_str(), o.second.as_str()), ("i-a", "i-b"));
    assert_eq!(
        (o.from, o.until, o.seconds),
        (t("2026-05-02T00:01:00Z"), t("2026-05-02T00:03:00Z"), 120)
    );
}

fn cli(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args([
            "report",
            "--since",
            "2026-05-01T00:00:00Z",
            "--until",
            "2026-05-03T00:00:00Z",
        ])
        .args(args)
        .env("GPUMETER_DATA_DIR", dir)
        .env("TZ", "UTC")
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .output()
        .unwrap()
}

#[test]
fn json_has_cents_that_add_up_and_the_documented_fields() {
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let out = cli(dir.path(), &["--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let usd = v["spend"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["currency"] == "USD")
        .unwrap();
    // 3.055 rounds to 3.06; the lines cut to 2.50 + 0.50 + 0.05 + 0.00 and the spare cent goes
    // to extras, whose remainder (0.005) is the largest.
    assert_eq!(usd["total"]["total"], "3.06");
    assert_eq!(usd["total"]["compute"], "2.50");
    assert_eq!(usd["total"]["extras"], "0.01");
    assert_eq!(usd["idle"], "1.22");
    assert_eq!(usd["idle_share_pct"], "40.0");
    assert_eq!(usd["days"][0]["date"], "2026-05-01");
    assert_eq!(usd["days"][0]["total"], "1.22");
    assert_eq!(v["energy_kwh"], "5.000");
    assert_eq!(v["alerts"], 1);
    assert_eq!(v["actions"][0]["request"]["action"], "release");
    assert_eq!(v["still_billing"][0]["id"], "snap-1");
    assert_eq!(v["overlaps"][0]["instances"][1], "i-b");
    assert_eq!(v["overlaps"][0]["seconds"], 120);
}

#[test]
fn csv_has_one_row_per_day_and_currency() {
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let out = cli(dir.path(), &["--csv"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "date,currency,compute,bandwidth,storage,extras,total,idle",
            "2026-05-02,CNY,2.00,0.00,0.00,0.00,2.00,0.00",
            "2026-05-01,USD,1.00,0.20,0.02,0.00,1.22,0.61",
            "2026-05-02,USD,1.50,0.30,0.03,0.00,1.83,0.61",
        ]
    );
}

#[test]
fn text_names_the_figures() {
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let out = cli(dir.path(), &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Idle spend: 1.22 USD (40.0% of the spend)"),
        "{text}"
    );
    assert!(text.contains("Energy 5.000 kWh"), "{text}");
    assert!(text.contains("snap-1"), "{text}");
    assert!(
        text.contains("Overlap: i-a and i-b ran together for 0h02m"),
        "{text}"
    );
}

#[test]
fn text_draws_each_day_as_a_bar_with_its_idle_share_shaded() {
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let text = String::from_utf8(cli(dir.path(), &[]).stdout).unwrap();
    let usd = text
        .split("Spend per day (USD")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_else(|| panic!("no USD chart:\n{text}"));
    let bar = |date: &str| {
        let line = usd
            .lines()
            .filter(|l| l.starts_with(date))
            .find(|l| l.contains('█') || l.contains('░'))
            .unwrap_or_else(|| panic!("no bar for {date}:\n{text}"));
        let busy = line.chars().filter(|c| *c == '█').count();
        let idle = line.chars().filter(|c| *c == '░').count();
        (busy, idle, line.to_string())
    };
    assert!(
        text.contains("Spend per day (USD; █ busy, ░ idle)"),
        "{text}"
    );
    // USD: 1.22 (0.61 idle) and 1.83 (0.61 idle); the larger day fills the 40 cells.
    let (busy, idle, line) = bar("2026-05-02");
    assert_eq!((busy + idle, idle), (40, 13), "{line}");
    assert!(line.contains("1.83") && line.contains("33% idle"), "{line}");
    let (busy, idle, line) = bar("2026-05-01");
    assert_eq!((busy + idle, idle), (27, 13), "{line}");
    assert!(line.contains("50% idle"), "{line}");
    // CNY is its own chart: one day, all busy, full width.
    assert!(
        text.contains("Spend per day (CNY; █ busy, ░ idle)"),
        "{text}"
    );
}

#[test]
fn a_missing_ledger_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let out = cli(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no spend history yet"), "{err}");
}
