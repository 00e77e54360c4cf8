//! Who may use the account's snapshots and images, against moto: the public ones are found in
//! listings (`RestorableBy=all`, `isPublic`) whose calls do not grow with what they list, 5 or
//! 50 of each; the rest are read once (`DescribeSnapshotAttribute`, `DescribeImageAttribute`)
//! and kept until the listings show the resource changed, so a second sweep or inventory reads
//! none and still says the same, and the fleet's sweep reads none at all.

use std::collections::{BTreeMap, BTreeSet};

use gpumeter::meter::ResourceKind;
use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::AwsSettings;
use gpumeter::provider::aws::query::Ec2;
use gpumeter::provider::{LinkedResource, Provider, Sharing};

use crate::aws_moto::{call, env, grab, moto_ec2, policy, rt, run_instance};
use crate::common::moto::{Moto, moto};

/// The other account some are shared with.
const OTHER: &str = "111122223333";

/// What each snapshot and image made was shared as, by id.
type Made = BTreeMap<String, Sharing>;

/// The sharing of the `n`th one made: public, shared with [`OTHER`], or private, in turn.
fn nth(n: usize) -> Sharing {
    match n % 3 {
        0 => Sharing::Public,
        1 => Sharing::Accounts(vec![OTHER.into()]),
        _ => Sharing::Private,
    }
}

async fn share_snapshot(ec2: &Ec2, id: &str, how: &Sharing, operation: &str) {
    let grant = match how {
        Sharing::Public => ("UserGroup.1", "all"),
        Sharing::Accounts(_) => ("UserId.1", OTHER),
        _ => return,
    };
    let params = [
        ("SnapshotId", id),
        ("Attribute", "createVolumePermission"),
        ("OperationType", operation),
        grant,
    ];
    call(ec2, "ModifySnapshotAttribute", &params).await;
}

async fn share_image(ec2: &Ec2, id: &str, how: &Sharing) {
    let grant = match how {
        Sharing::Public => ("LaunchPermission.Add.1.Group", "all"),
        Sharing::Accounts(_) => ("LaunchPermission.Add.1.UserId", OTHER),
        _ => return,
    };
    call(ec2, "ModifyImageAttribute", &[("ImageId", id), grant]).await;
}

/// `n` snapshots of a volume attached to an instance, and `n` images of that instance, shared
/// in turn ([`nth`]): the instance, the snapshots made, the images made.
async fn world(ec2: &Ec2, n: usize) -> (String, Made, Made) {
    let (instance, zone) = run_instance(ec2).await;
    let params = [("AvailabilityZone", zone.as_str()), ("Size", "20")];
    let volume = grab(&call(ec2, "CreateVolume", &params).await, "volumeId");
    let attach = [
        ("VolumeId", volume.as_str()),
        ("InstanceId", instance.as_str()),
        ("Device", "/dev/sdf"),
    ];
    call(ec2, "AttachVolume", &attach).await;
    let mut snapshots = Made::new();
    let mut images = Made::new();
    for k in 0..n {
        let made = call(ec2, "CreateSnapshot", &[("VolumeId", &volume)]).await;
        let id = grab(&made, "snapshotId");
        share_snapshot(ec2, &id, &nth(k), "add").await;
        snapshots.insert(id, nth(k));
        let name = format!("image-{k}");
        let params = [("InstanceId", instance.as_str()), ("Name", name.as_str())];
        let id = grab(&call(ec2, "CreateImage", &params).await, "imageId");
        share_image(ec2, &id, &nth(k)).await;
        images.insert(id, nth(k));
    }
    (instance, snapshots, images)
}

fn adapter(url: &str, instance: Option<String>) -> Aws {
    let settings = AwsSettings::resolve(&env(url), instance, None);
    Aws::with_policy(settings, policy(), policy())
}

/// The calls moto was sent while `f` ran.
fn counted<T>(moto: &Moto, f: impl FnOnce() -> T) -> (T, Vec<String>) {
    let from = moto.calls().len();
    let out = f();
    (out, moto.calls()[from..].to_vec())
}

/// `service Action` of each call, without its parameters.
fn actions(calls: &[String]) -> Vec<String> {
    calls
        .iter()
        .map(|c| c.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect()
}

fn attribute_reads(calls: &[String]) -> Vec<&String> {
    calls
        .iter()
        .filter(|c| {
            c.split(' ')
                .nth(1)
                .is_some_and(|a| a.ends_with("Attribute"))
        })
        .collect()
}

/// The sharing of each of `made` as `found` says it.
fn sharing_of(found: &[LinkedResource], made: &Made) -> Made {
    made.keys()
        .map(|id| {
            let r = found
                .iter()
                .find(|r| &r.id == id)
                .unwrap_or_else(|| panic!("{id} is not listed: {found:#?}"));
            (id.clone(), r.exposure.shared.clone())
        })
        .collect()
}

fn public_of(made: &Made) -> Made {
    made.iter()
        .filter(|(_, s)| **s == Sharing::Public)
        .map(|(id, s)| (id.clone(), s.clone()))
        .collect()
}

/// The calls of each round of one world of `n` of each, all its answers checked.
struct Rounds {
    fleet: Vec<String>,
    second: Vec<String>,
}

fn rounds(n: usize) -> Option<Rounds> {
    let moto = moto()?;
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let (_, snapshots, images) = rt.block_on(world(&ec2, n));
    let aws = adapter(&moto.url, None);
    let exact = |found: &[LinkedResource]| {
        assert_eq!(sharing_of(found, &snapshots), snapshots, "n={n}");
        assert_eq!(sharing_of(found, &images), images, "n={n}");
    };

    // The fleet's sweep reads no attribute: the public ones, from the listings alone.
    let (found, fleet) = counted(&moto, || rt.block_on(aws.sweep_listed()).unwrap());
    assert!(attribute_reads(&fleet).is_empty(), "{fleet:?}");
    let public = |found: &[LinkedResource], made: &Made| -> Made {
        let said: Made = sharing_of(found, made)
            .into_iter()
            .filter(|(_, s)| *s == Sharing::Public)
            .collect();
        said
    };
    assert_eq!(public(&found, &snapshots), public_of(&snapshots));
    assert_eq!(public(&found, &images), public_of(&images));
    let (found, first) = counted(&moto, || rt.block_on(aws.sweep()).unwrap());
    exact(&found);
    // The first reads each snapshot and image that is not public, once.
    let not_public = found
        .iter()
        .filter(|r| matches!(r.kind, ResourceKind::Snapshot | ResourceKind::Image))
        .filter(|r| r.exposure.shared != Sharing::Public)
        .count();
    assert_eq!(attribute_reads(&first).len(), not_public, "{first:?}");
    // What was read is kept: the second round reads none and says the same.
    let (found, second) = counted(&moto, || rt.block_on(aws.sweep()).unwrap());
    exact(&found);
    assert!(attribute_reads(&second).is_empty(), "{second:?}");
    let (found, _) = counted(&moto, || rt.block_on(aws.sweep_listed()).unwrap());
    exact(&found);
    // The snapshots CreateImage made are the owner's alone.
    for r in found.iter().filter(|r| r.backs_image.is_some()) {
        assert_eq!(r.exposure.shared, Sharing::Private, "{}", r.id);
    }
    Some(Rounds {
        fleet: actions(&fleet),
        second: actions(&second),
    })
}

#[test]
fn public_and_shared_snapshots_and_images_are_found_in_calls_that_do_not_grow_against_moto() {
    let (Some(few), Some(many)) = (rounds(5), rounds(50)) else {
        return;
    };
    assert_eq!(few.fleet, many.fleet, "the fleet's sweep");
    assert_eq!(few.second, many.second, "a sweep after the first");
    // Each listing fits one page at either size: the owner's snapshots, then the public ones.
    let snapshots = many.fleet.iter().filter(|c| *c == "ec2 DescribeSnapshots");
    assert_eq!(snapshots.count(), 2, "{:?}", many.fleet);
}

#[test]
fn sharing_read_once_is_kept_until_the_listing_shows_a_change_against_moto() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let (instance, snapshots, images) = rt.block_on(world(&ec2, 3));
    let aws = adapter(&moto.url, Some(instance));
    let linked = |calls: &mut Vec<String>| -> Vec<LinkedResource> {
        let (inventory, sent) = counted(&moto, || rt.block_on(aws.inventory()).unwrap());
        *calls = sent;
        inventory.resources
    };
    let mut first = Vec::new();
    let found = linked(&mut first);
    assert_eq!(sharing_of(&found, &snapshots), snapshots);
    assert_eq!(sharing_of(&found, &images), images);
    assert!(!attribute_reads(&first).is_empty(), "{first:?}");
    let mut second = Vec::new();
    let again = linked(&mut second);
    assert!(attribute_reads(&second).is_empty(), "{second:?}");
    assert_eq!(sharing_of(&again, &snapshots), snapshots);
    assert_eq!(sharing_of(&again, &images), images);

    // A private snapshot made public shows at once, from the listing; one made private again
    // is read again, since the listing no longer calls it public.
    let private: Vec<&String> = snapshots
        .iter()
        .filter(|(_, s)| **s == Sharing::Private)
        .map(|(id, _)| id)
        .collect();
    let public: Vec<&String> = snapshots
        .iter()
        .filter(|(_, s)| **s == Sharing::Public)
        .map(|(id, _)| id)
        .collect();
    rt.block_on(share_snapshot(&ec2, private[0], &Sharing::Public, "add"));
    rt.block_on(share_snapshot(&ec2, public[0], &Sharing::Public, "remove"));
    let mut third = Vec::new();
    let changed = linked(&mut third);
    let mut now = snapshots.clone();
    now.insert(private[0].clone(), Sharing::Public);
    now.insert(public[0].clone(), Sharing::Private);
    assert_eq!(sharing_of(&changed, &now), now);
    let read = attribute_reads(&third);
    assert_eq!(read.len(), 1, "{read:?}");
    assert!(read[0].contains(public[0].as_str()), "{read:?}");
    let kinds: BTreeSet<ResourceKind> = changed.iter().map(|r| r.kind).collect();
    assert!(kinds.contains(&ResourceKind::Image), "{kinds:?}");
}
