//! `gpumeter sweep` against moto: what bills in the region with no running instance using it
//! is listed, each priced and the dearest first, and what a running instance uses is not.

use std::process::Stdio;

use gpumeter::provider::aws::query::Ec2;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::aws_moto::{SECRET, call, grab, moto_ec2, no_secret_anywhere, rt};
use crate::common::moto::moto;

/// A running instance with a second disk and an address (none of them listed), a stopped
/// instance (its disk is listed), a detached 500 GiB disk, a snapshot, an image and an
/// unassociated address (all listed).
struct World {
    listed: Vec<String>,
    unlisted: Vec<String>,
}

async fn world(ec2: &Ec2) -> World {
    let run = |kind: &'static str| {
        [
            ("ImageId", "ami-12345678"),
            ("MinCount", "1"),
            ("MaxCount", "1"),
            ("InstanceType", kind),
        ]
    };
    let running = call(ec2, "RunInstances", &run("g5.xlarge")).await;
    let (running, zone) = (
        grab(&running, "instanceId"),
        grab(&running, "availabilityZone"),
    );
    let stopped = grab(
        &call(ec2, "RunInstances", &run("g4dn.xlarge")).await,
        "instanceId",
    );
    call(ec2, "StopInstances", &[("InstanceId.1", &stopped)]).await;
    let described = call(ec2, "DescribeInstances", &[("InstanceId.1", &stopped)]).await;
    let stopped_root = grab(&described, "volumeId");
    let volume = |size: &'static str| [("AvailabilityZone", zone.clone()), ("Size", size.into())];
    let attached = grab(
        &call_owned(ec2, "CreateVolume", &volume("50")).await,
        "volumeId",
    );
    call(
        ec2,
        "AttachVolume",
        &[
            ("VolumeId", &attached),
            ("InstanceId", &running),
            ("Device", "/dev/sdf"),
        ],
    )
    .await;
    let detached = grab(
        &call_owned(ec2, "CreateVolume", &volume("500")).await,
        "volumeId",
    );
    let snapshot = grab(
        &call(ec2, "CreateSnapshot", &[("VolumeId", &detached)]).await,
        "snapshotId",
    );
    let image = grab(
        &call(
            ec2,
            "CreateImage",
            &[("InstanceId", &running), ("Name", "sweep-image")],
        )
        .await,
        "imageId",
    );
    let idle_ip = grab(
        &call(ec2, "AllocateAddress", &[("Domain", "vpc")]).await,
        "allocationId",
    );
    let used_ip = grab(
        &call(ec2, "AllocateAddress", &[("Domain", "vpc")]).await,
        "allocationId",
    );
    call(
        ec2,
        "AssociateAddress",
        &[("AllocationId", &used_ip), ("InstanceId", &running)],
    )
    .await;
    World {
        listed: vec![detached, stopped_root, snapshot, image, idle_ip],
        unlisted: vec![attached, used_ip, running],
    }
}

async fn call_owned(ec2: &Ec2, action: &str, params: &[(&str, String)]) -> String {
    let params: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
    call(ec2, action, &params).await
}

#[test]
fn the_sweep_lists_what_bills_without_a_running_instance_dearest_first_against_moto() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let w = rt.block_on(world(&ec2));
    let dir = tempfile::tempdir().unwrap();
    let out = crate::common::gpumeter()
        .args([
            "sweep",
            "--provider",
            "aws",
            "--region",
            "us-east-1",
            "--json",
        ])
        .env("GPUMETER_DATA_DIR", dir.path())
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .env("AWS_ACCESS_KEY_ID", "AKIDMOTOTEST")
        .env("AWS_SECRET_ACCESS_KEY", SECRET)
        .env("AWS_ENDPOINT_URL", &moto.url)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let said = format!("{text}{}", String::from_utf8_lossy(&out.stderr));
    no_secret_anywhere(dir.path(), &said);
    assert_eq!(out.status.code(), Some(3), "something bills: {said}");
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {said}"));
    let items = doc["items"].as_array().unwrap();
    let ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    for id in &w.listed {
        assert!(
            ids.contains(&id.as_str()),
            "{id} bills and is not listed: {ids:?}"
        );
    }
    for id in &w.unlisted {
        assert!(
            !ids.contains(&id.as_str()),
            "{id} is in use and listed: {ids:?}"
        );
    }
    // The dearest first: every priced row costs at least what the next one does.
    let costs: Vec<Decimal> = items
        .iter()
        .filter_map(|i| i["monthly_cost"].as_str())
        .map(|c| c.parse().unwrap())
        .collect();
    assert!(costs.windows(2).all(|w| w[0] >= w[1]), "{costs:?}");
    assert_eq!(
        items[0]["id"],
        w.listed[0].as_str(),
        "the 500 GiB disk costs most"
    );
    assert_eq!(doc["sheet"], "aws-us-east-1");
    // Each row rounds to the cent on its own; the total rounds the exact sum once.
    let sum: Decimal = costs.iter().sum();
    let total: Decimal = doc["monthly_total"].as_str().unwrap().parse().unwrap();
    let cents = Decimal::from(costs.len()) / Decimal::ONE_HUNDRED;
    assert!((sum - total).abs() <= cents, "{sum} against {total}");
}
