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
        // The shared AWS files are looked for under the test's own home.
        .env("HOME", &dir.0)
        .stdin(Stdio::null());
    for name in [
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_ENDPOINT_URL",
        "AWS_ENDPOINT_URL_EC2",
        "AWS_PROFILE",
        "AWS_SHARED_CREDENTIALS_FILE",
        "AWS_CONFIG_FILE",
        "AWS_EC2_METADATA_SERVICE_ENDPOINT",
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

const CHECKLIST: [&str; 7] = [
    "checklist",
    "--provider",
    "aws",
    "--instance",
    "i-1",
    "--region",
    "us-east-1",
];

#[test]
fn a_missing_credential_lists_every_place_tried_in_order() {
    let d = dir("chain");
    let o = run(&d, &CHECKLIST, &[("AWS_PROFILE", "train")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    let home = d.0.display().to_string();
    let places = [
        "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY".to_string(),
        format!("{home}/.aws/credentials [train]"),
        format!("credential_process in {home}/.aws/config [profile train]"),
        format!("{home}/.aws/config [profile train]"),
        "the instance role (off: AWS_EC2_METADATA_DISABLED)".to_string(),
    ];
    let mut at = 0;
    for place in &places {
        let found = e[at..].find(place.as_str());
        assert!(found.is_some(), "{place} not after byte {at} in {e}");
        at += found.unwrap() + place.len();
    }

    // With the metadata service on but not answering, it is the last place named.
    let o = run(
        &d,
        &CHECKLIST,
        &[
            ("AWS_EC2_METADATA_DISABLED", "false"),
            ("AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://127.0.0.1:9"),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the instance role at http://127.0.0.1:9)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_failing_credential_process_is_named_without_its_output() {
    let d = dir("process");
    let script = d.0.join("creds.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\necho '{\"Version\": 1, \"AccessKeyId\": \"AKID\", \"SecretAccessKey\": \"half-printed-secret\"'\nexit 1\n",
    )
    .unwrap();
    std::fs::create_dir_all(d.0.join(".aws")).unwrap();
    std::fs::write(
        d.0.join(".aws/config"),
        format!("[default]\ncredential_process = sh {}\n", script.display()),
    )
    .unwrap();
    let o = run(&d, &CHECKLIST, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let all = format!("{}{}", stderr(&o), String::from_utf8_lossy(&o.stdout));
    assert!(
        all.contains("credential_process in") && all.contains("failed"),
        "{all}"
    );
    assert!(!all.contains("half-printed-secret"), "{all}");
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

/// `fleet` asks for each adapter from inside its own runtime: setting up AWS must not need one.
#[test]
fn fleet_sets_up_aws_from_inside_its_runtime() {
    let d = dir("fleet");
    std::fs::write(
        d.0.join("config.toml"),
        "[[fleet]]\nprovider = \"aws\"\naccount = \"lab\"\nregion = \"us-east-1\"\ninstances = [\"i-a\"]\n",
    )
    .unwrap();
    let o = run(&d, &["fleet", "--json"], &[]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert!(out.contains("missing credential"), "{out} {}", stderr(&o));
}
