//! A benchmark, not a test (`scripts/fleet-bench` runs it): `gpumeter fleet --json` over one AWS
//! account on moto, beside `benches/aws_fleet_boto3.py`, a boto3 script that finds the same.
//! The account holds 100 GPU instances, then 1,000: one in ten stopped, a tenth as many CPU
//! instances, unattached volumes, snapshots and images (public, shared with an account, or
//! private, in turn) and addresses. The two run in turn, five times each, on the same moto, so
//! whatever else the machine runs weighs on both; both must find the same instances, orphans
//! and (for the script) public ones on every run. Prints the median wall times, the calls each
//! made and the ratio; fails when `gpumeter fleet` takes over 1.2 times the script's at 1,000.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use gpumeter::provider::aws::query::Ec2;
use serde_json::Value;

use crate::aws_moto::{SECRET, call, grab, moto_ec2, rt};
use crate::common::fleet_bin::{Account, FleetBin, instance_ids, orphan_ids};
use crate::common::moto::{Moto, moto};

const RUNS: usize = 5;
const MOST_RATIO: f64 = 1.2;
const OTHER: &str = "111122223333";
/// RunInstances launches this many at once.
const BATCH: usize = 100;

/// Every `<tag>` text in `body`.
fn all(body: &str, tag: &str) -> Vec<String> {
    let open = format!("<{tag}>");
    body.split(&open)
        .skip(1)
        .filter_map(|rest| rest.split_once('<').map(|(id, _)| id.to_string()))
        .collect()
}

async fn launch(ec2: &Ec2, kind: &str, count: usize) -> Vec<String> {
    let count = count.to_string();
    let params = [
        ("ImageId", "ami-12345678"),
        ("MinCount", count.as_str()),
        ("MaxCount", count.as_str()),
        ("InstanceType", kind),
    ];
    all(&call(ec2, "RunInstances", &params).await, "instanceId")
}

async fn stop(ec2: &Ec2, ids: &[String]) {
    let keys: Vec<String> = (1..=ids.len()).map(|n| format!("InstanceId.{n}")).collect();
    let params: Vec<(&str, &str)> = keys
        .iter()
        .map(String::as_str)
        .zip(ids.iter().map(String::as_str))
        .collect();
    call(ec2, "StopInstances", &params).await;
}

/// The grant of the `n`th snapshot: everyone, the other account, or none.
fn grant(
    n: usize,
    group: &'static str,
    user: &'static str,
) -> Option<(&'static str, &'static str)> {
    match n % 3 {
        0 => Some((group, "all")),
        1 => Some((user, OTHER)),
        _ => None,
    }
}

/// A fleet of `gpus` GPU instances and what goes with it, made in moto.
async fn world(ec2: &Ec2, gpus: usize) {
    let mut held = Vec::new();
    for (n, start) in (0..gpus).step_by(BATCH).enumerate() {
        let kind = ["g5.xlarge", "p3.2xlarge"][n % 2];
        held.extend(launch(ec2, kind, BATCH.min(gpus - start)).await);
    }
    let cpus = launch(ec2, "t3.micro", gpus / 10).await;
    let every = |ids: &[String], n: usize| ids.iter().step_by(n).cloned().collect::<Vec<_>>();
    stop(ec2, &every(&held, 10)).await;
    stop(ec2, &every(&cpus, 2)).await;
    let zone = grab(
        &call(ec2, "DescribeInstances", &[("InstanceId.1", &held[0])]).await,
        "availabilityZone",
    );
    for n in 0..gpus / 10 {
        let params = [("AvailabilityZone", zone.as_str()), ("Size", "100")];
        let volume = grab(&call(ec2, "CreateVolume", &params).await, "volumeId");
        let made = call(ec2, "CreateSnapshot", &[("VolumeId", &volume)]).await;
        let snapshot = grab(&made, "snapshotId");
        if let Some(grant) = grant(n, "UserGroup.1", "UserId.1") {
            let params = [
                ("SnapshotId", snapshot.as_str()),
                ("Attribute", "createVolumePermission"),
                ("OperationType", "add"),
                grant,
            ];
            call(ec2, "ModifySnapshotAttribute", &params).await;
        }
    }
    for (n, instance) in held.iter().take(gpus / 20).enumerate() {
        let name = format!("image-{n}");
        let params = [("InstanceId", instance.as_str()), ("Name", name.as_str())];
        let image = grab(&call(ec2, "CreateImage", &params).await, "imageId");
        let add = (
            "LaunchPermission.Add.1.Group",
            "LaunchPermission.Add.1.UserId",
        );
        if let Some(grant) = grant(n, add.0, add.1) {
            call(ec2, "ModifyImageAttribute", &[("ImageId", &image), grant]).await;
        }
        let made = call(ec2, "AllocateAddress", &[("Domain", "vpc")]).await;
        let allocation = grab(&made, "allocationId");
        if n % 2 == 0 {
            let params = [
                ("AllocationId", allocation.as_str()),
                ("InstanceId", &held[n]),
            ];
            call(ec2, "AssociateAddress", &params).await;
        }
    }
}

/// What one run found: the GPU instances and the orphans, sorted.
type Found = (Vec<String>, Vec<String>);

struct Timed {
    wall: Duration,
    calls: usize,
    found: Found,
}

fn gpumeter(moto: &Moto, bin: &FleetBin) -> Timed {
    let before = moto.calls().len();
    let run = bin.run(&[]);
    let calls = moto.calls().len() - before;
    let errors: Vec<&Value> = run.rows.iter().filter(|r| !r["error"].is_null()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let found = (
        instance_ids(&run.rows, "bench"),
        orphan_ids(&run.rows, "bench"),
    );
    Timed {
        wall: run.wall,
        calls,
        found,
    }
}

fn boto3(moto: &Moto) -> (Timed, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let before = moto.calls().len();
    let started = Instant::now();
    let out = Command::new(root.join(".venv/bin/python"))
        .arg(root.join("benches/aws_fleet_boto3.py"))
        .args([moto.url.as_str(), "us-east-1"])
        .env("AWS_ACCESS_KEY_ID", "AKIDMOTOTEST")
        .env("AWS_SECRET_ACCESS_KEY", SECRET)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let wall = started.elapsed();
    let calls = moto.calls().len() - before;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids = |key: &str| -> Vec<String> {
        let mut ids: Vec<String> = answer[key]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
        ids.sort();
        ids
    };
    let found = (ids("instances"), ids("orphans"));
    (Timed { wall, calls, found }, ids("public"))
}

fn median(mut walls: Vec<Duration>) -> Duration {
    walls.sort();
    walls[walls.len() / 2]
}

/// Both, in turn, `RUNS` times over a fleet of `gpus`: the ratio of their median wall times.
fn measure(gpus: usize) -> f64 {
    let moto = moto().expect("moto in .venv");
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    rt.block_on(world(&ec2, gpus));
    let bin = FleetBin::new(
        &format!("aws-bench-{gpus}"),
        &[Account::Aws("bench", moto.url.clone())],
    );
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let us = gpumeter(&moto, &bin);
        let (them, public) = boto3(&moto);
        assert_eq!(us.found.0.len(), gpus, "every GPU instance");
        assert_eq!(us.found, them.found, "the same answer");
        // A third of the snapshots and images made are public, and nothing else.
        let made = gpus / 10 + gpus / 20;
        assert_eq!(
            public.len(),
            (gpus / 10).div_ceil(3) + (gpus / 20).div_ceil(3)
        );
        assert!(public.len() < made);
        ours.push(us);
        theirs.push(them);
    }
    let calls = |runs: &[Timed]| runs.iter().map(|t| t.calls).collect::<BTreeSet<_>>();
    let (us, them) = (
        median(ours.iter().map(|t| t.wall).collect()),
        median(theirs.iter().map(|t| t.wall).collect()),
    );
    let ratio = us.as_secs_f64() / them.as_secs_f64();
    println!(
        "{gpus:>5} GPU instances, {} orphans: gpumeter fleet {:.2} s, {:?} calls; \
         boto3 script {:.2} s, {:?} calls; ratio {ratio:.2}",
        ours[0].found.1.len(),
        us.as_secs_f64(),
        calls(&ours),
        them.as_secs_f64(),
        calls(&theirs),
    );
    ratio
}

#[test]
#[ignore = "a benchmark: scripts/fleet-bench runs it"]
fn aws_fleet_keeps_within_a_fifth_of_a_boto3_script_against_moto() {
    measure(100);
    let ratio = measure(1000);
    assert!(
        ratio <= MOST_RATIO,
        "gpumeter fleet took {ratio:.2} times the boto3 script's wall time at 1,000 instances"
    );
}
