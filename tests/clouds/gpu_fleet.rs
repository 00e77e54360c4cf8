//! Account listings on RunPod, Vast.ai and Lambda Cloud, against their peers with a fleet beside
//! the main instance: `instances()` returns exactly the instances with a GPU (never a CPU pod or
//! a row without GPUs), running and stopped alike, each with its state, SKU and live price, and
//! the storage the provider ties to it; the peer's schema checks stay clean.

use std::collections::BTreeSet;

use gpumeter::meter::{InstanceState, ResourceKind};
use gpumeter::provider::{Discovered, Provider};
use rust_decimal::Decimal;

use crate::gpu_peer::cloud::{POD_ID, Storage};
use crate::gpu_peer::fleet::Member;
use crate::gpu_peer::{Kind, Peer};

/// What one listed instance must say.
struct Want {
    id: String,
    state: InstanceState,
    sku: &'static str,
    price: Decimal,
    /// The ids of the resources tied to it, in any order.
    resources: &'static [&'static str],
}

fn want(
    id: &str,
    state: InstanceState,
    sku: &'static str,
    cents: i64,
    resources: &'static [&'static str],
) -> Want {
    Want {
        id: id.into(),
        state,
        sku,
        price: Decimal::new(cents, 2),
        resources,
    }
}

fn used(id: &str) -> Storage {
    Storage {
        id: id.into(),
        name: format!("vol-{id}"),
        in_use: true,
    }
}

/// The peer's own instances with a GPU: its main one (when it has it) and the fleet's.
fn gpu_ids(peer: &Peer, main: &str) -> BTreeSet<String> {
    peer.cloud(|c| {
        let main = c.status.is_some().then(|| main.to_string());
        c.fleet
            .iter()
            .filter(|m| m.gpus > 0)
            .map(|m| m.id.clone())
            .chain(main)
            .collect()
    })
}

/// `found` holds each of `peer`'s GPU instances once and nothing else, each as `wants` says.
fn check(peer: &Peer, main: &str, found: &[Discovered], wants: &[Want]) {
    let ids: Vec<&str> = found.iter().map(|d| d.instance.id.as_str()).collect();
    let unique: BTreeSet<String> = ids.iter().map(|s| (*s).to_string()).collect();
    assert_eq!(unique.len(), ids.len(), "listed twice: {ids:?}");
    assert_eq!(unique, gpu_ids(peer, main));
    assert_eq!(wants.len(), found.len(), "{ids:?}");
    for w in wants {
        let d = found
            .iter()
            .find(|d| d.instance.id == w.id)
            .unwrap_or_else(|| panic!("{} is listed: {ids:?}", w.id));
        assert_eq!(d.instance.state, w.state, "{}", w.id);
        assert_eq!(d.instance.sku, w.sku, "{}", w.id);
        assert_eq!(d.instance.live_price_per_hour, Some(w.price), "{}", w.id);
        let tied: BTreeSet<&str> = d.resources.iter().map(|r| r.id.as_str()).collect();
        let expected: BTreeSet<&str> = w.resources.iter().copied().collect();
        assert_eq!(tied, expected, "{}", w.id);
        assert!(d.tags.is_empty(), "{}: no tags in this API", w.id);
        assert_eq!(d.deadline, None);
    }
}

#[tokio::test]
async fn runpod_lists_its_gpu_pods_not_the_cpu_pod() {
    let peer = Peer::start(Kind::Runpod);
    peer.cloud(|c| {
        c.fleet = vec![
            Member::new("podgpua", "RUNNING", 1, 269).mounting("nv-fleet"),
            Member::new("podgpub", "EXITED", 2, 538),
            Member::new("podcpuc", "RUNNING", 0, 12),
        ];
        c.storage.push(used("nv-fleet"));
        c.storage.push(Storage {
            in_use: false,
            ..used("nv-old")
        });
    });
    let found = peer.runpod().instances().await.unwrap();
    check(
        &peer,
        POD_ID,
        &found,
        &[
            want(
                POD_ID,
                InstanceState::Running,
                "rtx-4090-community",
                34,
                &["pod7xq2kzq-container", "pod7xq2kzq-volume", "nv-data"],
            ),
            want(
                "podgpua",
                InstanceState::Running,
                "h100-sxm-community",
                269,
                &["podgpua-container", "nv-fleet"],
            ),
            // Stopped, the pod's `cost` reads 0; its volume disk bills on through the sheet.
            want(
                "podgpub",
                InstanceState::Stopped,
                "2x NVIDIA H100 80GB HBM3",
                0,
                &["podgpub-container", "podgpub-volume"],
            ),
        ],
    );
    let pod = |id: &str| found.iter().find(|d| d.instance.id == id).unwrap();
    let fleet_volume = pod("podgpua")
        .resources
        .iter()
        .find(|r| r.id == "nv-fleet")
        .unwrap();
    assert_eq!(fleet_volume.kind, ResourceKind::NetworkVolume);
    assert_eq!(fleet_volume.attached_to.as_deref(), Some("podgpua"));
    assert!(!fleet_volume.deleted_with_instance);
    let disk = pod("podgpub")
        .resources
        .iter()
        .find(|r| r.id == "podgpub-volume")
        .unwrap();
    assert_eq!(disk.size_gib, Decimal::from(40));
    assert_eq!(peer.count("GET /v2/pods"), 1, "{:?}", peer.calls());
}
