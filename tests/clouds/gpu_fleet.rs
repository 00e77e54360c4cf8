//! Account listings on RunPod, Vast.ai and Lambda Cloud, against their peers with a fleet beside
//! the main instance: `instances()` returns exactly the instances with a GPU (never a CPU pod or
//! a row without GPUs), running and stopped alike, each with its state, SKU and live price, and
//! the storage the provider ties to it; the peer's schema checks stay clean; a listing that
//! fails or comes back garbled is an error, not an empty account.

use std::collections::BTreeSet;

use gpumeter::meter::{InstanceState, ResourceKind};
use gpumeter::provider::{Discovered, Provider};
use rust_decimal::Decimal;

use crate::gpu_peer::cloud::{LAMBDA_ID, POD_ID, Storage, VAST_ID};
use crate::gpu_peer::fleet::Member;
use crate::gpu_peer::{Fault, Kind, Peer};

/// What one listed instance must say.
struct Want {
    id: String,
    state: InstanceState,
    sku: &'static str,
    price: Decimal,
    /// The ids of the resources tied to it, in any order.
    resources: Vec<String>,
}

fn want(id: &str, state: InstanceState, sku: &'static str, cents: i64, resources: &[&str]) -> Want {
    Want {
        id: id.into(),
        state,
        sku,
        price: Decimal::new(cents, 2),
        resources: resources.iter().map(|r| (*r).to_string()).collect(),
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
        // Each instance's own history, not one shared by the whole listing.
        let history = &d.instance.history;
        assert_eq!(history.first().map(|h| h.0), Some(d.instance.created));
        assert_eq!(history.last().map(|h| h.1), Some(w.state), "{}", w.id);
        assert_eq!(d.instance.sku, w.sku, "{}", w.id);
        assert_eq!(d.instance.live_price_per_hour, Some(w.price), "{}", w.id);
        let tied: BTreeSet<&str> = d.resources.iter().map(|r| r.id.as_str()).collect();
        let expected: BTreeSet<&str> = w.resources.iter().map(String::as_str).collect();
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

#[tokio::test]
async fn vast_lists_every_page_and_leaves_out_a_row_without_gpus() {
    let peer = Peer::start(Kind::Vast);
    let others: Vec<Member> = peer.cloud(|c| {
        let others = c.fleet.clone();
        c.fleet
            .push(Member::new("4300", "stopped", 2, 150).mounting("31"));
        c.fleet.push(Member::new("4301", "running", 0, 10));
        c.storage.push(Storage {
            in_use: false,
            ..used("31")
        });
        c.storage.push(Storage {
            in_use: false,
            ..used("32")
        });
        others
    });
    assert!(!others.is_empty(), "the peer's account has other instances");
    let found = peer.vast().instances().await.unwrap();
    let mut wants: Vec<Want> = others
        .iter()
        .map(|m| {
            let disk = format!("{}-disk", m.id);
            let cents = i64::from(m.cents_per_hour);
            want(
                &m.id,
                InstanceState::Running,
                "1x-h100-sxm",
                cents,
                &[&disk],
            )
        })
        .collect();
    wants.push(want(
        VAST_ID,
        InstanceState::Running,
        "1x-rtx-4090",
        40,
        &["4242-disk"],
    ));
    wants.push(want(
        "4300",
        InstanceState::Stopped,
        "2x-h100-sxm",
        150,
        &["4300-disk", "volume-31"],
    ));
    check(&peer, VAST_ID, &found, &wants);
    let row = found.iter().find(|d| d.instance.id == "4300").unwrap();
    let volume = row.resources.iter().find(|r| r.id == "volume-31").unwrap();
    assert_eq!(volume.kind, ResourceKind::NetworkVolume);
    assert_eq!(volume.attached_to.as_deref(), Some("4300"));
    assert!(!volume.deleted_with_instance);
    let pages = peer.count("GET /api/v1/instances/");
    // The others, the two added and the main instance, two rows a page.
    let rows = others.len() + 3;
    assert_eq!(pages, rows.div_ceil(2), "{:?}", peer.calls());
    assert_eq!(peer.count("GET /api/v0/volumes"), 1, "{:?}", peer.calls());
}

#[tokio::test]
async fn lambda_lists_its_gpu_instances_with_the_file_systems_each_mounts() {
    let peer = Peer::start(Kind::Lambda);
    peer.cloud(|c| {
        c.fleet = vec![
            Member::new("inst-8x", "active", 8, 2392).mounting("vol-fs-fleet"),
            Member::new("inst-boot", "booting", 1, 299),
            Member::new("inst-gone", "terminated", 1, 299).mounting("vol-fs-fleet"),
            Member::new("inst-nogpu", "active", 0, 10),
        ];
        c.storage.push(used("fs-fleet"));
    });
    let found = peer.lambda().instances().await.unwrap();
    check(
        &peer,
        LAMBDA_ID,
        &found,
        &[
            want(
                LAMBDA_ID,
                InstanceState::Running,
                "gpu_1x_a10",
                75,
                &["fs-weights"],
            ),
            want(
                "inst-8x",
                InstanceState::Running,
                "gpu_8x_h100_sxm5",
                2392,
                &["fs-fleet"],
            ),
            want(
                "inst-boot",
                InstanceState::Running,
                "gpu_1x_h100_sxm5",
                299,
                &[],
            ),
            // Terminated, it holds nothing, though its row still names the file system.
            want(
                "inst-gone",
                InstanceState::Released,
                "gpu_1x_h100_sxm5",
                299,
                &[],
            ),
        ],
    );
    let row = found.iter().find(|d| d.instance.id == "inst-8x").unwrap();
    let fs = &row.resources[0];
    assert_eq!(fs.kind, ResourceKind::NetworkVolume);
    assert_eq!(fs.attached_to.as_deref(), Some("inst-8x"));
    assert_eq!(row.instance.region.as_deref(), Some("us-west-1"));
    assert_eq!(peer.count("GET /api/v1/instances"), 1, "{:?}", peer.calls());
    assert_eq!(peer.count("GET /api/v1/file-systems"), 1);
}

/// A listing the provider fails or garbles is an error, never an account with no instances.
#[tokio::test]
async fn a_listing_that_fails_is_an_error_not_an_empty_account() {
    let lists = [
        (Kind::Runpod, "GET /v2/pods"),
        (Kind::Vast, "GET /api/v1/instances/"),
        (Kind::Lambda, "GET /api/v1/instances"),
    ];
    for (kind, call) in lists {
        for fault in [Fault::ServerError, Fault::Malformed] {
            let peer = Peer::start(kind);
            peer.fault(fault, Some(call), None);
            let provider: Box<dyn Provider> = match kind {
                Kind::Runpod => Box::new(peer.runpod()),
                Kind::Vast => Box::new(peer.vast()),
                Kind::Lambda => Box::new(peer.lambda()),
            };
            let listed = provider.instances().await;
            assert!(listed.is_err(), "{kind:?} {fault:?}: {listed:?}");
            assert!(peer.count(call) >= 1, "{kind:?}: {:?}", peer.calls());
        }
    }
}

/// `fleet --json` over a RunPod account its key may list pods in but not network volumes: the
/// pods are listed, and a row says what could not be read rather than passing the account off
/// as whole.
#[test]
fn fleet_says_what_a_runpod_key_could_not_list() {
    let peer = Peer::start(Kind::Runpod);
    peer.cloud(|c| {
        c.fleet = vec![Member::new("podgpua", "RUNNING", 1, 269).mounting("nv-fleet")];
        c.storage.push(used("nv-fleet"));
    });
    let forbidden = r#"{"title":"Forbidden","status":403,"detail":"may not list network volumes"}"#;
    peer.fault(
        Fault::Answer(403, forbidden),
        Some("GET /v2/network-volumes"),
        None,
    );
    let run = crate::gpu_clouds_cli::Run::new("fleet-gap");
    std::fs::write(
        run.dir.join("config.toml"),
        "[[fleet]]\nprovider = \"runpod\"\naccount = \"pods\"\n",
    )
    .unwrap();
    let (out, said) = run.gpumeter(&peer, Kind::Runpod, &["fleet", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let ids: BTreeSet<&str> = rows
        .iter()
        .filter_map(|r| r["instance_id"].as_str())
        .filter(|id| !id.is_empty())
        .collect();
    assert!(ids.contains("podgpua"), "{said}");
    let gap = rows
        .iter()
        .find(|r| r["instance_id"] == "" && r["error"].is_string())
        .unwrap_or_else(|| panic!("no row says what was not read: {said}"));
    assert!(
        gap["error"].as_str().unwrap().contains("listed without"),
        "{gap}"
    );
    assert!(said.contains("account pods on runpod"), "{said}");
}
