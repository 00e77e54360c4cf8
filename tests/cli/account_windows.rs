//! `report`, FOCUS and `audit` render the one account of an instance, cut to their window: over
//! the demo ledger, the instance's FOCUS rows add up, line by line, to what `report --json`
//! says it cost in the window, which (the window holding its whole life) is its account to
//! date; two windows that split a span add up to the span to the last digit; and `audit` of
//! that FOCUS export meters the same compute.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;
use serde_json::Value;

use crate::report_focus::gpumeter;

/// The demo instance whose ledger keeps its listing, so it has an account.
const TRAINER: &str = "i-0demo4a100f00d";

fn stdout_of(out: &Output) -> String {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(
        out.status.success() || out.status.code() == Some(3),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn json(dir: &Path, args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(&gpumeter(dir, args))).unwrap()
}

fn amount(v: &Value) -> Decimal {
    v.as_str().unwrap().parse().unwrap()
}

/// `exact` against `cents`, a figure the report rounds to the cent: the same money unless they
/// are a cent or more apart. (Rows carry more places than the report, so a sum that sits on a
/// half cent may round either way.)
fn within_a_cent(exact: Decimal, cents: Decimal, what: &str) {
    assert!(
        (exact - cents).abs() < Decimal::new(1, 2),
        "{what}: {exact} against the report's {cents}"
    );
}

/// The FOCUS rows of `[since, until)` for `instance`: the exact sum of `BilledCost` per
/// `ServiceCategory`.
fn focus_sums(dir: &Path, since: &str, until: &str, instance: &str) -> BTreeMap<String, Decimal> {
    let text = stdout_of(&gpumeter(
        dir,
        &["report", "--focus", "--since", since, "--until", until],
    ));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (cost, category, resource) = (col("BilledCost"), col("ServiceCategory"), col("ResourceId"));
    let mut sums = BTreeMap::new();
    for record in reader.records() {
        let record = record.unwrap();
        if &record[resource] == instance {
            *sums.entry(record[category].to_string()).or_default() +=
                record[cost].parse::<Decimal>().unwrap();
        }
    }
    sums
}

/// The row of `list` whose `key` names the demo instance.
fn row<'a>(list: &'a Value, key: &str) -> &'a Value {
    let rows = list.as_array().unwrap();
    let trainer = rows.iter().find(|r| r[key] == TRAINER);
    trainer.unwrap_or_else(|| panic!("no row for {TRAINER}: {list}"))
}

#[test]
fn focus_report_and_audit_give_the_instances_account_for_the_same_window() {
    let dir = tempfile::tempdir().unwrap();
    let report = json(dir.path(), &["report", "--json"]);
    let (since, until) = (
        report["since"].as_str().unwrap(),
        report["until"].as_str().unwrap(),
    );
    let inst = row(&report["instances"], "instance");
    assert_eq!(inst["cost_source"], "account", "{inst}");
    let to_date = row(&report["accounts"], "instance");
    // The demo instance lived inside the window: what it cost there is its account to date,
    // and what neither can price is named in both.
    for line in ["compute", "bandwidth", "storage", "extras", "total"] {
        assert_eq!(inst["cost"][line], to_date["account"][line], "{line}");
    }
    assert_eq!(inst["unknown"], to_date["account"]["unknown"]);
    assert_eq!(inst["incomplete"], true);

    let sums = focus_sums(dir.path(), since, until, TRAINER);
    for (category, line) in [
        ("Compute", "compute"),
        ("Networking", "bandwidth"),
        ("Storage", "storage"),
        ("Other", "extras"),
    ] {
        let focus = sums.get(category).copied().unwrap_or_default();
        within_a_cent(focus, amount(&inst["cost"][line]), category);
    }

    // Split the span inside an hour: both halves add up to the whole to the last digit.
    let (a, b): (Timestamp, Timestamp) = (since.parse().unwrap(), until.parse().unwrap());
    let mid = a + SignedDuration::from_secs((b.as_second() - a.as_second()) / 2 + 1234);
    let mid = mid.to_string();
    let first = focus_sums(dir.path(), since, &mid, TRAINER);
    let second = focus_sums(dir.path(), &mid, until, TRAINER);
    for (category, whole) in &sums {
        let parts = first.get(category).copied().unwrap_or_default()
            + second.get(category).copied().unwrap_or_default();
        assert_eq!(parts, *whole, "{category}");
    }

    // `audit` of that very export meters the instance's compute as the account does.
    let bill = dir.path().join("focus.csv");
    let export = gpumeter(
        dir.path(),
        &["report", "--focus", "--since", since, "--until", until],
    );
    std::fs::write(&bill, &export.stdout).unwrap();
    let audit = json(
        dir.path(),
        &[
            "audit",
            "--json",
            "--bill",
            bill.to_str().unwrap(),
            "--since",
            since,
            "--until",
            until,
        ],
    );
    let metered = row(&audit["instances"], "id");
    let audited = amount(&metered["metered"]["amount"]);
    within_a_cent(
        audited,
        amount(&inst["billed"]["compute"]),
        "audit's metered compute",
    );
}
