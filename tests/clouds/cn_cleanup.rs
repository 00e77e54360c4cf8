//! Cleanup on Alibaba Cloud and Tencent Cloud, against their peers: what a released instance
//! left (a disk attached to nothing, an address bound to nothing, snapshots, a custom image)
//! is swept with what it exposes, deleted in the cleanup plan's order, each delete read back,
//! and then no longer listed by the peer or by a second sweep. The provider's refusal comes
//! back with its code, and `delete_plan` names the calls in the order they are made.

use gpumeter::meter::ResourceKind;
use gpumeter::provider::cleanup::{self, Outcome};
use gpumeter::provider::{
    Action, CleanupFilter, CleanupPlan, LinkedResource, Provider, Severity, Sharing, findings,
};
use jiff::Timestamp;

use crate::{alibaba_peer, tencent_peer};

fn ids(found: &[LinkedResource]) -> Vec<&str> {
    found.iter().map(|r| r.id.as_str()).collect()
}

fn get<'a>(found: &'a [LinkedResource], id: &str) -> &'a LinkedResource {
    found
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("{id} is listed: {:?}", ids(found)))
}

/// The plan for everything `found` holds, with nothing running.
fn plan_all(found: &[LinkedResource]) -> CleanupPlan {
    CleanupPlan::new(found, &CleanupFilter::default(), &[], Timestamp::now()).unwrap()
}

/// The action each planned call line names (`ecs DeleteImage RegionId=...` is DeleteImage).
fn planned_actions(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap_or_default().to_string())
        .collect()
}

/// `actions` with each run of one action (a read polled until it shows the change) as one.
fn runs(actions: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for a in actions {
        if out.last() != Some(a) {
            out.push(a.clone());
        }
    }
    out
}

fn assert_confirmed(outcomes: &[Outcome]) {
    for o in outcomes {
        match &o.result {
            Ok(report) => {
                assert!(report.confirmed, "{}: {report:?}", o.resource.id);
                assert!(
                    matches!(&report.action, Action::Cleanup { delete } if delete == std::slice::from_ref(&o.resource)),
                    "{report:?}"
                );
            }
            Err(e) => panic!("{}: {e}", o.resource.id),
        }
    }
}

// --- Alibaba -------------------------------------------------------------------------------

mod alibaba {
    use super::*;
    use alibaba_peer::cloud::{DATA_DISK, EIP, IMAGE, SLB, SNAPSHOTS};
    use alibaba_peer::{INSTANCE, Peer};

    fn actions_since(peer: &Peer, from: usize) -> Vec<String> {
        peer.calls()[from..]
            .iter()
            .map(|c| c.action.clone())
            .collect()
    }

    /// A peer whose instance was released: the data disk and the EIP stay, unbound, with the
    /// three snapshots and the image, which is public.
    async fn released() -> Option<(Peer, gpumeter::provider::alibaba::AlibabaCloud)> {
        let peer = Peer::start()?;
        peer.cloud(|c| c.image_public = true);
        let adapter = peer.adapter(Some(INSTANCE));
        let report = adapter.perform(&Action::Release).await.unwrap();
        assert!(report.confirmed, "{report:?}");
        Some((peer, adapter))
    }

    #[tokio::test]
    async fn what_a_released_instance_left_is_swept_deleted_in_order_and_read_back() {
        let Some((peer, adapter)) = released().await else {
            return;
        };
        let found = adapter.sweep().await.unwrap();
        let disk = get(&found, DATA_DISK);
        assert_eq!(disk.attached_to, None, "{disk:?}");
        assert_eq!(disk.exposure.encrypted, Some(false), "{disk:?}");
        let eip = get(&found, EIP);
        assert_eq!(eip.attached_to, None, "{eip:?}");
        for id in SNAPSHOTS {
            assert_eq!(get(&found, id).exposure.encrypted, Some(false), "{id}");
        }
        assert_eq!(
            get(&found, SNAPSHOTS[0]).backs_image.as_deref(),
            Some(IMAGE)
        );
        let image = get(&found, IMAGE);
        assert_eq!(image.exposure.shared, Sharing::Public, "{image:?}");
        let grave = findings(&found);
        assert_eq!(grave[0].severity, Severity::Critical, "{grave:?}");
        assert_eq!(grave[0].id, IMAGE, "{grave:?}");

        // The load balancer lost its only backend with the instance: it serves nothing.
        assert_eq!(get(&found, SLB).state, "active, no healthy backend");
        let plan = plan_all(&found);
        assert_eq!(
            plan.ids(),
            [
                SLB,
                IMAGE,
                EIP,
                DATA_DISK,
                SNAPSHOTS[0],
                SNAPSHOTS[1],
                SNAPSHOTS[2]
            ]
        );
        let planned = cleanup::plan(&adapter, &plan.delete);
        let before = peer.calls().len();
        let outcomes = cleanup::run(&adapter, &plan.delete).await;
        assert_confirmed(&outcomes);
        for o in &outcomes {
            let report = o.result.as_ref().unwrap();
            assert_eq!(report.calls, adapter.delete_plan(&o.resource));
        }
        assert_eq!(
            runs(&actions_since(&peer, before)),
            runs(&planned_actions(&planned)),
            "the calls made are the ones planned, in order: {planned:#?}"
        );
        assert_eq!(
            planned[0],
            format!("slb DeleteLoadBalancer RegionId=cn-hangzhou LoadBalancerId={SLB}")
        );
        assert_eq!(
            planned[2],
            format!("ecs DeleteImage RegionId=cn-hangzhou ImageId={IMAGE}")
        );
        let report = cleanup::report(&plan.delete, &outcomes);
        assert!(report.confirmed, "{report:?}");

        peer.cloud(|c| {
            assert!(c.lbs_deleted.contains(SLB), "load balancer gone");
            assert!(c.image_gone && c.eip_released, "image and EIP gone");
            assert!(c.disks.is_empty(), "{:?}", c.disks);
            assert!(c.snapshots.is_empty(), "{:?}", c.snapshots);
        });
        let again = adapter.sweep().await.unwrap();
        assert!(
            again.is_empty(),
            "nothing is left billing: {:?}",
            ids(&again)
        );
    }

    #[tokio::test]
    async fn alibabas_refusal_comes_back_with_its_code() {
        let Some((peer, adapter)) = released().await else {
            return;
        };
        let found = adapter.sweep().await.unwrap();
        let behind_image = get(&found, SNAPSHOTS[0]).clone();
        // The plan never asks: the image stays, so its snapshot is refused here first.
        let only = CleanupFilter {
            ids: vec![SNAPSHOTS[0].into()],
            ..CleanupFilter::default()
        };
        let plan = CleanupPlan::new(&found, &only, &[], Timestamp::now()).unwrap();
        assert!(plan.delete.is_empty(), "{plan:?}");
        // Asked anyway, Alibaba refuses it with its own code.
        let outcomes = cleanup::run(&adapter, &[behind_image]).await;
        let err = outcomes[0].result.as_ref().unwrap_err();
        assert_eq!(err.code(), Some("SnapshotCreatedImage"), "{err}");
        assert_eq!(err.call(), Some("DeleteSnapshot"), "{err}");
        assert!(!outcomes[0].confirmed());
        assert_eq!(peer.count("DeleteSnapshot"), 1);
        assert!(peer.cloud(|c| c.snapshots.iter().any(|s| s.id == SNAPSHOTS[0])));
    }

    #[tokio::test]
    async fn a_disk_and_an_eip_on_a_stopped_instance_are_detached_first_then_deleted() {
        let Some(peer) = Peer::start() else {
            return;
        };
        let adapter = peer.adapter(Some(INSTANCE));
        assert!(adapter.perform(&Action::Stop).await.unwrap().confirmed);
        let inventory = adapter.inventory().await.unwrap();
        let disk = get(&inventory.resources, DATA_DISK).clone();
        let eip = get(&inventory.resources, EIP).clone();
        assert_eq!(disk.attached_to.as_deref(), Some(INSTANCE), "{disk:?}");
        assert_eq!(eip.attached_to.as_deref(), Some(INSTANCE), "{eip:?}");
        let plan = plan_all(&[disk.clone(), eip.clone()]);
        assert_eq!(plan.ids(), [EIP, DATA_DISK]);
        let planned = cleanup::plan(&adapter, &plan.delete);
        assert_eq!(
            planned_actions(&planned),
            [
                "DescribeEipAddresses",
                "DescribeInstances",
                "UnassociateEipAddress",
                "DescribeEipAddresses",
                "ReleaseEipAddress",
                "DescribeEipAddresses",
                "DescribeDisks",
                "DescribeInstances",
                "DetachDisk",
                "DescribeDisks",
                "DeleteDisk",
                "DescribeDisks",
            ]
        );
        assert!(planned[9].ends_with("(until Available)"), "{planned:#?}");
        let before = peer.calls().len();
        let outcomes = cleanup::run(&adapter, &plan.delete).await;
        assert_confirmed(&outcomes);
        let made = actions_since(&peer, before);
        // The disk shows Detaching at first: it is read again until Available.
        let detach = made.iter().position(|a| a == "DetachDisk").unwrap();
        assert_eq!(
            made[detach + 1..detach + 3],
            ["DescribeDisks", "DescribeDisks"]
        );
        assert_eq!(runs(&made), runs(&planned_actions(&planned)));
        peer.cloud(|c| {
            assert!(c.eip_released);
            assert!(!c.disks.iter().any(|d| d.id == DATA_DISK));
        });
    }
}

// --- Tencent -------------------------------------------------------------------------------

mod tencent {
    use super::*;
    use tencent_peer::cloud::{Image, Snapshot};
    use tencent_peer::{INSTANCE, Peer};

    /// The account another one was given a snapshot to copy.
    const OTHER: &str = "100012345678";

    fn actions_since(peer: &Peer, from: usize) -> Vec<String> {
        peer.calls()[from..]
            .iter()
            .map(|c| c.action.clone())
            .collect()
    }

    /// A peer whose instance was released: disk-keep stays unattached (encrypted), eip-loop1
    /// unbound; a snapshot of disk-keep shared with another account; a custom image made from
    /// a snapshot of the system disk.
    async fn released() -> Option<(Peer, gpumeter::provider::tencent::TencentCloud)> {
        let peer = Peer::start()?;
        let adapter = peer.adapter(Some(INSTANCE));
        let report = adapter.perform(&Action::Release).await.unwrap();
        assert!(report.confirmed, "{report:?}");
        peer.cloud(|c| {
            for (id, disk) in [("snap-keep", "disk-keep"), ("snap-img", "disk-sys")] {
                c.snapshots.push(Snapshot {
                    id: id.into(),
                    disk: disk.into(),
                    size: 50,
                });
            }
            c.snapshot_shares
                .insert("snap-keep".into(), vec![OTHER.into()]);
            c.encrypted.insert("disk-keep".into());
            c.images.push(Image {
                id: "img-train".into(),
                snapshots: vec!["snap-img".into()],
                shared: Vec::new(),
            });
        });
        Some((peer, adapter))
    }

    #[tokio::test]
    async fn what_a_released_instance_left_is_swept_deleted_in_order_and_read_back() {
        let Some((peer, adapter)) = released().await else {
            return;
        };
        let found = adapter.sweep().await.unwrap();
        // The listing's ShareReference says snap-img is shared with no one: only snap-keep's
        // accounts are asked for.
        let asked: Vec<String> = peer
            .calls()
            .iter()
            .filter(|c| c.action == "DescribeSnapshotSharePermission")
            .map(|c| c.body["SnapshotId"].to_string())
            .collect();
        assert_eq!(asked, ["\"snap-keep\""]);
        assert_eq!(
            ids(&found),
            [
                "disk-keep",
                "snap-keep",
                "snap-img",
                "img-train",
                "eip-loop1"
            ]
        );
        let disk = get(&found, "disk-keep");
        assert_eq!(disk.attached_to, None);
        assert_eq!(disk.exposure.encrypted, Some(true));
        let shared = get(&found, "snap-keep");
        assert_eq!(
            shared.exposure.shared,
            Sharing::Accounts(vec![OTHER.into()])
        );
        assert_eq!(shared.exposure.encrypted, Some(false));
        let behind = get(&found, "snap-img");
        assert_eq!(behind.backs_image.as_deref(), Some("img-train"));
        assert_eq!(behind.exposure.shared, Sharing::Private);
        assert_eq!(get(&found, "img-train").exposure.shared, Sharing::Private);
        assert_eq!(get(&found, "eip-loop1").attached_to, None);
        let grave = findings(&found);
        assert!(
            grave
                .iter()
                .any(|f| f.id == "snap-keep" && f.what.contains(OTHER)),
            "{grave:?}"
        );

        let plan = plan_all(&found);
        assert_eq!(
            plan.ids(),
            [
                "img-train",
                "eip-loop1",
                "disk-keep",
                "snap-keep",
                "snap-img"
            ]
        );
        let planned = cleanup::plan(&adapter, &plan.delete);
        assert_eq!(planned[0], r#"cvm DeleteImages {"ImageIds":["img-train"]}"#);
        let before = peer.calls().len();
        let outcomes = cleanup::run(&adapter, &plan.delete).await;
        assert_confirmed(&outcomes);
        for o in &outcomes {
            let report = o.result.as_ref().unwrap();
            assert_eq!(report.calls, adapter.delete_plan(&o.resource));
        }
        assert_eq!(
            runs(&actions_since(&peer, before)),
            runs(&planned_actions(&planned)),
            "the calls made are the ones planned, in order: {planned:#?}"
        );
        peer.cloud(|c| {
            assert!(c.images.is_empty() && c.snapshots.is_empty());
            assert!(c.addresses.is_empty(), "{:?}", c.addresses);
            assert!(c.disks.is_empty(), "{:?}", c.disks);
        });
        let again = adapter.sweep().await.unwrap();
        assert!(
            again.is_empty(),
            "nothing is left billing: {:?}",
            ids(&again)
        );
    }

    #[tokio::test]
    async fn tencents_refusals_come_back_with_their_codes() {
        let Some((peer, adapter)) = released().await else {
            return;
        };
        peer.cloud(|c| c.images[0].shared.push(OTHER.into()));
        let found = adapter.sweep().await.unwrap();
        let image = get(&found, "img-train").clone();
        assert_eq!(image.exposure.shared, Sharing::Accounts(vec![OTHER.into()]));
        let behind = get(&found, "snap-img").clone();
        let outcomes = cleanup::run(&adapter, &[behind, image]).await;
        let snap = outcomes[0].result.as_ref().unwrap_err();
        assert_eq!(
            snap.code(),
            Some("UnsupportedOperation.SnapshotHasBindedImage"),
            "{snap}"
        );
        assert_eq!(snap.call(), Some("DeleteSnapshots"));
        let shared = outcomes[1].result.as_ref().unwrap_err();
        assert_eq!(shared.code(), Some("InvalidImageId.InShared"), "{shared}");
        assert!(outcomes.iter().all(|o| !o.confirmed()));
        peer.cloud(|c| {
            assert_eq!(c.images.len(), 1);
            assert!(c.snapshots.iter().any(|s| s.id == "snap-img"));
        });
    }

    #[tokio::test]
    async fn a_disk_and_an_eip_on_a_stopped_instance_are_detached_first_then_deleted() {
        let Some(peer) = Peer::start() else {
            return;
        };
        let adapter = peer.adapter(Some(INSTANCE));
        assert!(adapter.perform(&Action::Stop).await.unwrap().confirmed);
        let inventory = adapter.inventory().await.unwrap();
        let disk = get(&inventory.resources, "disk-keep").clone();
        assert_eq!(disk.attached_to.as_deref(), Some(INSTANCE), "{disk:?}");
        // VPC names the address by its id; the inventory by its IP, which is refused.
        let by_ip = get(&inventory.resources, "203.0.113.7").clone();
        let refused = adapter.delete(&by_ip).await.unwrap_err();
        assert!(refused.to_string().contains("address id"), "{refused}");
        let eip = LinkedResource {
            id: "eip-loop1".into(),
            kind: ResourceKind::PublicIp,
            ..by_ip
        };
        let plan = plan_all(&[disk, eip]);
        let planned = cleanup::plan(&adapter, &plan.delete);
        assert_eq!(
            planned_actions(&planned),
            [
                "DescribeAddresses",
                "DescribeInstances",
                "DisassociateAddress",
                "DescribeAddresses",
                "ReleaseAddresses",
                "DescribeAddresses",
                "DescribeDisks",
                "DescribeInstances",
                "DetachDisks",
                "DescribeDisks",
                "TerminateDisks",
                "DescribeDisks",
            ]
        );
        assert!(planned[9].ends_with("(until UNATTACHED)"), "{planned:#?}");
        let before = peer.calls().len();
        let outcomes = cleanup::run(&adapter, &plan.delete).await;
        assert_confirmed(&outcomes);
        let made = actions_since(&peer, before);
        let detach = made.iter().position(|a| a == "DetachDisks").unwrap();
        assert_eq!(
            made[detach + 1..detach + 3],
            ["DescribeDisks", "DescribeDisks"]
        );
        assert_eq!(runs(&made), runs(&planned_actions(&planned)));
        peer.cloud(|c| {
            assert!(c.addresses.is_empty());
            assert!(!c.disks.iter().any(|d| d.id == "disk-keep"));
        });
    }
}

// --- Through the binary --------------------------------------------------------------------

mod cli {
    use serde_json::Value;

    use crate::common::cn_bin::{CnBin as Bin, text};
    use crate::{alibaba_peer, tencent_peer};

    fn item<'a>(items: &'a [Value], id: &str) -> &'a Value {
        items
            .iter()
            .find(|i| i["id"] == id)
            .unwrap_or_else(|| panic!("{id} in {items:#?}"))
    }

    fn ids(items: &[Value]) -> Vec<String> {
        items
            .iter()
            .map(|i| i["id"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// A dry run of a cleanup of everything, then the cleanup: the dry run changes nothing and
    /// names each call; the cleanup deletes each and reads it back; the sweep then ends clean.
    fn dry_run_then_clean(
        bin: &Bin,
        items: &[Value],
        plan_lines: &[&str],
        calls: impl Fn() -> usize,
    ) {
        let found = ids(items);
        let mut args = vec!["cleanup"];
        for id in &found {
            args.extend(["--id", id.as_str()]);
        }
        let made = calls();
        let dry = bin.run(&[args.as_slice(), &["--dry-run"]].concat());
        assert!(dry.status.success(), "{}", text(&dry));
        assert!(text(&dry).contains("nothing is changed"), "{}", text(&dry));
        for line in plan_lines {
            assert!(text(&dry).contains(line), "{line} in {}", text(&dry));
        }
        assert_eq!(calls(), made, "a dry run sends no delete: {}", text(&dry));
        let (_, still) = bin.sweep();
        assert_eq!(ids(&still), found, "a dry run changes nothing");
        let out = bin.run(&[args.as_slice(), &["--yes"]].concat());
        assert!(out.status.success(), "{}", text(&out));
        let shown = text(&out);
        assert!(
            shown.contains(&format!("{0} of {0} deleted", found.len())),
            "{shown}"
        );
        let (code, left) = bin.sweep();
        assert_eq!((code, left.len()), (Some(0), 0), "{left:#?}");
    }

    #[test]
    fn alibaba_sweep_dry_run_cleanup_and_a_clean_sweep_through_the_binary() {
        use alibaba_peer::cloud::{DATA_DISK, EIP, IMAGE, SNAPSHOTS};
        let Some(peer) = alibaba_peer::Peer::start() else {
            return;
        };
        peer.cloud(|c| c.image_public = true);
        let bin = Bin::alibaba("alibaba", &peer);
        let out = bin.run(&["release", "--yes"]);
        assert!(out.status.success(), "{}", text(&out));
        let (code, items) = bin.sweep();
        assert_eq!(code, Some(3), "leftovers bill: {items:#?}");
        let image = item(&items, IMAGE);
        assert_eq!(image["public"], true, "{image}");
        assert_eq!(image["findings"][0]["severity"], "critical", "{image}");
        assert_eq!(item(&items, DATA_DISK)["encrypted"], false);
        assert_eq!(item(&items, DATA_DISK)["attached_to"], Value::Null);
        // An idle EIP at 0.01 CNY/h, 730 h a month; 500 GiB of snapshot at 0.12 CNY/GiB.
        assert_eq!(item(&items, EIP)["monthly_cost"], "7.30");
        assert_eq!(item(&items, SNAPSHOTS[1])["monthly_cost"], "60.00");
        let deletes = || {
            peer.calls()
                .iter()
                .filter(|c| {
                    ["Delete", "Release", "Detach", "Unassociate"]
                        .iter()
                        .any(|d| c.action.starts_with(d))
                })
                .count()
        };
        let before = deletes();
        let delete_image = format!("ecs DeleteImage RegionId=cn-hangzhou ImageId={IMAGE}");
        dry_run_then_clean(&bin, &items, &[delete_image.as_str()], deletes);
        assert_eq!(deletes() - before, items.len(), "one delete each");
        peer.cloud(|c| assert!(c.image_gone && c.eip_released && c.disks.is_empty()));
    }

    #[test]
    fn tencent_sweep_dry_run_cleanup_and_a_clean_sweep_through_the_binary() {
        let Some(peer) = tencent_peer::Peer::start() else {
            return;
        };
        let bin = Bin::tencent("tencent", &peer);
        let out = bin.run(&["release", "--yes"]);
        assert!(out.status.success(), "{}", text(&out));
        peer.cloud(|c| {
            c.snapshots.push(tencent_peer::cloud::Snapshot {
                id: "snap-keep".into(),
                disk: "disk-keep".into(),
                size: 500,
            });
            c.snapshot_shares
                .insert("snap-keep".into(), vec!["100012345678".into()]);
        });
        let (code, items) = bin.sweep();
        assert_eq!(code, Some(3), "leftovers bill: {items:#?}");
        let snap = item(&items, "snap-keep");
        // Tencent shares a snapshot with accounts, never with everyone.
        assert_eq!(snap["public"], false, "{snap}");
        assert_eq!(snap["shared_with"][0], "100012345678", "{snap}");
        assert_eq!(snap["encrypted"], false, "{snap}");
        assert_eq!(snap["findings"][0]["severity"], "warning", "{snap}");
        // The sheet states no CBS or EIP price: none is made up.
        assert!(item(&items, "disk-keep").get("monthly_cost").is_some());
        assert_eq!(item(&items, "disk-keep")["monthly_cost"], Value::Null);
        let deletes = || {
            peer.calls()
                .iter()
                .filter(|c| {
                    ["Delete", "Release", "Terminate", "Detach", "Disassociate"]
                        .iter()
                        .any(|d| c.action.starts_with(d))
                })
                .count()
        };
        let before = deletes();
        let terminate = r#"cbs TerminateDisks {"DiskIds":["disk-keep"]}"#;
        dry_run_then_clean(&bin, &items, &[terminate], deletes);
        assert_eq!(deletes() - before, items.len(), "one delete each");
        peer.cloud(|c| assert!(c.snapshots.is_empty() && c.addresses.is_empty()));
    }
}
