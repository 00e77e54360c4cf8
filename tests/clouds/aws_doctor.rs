//! `gpumeter doctor` against moto with IAM enforced: a key that may only read is told, per
//! action, that it may read and may not stop, release or delete, each asked with EC2's
//! `DryRun` (nothing is stopped or deleted); a key that may do everything passes, and the
//! release policy's exit status follows.

use std::path::Path;
use std::process::{Output, Stdio};

use gpumeter::provider::aws::sigv4::uri_encode;
use serde_json::Value;

use crate::aws_moto::{call, grab, iam, moto_ec2, rt};
use crate::common::moto::moto_with;

/// A user with `policy` (an IAM policy document) and its key pair.
async fn user(url: &str, name: &str, policy: &str) -> (String, String) {
    iam(url, &format!("Action=CreateUser&UserName={name}")).await;
    let created = iam(url, &format!("Action=CreateAccessKey&UserName={name}")).await;
    iam(
        url,
        &format!(
            "Action=PutUserPolicy&UserName={name}&PolicyName=p&PolicyDocument={}",
            uri_encode(policy)
        ),
    )
    .await;
    (
        grab(&created, "AccessKeyId"),
        grab(&created, "SecretAccessKey"),
    )
}

fn doctor(home: &Path, url: &str, key: &(String, String), instance: &str) -> Output {
    crate::common::gpumeter()
        .args([
            "--provider",
            "aws",
            "--instance",
            instance,
            "doctor",
            "--json",
        ])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("GPUMETER_DATA_DIR", home.join("data"))
        .env("AWS_ACCESS_KEY_ID", &key.0)
        .env("AWS_SECRET_ACCESS_KEY", &key.1)
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ENDPOINT_URL", url)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn status_of(report: &Value, key: &str) -> (String, String) {
    let check = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {report}"));
    (
        check["status"].as_str().unwrap().to_string(),
        check["detail"].as_str().unwrap().to_string(),
    )
}

#[test]
fn doctor_asks_ec2_with_dry_run_what_each_key_may_do_against_moto() {
    // moto enforces IAM from its eighth request on: the first seven make two users and an
    // instance with its root volume.
    let Some(moto) = moto_with(&[("INITIAL_NO_AUTH_ACTION_COUNT", "7")]) else {
        return;
    };
    let read_only = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"ec2:Describe*","Resource":"*"}]}"#;
    let everything = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"ec2:*","Resource":"*"}]}"#;
    let (reader, admin, instance) = rt().block_on(async {
        let reader = user(&moto.url, "reader", read_only).await;
        let admin = user(&moto.url, "admin", everything).await;
        let run = call(
            &moto_ec2(&moto.url),
            "RunInstances",
            &[
                ("ImageId", "ami-12345678"),
                ("MinCount", "1"),
                ("MaxCount", "1"),
                ("InstanceType", "g5.xlarge"),
            ],
        )
        .await;
        (reader, admin, grab(&run, "instanceId"))
    });
    let home = std::env::temp_dir().join(format!("gpumeter-doctor-moto-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(home.join("config/gpumeter")).unwrap();
    std::fs::write(
        home.join("config/gpumeter/config.toml"),
        "[deadline]\nrelease_in = \"4h\"\non_expiry = \"release\"\n",
    )
    .unwrap();

    let out = doctor(&home, &moto.url, &reader, &instance);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains(&reader.1), "the secret was printed");
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(status_of(&report, "permission.read").0, "pass", "{report}");
    for (act, call) in [
        ("stop", "ec2:StopInstances"),
        ("release", "ec2:TerminateInstances"),
        ("delete", "ec2:DeleteVolume"),
    ] {
        let (status, detail) = status_of(&report, &format!("permission.{act}"));
        assert_eq!(status, "fail", "{act}: {detail}");
        assert!(detail.contains(call), "{act}: {detail}");
    }
    assert_eq!(report["ok"], false);
    assert_eq!(out.status.code(), Some(1), "the release policy cannot act");

    let out = doctor(&home, &moto.url, &admin, &instance);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    for act in ["read", "stop", "release", "delete"] {
        let (status, detail) = status_of(&report, &format!("permission.{act}"));
        assert_eq!(status, "pass", "{act}: {detail}");
        assert!(detail.contains("DryRun"), "{detail}");
    }
    assert_eq!(report["ok"], true, "{report}");
    assert_eq!(out.status.code(), Some(0));
    // Asked, never done: the instance still runs.
    let calls = moto.calls();
    assert!(
        calls
            .iter()
            .filter(|c| c.contains("TerminateInstances") || c.contains("StopInstances"))
            .all(|c| c.contains("DryRun=true")),
        "{calls:?}"
    );
    let _ = std::fs::remove_dir_all(&home);
}
