//! Every list the Alibaba and Tencent adapters read comes in three or more pages from the peers
//! (each page a third of the list), and is read to its end; a listing past the adapters' bound
//! of fifty pages is an error, not a short list.

use std::collections::BTreeMap;

use gpumeter::meter::ResourceKind;
use gpumeter::provider::{Action, Inventory, Provider};

use crate::models::Pages;
use crate::{alibaba_peer, tencent_peer};

fn ids_of(inv: &Inventory, kind: ResourceKind) -> Vec<String> {
    let mut ids: Vec<String> = inv
        .resources
        .iter()
        .filter(|r| r.kind == kind)
        .map(|r| r.id.clone())
        .collect();
    ids.sort();
    ids
}

/// Every listing of every list action took three pages or more; `DescribeInstances` asks for
/// one instance by id, a list of one.
fn assert_three_pages(pages: &BTreeMap<String, Pages>, expected: &[&str]) {
    let listed: Vec<&str> = pages
        .keys()
        .map(String::as_str)
        .filter(|a| *a != "DescribeInstances")
        .collect();
    assert_eq!(listed, expected, "the list actions called");
    for (action, p) in pages.iter().filter(|(a, _)| *a != "DescribeInstances") {
        assert!(p.ends >= 1, "{action}: no listing read to its end: {p:?}");
        assert!(
            p.served >= 3 * p.ends,
            "{action}: fewer than 3 pages a listing: {p:?}"
        );
    }
}

/// A Tencent world with six bound EIPs, five data disks that stay and four snapshots.
fn tencent_world(peer: &tencent_peer::Peer, eips: usize) {
    peer.cloud(|c| {
        for n in 1..eips {
            c.addresses.push(tencent_peer::cloud::Address {
                id: format!("eip-extra{n:02}"),
                ip: format!("203.0.113.{}", 100 + n),
                kind: "EIP".into(),
                bound: true,
            });
        }
        let keep = c.disks[1].clone();
        for n in 1..=4 {
            let id = format!("disk-extra{n}");
            c.snapshots.push(tencent_peer::cloud::Snapshot {
                id: format!("snap-extra{n}"),
                disk: id.clone(),
                size: keep.size,
            });
            c.disks
                .push(tencent_peer::cloud::CbsDisk { id, ..keep.clone() });
        }
    });
}

#[tokio::test]
async fn tencent_every_list_is_read_page_by_page_to_its_end() {
    let Some(peer) = tencent_peer::Peer::start() else {
        return;
    };
    tencent_world(&peer, 6);
    let cloud = peer.adapter(Some(tencent_peer::INSTANCE));
    let inv = cloud.inventory().await.unwrap();
    assert_eq!(ids_of(&inv, ResourceKind::PublicIp).len(), 6);
    // Each EIP is known as an EIP, so none is "type unknown".
    assert!(
        inv.resources.iter().all(|r| !r.state.contains("unknown")),
        "{:?}",
        inv.resources
    );
    assert!(cloud.perform(&Action::Release).await.unwrap().confirmed);
    let after = cloud.inventory().await.unwrap();
    assert_eq!(ids_of(&after, ResourceKind::DataDisk).len(), 5, "{after:?}");
    assert_eq!(ids_of(&after, ResourceKind::Snapshot).len(), 4, "{after:?}");
    assert_eq!(ids_of(&after, ResourceKind::PublicIp).len(), 6, "{after:?}");
    let pages = peer.cloud(|c| c.pages.clone());
    assert_three_pages(
        &pages,
        &["DescribeAddresses", "DescribeDisks", "DescribeSnapshots"],
    );
    let offsets: Vec<u64> = peer
        .calls()
        .iter()
        .filter(|c| c.action == "DescribeAddresses")
        .take(3)
        .filter_map(|c| c.body["Offset"].as_u64())
        .collect();
    assert_eq!(offsets, [0, 2, 4]);
}

#[tokio::test]
async fn tencent_a_listing_past_fifty_pages_is_an_error_not_a_short_list() {
    let Some(peer) = tencent_peer::Peer::start() else {
        return;
    };
    tencent_world(&peer, 61);
    peer.cloud(|c| c.page_cap = Some(1));
    let err = peer
        .adapter(Some(tencent_peer::INSTANCE))
        .inventory()
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("past 50 pages"), "{err}");
    assert_eq!(peer.count("DescribeAddresses"), 50);
}

#[tokio::test]
async fn alibaba_every_list_is_read_in_three_pages_or_more() {
    let Some(peer) = alibaba_peer::Peer::start() else {
        return;
    };
    peer.cloud(|c| {
        c.extra = 5;
        // Each image's share list takes pages too.
        c.image_accounts = (1..=4).map(|n| format!("13000000000000{n:02}")).collect();
        let template = c.disks[1].clone();
        for n in 1..=5 {
            let mut d = template.clone();
            d.id = alibaba_peer::cloud::extra_id("d-bp1extra", n);
            c.disks.push(d);
        }
    });
    let adapter = peer.adapter(Some(alibaba_peer::INSTANCE));
    let inv = adapter.inventory().await.unwrap();
    assert_eq!(ids_of(&inv, ResourceKind::DataDisk).len(), 6);
    assert_eq!(ids_of(&inv, ResourceKind::Snapshot).len(), 3);
    for kind in [
        ResourceKind::Image,
        ResourceKind::PublicIp,
        ResourceKind::LoadBalancer,
    ] {
        assert_eq!(ids_of(&inv, kind).len(), 6, "{kind:?}");
    }
    adapter.perform(&Action::Release).await.unwrap();
    let after = adapter.inventory().await.unwrap();
    assert!(after.instance.is_none());
    assert_eq!(ids_of(&after, ResourceKind::DataDisk).len(), 6);
    let pages = peer.cloud(|c| c.pages.clone());
    assert_three_pages(
        &pages,
        &[
            "DescribeDisks",
            "DescribeEipAddresses",
            "DescribeImageSharePermission",
            "DescribeImages",
            "DescribeLoadBalancers",
            "DescribeSnapshots",
        ],
    );
}
