//! `report --focus` over the demo ledger: the official FOCUS validator (focus-validator 1.0.0,
//! <https://github.com/finopsfoundation/focus_validator/tree/v1.0.0>, installed into `.venv` by
//! `scripts/test`) accepts it, every column is in the header once, and its `BilledCost` adds up
//! to the total `report --json` computes for the same window.
//!
//! Without `.venv/bin/focus-validator` the validator test says so and passes, unless `CI` is set
//! (as `.ci/run` sets it): then it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use rust_decimal::Decimal;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `gpumeter --demo ARGS` on the data directory `dir`, without the demo's pauses.
pub(crate) fn gpumeter(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .arg("--demo")
        .args(args)
        .env("GPUMETER_DATA_DIR", dir)
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout_of(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// One CSV record's fields (RFC 4180: quoted fields, doubled quotes); the output has no field
/// that spans lines.
fn fields(line: &str) -> Vec<String> {
    let (mut out, mut field, mut quoted, mut chars) =
        (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    out.push(field);
    out
}

/// The demo's window as `report --json` states it, and its spend in the one currency.
fn json_report(dir: &Path) -> (String, String, Value) {
    let json: Value =
        serde_json::from_str(&stdout_of(&gpumeter(dir, &["report", "--json"]))).unwrap();
    let since = json["since"].as_str().unwrap().to_string();
    let until = json["until"].as_str().unwrap().to_string();
    assert_eq!(json["spend"].as_array().unwrap().len(), 1, "{json}");
    (since, until, json["spend"][0].clone())
}

fn focus_csv(dir: &Path, since: &str, until: &str) -> String {
    stdout_of(&gpumeter(
        dir,
        &["report", "--focus", "--since", since, "--until", until],
    ))
}

#[test]
fn billed_cost_adds_up_to_the_reports_total_for_the_same_window() {
    let dir = tempfile::tempdir().unwrap();
    let (since, until, spend) = json_report(dir.path());
    let text = focus_csv(dir.path(), &since, &until);
    let mut lines = text.lines();
    let header = fields(lines.next().unwrap());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (billed, currency, category) = (
        col("BilledCost"),
        col("BillingCurrency"),
        col("ServiceCategory"),
    );
    let mut total = Decimal::ZERO;
    let mut per_line = [Decimal::ZERO; 4];
    let mut rows = 0;
    for line in lines {
        let row = fields(line);
        assert_eq!(row.len(), header.len(), "{line}");
        assert_eq!(row[currency], spend["currency"].as_str().unwrap());
        let cost: Decimal = row[billed].parse().unwrap();
        total += cost;
        let slot = ["Compute", "Networking", "Storage", "Other"]
            .iter()
            .position(|c| *c == row[category])
            .unwrap();
        per_line[slot] += cost;
        rows += 1;
    }
    assert!(rows > 0, "the demo ledger gives rows");
    let cents = |v: &Value| v.as_str().unwrap().parse::<Decimal>().unwrap();
    assert_eq!(total.round_dp(2), cents(&spend["total"]["total"]));
    for (sum, name) in per_line
        .iter()
        .zip(["compute", "bandwidth", "storage", "extras"])
    {
        let diff = (sum.round_dp(2) - cents(&spend["total"][name])).abs();
        assert!(
            diff <= Decimal::new(1, 2),
            "{name}: {sum} against {}",
            spend["total"][name]
        );
    }
}

#[test]
fn the_header_names_every_column_once() {
    let dir = tempfile::tempdir().unwrap();
    let (since, until, _) = json_report(dir.path());
    let text = focus_csv(dir.path(), &since, &until);
    let header = fields(text.lines().next().unwrap());
    assert_eq!(header.len(), 43 + 5);
    for name in &header {
        assert_eq!(header.iter().filter(|h| *h == name).count(), 1, "{name}");
    }
}

#[test]
fn focus_does_not_combine_with_json_or_csv() {
    let dir = tempfile::tempdir().unwrap();
    for other in ["--json", "--csv"] {
        let out = gpumeter(dir.path(), &["report", "--focus", other]);
        assert_eq!(out.status.code(), Some(2), "{other}");
    }
}

/// `.venv/bin/focus-validator`, or `None` (with a message) when it is not installed and `CI`
/// is not set.
fn validator() -> Option<PathBuf> {
    let path = Path::new(ROOT).join(".venv/bin/focus-validator");
    if path.exists() {
        return Some(path);
    }
    crate::peer::missing("focus-validator in .venv");
    None
}

/// The folder that holds the `focus_validator` package: 1.0.0 reads its ISO 4217 list from
/// `focus_validator/utils/currency_codes.csv` relative to the working directory, so it runs
/// from there.
fn package_root() -> PathBuf {
    let python = Path::new(ROOT).join(".venv/bin/python");
    let out = Command::new(python)
        .args([
            "-c",
            "import os, focus_validator; print(os.path.dirname(os.path.dirname(focus_validator.__file__)))",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// What focus-validator says about `file`: it exits 0 whether or not the file passes, so its
/// words are the verdict.
fn validate(validator: &Path, file: &Path) -> String {
    let out = Command::new(validator)
        .arg("--data-file")
        .arg(file)
        .args(["--validate-version", "1.0"])
        .current_dir(package_root())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "focus-validator: {}\n{text}",
        out.status
    );
    text
}

/// Passed: its success line, and neither its failure line nor a failed check.
fn passed(text: &str) -> bool {
    !text.contains("Validation failed")
        && !text.lines().any(|l| l.trim_end().ends_with(" failed:"))
        && text.lines().any(|l| l.trim() == "Validation succeeded.")
}

#[test]
fn the_demo_ledger_passes_the_official_focus_validator() {
    let Some(validator) = validator() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (since, until, _) = json_report(dir.path());
    let file = dir.path().join("focus.csv");
    std::fs::write(&file, focus_csv(dir.path(), &since, &until)).unwrap();
    let text = validate(&validator, &file);
    assert!(passed(&text), "{text}");
}

/// The verdict is read from the validator's words: the same output without its `BilledCost`
/// column is refused.
#[test]
fn the_validator_refuses_the_output_without_a_required_column() {
    let Some(validator) = validator() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (since, until, _) = json_report(dir.path());
    let text = focus_csv(dir.path(), &since, &until);
    let header = fields(text.lines().next().unwrap());
    let drop = header.iter().position(|h| h == "BilledCost").unwrap();
    let mut cut = String::new();
    for line in text.lines() {
        let mut row = fields(line);
        row.remove(drop);
        let quoted: Vec<String> = row
            .iter()
            .map(|f| {
                if f.contains([',', '"']) {
                    format!("\"{}\"", f.replace('"', "\"\""))
                } else {
                    f.clone()
                }
            })
            .collect();
        cut.push_str(&quoted.join(","));
        cut.push('\n');
    }
    let file = dir.path().join("cut.csv");
    std::fs::write(&file, cut).unwrap();
    let verdict = validate(&validator, &file);
    assert!(!passed(&verdict), "{verdict}");
    assert!(verdict.contains("BilledCost"), "{verdict}");
}

/// The demo ledger sends three quarters of its egress to the object store's intranet: the
/// report says so by class, and FOCUS gives each hour a bandwidth row per destination whose
/// costs add up to the report's bandwidth line.
#[test]
fn egress_by_destination_in_the_report_and_in_focus() {
    let dir = tempfile::tempdir().unwrap();
    let (since, until, spend) = json_report(dir.path());
    let json: Value =
        serde_json::from_str(&stdout_of(&gpumeter(dir.path(), &["report", "--json"]))).unwrap();
    let total = json["egress_bytes"].as_u64().unwrap();
    let by = &json["egress_by_class"];
    assert!(total > 0, "{json}");
    assert_eq!(by["intranet"].as_u64().unwrap() * 4, total * 3, "{by}");
    assert_eq!(
        by["internet"].as_u64().unwrap() + by["intranet"].as_u64().unwrap(),
        total
    );
    let shown = stdout_of(&gpumeter(dir.path(), &["report"]));
    let split = shown
        .lines()
        .find(|l| l.starts_with("of it: internet"))
        .unwrap();
    assert!(split.contains(", intranet "), "{shown}");
    let text = focus_csv(dir.path(), &since, &until);
    let mut lines = text.lines();
    let header = fields(lines.next().unwrap());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (category, cost, tags) = (col("ServiceCategory"), col("BilledCost"), col("Tags"));
    let mut classes = std::collections::BTreeSet::new();
    let mut bandwidth = Decimal::ZERO;
    for line in lines {
        let row = fields(line);
        if row[category] == "Networking" {
            let t: Value = serde_json::from_str(&row[tags]).unwrap();
            classes.insert(t["gpumeter-traffic-class"].as_str().unwrap().to_string());
            bandwidth += row[cost].parse::<Decimal>().unwrap();
        }
    }
    assert_eq!(
        classes,
        ["internet", "intranet"].map(String::from).into(),
        "{text}"
    );
    let line: Decimal = spend["total"]["bandwidth"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (bandwidth.round_dp(2) - line).abs() <= Decimal::new(1, 2),
        "{bandwidth} against {line}"
    );
}
