//! Keys exported with `AWS_CREDENTIAL_EXPIRATION` (as `aws configure export-credentials` and
//! the SSO fix text give them) have an end: `status` says when, and warns when the guard's
//! release would come after it, against a real EC2 peer.

use std::path::Path;

use gpumeter::guard::OnExpiry;
use gpumeter::ledger::{Change, GuardPolicy, Ledger, path_in};
use jiff::{SignedDuration, Timestamp};

use crate::aws_moto::{Cli, moto_ec2, rt, run_instance};
use crate::common::moto::moto;

fn arm(dir: &Path, instance: &str, deadline: Timestamp) {
    let mut ledger = Ledger::open(path_in(dir, false)).unwrap();
    let policy = GuardPolicy {
        deadline: Some(deadline),
        on_expiry: OnExpiry::Release,
        grace: std::time::Duration::from_secs(120),
    };
    let change = Change {
        at: Timestamp::now(),
        by: "test",
    };
    ledger.set_policy(instance, &policy, change).unwrap();
}

/// What a foreground watchdog for `instance` says in its first seconds.
fn watchdog_log(cli: &Cli, instance: &str) -> String {
    let args: Vec<String> = [
        "--provider",
        "aws",
        "--instance",
        instance,
        "--region",
        "us-east-1",
        "watchdog",
        "--foreground",
        "--interval",
        "1s",
    ]
    .iter()
    .map(|s| (*s).to_string())
    .collect();
    let log_path = cli.dir.join("watchdog-keys.log");
    let log_file = std::fs::File::create(&log_path).unwrap();
    let mut child = cli
        .command(&args)
        .stdout(std::process::Stdio::null())
        .stderr(log_file)
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let mut log = String::new();
    while started.elapsed() < std::time::Duration::from_secs(30) {
        log = std::fs::read_to_string(&log_path).unwrap_or_default();
        if log.contains("keys expire") || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let _ = child.kill();
    let _ = child.wait();
    log
}

#[test]
fn status_warns_when_exported_keys_expire_before_the_guard_releases() {
    let Some(moto) = moto() else { return };
    let dir = std::env::temp_dir().join(format!("gpumeter-key-expiry-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "").unwrap();
    let (instance, _) = rt().block_on(run_instance(&moto_ec2(&moto.url)));
    let now = Timestamp::now();
    let expires = (now + SignedDuration::from_mins(45))
        .round(jiff::Unit::Second)
        .unwrap();
    let mut cli = Cli {
        url: moto.url.clone(),
        dir: dir.clone(),
        seen: String::new(),
        vars: vec![
            ("AWS_SESSION_TOKEN", Some("session-token-example".into())),
            // The offset form the AWS CLI writes.
            (
                "AWS_CREDENTIAL_EXPIRATION",
                Some(expires.strftime("%Y-%m-%dT%H:%M:%S+00:00").to_string()),
            ),
        ],
    };
    let args = |extra: &[&str]| -> Vec<String> {
        // Before the subcommand: `status --provider` names a price sheet.
        [
            "--provider",
            "aws",
            "--instance",
            &instance,
            "--region",
            "us-east-1",
            "status",
        ]
        .iter()
        .chain(extra)
        .map(|s| (*s).to_string())
        .collect()
    };

    // No deadline yet: the end is reported, nothing is warned about.
    let (_, json) = cli.json(&args(&["--json"]));
    assert_eq!(json["keys_expire_at"], expires.to_string(), "{json}");
    assert!(json["keys_warning"].is_null(), "{json}");

    // A release in two hours, with keys that end in 45 minutes.
    arm(&dir, &instance, now + SignedDuration::from_hours(2));
    let (_, json) = cli.json(&args(&["--json"]));
    let warning = json["keys_warning"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        warning.contains("keys expire") && warning.contains("release"),
        "{json}"
    );
    let text = String::from_utf8_lossy(&cli.run(&args(&[])).stdout).into_owned();
    assert!(text.contains(&format!("warning   {warning}")), "{text}");

    // The watchdog that would act says it in its log when it starts.
    let log = watchdog_log(&cli, &instance);
    assert!(log.contains(&warning), "{log}");
    assert!(
        !log.contains("session-token-example"),
        "the token never shows"
    );

    // A release in ten minutes is inside the keys' life: no warning.
    arm(&dir, &instance, now + SignedDuration::from_mins(10));
    let (_, json) = cli.json(&args(&["--json"]));
    assert!(json["keys_warning"].is_null(), "{json}");

    // Expired keys are refused before anything is sent (exit 2, as a missing key), and named.
    cli.vars[1].1 = Some("2020-01-01T00:00:00Z".into());
    let out = cli.run(&args(&["--json"]));
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("expired at 2020-01-01T00:00:00Z")
            && said.contains("AWS_CREDENTIAL_EXPIRATION"),
        "{said}"
    );
    assert!(
        !cli.seen.contains("session-token-example"),
        "the token never shows"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
