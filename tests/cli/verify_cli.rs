//! `gpumeter verify` run as a program: the machine without a GPU (exit 4 and NVML's reason),
//! bad input (exit 2) and the flags `--help` lists.

use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn gpumeter(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("GPUMETER_DATA_DIR", dir.path())
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Whether NVML's library is installed here (then a GPU may be read, and exit 4 is not sure).
fn nvml_present() -> bool {
    ["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"]
        .iter()
        .any(|d| std::path::Path::new(d).join("libnvidia-ml.so.1").exists())
}

#[test]
fn without_a_gpu_it_exits_4_with_nvmls_reason_on_one_line() {
    let out = gpumeter(&["verify", "--seconds", "1"]);
    if nvml_present() && out.status.code() != Some(4) {
        // A driver machine that reads a GPU answers with a verdict.
        assert!(
            matches!(out.status.code(), Some(0 | 1 | 3)),
            "{}",
            stderr(&out)
        );
        return;
    }
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    let line = err
        .lines()
        .find(|l| l.starts_with("gpumeter: verify: no GPU can be read: "))
        .unwrap_or_else(|| panic!("no reason given: {err}"));
    if !nvml_present() {
        assert!(line.contains("libnvidia-ml.so.1"), "{line}");
    }
    assert!(out.stdout.is_empty(), "text mode prints nothing on stdout");
}

#[test]
fn without_a_gpu_the_json_says_why_and_has_no_verdict() {
    let out = gpumeter(&["verify", "--json", "--seconds", "1"]);
    if nvml_present() && out.status.code() != Some(4) {
        let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
        assert!(v["verdict"].is_string(), "{v}");
        return;
    }
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(v["source"], "nvml");
    assert!(v["verdict"].is_null(), "{v}");
    assert_eq!(v["gpus"], Value::Array(vec![]));
    let why = v["gpu_error"].as_str().expect("gpu_error is the reason");
    assert!(!why.is_empty() && !why.contains('\n'), "{why}");
    if !nvml_present() {
        assert!(why.contains("libnvidia-ml.so.1"), "{why}");
    }
}

/// Runs `args` and returns stderr, asserting exit 2 and an empty stdout.
fn refused(args: &[&str]) -> String {
    let out = gpumeter(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    stderr(&out)
}

#[test]
fn bad_input_exits_2_and_names_what_is_wrong() {
    let cases: [(&[&str], &str); 9] = [
        (
            &["verify", "--demo", "--scenario", "no-such-scenario"],
            "no-such-scenario",
        ),
        (&["verify", "--sku", "p4de.24xlarge"], "--sku needs a sheet"),
        (&["verify", "--fail-below", "150"], "--fail-below"),
        (&["verify", "--warn-below", "-5"], "--warn-below"),
        (
            &["verify", "--fail-below", "80", "--warn-below", "60"],
            "above the warn bar",
        ),
        (
            &[
                "verify",
                "--sku",
                "no-such-sku",
                "--provider",
                "aws-us-east-1",
            ],
            "no-such-sku",
        ),
        (
            &["verify", "--scenario", "shared"],
            "only applies with --demo",
        ),
        (&["verify", "--seconds", "0"], "--seconds"),
        (&["verify", "--dry-run"], "--on-fail"),
    ];
    for (args, says) in cases {
        let err = refused(args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn an_unknown_on_fail_action_is_refused() {
    let err = refused(&["verify", "--on-fail", "reboot"]);
    assert!(err.contains("reboot"), "{err}");
}

#[test]
fn help_lists_every_flag() {
    let out = gpumeter(&["verify", "--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--sku",
        "--provider",
        "--sheet",
        "--seconds",
        "--json",
        "--on-fail",
        "--dry-run",
        "--require-cuda",
        "--fail-below",
        "--warn-below",
        "--scenario",
        "--gpus",
        "--demo",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
    assert!(help.contains("[default: 20]"), "{help}");
    assert!(help.contains("alert") && help.contains("release"), "{help}");
}
