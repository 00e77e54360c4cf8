//! `gpumeter audit` run as a program: a bill that cannot be read is bad input (exit 2) naming
//! the file, and `--help` names every flag and the exit codes.
//!
//! The tests that read a bill are in `audit_cli_bills`.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub(super) fn gpumeter(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("GPUMETER_DATA_DIR", data)
        .env("HOME", data)
        .env("XDG_CONFIG_HOME", data)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// `gpumeter audit --demo --bill BILL --since SINCE --until UNTIL`, then `more`.
pub(super) fn audit(
    data: &Path,
    bill: &Path,
    (since, until): (&str, &str),
    more: &[&str],
) -> Output {
    let args = [
        "audit",
        "--demo",
        "--bill",
        path(bill),
        "--since",
        since,
        "--until",
        until,
    ];
    let args: Vec<&str> = args.iter().chain(more).copied().collect();
    gpumeter(data, &args)
}

pub(super) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub(super) fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(o)))
}

pub(super) fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

pub(super) fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_bill_that_is_not_there_is_bad_input_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-bill.csv");
    let out = gpumeter(dir.path(), &["audit", "--demo", "--bill", path(&missing)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no-such-bill.csv: cannot read it"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_broken_gzip_bill_and_a_directory_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("bill.csv.gz");
    std::fs::write(&gz, [0x1f, 0x8b, 8, 0, 1, 2, 3]).unwrap();
    let out = gpumeter(dir.path(), &["audit", "--demo", "--bill", path(&gz)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("bill.csv.gz:1:1: starts as gzip but cannot be decompressed"),
        "{err}"
    );
    let out = gpumeter(dir.path(), &["audit", "--demo", "--bill", path(dir.path())]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_negative_tolerance_and_no_bill_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = gpumeter(
        dir.path(),
        &["audit", "--demo", "--bill", "x.csv", "--tolerance=-1"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--tolerance"), "{}", stderr(&out));
    let out = gpumeter(dir.path(), &["audit", "--demo"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--bill"), "{}", stderr(&out));
}

#[test]
fn help_names_every_flag_and_the_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let out = gpumeter(dir.path(), &["audit", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--bill",
        "--since",
        "--until",
        "--json",
        "--tolerance",
        "--evidence",
    ] {
        assert!(text.contains(flag), "{flag} missing: {text}");
    }
    assert!(text.contains("Exit 0") && text.contains('3'), "{text}");
}
