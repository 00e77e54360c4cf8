//! `gpumeter pricing` run as a user runs it: the built binary, its output and exit status.

use std::path::PathBuf;
use std::process::{Command, Output};

fn gpumeter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Writes `text` to a file of its own under cargo's scratch directory for tests.
fn sheet_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pricing_cli-{name}"));
    std::fs::write(&path, text).unwrap();
    path
}

const SHEET: &str = r#"id = "mine"
provider = "test"
currency = "USD"
as_of = 2999-01-01
source = "a test"

[billing]
step_seconds = 60
minimum_seconds = 0
stop_policy = "keep-charging"

[[sku]]
name = "box"
gpu_model = "L4"
gpu_count = 1
gpu_memory_gib = 24
on_demand_per_hour = "0.75"

[network]
egress_per_unit = "0.01"
"#;

#[test]
fn list_shows_every_bundled_sheet_and_its_skus() {
    let out = gpumeter(&["pricing", "list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for id in [
        "aws-us-east-1 (aws, us-east-1): USD, as of 2026-01-21",
        "aws-us-east-2 (aws, us-east-2): USD, as of 2026-01-21",
        "aws-us-west-2 (aws, us-west-2): USD, as of 2026-01-21",
        "aws-eu-west-1 (aws, eu-west-1): USD, as of 2026-01-21",
        "aws-eu-central-1 (aws, eu-central-1): USD, as of 2026-01-21",
        "aws-ap-northeast-1 (aws, ap-northeast-1): USD, as of 2026-01-21",
        "alibaba-cn-hangzhou",
        "alibaba-cn-beijing (alibaba, cn-beijing): CNY",
        "tencent-ap-beijing",
        "tencent-ap-guangzhou (tencent, ap-guangzhou): CNY",
        "lambda",
        "runpod (runpod): USD, as of 2025-07-13",
        "vast-typical",
        "autodl-example",
        "autodl (autodl): CNY, as of 2026-08-21",
        "gpushare (gpushare): CNY, as of 2026-10-01",
    ] {
        assert!(text.contains(id), "{id} missing from:\n{text}");
    }
    assert!(text.contains("  g5.xlarge "), "{text}");
    // RunPod's prices date from 2025-07-13: always more than 180 days ago from now on.
    assert!(
        stderr(&out).contains("`runpod` is dated 2025-07-13"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn show_prints_every_price_of_a_sku() {
    let out = gpumeter(&["pricing", "show", "G5.12XLARGE"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("5.672 USD/h (1.418 per GPU-hour)"), "{text}");
    assert!(
        text.contains("0.09 USD/GB, 100 GB free per month"),
        "{text}"
    );
    assert!(
        text.contains("disk gp3        0.08 USD/GiB-month"),
        "{text}"
    );
}

#[test]
fn show_in_one_sheet_or_a_user_sheet() {
    let out = gpumeter(&["pricing", "show", "rtx-4090-secure", "--provider", "runpod"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gpumeter(&["pricing", "show", "g5.xlarge", "--provider", "lambda"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no SKU `g5.xlarge` in sheet `lambda`"));
    let out = gpumeter(&["pricing", "show", "g5.xlarge", "--provider", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--provider: no bundled sheet `nope`"));

    let path = sheet_file(
        "extends.toml",
        "extends = \"aws-us-east-1\"\n[[sku]]\nname = \"g5.xlarge\"\non_demand_per_hour = \"0.5\"\n",
    );
    let out = gpumeter(&[
        "pricing",
        "show",
        "g5.xlarge",
        "--sheet",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("on-demand       0.5 USD/h"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn show_an_unknown_sku_exits_2() {
    let out = gpumeter(&["pricing", "show", "no-such-sku"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no SKU `no-such-sku`"));
}

#[test]
fn validate_accepts_a_good_sheet_quietly() {
    let path = sheet_file("good.toml", SHEET);
    let out = gpumeter(&["pricing", "validate", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(": ok, mine (test): USD"),
        "{}",
        stdout(&out)
    );
    assert_eq!(stderr(&out), "", "a sheet dated in the future is not stale");
}

#[test]
fn validate_rejects_a_bad_sheet_with_file_line_column() {
    let path = sheet_file(
        "bad.toml",
        &SHEET.replace("egress_per_unit", "egres_per_gib"),
    );
    let out = gpumeter(&["pricing", "validate", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let expected = format!(
        "gpumeter: {}:20:1: unknown key `egres_per_gib`, expected",
        path.display()
    );
    assert!(stderr(&out).starts_with(&expected), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");

    let out = gpumeter(&["pricing", "validate", "no/such/file.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no/such/file.toml: cannot read"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn validate_warns_about_a_stale_sheet_with_its_date() {
    let path = sheet_file("stale.toml", &SHEET.replace("2999-01-01", "2020-03-04"));
    let out = gpumeter(&["pricing", "validate", path.to_str().unwrap()]);
    assert!(out.status.success(), "a stale sheet is still valid");
    assert!(
        stderr(&out).contains("`mine` is dated 2020-03-04"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn every_bundled_file_validates() {
    for entry in std::fs::read_dir("pricing").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let out = gpumeter(&["pricing", "validate", path.to_str().unwrap()]);
            assert!(out.status.success(), "{}", stderr(&out));
        }
    }
}
