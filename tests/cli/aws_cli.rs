//! Choosing the cloud on the command line: `--provider`, `--instance`, `--region`, before or
//! after the subcommand, and the sheet-naming `--provider` of `status`/`estimate` left alone.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn dir(name: &str) -> Dir {
    let dir = std::env::temp_dir().join(format!("gpumeter-aws-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "").unwrap();
    Dir(dir)
}

fn run(dir: &Dir, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    cmd.args(args)
        .arg("--config")
        .arg(dir.0.join("config.toml"))
        .env("GPUMETER_DATA_DIR", &dir.0)
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .stdin(Stdio::null());
    for name in [
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_ENDPOINT_URL",
        "AWS_ENDPOINT_URL_EC2",
    ] {
        cmd.env_remove(name);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_missing_credential_names_the_variable_and_exits_2() {
    let d = dir("creds");
    let o = run(
        &d,
        &[
            "checklist",
            "--provider",
            "aws",
            "--instance",
            "i-1",
            "--region",
            "us-east-1",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("missing credential: set AWS_ACCESS_KEY_ID"),
        "{}",
        stderr(&o)
    );

    let o = run(
        &d,
        &["--provider", "aws", "release", "--dry-run"],
        &[
            ("AWS_ACCESS_KEY_ID", "AKID"),
            ("AWS_SECRET_ACCESS_KEY", "s3cr3t-value"),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("set AWS_REGION"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("gpumeter: fix (auth): set AWS_REGION (looked in --region,"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("s3cr3t-value"));
}

#[test]
fn provider_demo_is_the_demo_cloud_before_or_after_the_subcommand() {
    let d = dir("demo");
    for args in [
        &["checklist", "--provider", "demo"][..],
        &["--provider", "demo", "checklist"][..],
    ] {
        let o = run(&d, args, &[]);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {}", stderr(&o));
    }
    let o = run(&d, &["checklist", "--provider", "gcp"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`gcp` is not one of"), "{}", stderr(&o));
}

#[test]
fn the_sheet_naming_provider_flags_still_name_sheets() {
    let d = dir("sheets");
    let o = run(
        &d,
        &[
            "pricing",
            "show",
            "g5.xlarge",
            "--provider",
            "aws-us-east-1",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(
        &d,
        &[
            "estimate",
            "--provider",
            "aws-us-east-1",
            "--sku",
            "g5.xlarge",
            "--hours-per-day",
            "8",
            "--days",
            "5",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}
