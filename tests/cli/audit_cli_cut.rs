//! `gpumeter audit` on bills that end badly or expand without end, run as a program: a bill
//! whose last line carries a 20.48 USD finding and is cut short (plain or gzip) is bad input
//! naming the file and the line (exit 2), never an audit without the finding; a 2 MB gzip that
//! expands to 2 GiB is refused naming the file, inside a 1 GiB address space.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use jiff::{SignedDuration, Timestamp};
use rust_decimal::dec;

use super::audit_cli::{gpumeter, json, path, stderr};
use super::audit_focus::{FocusRow, focus_csv};

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// A bill of a few lines nothing in the demo's ledger explains, the last 20.48 USD, with no
/// line break after it.
fn bill_ending_in_20_48() -> String {
    let hour = Timestamp::from_second((Timestamp::now().as_second() / 3600 - 48) * 3600).unwrap();
    let row = |h: i64, id: &str, cost| {
        let start = hour + SignedDuration::from_hours(h);
        FocusRow::usage(id, start, start + SignedDuration::from_hours(1), cost)
            .usage_type("USE1-EBS:VolumeUsage.gp3", dec!(1), "GB-Mo")
            .service("Amazon Elastic Compute Cloud", "Storage")
    };
    let rows = [
        row(0, "vol-0first", dec!(1.25)),
        row(1, "vol-0second", dec!(2.50)),
        row(2, "vol-0last", dec!(20.48)),
    ];
    focus_csv(&rows).trim_end().to_string()
}

fn audit(dir: &Path, bill: &Path) -> std::process::Output {
    gpumeter(dir, &["audit", "--demo", "--json", "--bill", path(bill)])
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let file = dir.join(name);
    std::fs::write(&file, bytes).unwrap();
    file
}

#[test]
fn the_20_48_finding_on_a_last_line_cut_short_is_an_error_not_a_smaller_audit() {
    let dir = tempfile::tempdir().unwrap();
    let whole = bill_ending_in_20_48();
    let bill = write(dir.path(), "whole.csv", whole.as_bytes());
    let out = audit(dir.path(), &bill);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let found = json(&out)["findings"].to_string();
    assert!(
        found.contains("vol-0last") && found.contains("20.48"),
        "{found}"
    );

    // Cut after the amount, before the rest of the row: plain, and gzip whole or cut too.
    let amount = whole.rfind("20.48").unwrap() + "20.48".len();
    let cut = &whole[..whole[amount..].find(',').unwrap() + amount + 1 + 10];
    for (name, bytes) in [
        ("cut.csv", cut.as_bytes().to_vec()),
        ("cut.csv.gz", gz(cut.as_bytes())),
    ] {
        let bill = write(dir.path(), name, &bytes);
        let out = audit(dir.path(), &bill);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(&format!("{}:4:", path(&bill))),
            "{name}: {err}"
        );
        assert!(
            err.contains("the last line is cut short: expected"),
            "{name}: {err}"
        );
        assert!(out.stdout.is_empty(), "{name}: no audit is printed");
    }
    let packed = gz(whole.as_bytes());
    let bill = write(dir.path(), "stream-cut.csv.gz", &packed[..packed.len() - 4]);
    let out = audit(dir.path(), &bill);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{}:", path(&bill))), "{err}");
    assert!(
        err.contains("starts as gzip but cannot be decompressed"),
        "{err}"
    );
}

#[test]
fn a_gzip_bomb_is_refused_in_bounded_memory_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let header = "BilledCost,ChargePeriodStart,ChargePeriodEnd,BillingCurrency,ResourceId\n";
    let member = gz(&vec![0u8; 1 << 20]);
    let mut bomb = gz(header.as_bytes());
    for _ in 0..2048 {
        bomb.extend_from_slice(&member);
    }
    assert!(bomb.len() < 3 << 20, "{}", bomb.len());
    let bill = write(dir.path(), "bomb.csv.gz", &bomb);
    // 2 GiB decompressed could not fit in the address space this run is given.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" audit --demo --bill \"$1\"")
        .arg(env!("CARGO_BIN_EXE_gpumeter"))
        .arg(&bill)
        .env("NO_COLOR", "1")
        .env("GPUMETER_DATA_DIR", dir.path())
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{}:", path(&bill))), "{err}");
    assert!(err.contains("1 MiB read with no row ending"), "{err}");
}
