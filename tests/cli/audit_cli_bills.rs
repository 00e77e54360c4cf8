//! `gpumeter audit --demo` with FOCUS bills this test writes with the demo's ids: the
//! leftover, the transfer, the overlap and the rate difference found (exit 3), an agreeing
//! bill (exit 0), gzip, a malformed line (exit 2, file:line:column), and `--evidence`.
//!
//! They wait for the bill readers (`audit::read_bill`) and are ignored until they land: run
//! them with `cargo test --test cli audit -- --include-ignored`.

use std::path::Path;

use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;
use rust_decimal::dec;
use serde_json::Value;

use super::audit_cli::{audit, gpumeter, json, mode, path, stderr};
use super::audit_focus::{FocusRow, focus_csv};

const TRAINING: &str = "i-0demo4a100f00d";
const SPOT: &str = "i-0demo8spot5eed";

/// The demo's times as `seed` computes them from the clock: its release a day back, to the
/// minute; the spot run from twelve hours before it. `hour` is the whole hour at or before the
/// release, so the lines this test writes stay clear of the minute the seed rounds to.
struct Demo {
    hour: Timestamp,
}

impl Demo {
    fn now() -> Self {
        let day_back = Timestamp::now() - SignedDuration::from_hours(24);
        let hour = Timestamp::from_second(day_back.as_second().div_euclid(3600) * 3600).unwrap();
        Demo { hour }
    }

    /// `h` hours from the release's hour.
    fn at(&self, h: i64) -> Timestamp {
        self.hour + SignedDuration::from_hours(h)
    }
}

/// One hourly compute line of `id` at `rate`, for hour `h` from the release's hour.
fn compute(demo: &Demo, id: &str, h: i64, rate: Decimal) -> FocusRow {
    FocusRow::usage(id, demo.at(h), demo.at(h + 1), rate)
        .usage_type("USE1-BoxUsage:p4de.24xlarge", dec!(1), "Hours")
        .service("Amazon Elastic Compute Cloud", "Compute")
}

fn write(dir: &Path, name: &str, rows: &[FocusRow]) -> std::path::PathBuf {
    let file = dir.join(name);
    std::fs::write(&file, focus_csv(rows)).unwrap();
    file
}

/// A bill for the hours before the spot run: the training instance's compute at the rate the
/// demo meters it at.
fn agreeing(demo: &Demo) -> Vec<FocusRow> {
    (-30..-14)
        .map(|h| compute(demo, TRAINING, h, dec!(27.44705)))
        .collect()
}

#[test]
fn a_bill_that_matches_the_meter_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let demo = Demo::now();
    let bill = write(dir.path(), "focus.csv", &agreeing(&demo));
    let (since, until) = (demo.at(-30).to_string(), demo.at(-14).to_string());
    let out = audit(dir.path(), &bill, (&since, &until), &["--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{} {}",
        stderr(&out),
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(json(&out)["agrees"], Value::Bool(true));
}

/// The demo's bill with one of each finding: the training run billed at 41.50 an hour where the
/// demo meters 27.44705, the spot instance beside it, a snapshot billed after the release and
/// 250 GB between regions. Returns every row, then the spot, snapshot and transfer rows.
fn findings_bill(demo: &Demo) -> (Vec<FocusRow>, Vec<FocusRow>, Vec<FocusRow>, FocusRow) {
    // Hours -30 to -14: the training run at 41.50 an hour where the demo meters 27.44705.
    let mut rows: Vec<FocusRow> = (-30..-14)
        .map(|h| compute(demo, TRAINING, h, dec!(41.50)))
        .collect();
    // The spot instance beside it from hour -12 until the release: its compute is the overlap.
    let spot: Vec<FocusRow> = (-11..0).map(|h| compute(demo, SPOT, h, dec!(16))).collect();
    rows.extend(spot.iter().cloned());
    // A snapshot billed on for five hours after the release.
    let snap: Vec<FocusRow> = (2..7)
        .map(|h| {
            FocusRow::usage("snap-0a", demo.at(h), demo.at(h + 1), dec!(0.0137))
                .usage_type("USE1-EBS:SnapshotUsage", dec!(0.27), "GB-Mo")
                .service("Amazon Elastic Compute Cloud", "Storage")
        })
        .collect();
    rows.extend(snap.iter().cloned());
    // 250 GB from us-east-1 to us-west-2 while the training instance ran.
    let transfer = FocusRow::usage(TRAINING, demo.at(-20), demo.at(-19), dec!(5.00))
        .usage_type("USE1-USW2-AWS-Out-Bytes", dec!(250), "GB")
        .service("AWS Data Transfer", "Networking");
    rows.push(transfer.clone());
    (rows, spot, snap, transfer)
}

#[test]
fn the_demo_bill_finds_a_leftover_a_transfer_an_overlap_and_a_rate_change() {
    let dir = tempfile::tempdir().unwrap();
    let demo = Demo::now();
    let (rows, spot, snap, transfer) = findings_bill(&demo);
    let bill = write(dir.path(), "focus.csv", &rows);
    let (since, until) = (demo.at(-30).to_string(), demo.at(8).to_string());
    let out = audit(dir.path(), &bill, (&since, &until), &["--json"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let v = json(&out);
    let findings = v["findings"].as_array().unwrap();
    let find = |kind: &str, pred: &dyn Fn(&Value) -> bool| {
        findings
            .iter()
            .find(|f| f["kind"] == kind && pred(f))
            .unwrap_or_else(|| panic!("no {kind}: {v:#}"))
            .clone()
    };
    let usd =
        |f: &Value| -> Decimal { f["amounts"][0]["amount"].as_str().unwrap().parse().unwrap() };
    let sum = |rows: &[FocusRow]| rows.iter().map(|r| r.billed).sum::<Decimal>();

    let left = find("leftover", &|f| f["resource"] == "snap-0a");
    assert_eq!(usd(&left), sum(&snap));
    let t = find("transfer", &|_| true);
    assert_eq!(usd(&t), transfer.billed);
    assert!(
        t["instances"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i == TRAINING),
        "{t:#}"
    );
    let o = find("overlap", &|_| true);
    assert_eq!(o["second"], SPOT);
    // The spot lines inside the overlap: from the spot run's start (hour -12 and some minutes)
    // to the release; the test's lines start at hour -11, all inside.
    assert_eq!(usd(&o), sum(&spot));
    let m = find("mismatch", &|f| f["instance"] == TRAINING);
    assert_eq!(
        m["cause"],
        "a rate change: the bill's rate is above the sheet's"
    );
    assert_eq!(
        m["bill_rate_per_hour"]["amount"]
            .as_str()
            .unwrap()
            .parse::<Decimal>()
            .unwrap(),
        dec!(41.50)
    );

    // The same bill as text names each kind.
    let text = audit(dir.path(), &bill, (&since, &until), &[]);
    assert_eq!(text.status.code(), Some(3));
    let shown = String::from_utf8_lossy(&text.stdout);
    for heading in [
        "after it should have stopped billing",
        "between regions",
        "same time",
        "the bill against the meter",
    ] {
        assert!(shown.contains(heading), "{heading}: {shown}");
    }
}

#[test]
fn the_demo_bill_reads_in_chinese_and_its_json_does_not_change() {
    let dir = tempfile::tempdir().unwrap();
    let demo = Demo::now();
    let (rows, ..) = findings_bill(&demo);
    let bill = write(dir.path(), "focus.csv", &rows);
    let (since, until) = (demo.at(-30).to_string(), demo.at(8).to_string());
    let span = (since.as_str(), until.as_str());
    let v = json(&audit(dir.path(), &bill, span, &["--json"]));
    // In Chinese: the headings, the cause and the line place; the JSON's values stay English.
    let zh = audit(dir.path(), &bill, span, &["--lang", "zh-CN"]);
    let shown = String::from_utf8_lossy(&zh.stdout);
    for said in [
        "账单对照账本",
        "本该停止计费之后仍被收费",
        "地域与可用区之间的数据传输",
        "同时运行的同规格实例",
        "价格变动：账单单价高于价格表",
        "focus.csv:",
        "项发现；存疑金额",
    ] {
        assert!(shown.contains(said), "{said}: {shown}");
    }
    assert!(!shown.contains("after it should have stopped"), "{shown}");
    let zh_json = audit(dir.path(), &bill, span, &["--lang", "zh-CN", "--json"]);
    assert_eq!(
        json(&zh_json)["findings"],
        v["findings"],
        "JSON never changes with the language"
    );
}

#[test]
fn a_gzip_bill_reads_as_the_plain_one() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let demo = Demo::now();
    let plain = write(dir.path(), "focus.csv", &agreeing(&demo));
    let gz = dir.path().join("focus.csv.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&std::fs::read(&plain).unwrap()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let (since, until) = (demo.at(-30).to_string(), demo.at(-14).to_string());
    let run = |f: &Path| audit(dir.path(), f, (&since, &until), &["--json"]);
    let (a, b) = (run(&plain), run(&gz));
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(json(&a)["billed"], json(&b)["billed"]);
}

#[test]
fn a_malformed_bill_names_its_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let demo = Demo::now();
    let bill = write(dir.path(), "focus.csv", &agreeing(&demo));
    let text = std::fs::read_to_string(&bill).unwrap();
    let broken: String = text.replacen("27.44705", "forty", 1);
    std::fs::write(&bill, broken).unwrap();
    let out = gpumeter(dir.path(), &["audit", "--demo", "--bill", path(&bill)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}:2:", path(&bill))),
        "file and line: {err}"
    );
}

#[test]
fn evidence_is_a_private_directory_of_the_four_files() {
    let dir = tempfile::tempdir().unwrap();
    let demo = Demo::now();
    let snap = FocusRow::usage("snap-0a", demo.at(3), demo.at(4), dec!(0.0137))
        .usage_type("USE1-EBS:SnapshotUsage", dec!(0.27), "GB-Mo")
        .service("Amazon Elastic Compute Cloud", "Storage");
    let bill = write(dir.path(), "focus.csv", &[snap]);
    let case = dir.path().join("case");
    let (since, until) = (demo.at(1).to_string(), demo.at(6).to_string());
    let out = audit(
        dir.path(),
        &bill,
        (&since, &until),
        &["--evidence", path(&case)],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(mode(&case), 0o700);
    for name in ["summary.md", "actions.csv", "minutes.csv", "bill-lines.csv"] {
        assert_eq!(mode(&case.join(name)), 0o600, "{name}");
    }
    let read = |n: &str| std::fs::read_to_string(case.join(n)).unwrap();
    assert!(
        read("summary.md").contains(TRAINING),
        "{}",
        read("summary.md")
    );
    assert!(read("summary.md").contains("snap-0a"));
    assert!(
        read("bill-lines.csv").contains(&format!("{},2,leftover,snap-0a", path(&bill))),
        "{}",
        read("bill-lines.csv")
    );
    let actions = read("actions.csv");
    assert!(
        actions.lines().any(|l| l.contains(",release,confirmed,")),
        "{actions}"
    );
    assert!(
        read("minutes.csv").lines().count() > 1,
        "the training run's minutes"
    );
}
