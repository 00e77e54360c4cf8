//! Fleet discovery against moto: `instances()` lists every GPU instance of the region, whatever
//! its state, read through several pages of DescribeInstances and DescribeVolumes (five items a
//! page), each with its root volume, its disks, its elastic IP and its tags; CPU instances and a
//! terminated GPU instance are left out. The sweep still lists an unattached volume.

use std::collections::BTreeMap;

use gpumeter::meter::{InstanceState, ResourceKind};
use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::AwsSettings;
use gpumeter::provider::aws::query::Ec2;
use gpumeter::provider::{Discovered, Provider};
use rust_decimal::Decimal;

use crate::aws_moto::{call, env, grab, moto_ec2, policy, rt};
use crate::common::moto::moto;

/// What was launched, as moto answered it.
struct Launched {
    /// The GPU instances still held: id to (type, state, tagged team=vision).
    gpus: BTreeMap<String, (&'static str, InstanceState, bool)>,
    /// The CPU instances and the terminated GPU one.
    left_out: Vec<String>,
    /// The instance the data volume and the address are tied to.
    busy: String,
    data_volume: String,
    allocation: String,
    unattached: String,
}

async fn launch(ec2: &Ec2, kind: &str, team: bool) -> String {
    let mut params = vec![
        ("ImageId", "ami-12345678"),
        ("MinCount", "1"),
        ("MaxCount", "1"),
        ("InstanceType", kind),
    ];
    if team {
        params.extend([
            ("TagSpecification.1.ResourceType", "instance"),
            ("TagSpecification.1.Tag.1.Key", "team"),
            ("TagSpecification.1.Tag.1.Value", "vision"),
        ]);
    }
    grab(&call(ec2, "RunInstances", &params).await, "instanceId")
}

async fn world(ec2: &Ec2) -> Launched {
    // (type, stopped, tagged)
    let plan = [
        ("g5.xlarge", false, true),
        ("g5.xlarge", true, true),
        ("g5.xlarge", false, false),
        ("g4dn.xlarge", true, false),
        ("g4dn.xlarge", false, true),
        ("p3.2xlarge", false, false),
    ];
    let mut gpus = BTreeMap::new();
    for (kind, stopped, team) in plan {
        let id = launch(ec2, kind, team).await;
        let state = if stopped {
            call(ec2, "StopInstances", &[("InstanceId.1", &id)]).await;
            InstanceState::Stopped
        } else {
            InstanceState::Running
        };
        gpus.insert(id, (kind, state, team));
    }
    let gone = launch(ec2, "g5.xlarge", true).await;
    call(ec2, "TerminateInstances", &[("InstanceId.1", &gone)]).await;
    let left_out = vec![
        launch(ec2, "t3.micro", true).await,
        launch(ec2, "t3.micro", false).await,
        gone,
    ];
    let busy = gpus.keys().next().unwrap().clone();
    let described = call(ec2, "DescribeInstances", &[("InstanceId.1", &busy)]).await;
    let zone = grab(&described, "availabilityZone");
    let volume = |size: &'static str| [("AvailabilityZone", zone.as_str()), ("Size", size)];
    let data_volume = grab(&call(ec2, "CreateVolume", &volume("50")).await, "volumeId");
    let attach = [
        ("VolumeId", data_volume.as_str()),
        ("InstanceId", busy.as_str()),
        ("Device", "/dev/sdf"),
    ];
    call(ec2, "AttachVolume", &attach).await;
    let unattached = grab(&call(ec2, "CreateVolume", &volume("200")).await, "volumeId");
    let allocation = grab(
        &call(ec2, "AllocateAddress", &[("Domain", "vpc")]).await,
        "allocationId",
    );
    let associate = [("AllocationId", allocation.as_str()), ("InstanceId", &busy)];
    call(ec2, "AssociateAddress", &associate).await;
    Launched {
        gpus,
        left_out,
        busy,
        data_volume,
        allocation,
        unattached,
    }
}

/// The root volume of instance `id` and its size, as moto describes them.
async fn root_of(ec2: &Ec2, id: &str) -> (String, Decimal) {
    let described = call(ec2, "DescribeInstances", &[("InstanceId.1", id)]).await;
    let volume = grab(&described, "volumeId");
    let volumes = call(ec2, "DescribeVolumes", &[("VolumeId.1", &volume)]).await;
    (volume, grab(&volumes, "size").parse().unwrap())
}

fn check_one(d: &Discovered, want: (&str, InstanceState, bool), root: &(String, Decimal)) {
    let id = &d.instance.id;
    assert_eq!(d.instance.sku, want.0, "{id}");
    assert_eq!(d.instance.state, want.1, "{id}");
    assert_eq!(d.instance.provider, "aws");
    assert_eq!(d.instance.region.as_deref(), Some("us-east-1"));
    assert_eq!(
        d.tags.get("team").map(String::as_str),
        want.2.then_some("vision"),
        "{id}: {:?}",
        d.tags
    );
    let disk = d
        .resources
        .iter()
        .find(|r| r.kind == ResourceKind::SystemDisk)
        .unwrap_or_else(|| panic!("{id} has no root volume: {:?}", d.resources));
    assert_eq!((&disk.id, disk.size_gib), (&root.0, root.1), "{id}");
    assert!(
        disk.deleted_with_instance,
        "{id}: the root volume goes with it"
    );
}

#[test]
fn instances_lists_every_gpu_instance_with_its_disks_address_and_tags_across_pages_against_moto() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let w = rt.block_on(world(&ec2));
    let roots: BTreeMap<String, (String, Decimal)> = w
        .gpus
        .keys()
        .map(|id| (id.clone(), rt.block_on(root_of(&ec2, id))))
        .collect();
    let settings = AwsSettings::resolve(&env(&moto.url), None, None);
    let aws = Aws::with_policy(settings, policy(), policy()).with_page_size(5);
    let sent_before = moto.calls().len();
    let found = rt.block_on(aws.instances()).unwrap();

    let ids: Vec<&str> = found.iter().map(|d| d.instance.id.as_str()).collect();
    let want: Vec<&str> = w.gpus.keys().map(String::as_str).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, want, "exactly the GPU instances still held");
    for left in &w.left_out {
        assert!(!ids.contains(&left.as_str()), "{left} is listed: {ids:?}");
    }
    for d in &found {
        check_one(d, w.gpus[&d.instance.id], &roots[&d.instance.id]);
        let others: Vec<&str> = d
            .resources
            .iter()
            .filter(|r| r.kind != ResourceKind::SystemDisk)
            .map(|r| r.id.as_str())
            .collect();
        if d.instance.id == w.busy {
            assert_eq!(others, [w.data_volume.as_str(), w.allocation.as_str()]);
            let data = d.resources.iter().find(|r| r.id == w.data_volume).unwrap();
            assert_eq!(
                (data.kind, data.size_gib),
                (ResourceKind::DataDisk, Decimal::from(50))
            );
        } else {
            assert!(others.is_empty(), "{}: {others:?}", d.instance.id);
        }
    }

    // Both listings took several pages, each asking five items.
    let pages = moto.pages();
    for action in ["DescribeInstances", "DescribeVolumes"] {
        assert!(
            pages.get(action).copied().unwrap_or(0) >= 2,
            "{action}: {pages:?}"
        );
    }
    let sent = &moto.calls()[sent_before..];
    let described: Vec<&String> = sent
        .iter()
        .filter(|c| c.starts_with("ec2 DescribeInstances"))
        .collect();
    assert!(described.len() >= 2, "{sent:?}");
    assert!(
        described.iter().all(|c| c.contains("MaxResults=5")),
        "{sent:?}"
    );

    let swept = rt.block_on(aws.sweep()).unwrap();
    assert!(
        swept.iter().any(|r| r.id == w.unattached),
        "the unattached volume is swept: {swept:?}"
    );
    assert_eq!(moto.violations(), Vec::<String>::new());
}

/// 255 instances at five a page take 51 pages, one past the bound: the listing is an error
/// that says it was not read to its end, never the first 250 passed off as the account.
#[test]
fn a_listing_past_the_page_bound_is_an_error_not_a_short_list() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    rt.block_on(call(
        &ec2,
        "RunInstances",
        &[
            ("ImageId", "ami-12345678"),
            ("MinCount", "255"),
            ("MaxCount", "255"),
            ("InstanceType", "g5.xlarge"),
        ],
    ));
    let settings = AwsSettings::resolve(&env(&moto.url), None, None);
    let aws = Aws::with_policy(settings, policy(), policy()).with_page_size(5);
    let err = rt.block_on(aws.instances()).unwrap_err().to_string();
    assert!(err.contains("not read to its end"), "{err}");
}
