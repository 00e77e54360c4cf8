//! Account listings on Alibaba Cloud and Tencent Cloud, against their peers with a fleet beside
//! the main instance: `instances()` reads every page of every listing and returns exactly the
//! GPU instances (never the one without a GPU), each with its state, its system disk and its
//! tags; the sweep still lists the orphan disks; a listing survives the provider's rate limit;
//! a listing past the page bound is an error, not a silent cut.

use std::collections::BTreeSet;
use std::time::Duration;

use gpumeter::meter::{InstanceState, ResourceKind};
use gpumeter::provider::http::HttpPolicy;
use gpumeter::provider::{Discovered, Provider};
use rust_decimal::Decimal;

use crate::alibaba_peer::{self, Peer as AliPeer};
use crate::tencent_peer::{self, Peer as TcPeer};

/// One fleet instance as the peer holds it: what its row must say.
struct Want {
    id: String,
    stopped: bool,
    sku: String,
    system_disk: String,
    disk_gib: u64,
    team: String,
}

/// Patient enough to outwait a per-second rate limit: pauses up to a second, sixteen throttled
/// answers in a row. With full jitter, eight let about one listing in five hundred give up
/// inside the limit's one-second window (a simulation of this peer's sliding window says so).
fn patient() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_secs(2),
        connect_timeout: Duration::from_millis(500),
        retries: 8,
        throttled_retries: 16,
        backoff_base: Duration::from_millis(100),
        backoff_max: Duration::from_secs(1),
    }
}

fn row<'a>(found: &'a [Discovered], id: &str) -> &'a Discovered {
    found
        .iter()
        .find(|d| d.instance.id == id)
        .unwrap_or_else(|| panic!("{id} is listed"))
}

/// `found` is the main instance and the fleet's GPU instances, each once, never `cpu`; each
/// fleet row has the peer's state, type, system disk and tag.
fn check(found: &[Discovered], main: &str, fleet: &[Want], cpu: &str) {
    let ids: Vec<&str> = found.iter().map(|d| d.instance.id.as_str()).collect();
    let unique: BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "listed twice: {ids:?}");
    let want: BTreeSet<&str> = fleet.iter().map(|w| w.id.as_str()).chain([main]).collect();
    assert_eq!(unique, want);
    assert!(!unique.contains(cpu), "{cpu} has no GPU");
    assert!(
        fleet.iter().any(|w| w.stopped),
        "the fleet has a stopped one"
    );
    for w in fleet {
        let d = row(found, &w.id);
        let state = if w.stopped {
            InstanceState::Stopped
        } else {
            InstanceState::Running
        };
        assert_eq!(d.instance.state, state, "{}", w.id);
        assert_eq!(d.instance.sku, w.sku);
        let disk = d
            .resources
            .iter()
            .find(|r| r.id == w.system_disk)
            .unwrap_or_else(|| panic!("{} has {}", w.id, w.system_disk));
        assert_eq!(disk.kind, ResourceKind::SystemDisk);
        assert_eq!(disk.size_gib, Decimal::from(w.disk_gib));
        assert!(disk.deleted_with_instance);
        assert_eq!(d.resources.len(), 1, "{}: {:?}", w.id, d.resources);
        assert_eq!(d.tags.get("team"), Some(&w.team), "{}", w.id);
    }
}

/// The bundled sheet `sheet` prices `sku` with a GPU: the fleet is one the meter can price.
fn priced(sku: &str, sheet: &str) {
    let skus = gpumeter::pricing::find_sku(sku, Some(sheet));
    assert!(
        skus.iter().any(|(_, s)| s.gpu_count > 0),
        "{sheet} prices {sku}"
    );
}

/// The sweep lists the `n` orphans `id` names, each a data disk with its tag.
fn swept_orphans(
    swept: &[gpumeter::provider::LinkedResource],
    n: usize,
    id: impl Fn(usize) -> String,
) {
    for n in 1..=n {
        let id = id(n);
        let orphan = swept
            .iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("the sweep lists {id}"));
        assert_eq!(orphan.kind, ResourceKind::DataDisk);
        let team = alibaba_peer::fleet::team(n);
        assert_eq!(orphan.tags.get("team").map(String::as_str), Some(team));
    }
}

fn ali_fleet(peer: &AliPeer) -> (Vec<Want>, String) {
    let all = peer.cloud(|c| c.fleet.clone());
    let cpu = all.iter().find(|i| i.gpus == 0).map(|i| i.id.clone());
    let want = all
        .into_iter()
        .filter(|i| i.gpus > 0)
        .map(|i| Want {
            stopped: i.status == "Stopped",
            id: i.id,
            sku: i.instance_type.into(),
            system_disk: i.system_disk,
            disk_gib: alibaba_peer::fleet::FLEET_DISK_GIB,
            team: i.team.into(),
        })
        .collect();
    (want, cpu.expect("a CPU instance"))
}

fn ali_peer(instances: usize, orphans: usize, cap: usize) -> Option<AliPeer> {
    let peer = AliPeer::start()?;
    peer.fleet_world(instances, orphans);
    peer.cloud(|c| c.page_cap = Some(cap));
    Some(peer)
}

fn ali_adapter(peer: &AliPeer, policy: HttpPolicy) -> gpumeter::provider::alibaba::AlibabaCloud {
    let settings =
        gpumeter::provider::alibaba::Settings::resolve(&peer.env(), None, None).expect("settings");
    gpumeter::provider::alibaba::AlibabaCloud::new(settings, policy).expect("adapter")
}

#[tokio::test]
async fn alibaba_lists_every_gpu_instance_over_every_page() {
    use alibaba_peer::cloud::{DATA_DISK, EIP, INSTANCE, SYSTEM_DISK};
    let Some(peer) = ali_peer(7, 5, 3) else {
        return;
    };
    peer.cloud(|c| {
        if let Some(i) = &mut c.instance {
            i.auto_release = "2026-12-30T00:00Z".into();
        }
    });
    let found = peer.adapter(None).instances().await.unwrap();
    let (fleet, cpu) = ali_fleet(&peer);
    assert_eq!(fleet.len(), 7);
    check(&found, INSTANCE, &fleet, &cpu);
    priced(&fleet[0].sku, "alibaba-cn-hangzhou");
    for action in ["DescribeInstances", "DescribeDisks"] {
        let pages = peer.cloud(|c| c.pages.get(action).map_or(0, |p| p.served));
        assert!(pages >= 3, "{action}: {pages} pages");
    }
    let main = row(&found, INSTANCE);
    let release: jiff::Timestamp = "2026-12-30T00:00:00Z".parse().unwrap();
    assert_eq!(main.deadline.map(|d| d.at), Some(release));
    assert!(fleet.iter().all(|w| row(&found, &w.id).deadline.is_none()));
    let ids: BTreeSet<&str> = main.resources.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, BTreeSet::from([SYSTEM_DISK, DATA_DISK, EIP]));
    let swept = peer.adapter(None).sweep().await.unwrap();
    swept_orphans(&swept, 5, |n| {
        alibaba_peer::cloud::extra_id("d-bp1orphan", n)
    });
}

#[tokio::test]
async fn alibaba_listing_outwaits_the_rate_limit() {
    let Some(peer) = ali_peer(7, 5, 3) else {
        return;
    };
    peer.rate_limit(2);
    let found = ali_adapter(&peer, patient()).instances().await.unwrap();
    assert!(peer.throttled() > 0, "the rate limit refused nothing");
    let (fleet, cpu) = ali_fleet(&peer);
    check(&found, alibaba_peer::INSTANCE, &fleet, &cpu);
}

#[tokio::test]
async fn alibaba_listing_past_the_page_bound_is_an_error() {
    // 50 GPU instances, the main one and the CPU one, one a page: past the 50-page bound.
    let Some(peer) = ali_peer(50, 0, 1) else {
        return;
    };
    let err = peer.adapter(None).instances().await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("DescribeInstances"), "{text}");
    assert_eq!(peer.count("DescribeDisks"), 0);
}

fn tc_fleet(peer: &TcPeer) -> (Vec<Want>, String) {
    let all = peer.cloud(|c| c.fleet.clone());
    let cpu = all.iter().find(|i| i.gpus == 0).map(|i| i.id.clone());
    let want = all
        .into_iter()
        .filter(|i| i.gpus > 0)
        .map(|i| Want {
            stopped: i.state == "STOPPED",
            id: i.id,
            sku: i.instance_type.into(),
            system_disk: i.system_disk,
            disk_gib: tencent_peer::fleet::FLEET_DISK_GIB,
            team: i.team.into(),
        })
        .collect();
    (want, cpu.expect("a CPU instance"))
}

fn tc_peer(instances: usize, orphans: usize, cap: usize) -> Option<TcPeer> {
    let peer = TcPeer::start()?;
    peer.fleet_world(instances, orphans);
    peer.cloud(|c| c.page_cap = Some(cap));
    Some(peer)
}

fn tc_adapter(peer: &TcPeer, policy: HttpPolicy) -> gpumeter::provider::tencent::TencentCloud {
    let settings =
        gpumeter::provider::tencent::Settings::resolve(&peer.env(), None, None).expect("settings");
    gpumeter::provider::tencent::TencentCloud::new(settings, policy).expect("adapter")
}

#[tokio::test]
async fn tencent_lists_every_gpu_instance_over_every_page() {
    let Some(peer) = tc_peer(7, 5, 3) else {
        return;
    };
    let release = "2026-12-30T00:00:00Z";
    peer.cloud(|c| {
        c.timers.push(tencent_peer::cloud::Timer {
            id: "loop-timer-1".into(),
            at: release.into(),
            status: "UNDO".into(),
        });
    });
    let found = peer.adapter(None).instances().await.unwrap();
    let (fleet, cpu) = tc_fleet(&peer);
    assert_eq!(fleet.len(), 7);
    check(&found, tencent_peer::INSTANCE, &fleet, &cpu);
    priced(&fleet[0].sku, "tencent-ap-guangzhou");
    for action in ["DescribeInstances", "DescribeDisks"] {
        let pages = peer.cloud(|c| c.pages.get(action).map_or(0, |p| p.served));
        assert!(pages >= 3, "{action}: {pages} pages");
    }
    let main = row(&found, tencent_peer::INSTANCE);
    assert_eq!(main.deadline.map(|d| d.at), Some(release.parse().unwrap()));
    assert!(fleet.iter().all(|w| row(&found, &w.id).deadline.is_none()));
    let ids: BTreeSet<&str> = main.resources.iter().map(|r| r.id.as_str()).collect();
    let ip = peer.cloud(|c| c.addresses[0].ip.clone());
    assert_eq!(
        ids,
        BTreeSet::from(["disk-sys", "disk-keep", "disk-go", ip.as_str()])
    );
    let swept = peer.adapter(None).sweep().await.unwrap();
    swept_orphans(&swept, 5, |n| {
        tencent_peer::fleet::fleet_id("disk-orphan", n)
    });
}

#[tokio::test]
async fn tencent_listing_outwaits_the_rate_limit() {
    let Some(peer) = tc_peer(7, 5, 3) else {
        return;
    };
    peer.rate_limit(2);
    let found = tc_adapter(&peer, patient()).instances().await.unwrap();
    assert!(peer.throttled() > 0, "the rate limit refused nothing");
    let (fleet, cpu) = tc_fleet(&peer);
    check(&found, tencent_peer::INSTANCE, &fleet, &cpu);
}

#[tokio::test]
async fn tencent_listing_past_the_page_bound_is_an_error() {
    // 50 GPU instances, the main one and the CPU one, one a page: past the 50-page bound.
    let Some(peer) = tc_peer(50, 0, 1) else {
        return;
    };
    let err = peer.adapter(None).instances().await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("DescribeInstances"), "{text}");
    assert_eq!(peer.count("DescribeDisks"), 0);
}

/// Eleven stopped instances (every fourth of 44): past ten, the sweep finds their disks in one
/// listing of the region's disks rather than one call each, and lists every one.
#[tokio::test]
async fn a_sweep_past_ten_stopped_instances_lists_their_disks_from_one_listing() {
    let Some(ali) = ali_peer(44, 0, 100) else {
        return;
    };
    let swept = ali.adapter(None).sweep().await.unwrap();
    let stopped_disks: Vec<&str> = swept
        .iter()
        .filter(|r| r.id.starts_with("d-bp1fleetsys") && r.state.contains("stopped instance"))
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(stopped_disks.len(), 11, "{stopped_disks:?}");
    let per_instance = ali
        .calls()
        .iter()
        .filter(|c| c.action == "DescribeDisks" && c.params.contains_key("InstanceId"))
        .count();
    assert_eq!(per_instance, 0, "one call per stopped instance");

    let Some(tc) = tc_peer(44, 0, 100) else {
        return;
    };
    let swept = tc.adapter(None).sweep().await.unwrap();
    let stopped_disks = swept
        .iter()
        .filter(|r| r.id.starts_with("disk-fleet") && r.state.contains("stopped instance"))
        .count();
    assert_eq!(stopped_disks, 11);
    let per_instance = tc
        .calls()
        .iter()
        .filter(|c| c.action == "DescribeDisks" && c.body.to_string().contains("instance-id"))
        .count();
    assert_eq!(per_instance, 0, "one call per stopped instance");
}
