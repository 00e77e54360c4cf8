//! Cleanup against moto: the sweep lists what bills with no running instance (with what its data
//! exposes), and each leftover is deleted through the adapter in the core's plan order, read
//! back, with exactly the calls its plan named; EC2's own refusal comes back as it is.

use std::time::Duration;

use gpumeter::meter::ResourceKind;
use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::AwsSettings;
use gpumeter::provider::aws::query::Ec2;
use gpumeter::provider::readback::Readback;
use gpumeter::provider::{
    CleanupFilter, CleanupPlan, LinkedResource, Provider, Severity, Sharing, findings,
};
use jiff::Timestamp;

use crate::aws_moto::{call, env, grab, moto_ec2, policy, rt, run_instance};
use crate::common::moto::{Moto, moto};

fn adapter(url: &str) -> Aws {
    let settings = AwsSettings::resolve(&env(url), None, None);
    Aws::with_policy(settings, policy(), policy()).with_readback(Readback {
        attempts: 20,
        interval: Duration::from_millis(50),
    })
}

async fn volume(ec2: &Ec2, zone: &str, size: &str, encrypted: &str) -> String {
    let params = [
        ("AvailabilityZone", zone),
        ("Size", size),
        ("Encrypted", encrypted),
    ];
    grab(&call(ec2, "CreateVolume", &params).await, "volumeId")
}

/// The requests moto was sent since `from`, each run of one repeated read shown once (as the
/// adapter's report shows them).
fn sent_since(moto: &Moto, from: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for call in moto.calls().into_iter().skip(from) {
        if out.last() != Some(&call) {
            out.push(call);
        }
    }
    out
}

fn find<'a>(found: &'a [LinkedResource], id: &str) -> &'a LinkedResource {
    found
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("{id} is not in the sweep: {found:#?}"))
}

/// An encrypted volume attached to nothing, a snapshot of it, a snapshot of an unencrypted
/// volume shared with everyone, an image of an instance since terminated, an idle address.
struct Leftovers {
    volume: String,
    snapshot: String,
    public: String,
    image: String,
    address: String,
}

async fn leftovers(ec2: &Ec2) -> Leftovers {
    let (running, zone) = run_instance(ec2).await;
    let volume = volume(ec2, &zone, "20", "true").await;
    let snapshot = grab(
        &call(ec2, "CreateSnapshot", &[("VolumeId", &volume)]).await,
        "snapshotId",
    );
    let plain = self::volume(ec2, &zone, "8", "false").await;
    let public = grab(
        &call(ec2, "CreateSnapshot", &[("VolumeId", &plain)]).await,
        "snapshotId",
    );
    call(ec2, "DeleteVolume", &[("VolumeId", &plain)]).await;
    call(
        ec2,
        "ModifySnapshotAttribute",
        &[
            ("SnapshotId", &public),
            ("Attribute", "createVolumePermission"),
            ("OperationType", "add"),
            ("UserGroup.1", "all"),
        ],
    )
    .await;
    let image = grab(
        &call(
            ec2,
            "CreateImage",
            &[("InstanceId", &running), ("Name", "leftover-image")],
        )
        .await,
        "imageId",
    );
    call(ec2, "TerminateInstances", &[("InstanceId.1", &running)]).await;
    let address = grab(
        &call(ec2, "AllocateAddress", &[("Domain", "vpc")]).await,
        "allocationId",
    );
    Leftovers {
        volume,
        snapshot,
        public,
        image,
        address,
    }
}

#[test]
fn the_sweep_shows_exposure_and_cleanup_deletes_each_leftover_read_back_against_moto() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let w = rt.block_on(leftovers(&ec2));
    let aws = adapter(&moto.url);
    let found = rt.block_on(aws.sweep()).unwrap();

    let volume = find(&found, &w.volume);
    assert_eq!(volume.kind, ResourceKind::DataDisk);
    assert_eq!(
        (volume.exposure.encrypted, volume.attached_to.as_deref()),
        (Some(true), None)
    );
    let snapshot = find(&found, &w.snapshot);
    assert_eq!(
        (&snapshot.exposure.encrypted, &snapshot.exposure.shared),
        (&Some(true), &Sharing::Private)
    );
    let public = find(&found, &w.public);
    assert_eq!(
        (&public.exposure.encrypted, &public.exposure.shared),
        (&Some(false), &Sharing::Public)
    );
    let image = find(&found, &w.image);
    assert_eq!(
        (image.kind, &image.exposure.shared),
        (ResourceKind::Image, &Sharing::Private)
    );
    let address = find(&found, &w.address);
    assert_eq!(
        (address.kind, address.attached_to.as_deref()),
        (ResourceKind::PublicIp, None)
    );
    // The snapshots CreateImage made are listed as the image's, so they go after it.
    let behind: Vec<&LinkedResource> = found
        .iter()
        .filter(|r| r.backs_image.as_deref() == Some(w.image.as_str()))
        .collect();
    assert!(!behind.is_empty(), "{found:#?}");
    let grave = findings(&found);
    assert_eq!(
        (grave[0].severity, grave[0].id.as_str()),
        (Severity::Critical, w.public.as_str()),
        "{grave:#?}"
    );

    let plan = CleanupPlan::new(&found, &CleanupFilter::default(), &[], Timestamp::now()).unwrap();
    assert!(plan.refused.is_empty(), "{:?}", plan.refused);
    let ids = plan.ids();
    let at = |id: &str| ids.iter().position(|i| i == id).unwrap();
    assert!(at(&w.image) < at(&w.address) && at(&w.address) < at(&w.volume));
    assert!(behind.iter().all(|b| at(&w.volume) < at(&b.id)));
    let promised: Vec<String> = plan
        .delete
        .iter()
        .flat_map(|r| aws.delete_plan(r))
        .collect();

    let from = moto.calls().len();
    let outcomes = rt.block_on(gpumeter::provider::cleanup::run(&aws, &plan.delete));
    for o in &outcomes {
        let report = o
            .result
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", o.resource.id));
        assert!(report.confirmed, "{}: {report:?}", o.resource.id);
        assert_eq!(
            report.calls,
            aws.delete_plan(&o.resource),
            "{}",
            o.resource.id
        );
    }
    assert_eq!(sent_since(&moto, from), promised);

    // moto no longer lists any of them, and a second sweep finds nothing.
    let snaps = rt.block_on(call(&ec2, "DescribeSnapshots", &[("Owner.1", "self")]));
    for id in [&w.snapshot, &w.public] {
        assert!(
            !snaps.contains(id.as_str()),
            "{id} is still listed: {snaps}"
        );
    }
    let images = rt.block_on(call(&ec2, "DescribeImages", &[("Owner.1", "self")]));
    assert!(!images.contains(&w.image), "{images}");
    let addresses = rt.block_on(call(&ec2, "DescribeAddresses", &[]));
    assert!(!addresses.contains(&w.address), "{addresses}");
    let volumes = rt.block_on(call(&ec2, "DescribeVolumes", &[]));
    assert!(!volumes.contains(&w.volume), "{volumes}");
    let again = rt.block_on(aws.sweep()).unwrap();
    assert!(again.is_empty(), "{again:#?}");
}

#[test]
fn a_snapshot_behind_a_kept_image_is_refused_by_the_plan_and_by_aws_in_its_own_words() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let (running, _) = rt.block_on(run_instance(&ec2));
    let image = grab(
        &rt.block_on(call(
            &ec2,
            "CreateImage",
            &[("InstanceId", &running), ("Name", "kept-image")],
        )),
        "imageId",
    );
    let aws = adapter(&moto.url);
    let found = rt.block_on(aws.sweep()).unwrap();
    let snap = found
        .iter()
        .find(|r| r.backs_image.as_deref() == Some(image.as_str()))
        .unwrap_or_else(|| panic!("no snapshot behind {image}: {found:#?}"))
        .clone();
    let only_it = CleanupFilter {
        ids: vec![snap.id.clone()],
        ..CleanupFilter::default()
    };
    let plan = CleanupPlan::new(&found, &only_it, &[], Timestamp::now()).unwrap();
    assert!(plan.delete.is_empty(), "{:?}", plan.delete);
    assert_eq!(plan.refused[0].id, snap.id);
    assert!(plan.refused[0].why.contains(&image), "{:?}", plan.refused);

    // Asked anyway, EC2 refuses, and its code and words come back.
    let e = rt.block_on(aws.delete(&snap)).unwrap_err();
    assert_eq!(e.code(), Some("InvalidSnapshot.InUse"), "{e}");
    assert!(e.message().contains(&snap.id), "{e}");
    assert_eq!(e.call(), Some("ec2 DeleteSnapshot"), "{e}");
    let snaps = rt.block_on(call(&ec2, "DescribeSnapshots", &[("Owner.1", "self")]));
    assert!(snaps.contains(&snap.id), "{snaps}");
}

#[test]
fn a_disk_of_a_stopped_instance_is_detached_then_deleted_against_moto() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let (stopped, zone) = rt.block_on(run_instance(&ec2));
    let disk = rt.block_on(volume(&ec2, &zone, "30", "false"));
    rt.block_on(call(
        &ec2,
        "AttachVolume",
        &[
            ("VolumeId", &disk),
            ("InstanceId", &stopped),
            ("Device", "/dev/sdf"),
        ],
    ));
    rt.block_on(call(&ec2, "StopInstances", &[("InstanceId.1", &stopped)]));
    let aws = adapter(&moto.url);
    let found = rt.block_on(aws.sweep()).unwrap();
    let r = find(&found, &disk).clone();
    assert_eq!(r.attached_to.as_deref(), Some(stopped.as_str()), "{r:?}");
    assert_eq!(r.exposure.encrypted, Some(false));
    let promised = aws.delete_plan(&r);
    let actions: Vec<&str> = promised
        .iter()
        .map(|c| c.split(' ').nth(1).unwrap())
        .collect();
    assert_eq!(
        actions,
        [
            "DescribeVolumes",
            "DescribeInstances",
            "DetachVolume",
            "DescribeVolumes",
            "DeleteVolume",
            "DescribeVolumes"
        ]
    );
    let from = moto.calls().len();
    let report = rt.block_on(aws.delete(&r)).unwrap();
    assert!(report.confirmed, "{report:?}");
    assert_eq!(report.calls, promised);
    assert_eq!(sent_since(&moto, from), promised);
    let volumes = rt.block_on(call(&ec2, "DescribeVolumes", &[]));
    assert!(!volumes.contains(&disk), "{volumes}");
}

/// `gpumeter ARGS --provider aws --region us-east-1` against moto, as a user runs it.
fn gpumeter(moto: &Moto, dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    crate::common::gpumeter()
        .args(args)
        .args(["--provider", "aws", "--region", "us-east-1"])
        .env("GPUMETER_DATA_DIR", dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .env("AWS_ACCESS_KEY_ID", "AKIDMOTOTEST")
        .env("AWS_SECRET_ACCESS_KEY", crate::aws_moto::SECRET)
        .env("AWS_ENDPOINT_URL", &moto.url)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("GPUMETER_ACTION_DEADLINE", "60s")
        .env_remove("AWS_PROFILE")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn swept(moto: &Moto, dir: &std::path::Path) -> (Option<i32>, Vec<serde_json::Value>) {
    let out = gpumeter(moto, dir, &["sweep", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (
        out.status.code(),
        doc["items"].as_array().cloned().unwrap_or_default(),
    )
}

#[test]
fn the_cli_sweeps_dry_runs_cleans_up_by_id_and_sweeps_clean_against_moto() {
    let Some(moto) = moto() else { return };
    let w = rt().block_on(leftovers(&moto_ec2(&moto.url)));
    let dir = tempfile::tempdir().unwrap();
    let (code, items) = swept(&moto, dir.path());
    assert_eq!(code, Some(3));
    let ids: Vec<String> = items
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect();
    for id in [&w.volume, &w.snapshot, &w.public, &w.image, &w.address] {
        assert!(ids.contains(id), "{id} is not listed: {ids:?}");
    }
    let row = |id: &str| items.iter().find(|i| i["id"] == id).unwrap().clone();
    assert_eq!(row(&w.public)["public"], true);
    assert_eq!(row(&w.public)["findings"][0]["severity"], "critical");
    assert_eq!(row(&w.snapshot)["public"], false);
    assert_eq!(row(&w.volume)["encrypted"], true);
    assert!(
        row(&w.volume)["monthly_cost"].is_string(),
        "{:?}",
        row(&w.volume)
    );

    let mut args = vec!["cleanup"];
    for id in &ids {
        args.extend(["--id", id.as_str()]);
    }
    let dry: Vec<&str> = args.iter().copied().chain(["--dry-run"]).collect();
    let out = gpumeter(&moto, dir.path(), &dry);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("DeregisterImage") && text.contains("ReleaseAddress"),
        "{text}"
    );
    let (_, after_dry) = swept(&moto, dir.path());
    assert_eq!(after_dry.len(), items.len(), "a dry run deleted nothing");

    let yes: Vec<&str> = args.iter().copied().chain(["--yes"]).collect();
    let out = gpumeter(&moto, dir.path(), &yes);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains(&format!("{0} of {0} deleted and read back", ids.len())),
        "{text}"
    );
    let (code, left) = swept(&moto, dir.path());
    assert_eq!((code, left.len()), (Some(0), 0), "{left:?}");
}

/// The ids of what [`tagged_world`] made.
struct TagWorld {
    tagged: String,
    untagged: String,
    snapshot: String,
    image: String,
    running: String,
}

/// A running instance, a volume tagged `project=llm` and `owner=ana`, an untagged one, a
/// snapshot of the first tagged `project=llm`, and an image of the instance.
async fn tagged_world(ec2: &Ec2) -> TagWorld {
    let (running, zone) = run_instance(ec2).await;
    let tagged = grab(
        &call(
            ec2,
            "CreateVolume",
            &[
                ("AvailabilityZone", zone.as_str()),
                ("Size", "20"),
                ("TagSpecification.1.ResourceType", "volume"),
                ("TagSpecification.1.Tag.1.Key", "project"),
                ("TagSpecification.1.Tag.1.Value", "llm"),
                ("TagSpecification.1.Tag.2.Key", "owner"),
                ("TagSpecification.1.Tag.2.Value", "ana"),
            ],
        )
        .await,
        "volumeId",
    );
    let untagged = volume(ec2, &zone, "30", "false").await;
    let snapshot = grab(
        &call(
            ec2,
            "CreateSnapshot",
            &[
                ("VolumeId", tagged.as_str()),
                ("TagSpecification.1.ResourceType", "snapshot"),
                ("TagSpecification.1.Tag.1.Key", "project"),
                ("TagSpecification.1.Tag.1.Value", "llm"),
            ],
        )
        .await,
        "snapshotId",
    );
    let image = grab(
        &call(
            ec2,
            "CreateImage",
            &[("InstanceId", running.as_str()), ("Name", "tagged-image")],
        )
        .await,
        "imageId",
    );
    TagWorld {
        tagged,
        untagged,
        snapshot,
        image,
        running,
    }
}

/// A volume tagged `project=llm` beside an untagged one, a tagged snapshot of the first and an
/// image of a running instance: the sweep reads each one's tags and where it came from, and
/// `--tag` chooses by them in `sweep` and `cleanup` alike.
#[test]
fn the_cli_sweeps_and_cleans_up_by_tag_and_says_where_each_came_from_against_moto() {
    let Some(moto) = moto() else { return };
    let TagWorld {
        tagged,
        untagged,
        snapshot,
        image,
        running,
    } = rt().block_on(tagged_world(&moto_ec2(&moto.url)));
    let dir = tempfile::tempdir().unwrap();
    let (_, items) = swept(&moto, dir.path());
    let row = |id: &str| {
        items
            .iter()
            .find(|i| i["id"] == id)
            .unwrap_or_else(|| panic!("{id} is not listed: {items:?}"))
            .clone()
    };
    assert_eq!(
        row(&tagged)["tags"],
        serde_json::json!({"project": "llm", "owner": "ana"})
    );
    assert_eq!(row(&untagged)["tags"], serde_json::json!({}));
    assert_eq!(row(&untagged)["origin"], serde_json::Value::Null);
    assert_eq!(
        row(&snapshot)["origin"],
        tagged.as_str(),
        "a snapshot names its volume"
    );
    assert_eq!(
        row(&snapshot)["tags"],
        serde_json::json!({"project": "llm"})
    );
    assert_eq!(row(&image)["origin"], running.as_str(), "sourceInstanceId");
    // CreateImage's own snapshots name the instance in their description.
    let behind: Vec<&serde_json::Value> = items
        .iter()
        .filter(|i| {
            i["kind"] == "snapshot"
                && i["id"] != snapshot.as_str()
                && i["origin"] == running.as_str()
        })
        .collect();
    assert!(!behind.is_empty(), "{items:?}");

    let out = gpumeter(
        &moto,
        dir.path(),
        &["sweep", "--json", "--tag", "project=llm"],
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut ids: Vec<&str> = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    let mut want = [tagged.as_str(), snapshot.as_str()];
    want.sort_unstable();
    assert_eq!(ids, want);

    let out = gpumeter(
        &moto,
        dir.path(),
        &["cleanup", "--tag", "project=llm", "--kind", "disk", "--yes"],
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("1 of 1 deleted and read back"), "{text}");
    let (_, left) = swept(&moto, dir.path());
    let left: Vec<&str> = left.iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert!(!left.contains(&tagged.as_str()), "{left:?}");
    assert!(
        left.contains(&untagged.as_str()) && left.contains(&snapshot.as_str()),
        "{left:?}"
    );
}
