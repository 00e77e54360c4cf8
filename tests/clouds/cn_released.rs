//! A released instance's checklist from a process that never saw it run (a laptop after the
//! release): the adapter is given only the resource ids the ledger recorded while it ran, and
//! lists exactly what that instance left, by those ids and the links the provider keeps
//! (a snapshot's disk, the image a snapshot backs), not another instance's leftovers beside it.

use std::collections::BTreeSet;

use gpumeter::provider::{Action, Inventory, Provider};

use crate::{alibaba_peer, tencent_peer};

fn ids(inv: &Inventory) -> BTreeSet<String> {
    inv.resources.iter().map(|r| r.id.clone()).collect()
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| (*s).to_string()).collect()
}

/// What the ledger records of an inventory: `(instance, resource, deleted with it)`.
fn recorded(instance: &str, inv: &Inventory) -> Vec<(String, String, bool)> {
    inv.resources
        .iter()
        .map(|r| (instance.to_string(), r.id.clone(), r.deleted_with_instance))
        .collect()
}

/// The adapter a fresh process builds: the ledger's sightings and records, no memory.
fn fresh<P: Provider>(adapter: P, instance: &str) -> P {
    adapter.add_seen(
        &[(adapter.name().to_string(), instance)]
            .into_iter()
            .collect(),
    );
    adapter
}

mod alibaba {
    use super::*;
    use alibaba_peer::cloud::{DATA_DISK, Disk, EIP, IMAGE, SLB, SNAPSHOTS, Snapshot};
    use alibaba_peer::{INSTANCE, Peer};

    const STRANGER_DISK: &str = "d-bp1stranger01";
    const STRANGER_SNAPSHOT: &str = "s-bp1stranger01";

    /// Another instance's leftovers: a disk attached to nothing and a snapshot of it.
    pub(super) fn stranger(peer: &Peer) {
        peer.cloud(|c| {
            c.disks.push(Disk {
                id: STRANGER_DISK.into(),
                instance: String::new(),
                kind: "data",
                size: 100,
                status: "Available".into(),
                with_instance: false,
                encrypted: false,
                detaching_reads: 0,
            });
            c.snapshots.push(Snapshot {
                id: STRANGER_SNAPSHOT.into(),
                disk: STRANGER_DISK.into(),
                size: 100,
                created: "2026-11-26T02:00:00Z".into(),
                usage: "none",
                encrypted: false,
            });
        });
    }

    /// The peer with another instance's leftovers beside its own: a disk attached to nothing
    /// and a snapshot of it. Returns what an inventory of the running instance listed.
    async fn ran(peer: &Peer) -> Inventory {
        stranger(peer);
        let adapter = peer.adapter(Some(INSTANCE));
        let inv = adapter.inventory().await.unwrap();
        assert!(inv.instance.is_some());
        assert!(adapter.perform(&Action::Release).await.unwrap().confirmed);
        inv
    }

    /// Everything the instance left: its data disk, its EIP and load balancer, the snapshots of
    /// its two disks and the image made from one.
    fn left() -> BTreeSet<String> {
        let mut left = set(&[DATA_DISK, EIP, SLB, IMAGE]);
        left.extend(set(&SNAPSHOTS));
        left
    }

    #[tokio::test]
    async fn a_fresh_adapter_given_the_recorded_ids_lists_exactly_what_the_instance_left() {
        let Some(peer) = Peer::start() else {
            return;
        };
        let inv = ran(&peer).await;
        let adapter = peer
            .adapter(Some(INSTANCE))
            .recalling(recorded(INSTANCE, &inv));
        let fresh = fresh(adapter, INSTANCE);
        let after = fresh.inventory().await.unwrap();
        assert!(after.instance.is_none());
        assert_eq!(ids(&after), left());
    }

    #[tokio::test]
    async fn the_snapshots_and_the_image_are_found_by_their_links_to_the_recorded_disks() {
        let Some(peer) = Peer::start() else {
            return;
        };
        let inv = ran(&peer).await;
        // A ledger that recorded the disks, the EIP and the load balancer, from before the
        // snapshots and the image were made.
        let only: Vec<_> = recorded(INSTANCE, &inv)
            .into_iter()
            .filter(|(_, id, _)| !id.starts_with("s-") && !id.starts_with("m-"))
            .collect();
        assert!(
            only.iter()
                .all(|(_, id, _)| id != IMAGE && id != SNAPSHOTS[1])
        );
        let fresh = fresh(peer.adapter(Some(INSTANCE)).recalling(only), INSTANCE);
        let after = fresh.inventory().await.unwrap();
        assert_eq!(ids(&after), left());
        let snapshot = after
            .resources
            .iter()
            .find(|r| r.id == SNAPSHOTS[1])
            .unwrap();
        assert_eq!(snapshot.origin.as_deref(), Some(DATA_DISK));
    }

    #[tokio::test]
    async fn with_nothing_recorded_for_it_every_leftover_in_the_region_is_listed() {
        let Some(peer) = Peer::start() else {
            return;
        };
        let inv = ran(&peer).await;
        let fresh = fresh(
            peer.adapter(Some(INSTANCE))
                .recalling(recorded("i-bp1someoneelse", &inv)),
            INSTANCE,
        );
        let after = fresh.inventory().await.unwrap();
        // Nothing is recorded for this instance: every leftover in the region is listed, the
        // stranger's too, rather than one hidden on a guess.
        let all = ids(&after);
        assert!(
            all.contains(STRANGER_DISK) && all.contains(STRANGER_SNAPSHOT),
            "{all:?}"
        );
        assert!(all.contains(DATA_DISK), "{all:?}");
    }
}

mod tencent {
    use super::*;
    use tencent_peer::cloud::{CbsDisk, Image, Snapshot};
    use tencent_peer::{INSTANCE, Peer};

    fn snapshot(id: &str, disk: &str) -> Snapshot {
        Snapshot {
            id: id.into(),
            disk: disk.into(),
            size: 50,
        }
    }

    /// Another instance's leftovers: a disk attached to nothing and a snapshot of it.
    pub(super) fn stranger(peer: &Peer) {
        peer.cloud(|c| {
            c.disks.push(CbsDisk {
                id: "disk-stranger".into(),
                size: 100,
                state: "UNATTACHED".into(),
                goes: false,
            });
            c.snapshots.push(snapshot("snap-stranger", "disk-stranger"));
        });
    }

    /// The instance ran (its inventory is returned) with a snapshot of the disk that stays and
    /// one of its system disk behind a custom image; after its release another instance's
    /// disk and its snapshot appear beside what it left.
    async fn ran(peer: &Peer) -> Inventory {
        let adapter = peer.adapter(Some(INSTANCE));
        let inv = adapter.inventory().await.unwrap();
        assert!(inv.instance.is_some());
        peer.cloud(|c| {
            c.snapshots.push(snapshot("snap-keep", "disk-keep"));
            c.snapshots.push(snapshot("snap-img", "disk-sys"));
            c.images.push(Image {
                id: "img-train".into(),
                snapshots: vec!["snap-img".into()],
                shared: Vec::new(),
            });
        });
        assert!(adapter.perform(&Action::Release).await.unwrap().confirmed);
        stranger(peer);
        inv
    }

    #[tokio::test]
    async fn a_fresh_adapter_given_the_recorded_ids_lists_exactly_what_the_instance_left() {
        let Some(peer) = Peer::start() else {
            return;
        };
        let inv = ran(&peer).await;
        // The address was recorded by its IP; the sweep lists it by its id.
        assert!(
            inv.resources.iter().any(|r| r.id == "203.0.113.7"),
            "{inv:?}"
        );
        let adapter = peer
            .adapter(Some(INSTANCE))
            .recalling(recorded(INSTANCE, &inv));
        let after = fresh(adapter, INSTANCE).inventory().await.unwrap();
        assert!(after.instance.is_none());
        assert_eq!(
            ids(&after),
            set(&[
                "disk-keep",
                "snap-keep",
                "snap-img",
                "img-train",
                "eip-loop1"
            ])
        );
        let of_keep = after
            .resources
            .iter()
            .find(|r| r.id == "snap-keep")
            .unwrap();
        assert_eq!(of_keep.origin.as_deref(), Some("disk-keep"));
    }

    #[tokio::test]
    async fn with_nothing_kept_or_recorded_every_leftover_in_the_region_is_listed() {
        let Some(peer) = Peer::start() else {
            return;
        };
        ran(&peer).await;
        let after = fresh(peer.adapter(Some(INSTANCE)), INSTANCE)
            .inventory()
            .await
            .unwrap();
        let all = ids(&after);
        assert!(
            all.contains("disk-stranger") && all.contains("disk-keep"),
            "{all:?}"
        );
    }
}

/// Through the binary, as a user runs it: `status` while the instance runs records its
/// inventory in the ledger; after the release, with nothing else kept, `checklist --json` lists
/// what the instance left and not the stranger's leftovers beside it.
mod cli {
    use super::*;
    use crate::common::cn_bin::{CnBin as Bin, text};

    fn checklist(bin: &Bin) -> BTreeSet<String> {
        let out = bin.run(&["checklist", "--json"]);
        assert_eq!(out.status.code(), Some(3), "{}", text(&out));
        let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        list["would_keep_billing"]
            .as_array()
            .unwrap_or_else(|| panic!("{list:#}"))
            .iter()
            .map(|i| i["id"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    fn status_then_release(bin: &Bin) {
        let out = bin.run_flags_first(&["status", "--json"]);
        assert!(out.status.success(), "{}", text(&out));
        let out = bin.run(&["release", "--yes"]);
        assert!(out.status.success(), "{}", text(&out));
    }

    #[test]
    fn alibaba_checklist_after_the_release_from_the_ledgers_record() {
        use alibaba_peer::cloud::{DATA_DISK, EIP, IMAGE, SLB, SNAPSHOTS};
        let Some(peer) = alibaba_peer::Peer::start() else {
            return;
        };
        let bin = Bin::alibaba("released", &peer);
        status_then_release(&bin);
        super::alibaba::stranger(&peer);
        let mut left = set(&[DATA_DISK, EIP, SLB, IMAGE]);
        left.extend(set(&SNAPSHOTS));
        assert_eq!(checklist(&bin), left);
    }

    #[test]
    fn tencent_checklist_after_the_release_from_the_ledgers_record() {
        let Some(peer) = tencent_peer::Peer::start() else {
            return;
        };
        let bin = Bin::tencent("released", &peer);
        status_then_release(&bin);
        // What the adapter kept of the instance is gone: only the ledger's record is left.
        for entry in std::fs::read_dir(bin.dir()).unwrap().flatten() {
            if entry.file_name().to_string_lossy().starts_with("tencent-") {
                std::fs::remove_file(entry.path()).unwrap();
            }
        }
        super::tencent::stranger(&peer);
        assert_eq!(checklist(&bin), set(&["disk-keep", "eip-loop1"]));
    }
}
