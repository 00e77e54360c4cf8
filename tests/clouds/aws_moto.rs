//! The AWS adapter against moto, a real EC2 peer on loopback: a scenario built with signed Query
//! calls (an instance whose root volume goes with it, a data volume that survives, three
//! snapshots, an image, an elastic IP), then inventory, checklist, snapshot-clean, stop, release
//! and the leftovers after release, through the library and through the `gpumeter` binary.
//!
//! moto comes from scripts/test, which installs `moto[server]` into `.venv`. Without it the test
//! is skipped, except under CI, where it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use gpumeter::meter::{InstanceState, ResourceKind};
use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::{AwsEnv, AwsSettings, Credentials, Keys, Source};
use gpumeter::provider::aws::query::Ec2;
use gpumeter::provider::aws::sigv4::uri_encode;
use gpumeter::provider::http::{Http, HttpPolicy, Repeat};
use gpumeter::provider::refresh::Look;
use gpumeter::provider::{Action, Auth, ErrorKind, Inventory, Provider};
use serde_json::Value;

use crate::common::moto::{Moto, all_pages, moto, moto_with};

pub(crate) const SECRET: &str = "moto-secret-that-must-never-show-9f2c";

pub(crate) fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

pub(crate) fn policy() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_secs(10),
        connect_timeout: Duration::from_secs(2),
        retries: 2,
        throttled_retries: 2,
        backoff_base: Duration::from_millis(20),
        backoff_max: Duration::from_millis(100),
    }
}

pub(crate) fn env(url: &str) -> AwsEnv {
    AwsEnv::from_pairs([
        ("AWS_ACCESS_KEY_ID", "AKIDMOTOTEST"),
        ("AWS_SECRET_ACCESS_KEY", SECRET),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ENDPOINT_URL", url),
        ("AWS_EC2_METADATA_SERVICE_ENDPOINT", url),
    ])
}

/// The first `<tag>` text in `body`.
pub(crate) fn grab(body: &str, tag: &str) -> String {
    let open = format!("<{tag}>");
    let start = body
        .find(&open)
        .unwrap_or_else(|| panic!("no <{tag}> in {body}"))
        + open.len();
    let end = body[start..].find('<').unwrap() + start;
    body[start..end].to_string()
}

pub(crate) struct Scenario {
    instance: String,
    root: String,
    data: String,
    snapshots: Vec<String>,
    image: String,
    allocation: String,
}

pub(crate) async fn call(ec2: &Ec2, action: &str, params: &[(&str, &str)]) -> String {
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    ec2.call(action, &params, Repeat::Once)
        .await
        .unwrap_or_else(|e| panic!("{action}: {e}"))
}

/// A client of moto's EC2 in us-east-1, with the test keys.
pub(crate) fn moto_ec2(url: &str) -> Ec2 {
    let creds = Credentials::from_env(&env(url)).unwrap();
    Ec2::new(url, "us-east-1", creds, policy()).unwrap()
}

/// One running g5.xlarge from moto's stock image: its id and zone.
pub(crate) async fn run_instance(ec2: &Ec2) -> (String, String) {
    let run = call(
        ec2,
        "RunInstances",
        &[
            ("ImageId", "ami-12345678"),
            ("MinCount", "1"),
            ("MaxCount", "1"),
            ("InstanceType", "g5.xlarge"),
        ],
    )
    .await;
    (grab(&run, "instanceId"), grab(&run, "availabilityZone"))
}

async fn build(ec2: &Ec2) -> Scenario {
    let run = call(
        ec2,
        "RunInstances",
        &[
            ("ImageId", "ami-12345678"),
            ("MinCount", "1"),
            ("MaxCount", "1"),
            ("InstanceType", "g5.xlarge"),
            ("BlockDeviceMapping.1.DeviceName", "/dev/sda1"),
            ("BlockDeviceMapping.1.Ebs.VolumeSize", "100"),
            ("BlockDeviceMapping.1.Ebs.VolumeType", "gp3"),
            ("BlockDeviceMapping.1.Ebs.DeleteOnTermination", "true"),
        ],
    )
    .await;
    let instance = grab(&run, "instanceId");
    let zone = grab(&run, "availabilityZone");
    let root = grab(&run, "volumeId");
    let vol = call(
        ec2,
        "CreateVolume",
        &[
            ("AvailabilityZone", &zone),
            ("Size", "500"),
            ("VolumeType", "gp3"),
        ],
    )
    .await;
    let data = grab(&vol, "volumeId");
    let attach = [
        ("VolumeId", data.as_str()),
        ("InstanceId", instance.as_str()),
        ("Device", "/dev/sdf"),
    ];
    call(ec2, "AttachVolume", &attach).await;
    let mut snapshots = Vec::new();
    for n in 0..3 {
        if n > 0 {
            // Start times have one-second resolution: keep "newest" unambiguous.
            tokio::time::sleep(Duration::from_millis(1100)).await;
        }
        let snap = call(ec2, "CreateSnapshot", &[("VolumeId", &data)]).await;
        snapshots.push(grab(&snap, "snapshotId"));
    }
    let image = call(
        ec2,
        "CreateImage",
        &[("InstanceId", &instance), ("Name", "train-image")],
    )
    .await;
    let eip = call(ec2, "AllocateAddress", &[("Domain", "vpc")]).await;
    let allocation = grab(&eip, "allocationId");
    let assoc = [
        ("AllocationId", allocation.as_str()),
        ("InstanceId", instance.as_str()),
    ];
    call(ec2, "AssociateAddress", &assoc).await;
    Scenario {
        instance,
        root,
        data,
        snapshots,
        image: grab(&image, "imageId"),
        allocation,
    }
}

pub(crate) struct Cli {
    pub(crate) url: String,
    pub(crate) dir: PathBuf,
    pub(crate) seen: String,
    /// Set (`Some`) or removed (`None`) after the defaults above.
    pub(crate) vars: Vec<(&'static str, Option<String>)>,
}

impl Cli {
    pub(crate) fn run(&mut self, args: &[String]) -> Output {
        let out = self.command(args).output().unwrap();
        self.seen.push_str(&String::from_utf8_lossy(&out.stdout));
        self.seen.push_str(&String::from_utf8_lossy(&out.stderr));
        out
    }

    /// The command `run` runs, for a test that spawns it and reads it while it lives.
    pub(crate) fn command(&self, args: &[String]) -> Command {
        let config = self.dir.join("config.toml");
        let mut cmd = crate::common::gpumeter();
        cmd.args(args)
            .arg("--config")
            .arg(&config)
            .env("GPUMETER_DATA_DIR", &self.dir)
            .env("AWS_ACCESS_KEY_ID", "AKIDMOTOTEST")
            .env("AWS_SECRET_ACCESS_KEY", SECRET)
            .env("AWS_ENDPOINT_URL", &self.url)
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .env_remove("AWS_ENDPOINT_URL_EC2")
            .env_remove("AWS_SESSION_TOKEN")
            .env_remove("AWS_REGION")
            .env_remove("AWS_DEFAULT_REGION")
            .env_remove("AWS_PROFILE")
            .env_remove("AWS_SHARED_CREDENTIALS_FILE")
            .env_remove("AWS_CONFIG_FILE")
            .env("HOME", &self.dir)
            .stdin(Stdio::null());
        for (k, v) in &self.vars {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        cmd
    }

    pub(crate) fn json(&mut self, args: &[String]) -> (i32, Value) {
        let out = self.run(args);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{e}: {text} {}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code().unwrap_or(-1), value)
    }
}

fn listed<'a>(list: &'a Value, id: &str) -> Option<&'a Value> {
    list["would_keep_billing"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == id)
}

/// Checklist: exit 3, the survivors priced from the aws-us-east-1 sheet, the root disk not.
fn check_checklist(cli: &mut Cli, args: &[String], s: &Scenario) {
    let (code, list) = cli.json(args);
    assert_eq!(code, 3, "{list}");
    assert!(
        listed(&list, &s.root).is_none(),
        "the root volume goes with the instance"
    );
    assert_eq!(listed(&list, &s.data).unwrap()["monthly_cost"], "40.00");
    assert_eq!(
        listed(&list, &s.snapshots[0]).unwrap()["monthly_cost"],
        "25.00"
    );
    assert_eq!(
        listed(&list, &s.allocation).unwrap()["monthly_cost"],
        "3.65"
    );
    assert!(listed(&list, &s.image).unwrap()["monthly_cost"].is_string());
}

/// After the release the leftovers are still found (the data volume now `available`).
fn check_leftovers(cli: &mut Cli, args: &[String], s: &Scenario) {
    let (code, list) = cli.json(args);
    assert_eq!(code, 3, "{list}");
    assert_eq!(list["instance_state"], "released");
    assert_eq!(listed(&list, &s.data).unwrap()["state"], "available");
    for id in [&s.snapshots[2], &s.image, &s.allocation] {
        assert!(listed(&list, id).is_some(), "{id} missing from {list}");
    }
    assert!(listed(&list, &s.snapshots[0]).is_none());
}

/// The library's inventory: the instance and everything linked to it, each of the right kind.
fn check_inventory(inv: &Inventory, s: &Scenario) {
    let i = inv.instance.as_ref().unwrap();
    assert_eq!(
        (i.sku.as_str(), i.state, i.provider.as_str()),
        ("g5.xlarge", InstanceState::Running, "aws")
    );
    let find = |id: &str| inv.resources.iter().find(|r| r.id == id).unwrap();
    let root = find(&s.root);
    assert_eq!(root.kind, ResourceKind::SystemDisk);
    assert!(root.deleted_with_instance);
    let data = find(&s.data);
    assert_eq!(
        (data.kind, data.class.as_deref(), data.deleted_with_instance),
        (ResourceKind::DataDisk, Some("gp3"), false)
    );
    assert_eq!(data.size_gib, 500.into());
    for snap in &s.snapshots {
        assert_eq!(find(snap).kind, ResourceKind::Snapshot);
    }
    assert_eq!(find(&s.image).kind, ResourceKind::Image);
    assert_eq!(find(&s.allocation).kind, ResourceKind::PublicIp);
}

/// A mistyped id, or the right one in the wrong region: EC2 lists nothing. Not "already
/// released", not "nothing keeps billing": this data directory never saw the instance, or
/// saw it only in us-east-1, where it goes on billing.
fn unknown_instances_are_errors(cli: &mut Cli, url: &str, dir: &Path, instance: &str) {
    let fresh_dir = dir.join("fresh");
    std::fs::create_dir_all(&fresh_dir).unwrap();
    std::fs::copy(dir.join("config.toml"), fresh_dir.join("config.toml")).unwrap();
    let mut fresh = Cli {
        url: url.to_string(),
        dir: fresh_dir,
        seen: String::new(),
        vars: Vec::new(),
    };
    let typo = "i-0123456789abcdef0";
    let elsewhere = "seen it only in region us-east-1";
    for (id, region, seen_dir, why) in [
        (typo, "us-east-1", true, "never seen"),
        (instance, "eu-west-1", false, "never seen"),
        (instance, "eu-west-1", true, elsewhere),
    ] {
        let cli = if seen_dir { &mut *cli } else { &mut fresh };
        for cmd in [&["release", "--yes"][..], &["checklist"][..]] {
            let mut args: Vec<String> = cmd.iter().map(|a| (*a).to_string()).collect();
            args.extend(
                ["--provider", "aws", "--instance", id, "--region", region].map(String::from),
            );
            let out = cli.run(&args);
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!out.status.success(), "{cmd:?} {id} {region}: {said}");
            assert!(said.contains(why), "{said}");
            assert!(said.contains(&format!("region {region}")), "{said}");
            assert!(!said.contains("already released"), "{said}");
            assert!(!said.contains("release: done"), "{said}");
            assert!(!said.contains("Nothing would keep billing"), "{said}");
        }
    }
}

/// Between full inventories the watchdog and the cockpit look: one DescribeInstances.
fn check_look(moto: &Moto, rt: &tokio::runtime::Runtime, aws: &Aws) {
    let before = moto.calls().len();
    let look = rt.block_on(aws.look()).unwrap();
    assert_eq!(look, Look::State(Some(InstanceState::Running)));
    let asked: Vec<String> = moto.calls()[before..]
        .iter()
        .filter_map(|c| c.split_whitespace().nth(1).map(str::to_string))
        .collect();
    assert_eq!(asked, ["DescribeInstances"]);
}

#[test]
fn inventory_checklist_clean_stop_release_and_leftovers_against_moto() {
    let Some(moto) = moto() else { return };
    let dir = std::env::temp_dir().join(format!("gpumeter-aws-moto-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "").unwrap();
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let s = rt.block_on(build(&ec2));

    // The library sees the instance and everything linked to it.
    let settings = AwsSettings::resolve(&env(&moto.url), Some(s.instance.clone()), None);
    let aws = Aws::with_policy(settings, policy(), policy()).remembering(&dir);
    check_inventory(&rt.block_on(aws.inventory()).unwrap(), &s);
    check_look(&moto, &rt, &aws);

    // The metadata service names the instance when nothing else does (moto serves `i-fake`).
    let no_id = Aws::with_policy(
        AwsSettings::resolve(&env(&moto.url), None, None),
        policy(),
        policy(),
    );
    assert_eq!(rt.block_on(no_id.instance_id()).unwrap(), "i-fake");

    let mut cli = Cli {
        url: moto.url.clone(),
        dir: dir.clone(),
        seen: String::new(),
        vars: Vec::new(),
    };
    let target = [
        "--provider",
        "aws",
        "--instance",
        s.instance.as_str(),
        "--region",
        "us-east-1",
    ];
    let with = |cmd: &[&'static str]| -> Vec<String> {
        cmd.iter()
            .chain(&target)
            .map(|s| (*s).to_string())
            .collect()
    };

    check_checklist(&mut cli, &with(&["checklist", "--json"]), &s);

    // (The stop below reads the instance back running: nothing above touched it.)
    unknown_instances_are_errors(&mut cli, &moto.url, &dir, &s.instance);

    // Snapshot-clean: the dry run names the exact deletions; the real one keeps the newest.
    let dry = cli.run(&with(&["snapshot-clean", "--keep", "1", "--dry-run"]));
    let text = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(dry.status.success(), "{text}");
    for old in &s.snapshots[..2] {
        assert!(
            text.contains(&format!("ec2 DeleteSnapshot SnapshotId={old}")),
            "{text}"
        );
    }
    let out = cli.run(&with(&["snapshot-clean", "--keep", "1", "--yes"]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let inv = rt.block_on(aws.inventory()).unwrap();
    let snaps: Vec<&str> = inv
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::Snapshot)
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(snaps, vec![s.snapshots[2].as_str()]);

    // Stop, read back.
    let report = rt.block_on(aws.perform(&Action::Stop)).unwrap();
    assert!(report.confirmed, "{report:?}");

    // Release through the binary: confirmed by the read-back.
    let out = cli.run(&with(&["release", "--yes"]));
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("release: done"), "{said}");
    let back = rt.block_on(call(
        &ec2,
        "DescribeInstances",
        &[("InstanceId.1", &s.instance)],
    ));
    assert_eq!(grab(&back, "name"), "terminated");

    check_leftovers(&mut cli, &with(&["checklist", "--json"]), &s);

    // Releasing again says so and is not an error.
    let out = cli.run(&with(&["release", "--yes"]));
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && said.contains("already released"),
        "{said}"
    );

    // The leftovers can be cleaned through the adapter too, each read back.
    let (done, said) = rt.block_on(aws.release_address(&s.allocation)).unwrap();
    assert!(done, "{said}");
    let (done, said) = rt.block_on(aws.deregister_image(&s.image, false)).unwrap();
    assert!(done, "{said}");
    let inv = rt.block_on(aws.inventory()).unwrap();
    assert!(
        !inv.resources
            .iter()
            .any(|r| r.id == s.allocation || r.id == s.image)
    );

    no_secret_anywhere(&dir, &format!("{} {report:?}", cli.seen));
}

/// Neither the output nor the files gpumeter left in the data directory carry the secret.
pub(crate) fn no_secret_anywhere(dir: &Path, output: &str) {
    let files: String = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .collect();
    assert!(!output.contains(SECRET) && !files.contains(SECRET));
    let _ = std::fs::remove_dir_all(dir);
}

/// An IAM call to moto while it still takes every request: the scope in the header is only
/// what moto routes by.
pub(crate) async fn iam(url: &str, form: &str) -> String {
    let http = Http::new(policy()).unwrap();
    let response = http
        .client()
        .post(url)
        .header(
            "content-type",
            "application/x-www-form-urlencoded; charset=utf-8",
        )
        .header(
            "authorization",
            "AWS4-HMAC-SHA256 Credential=AKIDMOTOTEST/20260101/us-east-1/iam/aws4_request, \
             SignedHeaders=host, Signature=0",
        )
        .body(format!("{form}&Version=2010-05-08"))
        .send()
        .await
        .unwrap();
    response.text().await.unwrap()
}

#[test]
fn a_wrong_key_is_auth_and_a_missing_grant_is_permission_against_moto() {
    // moto checks keys, signatures and policies from its fifth request on: the first four make
    // a user whose key may only read, and an instance for it to fail to release.
    let Some(moto) = moto_with(&[("INITIAL_NO_AUTH_ACTION_COUNT", "4")]) else {
        return;
    };
    let rt = rt();
    let (key, secret, instance) = rt.block_on(async {
        iam(&moto.url, "Action=CreateUser&UserName=renter").await;
        let created = iam(&moto.url, "Action=CreateAccessKey&UserName=renter").await;
        let read_only = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"ec2:Describe*","Resource":"*"}]}"#;
        iam(
            &moto.url,
            &format!(
                "Action=PutUserPolicy&UserName=renter&PolicyName=read-only&PolicyDocument={}",
                uri_encode(read_only)
            ),
        )
        .await;
        let ec2 = moto_ec2(&moto.url);
        let run = call(
            &ec2,
            "RunInstances",
            &[
                ("ImageId", "ami-12345678"),
                ("MinCount", "1"),
                ("MaxCount", "1"),
                ("InstanceType", "g5.xlarge"),
            ],
        )
        .await;
        (
            grab(&created, "AccessKeyId"),
            grab(&created, "SecretAccessKey"),
            grab(&run, "instanceId"),
        )
    });
    let adapter = |env: &AwsEnv| {
        Aws::with_policy(
            AwsSettings::resolve(env, Some(instance.clone()), None),
            policy(),
            policy(),
        )
    };

    // A key moto's IAM does not know: EC2 answers AuthFailure.
    let wrong = rt
        .block_on(adapter(&env(&moto.url)).inventory())
        .unwrap_err();
    assert!(
        matches!(wrong.kind(), ErrorKind::Auth(Auth::Refused { .. })),
        "{wrong:?}"
    );
    assert_eq!(wrong.code(), Some("AuthFailure"));
    assert!(wrong.fix().contains("AWS_ACCESS_KEY_ID"), "{}", wrong.fix());
    assert!(!format!("{wrong} {wrong:?}").contains(SECRET));

    // The renter's own key reads, but may not terminate.
    let renter = adapter(&AwsEnv::from_pairs([
        ("AWS_ACCESS_KEY_ID", key.as_str()),
        ("AWS_SECRET_ACCESS_KEY", secret.as_str()),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ENDPOINT_URL", moto.url.as_str()),
    ]));
    let inventory = rt.block_on(renter.inventory()).unwrap();
    assert_eq!(inventory.instance.map(|i| i.id), Some(instance.clone()));
    let denied = rt.block_on(renter.perform(&Action::Release)).unwrap_err();
    assert_eq!(
        denied.kind(),
        &ErrorKind::Permission {
            action: Some("ec2:TerminateInstances".into())
        },
        "{denied:?}"
    );
    assert_eq!(
        denied.fix(),
        "the key lacks ec2:TerminateInstances; grant it in IAM"
    );
    assert!(!format!("{denied} {denied:?}").contains(&secret));
}

/// The snapshot ids a dry run's confirmation lists under `heading`.
fn listed_snapshots(text: &str, heading: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| l.trim() != heading)
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .filter_map(|l| l.trim().strip_prefix("snapshot "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// Every snapshot the account owns, behind an image or not.
async fn owned_snapshots(ec2: &Ec2) -> Vec<String> {
    let body = all_pages(ec2, "DescribeSnapshots", &[("Owner.1", "self")]).await;
    body.split("<snapshotId>")
        .skip(1)
        .filter_map(|s| s.split('<').next())
        .map(str::to_string)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Snapshots taken in the same second (as a multi-volume snapshot is) and the snapshots behind
/// an image: what the dry run's confirmation lists as deleted is exactly what goes, and every
/// snapshot it promised to keep is still there.
#[test]
fn snapshot_clean_deletes_exactly_what_the_confirmation_listed_against_moto() {
    let Some(moto) = moto() else { return };
    let dir = std::env::temp_dir().join(format!("gpumeter-aws-moto-plan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "").unwrap();
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let s = rt.block_on(build(&ec2));
    // Four more at once: EC2 times have one-second resolution, so they tie.
    rt.block_on(async {
        for _ in 0..4 {
            call(&ec2, "CreateSnapshot", &[("VolumeId", &s.data)]).await;
        }
    });
    let settings = AwsSettings::resolve(&env(&moto.url), Some(s.instance.clone()), None);
    let aws = Aws::with_policy(settings, policy(), policy());
    let inv = rt.block_on(aws.inventory()).unwrap();
    let mut times: Vec<_> = inv
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::Snapshot)
        .map(|r| r.created)
        .collect();
    let listed = times.len();
    times.dedup();
    assert!(times.len() < listed, "no two snapshots tie: {inv:?}");

    let mut cli = Cli {
        url: moto.url.clone(),
        dir: dir.clone(),
        seen: String::new(),
        vars: Vec::new(),
    };
    let args = |extra: &str| -> Vec<String> {
        [
            "snapshot-clean",
            "--keep",
            "2",
            extra,
            "--provider",
            "aws",
            "--instance",
            s.instance.as_str(),
            "--region",
            "us-east-1",
        ]
        .iter()
        .map(|a| (*a).to_string())
        .collect()
    };
    let before = rt.block_on(owned_snapshots(&ec2));
    let dry = cli.run(&args("--dry-run"));
    let text = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(dry.status.success(), "{text}");
    let mut promised = listed_snapshots(&text, "deleted:");
    let survivors = listed_snapshots(&text, "keeps billing afterwards:");
    assert_eq!(promised.len(), listed - 2, "{text}");
    assert_eq!(survivors.len(), 2, "{text}");
    for id in &promised {
        assert!(
            text.contains(&format!("ec2 DeleteSnapshot SnapshotId={id}")),
            "the calls and the confirmation agree: {text}"
        );
    }

    let out = cli.run(&args("--yes"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = rt.block_on(owned_snapshots(&ec2));
    let mut gone: Vec<String> = before
        .iter()
        .filter(|b| !after.contains(b))
        .cloned()
        .collect();
    gone.sort();
    promised.sort();
    assert_eq!(gone, promised, "deleted exactly what was promised");
    for id in &survivors {
        assert!(
            after.contains(id),
            "{id} was promised to survive: {after:?}"
        );
    }
    // The snapshots behind the image (EC2 lists them only with it) are all still there.
    let offered: Vec<&str> = inv.resources.iter().map(|r| r.id.as_str()).collect();
    for id in before.iter().filter(|b| !offered.contains(&b.as_str())) {
        assert!(after.contains(id), "{id} backs the image: {after:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scenario on a fresh moto, and a `Cli` whose keys and region come only from `vars`.
pub(crate) fn chain_cli(
    name: &str,
    vars: impl FnOnce(&Path, &str) -> Vec<(&'static str, Option<String>)>,
) -> Option<(Moto, Cli, Scenario, Ec2, tokio::runtime::Runtime)> {
    let moto = moto()?;
    let dir = std::env::temp_dir().join(format!("gpumeter-aws-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "").unwrap();
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let s = rt.block_on(build(&ec2));
    let mut vars = vars(&dir, &moto.url);
    vars.extend([("AWS_ACCESS_KEY_ID", None), ("AWS_SECRET_ACCESS_KEY", None)]);
    let cli = Cli {
        url: moto.url.clone(),
        dir,
        seen: String::new(),
        vars,
    };
    Some((moto, cli, s, ec2, rt))
}

/// Checklist, `release --dry-run` and `release --yes` through the binary, with no `--region` and
/// no keys in the environment.
pub(crate) fn release_through_the_chain(
    cli: &mut Cli,
    s: &Scenario,
    ec2: &Ec2,
    rt: &tokio::runtime::Runtime,
) {
    let args = |cmd: &[&str]| -> Vec<String> {
        cmd.iter()
            .copied()
            .chain(["--provider", "aws", "--instance", s.instance.as_str()])
            .map(String::from)
            .collect()
    };
    check_checklist(cli, &args(&["checklist", "--json"]), s);
    let dry = cli.run(&args(&["release", "--dry-run"]));
    let said = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(
        dry.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&dry.stderr)
    );
    assert!(
        said.contains("TerminateInstances") && said.contains(&s.instance),
        "{said}"
    );
    let back = rt.block_on(call(
        ec2,
        "DescribeInstances",
        &[("InstanceId.1", &s.instance)],
    ));
    assert_eq!(
        grab(&back, "name"),
        "running",
        "the dry run touched nothing"
    );

    let out = cli.run(&args(&["release", "--yes"]));
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("release: done"), "{said}");
    let back = rt.block_on(call(
        ec2,
        "DescribeInstances",
        &[("InstanceId.1", &s.instance)],
    ));
    assert_eq!(grab(&back, "name"), "terminated");
}

#[test]
fn keys_and_region_from_a_named_profile_in_the_shared_files_against_moto() {
    let Some((_moto, mut cli, s, ec2, rt)) = chain_cli("profile", |dir, _| {
        // Beside the data directory, not in it: its files are searched for the secret below.
        let shared = dir.join("aws");
        std::fs::create_dir_all(&shared).unwrap();
        let (creds, config) = (shared.join("credentials"), shared.join("config"));
        std::fs::write(
            &creds,
            format!(
                "# keys kept out of the environment\n[default]\naws_access_key_id = AKIDDEFAULT\n\
                 aws_secret_access_key = default-secret-unused\n\n[train]\n\
                 aws_access_key_id = AKIDTRAIN\naws_secret_access_key = {SECRET}\n"
            ),
        )
        .unwrap();
        // The default profile's region would find nothing: the named one must be read.
        std::fs::write(
            &config,
            "[default]\nregion = eu-west-1\n\n[profile train]\nregion = us-east-1\n",
        )
        .unwrap();
        vec![
            ("AWS_PROFILE", Some("train".into())),
            (
                "AWS_SHARED_CREDENTIALS_FILE",
                Some(creds.display().to_string()),
            ),
            ("AWS_CONFIG_FILE", Some(config.display().to_string())),
        ]
    }) else {
        return;
    };
    release_through_the_chain(&mut cli, &s, &ec2, &rt);
    assert!(!cli.seen.contains("default-secret-unused"));
    let dir = cli.dir.clone();
    no_secret_anywhere(&dir, &cli.seen);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn keys_and_region_from_the_instance_role_against_moto() {
    let Some((moto, mut cli, s, ec2, rt)) = chain_cli("role", |_, url| {
        vec![
            ("AWS_EC2_METADATA_DISABLED", None),
            ("AWS_EC2_METADATA_SERVICE_ENDPOINT", Some(url.to_string())),
        ]
    }) else {
        return;
    };
    // moto serves the role `default-role` with temporary keys that expire.
    let keys = Keys::with_policy(
        Source::Instance {
            endpoint: moto.url.clone(),
            tried: Vec::new(),
        },
        policy(),
    );
    let role = rt.block_on(keys.current()).unwrap();
    assert_eq!(role.access_key_id, "test-key");
    assert!(role.session_token.is_some() && role.expiration.is_some());

    release_through_the_chain(&mut cli, &s, &ec2, &rt);
    assert!(!cli.seen.contains("test-secret-key"), "{}", cli.seen);
    assert!(!cli.seen.contains("test-session-token"), "{}", cli.seen);
    let _ = std::fs::remove_dir_all(&cli.dir);
}

#[test]
fn keys_from_a_credential_process_against_moto() {
    let Some((_moto, mut cli, s, ec2, rt)) = chain_cli("process", |dir, _| {
        let shared = dir.join("aws");
        std::fs::create_dir_all(&shared).unwrap();
        let script = shared.join("creds.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nprintf '%s' '{{\"Version\": 1, \"AccessKeyId\": \"AKIDPROC\", \
                 \"SecretAccessKey\": \"{SECRET}\", \"SessionToken\": \"proc-token-never-shown\", \
                 \"Expiration\": \"2099-01-01T00:00:00Z\"}}'\n"
            ),
        )
        .unwrap();
        let config = shared.join("config");
        std::fs::write(
            &config,
            format!(
                "[default]\ncredential_process = sh {}\nregion = us-east-1\n",
                script.display()
            ),
        )
        .unwrap();
        vec![
            ("AWS_CONFIG_FILE", Some(config.display().to_string())),
            (
                "AWS_SHARED_CREDENTIALS_FILE",
                Some(shared.join("none").display().to_string()),
            ),
        ]
    }) else {
        return;
    };
    release_through_the_chain(&mut cli, &s, &ec2, &rt);
    assert!(!cli.seen.contains("proc-token-never-shown"), "{}", cli.seen);
    let dir = cli.dir.clone();
    no_secret_anywhere(&dir, &cli.seen);
    let _ = std::fs::remove_dir_all(&dir);
}
