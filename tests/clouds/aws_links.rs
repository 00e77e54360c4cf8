//! A released instance's leftovers against moto, with the adapter's memory file gone (it lived
//! on the root disk the release deleted) or never written (a laptop that never ran the cockpit):
//! they come from the account's sweep, by the ids the ledger recorded and by the links EC2
//! keeps after termination, and another instance's leftovers in the same account stay out.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gpumeter::ledger::Ledger;
use gpumeter::meter::ResourceKind;
use gpumeter::provider::Provider;
use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::AwsSettings;
use gpumeter::provider::aws::query::Ec2;
use serde_json::Value;

use crate::aws_moto::{Cli, call, env, grab, moto_ec2, policy, rt};
use crate::common::moto::{all_pages, moto};

/// One instance's resources: its data volume (kept on termination), a snapshot of that
/// volume, an image of the instance, an elastic IP associated with it.
struct Trained {
    instance: String,
    data: String,
    snapshot: String,
    image: String,
    allocation: String,
}

async fn trained(ec2: &Ec2, name: &str) -> Trained {
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
            ("BlockDeviceMapping.2.DeviceName", "/dev/sdf"),
            ("BlockDeviceMapping.2.Ebs.VolumeSize", "500"),
            ("BlockDeviceMapping.2.Ebs.VolumeType", "gp3"),
            ("BlockDeviceMapping.2.Ebs.DeleteOnTermination", "false"),
        ],
    )
    .await;
    let instance = grab(&run, "instanceId");
    let volumes = all_pages(
        ec2,
        "DescribeVolumes",
        &[
            ("Filter.1.Name", "attachment.instance-id"),
            ("Filter.1.Value.1", &instance),
        ],
    )
    .await;
    let data = volumes
        .split("<item>")
        .find(|item| item.contains("<size>500</size>"))
        .map_or_else(
            || panic!("no 500 GiB volume on {instance}: {volumes}"),
            |item| grab(item, "volumeId"),
        );
    let snapshot = grab(
        &call(ec2, "CreateSnapshot", &[("VolumeId", &data)]).await,
        "snapshotId",
    );
    let image = grab(
        &call(
            ec2,
            "CreateImage",
            &[("InstanceId", &instance), ("Name", name)],
        )
        .await,
        "imageId",
    );
    let allocation = grab(
        &call(ec2, "AllocateAddress", &[("Domain", "vpc")]).await,
        "allocationId",
    );
    let assoc = [
        ("AllocationId", allocation.as_str()),
        ("InstanceId", instance.as_str()),
    ];
    call(ec2, "AssociateAddress", &assoc).await;
    Trained {
        instance,
        data,
        snapshot,
        image,
        allocation,
    }
}

/// Terminates `instance` and waits, within a bound, until EC2 says it is terminated.
async fn terminate(ec2: &Ec2, instance: &str) {
    call(ec2, "TerminateInstances", &[("InstanceId.1", instance)]).await;
    let start = Instant::now();
    loop {
        let back = call(ec2, "DescribeInstances", &[("InstanceId.1", instance)]).await;
        if back.contains("<name>terminated</name>") {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{instance} is not terminated: {back}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn cli(url: &str, dir: &Path) -> Cli {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("config.toml"), "").unwrap();
    Cli {
        url: url.to_string(),
        dir: dir.to_path_buf(),
        seen: String::new(),
        vars: Vec::new(),
    }
}

fn args(cmd: &[&str], instance: &str) -> Vec<String> {
    [
        "--provider",
        "aws",
        "--instance",
        instance,
        "--region",
        "us-east-1",
    ]
    .into_iter()
    .chain(cmd.iter().copied())
    .map(str::to_string)
    .collect()
}

fn listed<'a>(list: &'a Value, id: &str) -> Option<&'a Value> {
    list["would_keep_billing"]
        .as_array()
        .unwrap_or_else(|| panic!("no list in {list}"))
        .iter()
        .find(|i| i["id"] == id)
}

/// The ids an inventory lists.
fn ids(inventory: &gpumeter::provider::Inventory) -> Vec<&str> {
    inventory.resources.iter().map(|r| r.id.as_str()).collect()
}

/// Another instance's leftovers are none of this one's.
fn none_of(list: &Value, other: &Trained) {
    for id in [
        &other.data,
        &other.snapshot,
        &other.image,
        &other.allocation,
    ] {
        assert!(listed(list, id).is_none(), "{id} is not ours: {list}");
    }
}

#[test]
fn a_released_instances_leftovers_come_from_the_sweep_without_the_memory_file_against_moto() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let ours = rt.block_on(trained(&ec2, "train-image"));
    let other = rt.block_on(trained(&ec2, "other-image"));
    rt.block_on(terminate(&ec2, &other.instance));

    let root: PathBuf =
        std::env::temp_dir().join(format!("gpumeter-aws-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("seen");
    let mut seen = cli(&moto.url, &dir);

    // A status while the instance runs records its resources in the ledger.
    let out = seen.run(&args(&["status", "--json"], &ours.instance));
    assert!(out.status.success(), "{}", seen.seen);
    let recorded = Ledger::open_read_only(dir.join("ledger.sqlite"))
        .unwrap()
        .resource_ids()
        .unwrap();
    for id in [&ours.data, &ours.snapshot, &ours.image, &ours.allocation] {
        assert!(
            recorded
                .iter()
                .any(|(i, r, _)| *i == ours.instance && r == id),
            "{id} not recorded: {recorded:?}"
        );
    }

    rt.block_on(terminate(&ec2, &ours.instance));
    // The memory file went with the root disk.
    let memory = dir.join(format!("aws-{}.json", ours.instance));
    assert!(
        memory.exists(),
        "the adapter keeps no memory file at {memory:?}"
    );
    std::fs::remove_file(&memory).unwrap();

    let (code, list) = seen.json(&args(&["checklist", "--json"], &ours.instance));
    assert_eq!(code, 3, "{list}");
    assert_eq!(list["instance_state"], "released", "{list}");
    let data = listed(&list, &ours.data).unwrap_or_else(|| panic!("no data volume: {list}"));
    assert_eq!(
        (&data["state"], &data["monthly_cost"]),
        (&Value::from("available"), &Value::from("40.00")),
        "{list}"
    );
    let snapshot = listed(&list, &ours.snapshot).unwrap_or_else(|| panic!("no snapshot: {list}"));
    assert_eq!(snapshot["monthly_cost"], "25.00", "{list}");
    let image = listed(&list, &ours.image).unwrap_or_else(|| panic!("no image: {list}"));
    assert!(image["monthly_cost"].is_string(), "{list}");
    assert!(listed(&list, &ours.allocation).is_some(), "{list}");
    none_of(&list, &other);
    // Every resource had an id recorded: nothing is said to be unknown.
    assert!(list.get("unknown").is_none(), "{list}");

    adapter_without_memory(&moto.url, recorded, &ours, &other);
    let fresh = fresh_dir(&moto.url, &root, &ours, &other);

    crate::aws_moto::no_secret_anywhere(&dir, &format!("{}{fresh}", seen.seen));
    let _ = std::fs::remove_dir_all(&root);
}

/// The adapter itself, told the ledger's ids, with no memory file at all.
fn adapter_without_memory(
    url: &str,
    recorded: Vec<(String, String, bool)>,
    ours: &Trained,
    other: &Trained,
) {
    let rt = rt();
    let settings = AwsSettings::resolve(&env(url), Some(ours.instance.clone()), None);
    let aws = Aws::with_policy(settings, policy(), policy()).recalling(recorded);
    let inventory = rt.block_on(aws.inventory()).unwrap();
    let found = ids(&inventory);
    for id in [&ours.data, &ours.snapshot, &ours.image, &ours.allocation] {
        assert!(found.contains(&id.as_str()), "{id} missing from {found:?}");
    }
    for id in [
        &other.data,
        &other.snapshot,
        &other.image,
        &other.allocation,
    ] {
        assert!(!found.contains(&id.as_str()), "{id} is not ours: {found:?}");
    }
    let kind = |id: &str| {
        inventory
            .resources
            .iter()
            .find(|r| r.id == id)
            .unwrap()
            .kind
    };
    assert_eq!(kind(&ours.data), ResourceKind::DataDisk);
    assert_eq!(kind(&ours.image), ResourceKind::Image);
    assert!(aws.gaps().is_empty(), "{:?}", aws.gaps());
}

/// A data directory with no history: what EC2 still links to the instance (its image and the
/// snapshots behind it), and a plain line that what has no link may be missing. Returns what
/// the commands said.
fn fresh_dir(url: &str, root: &Path, ours: &Trained, other: &Trained) -> String {
    let mut fresh = cli(url, &root.join("fresh"));
    let (code, list) = fresh.json(&args(&["checklist", "--json"], &ours.instance));
    assert_eq!(code, 3, "{list}");
    let image = listed(&list, &ours.image).unwrap_or_else(|| panic!("no image: {list}"));
    assert!(image["monthly_cost"].is_string(), "{list}");
    let named = |instance: &str| {
        let by = format!("CreateImage({instance})");
        list["would_keep_billing"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["kind"] == "snapshot" && i["name"].as_str().unwrap().contains(&by))
            .count()
    };
    assert!(
        named(&ours.instance) > 0,
        "the image's snapshots are missing: {list}"
    );
    assert_eq!(named(&other.instance), 0, "{list}");
    none_of(&list, other);
    let unknown: Vec<&str> = list["unknown"]
        .as_array()
        .unwrap_or_else(|| panic!("no gap line: {list}"))
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        unknown
            .iter()
            .any(|g| g.contains(&ours.instance) && g.contains("may still bill")),
        "{unknown:?}"
    );
    // Asked again: what the first reading found by the links is no history of the volumes.
    let text = fresh.run(&args(&["checklist"], &ours.instance));
    let said = String::from_utf8_lossy(&text.stdout);
    assert!(said.contains("[?] not checked:"), "{said}");

    fresh.seen
}
