//! The Alibaba adapter against the loopback peer, which checks every V3 signature and keeps a
//! small cloud: inventory, release, stop, snapshot-clean, auto-release and the metadata service.

use gpumeter::meter::{BillingMode, InstanceState, ResourceKind};
use gpumeter::provider::refresh::Look;
use gpumeter::provider::{Action, ErrorKind, Provider};
use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

use crate::alibaba_peer::cloud::{DATA_DISK, EIP, IMAGE, SLB, SNAPSHOTS, SYSTEM_DISK};
use crate::alibaba_peer::{self, Fault, INSTANCE, Peer, SECRET};

fn ids_of(inv: &gpumeter::provider::Inventory, kind: ResourceKind) -> Vec<String> {
    let mut ids: Vec<String> = inv
        .resources
        .iter()
        .filter(|r| r.kind == kind)
        .map(|r| r.id.clone())
        .collect();
    ids.sort();
    ids
}

#[tokio::test]
async fn inventory_lists_the_instance_and_every_linked_resource() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let inv = peer.adapter(Some(INSTANCE)).inventory().await.unwrap();
    let i = inv.instance.as_ref().unwrap();
    assert_eq!(i.id, INSTANCE);
    assert_eq!(i.sku, "ecs.gn7i-c8g1.2xlarge");
    assert_eq!(i.provider, "alibaba");
    assert_eq!(i.region.as_deref(), Some("cn-hangzhou"));
    assert_eq!(i.mode, BillingMode::OnDemand);
    assert_eq!(i.state, InstanceState::Running);
    assert_eq!(
        i.created,
        "2026-11-29T08:00:00Z".parse::<Timestamp>().unwrap()
    );
    assert_eq!(inv.deadline, None);
    let disk = |id: &str| inv.resources.iter().find(|r| r.id == id).unwrap();
    let sys = disk(SYSTEM_DISK);
    assert_eq!(sys.kind, ResourceKind::SystemDisk);
    assert!(sys.deleted_with_instance);
    assert_eq!(sys.class.as_deref(), Some("cloud_essd"));
    assert_eq!(sys.size_gib, Decimal::from(40));
    let data = disk(DATA_DISK);
    assert_eq!(data.kind, ResourceKind::DataDisk);
    assert!(!data.deleted_with_instance);
    assert_eq!(data.size_gib, Decimal::from(500));
    assert_eq!(data.state, "In_use");
    assert_eq!(ids_of(&inv, ResourceKind::Snapshot).len(), 3);
    let newest = disk(SNAPSHOTS[2]);
    assert_eq!(
        newest.created,
        "2026-11-29T10:30:00Z".parse::<Timestamp>().unwrap()
    );
    assert_eq!(newest.state, "accomplished");
    assert_eq!(ids_of(&inv, ResourceKind::Image), vec![IMAGE]);
    assert_eq!(ids_of(&inv, ResourceKind::PublicIp), vec![EIP]);
    assert_eq!(disk(EIP).name, "47.96.0.7");
    assert_eq!(disk(EIP).state, "InUse");
    let lb = disk(SLB);
    assert_eq!(lb.kind, ResourceKind::LoadBalancer);
    assert_eq!(
        lb.created,
        Timestamp::from_millisecond(1_796_025_720_000).unwrap()
    );
    assert_eq!(
        inv.resources
            .iter()
            .filter(|r| r.deleted_with_instance)
            .count(),
        1
    );
    // DescribeImages asks for the account's own images in every status.
    let images = peer
        .calls()
        .into_iter()
        .find(|c| c.action == "DescribeImages")
        .unwrap();
    assert_eq!(images.params["ImageOwnerAlias"], "self");
    assert!(images.params["Status"].contains("Creating"));
}

#[tokio::test]
async fn spot_and_every_status_map_onto_the_meter() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(INSTANCE));
    for (status, state) in [
        ("Pending", InstanceState::Running),
        ("Starting", InstanceState::Running),
        ("Running", InstanceState::Running),
        ("Stopped", InstanceState::Stopped),
    ] {
        peer.cloud(|c| {
            let i = c.instance.as_mut().unwrap();
            i.status = status.into();
            i.spot_strategy = "SpotAsPriceGo".into();
        });
        let inv = adapter.inventory().await.unwrap();
        let i = inv.instance.unwrap();
        assert_eq!((i.state, i.mode), (state, BillingMode::Spot), "{status}");
    }
}

#[tokio::test]
async fn a_wrong_secret_fails_the_signature_check_and_says_what_to_fix() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let url = peer.url();
    let env = gpumeter::provider::alibaba::credentials::env_from_lookup(|name| match name {
        "ALIBABA_CLOUD_ACCESS_KEY_ID" => Some(alibaba_peer::KEY_ID.into()),
        "ALIBABA_CLOUD_ACCESS_KEY_SECRET" => Some("not-the-secret-xyz".into()),
        "ALIBABA_CLOUD_REGION_ID" => Some("cn-hangzhou".into()),
        "GPUMETER_ALIBABA_ENDPOINT" => Some(url.clone()),
        _ => None,
    });
    let err = Peer::adapter_with(&env, Some(INSTANCE))
        .inventory()
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("SignatureDoesNotMatch"), "{text}");
    assert!(text.contains("ALIBABA_CLOUD_ACCESS_KEY_SECRET"), "{text}");
    assert!(!text.contains("not-the-secret-xyz") && !text.contains(SECRET));
    assert!(
        peer.calls().is_empty(),
        "nothing got past the signature check"
    );
}

#[tokio::test]
async fn release_is_confirmed_by_read_back_and_names_the_leftovers() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(INSTANCE));
    adapter.inventory().await.unwrap();
    let plan = adapter.plan(&Action::Release);
    assert!(
        plan[0].contains("DeleteInstance") && plan[0].contains("Force=true"),
        "{plan:?}"
    );
    let report = adapter.perform(&Action::Release).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(report.summary.contains("released"), "{}", report.summary);
    assert!(report.summary.contains(DATA_DISK) && report.summary.contains(EIP));
    assert!(!report.summary.contains(SYSTEM_DISK), "{}", report.summary);
    assert_eq!(report.calls[0], plan[0]);
    let delete = peer
        .calls()
        .into_iter()
        .find(|c| c.action == "DeleteInstance")
        .unwrap();
    assert_eq!(delete.params["Force"], "true");
    assert!(peer.cloud(|c| c.instance.is_none()));

    // The leftovers, as this process saw them linked to the instance.
    let inv = adapter.inventory().await.unwrap();
    assert!(inv.instance.is_none());
    assert_eq!(ids_of(&inv, ResourceKind::DataDisk), vec![DATA_DISK]);
    assert_eq!(ids_of(&inv, ResourceKind::SystemDisk), Vec::<String>::new());
    assert_eq!(ids_of(&inv, ResourceKind::Snapshot).len(), 3);
    assert_eq!(ids_of(&inv, ResourceKind::PublicIp), vec![EIP]);
    assert_eq!(ids_of(&inv, ResourceKind::LoadBalancer), vec![SLB]);

    let again = adapter.perform(&Action::Release).await.unwrap();
    assert!(again.confirmed);
    assert!(
        again.summary.contains("already released"),
        "{}",
        again.summary
    );
}

#[tokio::test]
async fn a_fresh_process_after_release_lists_what_bills_without_an_instance() {
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.adapter(Some(INSTANCE))
        .perform(&Action::Release)
        .await
        .unwrap();
    // A fresh process that has never seen the instance cannot tell "released" from "wrong id".
    let never = peer.adapter(Some(INSTANCE)).inventory().await.unwrap_err();
    assert!(matches!(never.kind(), ErrorKind::State { .. }), "{never:?}");
    assert!(never.to_string().contains("never seen"), "{never}");
    // One whose ledger saw it lists what bills without it.
    let fresh = peer.adapter(Some(INSTANCE));
    fresh.add_seen(&[("alibaba", INSTANCE)].into_iter().collect());
    let inv = fresh.inventory().await.unwrap();
    assert!(inv.instance.is_none());
    assert_eq!(ids_of(&inv, ResourceKind::DataDisk), vec![DATA_DISK]);
    assert_eq!(ids_of(&inv, ResourceKind::Snapshot).len(), 3);
    assert_eq!(ids_of(&inv, ResourceKind::Image), vec![IMAGE]);
    assert_eq!(ids_of(&inv, ResourceKind::PublicIp), vec![EIP]);
    assert!(inv.resources.iter().all(|r| !r.deleted_with_instance));
}

#[tokio::test]
async fn stop_reads_back_stop_charging() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let report = peer
        .adapter(Some(INSTANCE))
        .perform(&Action::Stop)
        .await
        .unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("(StopCharging)"),
        "{}",
        report.summary
    );
    assert!(report.summary.contains("compute no longer bills"));
    let stop = peer
        .calls()
        .into_iter()
        .find(|c| c.action == "StopInstance")
        .unwrap();
    assert_eq!(stop.params["StoppedMode"], "StopCharging");
    // Stopping first, then Stopped: the adapter waited for it.
    assert!(peer.count("DescribeInstances") >= 2);
}

#[tokio::test]
async fn stop_tells_the_truth_when_the_provider_falls_back_to_keep_charging() {
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.cloud(|c| c.economical = false);
    let report = peer
        .adapter(Some(INSTANCE))
        .perform(&Action::Stop)
        .await
        .unwrap();
    assert!(report.confirmed, "the stop itself happened");
    assert!(
        report
            .summary
            .contains("stopped, but still charging compute (KeepCharging)"),
        "{}",
        report.summary
    );
}

#[tokio::test]
async fn snapshot_clean_keeps_the_newest_and_any_snapshot_an_image_needs() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(INSTANCE));
    adapter.inventory().await.unwrap();
    let action = Action::SnapshotClean {
        keep: 1,
        final_snapshot: false,
        delete: None,
    };
    let plan = adapter.plan(&action);
    let deletes: Vec<&String> = plan
        .iter()
        .filter(|c| c.contains("DeleteSnapshot"))
        .collect();
    assert_eq!(deletes.len(), 1, "{plan:?}");
    assert!(deletes[0].contains(SNAPSHOTS[1]));
    let report = adapter.perform(&action).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("deleted 1 snapshot"),
        "{}",
        report.summary
    );
    assert!(report.summary.contains(IMAGE), "{}", report.summary);
    let left: Vec<String> = peer.cloud(|c| c.snapshots.iter().map(|s| s.id.clone()).collect());
    assert_eq!(left, vec![SNAPSHOTS[0], SNAPSHOTS[2]]);
}

#[tokio::test]
async fn snapshot_clean_with_a_final_snapshot_keeps_that_one() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(INSTANCE));
    let action = Action::SnapshotClean {
        keep: 1,
        final_snapshot: true,
        delete: None,
    };
    let report = adapter.perform(&action).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    let create = peer
        .calls()
        .into_iter()
        .find(|c| c.action == "CreateSnapshot")
        .unwrap();
    assert_eq!(create.params["DiskId"], SYSTEM_DISK);
    assert!(create.params["ClientToken"].len() <= 64);
    let left: Vec<String> = peer.cloud(|c| c.snapshots.iter().map(|s| s.id.clone()).collect());
    assert_eq!(left.len(), 2, "{left:?}");
    assert_eq!(left[0], SNAPSHOTS[0], "the image's snapshot stays");
    assert!(left[1].starts_with("s-bp1final"));
    assert!(report.summary.contains(&left[1]), "{}", report.summary);
}

#[tokio::test]
async fn auto_release_is_set_extended_and_cancelled_and_read_back() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(INSTANCE));
    let minute = |t: Timestamp| Timestamp::from_second(t.as_second() / 60 * 60).unwrap();
    let at = Timestamp::now() + SignedDuration::from_hours(2);
    let report = adapter
        .perform(&Action::SetDeadline { at: Some(at) })
        .await
        .unwrap();
    assert!(report.confirmed, "{report:?}");
    assert_eq!(
        adapter.inventory().await.unwrap().deadline.unwrap().at,
        minute(at)
    );

    let later = at + SignedDuration::from_hours(1);
    let report = adapter
        .perform(&Action::SetDeadline { at: Some(later) })
        .await
        .unwrap();
    assert!(report.confirmed);
    assert_eq!(
        adapter.inventory().await.unwrap().deadline.unwrap().at,
        minute(later)
    );

    let report = adapter
        .perform(&Action::SetDeadline { at: None })
        .await
        .unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(report.summary.contains("cancelled"));
    assert_eq!(adapter.inventory().await.unwrap().deadline, None);
    let cancel = peer
        .calls()
        .into_iter()
        .rfind(|c| c.action == "ModifyInstanceAutoReleaseTime");
    assert!(!cancel.unwrap().params.contains_key("AutoReleaseTime"));
}

#[tokio::test]
async fn auto_release_sooner_than_thirty_minutes_is_refused_before_calling() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(INSTANCE));
    let soon = Timestamp::now() + SignedDuration::from_mins(20);
    let err = adapter
        .perform(&Action::SetDeadline { at: Some(soon) })
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("at least 30 minutes ahead"),
        "{err}"
    );
    assert_eq!(peer.count("ModifyInstanceAutoReleaseTime"), 0);
}

#[tokio::test]
async fn the_metadata_service_names_the_instance_and_the_spot_notice() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(None);
    assert_eq!(adapter.instance_id().await.unwrap(), INSTANCE);
    assert_eq!(
        adapter.inventory().await.unwrap().instance.unwrap().id,
        INSTANCE
    );
    assert_eq!(adapter.spot_notice().await.unwrap(), None);
    peer.cloud(|c| c.spot_termination = Some("2026-11-29T18:02:00Z".into()));
    assert_eq!(
        adapter.spot_notice().await.unwrap(),
        Some("2026-11-29T18:02:00Z".parse().unwrap())
    );
}

#[tokio::test]
async fn throttled_and_failed_reads_are_retried() {
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.fault(Fault::Throttle, Some("DescribeInstances"), Some(1));
    peer.fault(Fault::ServerError, Some("DescribeInstances"), Some(1));
    let inv = peer.adapter(Some(INSTANCE)).inventory().await.unwrap();
    assert!(inv.instance.is_some());
    assert_eq!(peer.count("DescribeInstances"), 3);
}

#[tokio::test]
async fn an_eip_left_behind_is_released_once_unbound_and_read_back() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(INSTANCE));
    let (done, summary) = adapter.release_eip(EIP).await.unwrap();
    assert!(!done, "still bound: {summary}");
    assert!(summary.contains("InUse"), "{summary}");
    adapter.perform(&Action::Release).await.unwrap();
    let (done, summary) = adapter.release_eip(EIP).await.unwrap();
    assert!(done, "{summary}");
    let inv = adapter.inventory().await.unwrap();
    assert!(ids_of(&inv, ResourceKind::PublicIp).is_empty());
}

#[tokio::test]
async fn snapshot_clean_refuses_when_the_fresh_plan_is_not_the_one_confirmed() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(INSTANCE));
    // Confirmed to delete the newest, which the plan now keeps: nothing is deleted.
    let action = Action::SnapshotClean {
        keep: 1,
        final_snapshot: false,
        delete: Some(vec![SNAPSHOTS[0].to_string()]),
    };
    let refused = adapter.perform(&action).await.unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("changed since the confirmation"),
        "{refused}"
    );
    assert_eq!(peer.count("DeleteSnapshot"), 0);
    let left = peer.cloud(|c| c.snapshots.len());
    assert_eq!(left, SNAPSHOTS.len());
}

/// A peer whose Describe pages hold two items, with enough disks, images, EIPs and load
/// balancers that each listing runs to at least three pages.
fn paged_peer(extra: usize) -> Option<Peer> {
    let peer = Peer::start()?;
    peer.cloud(|c| {
        c.page_cap = Some(2);
        c.extra = extra;
        let template = c.disks[1].clone();
        for n in 1..=extra {
            let mut d = template.clone();
            d.id = alibaba_peer::cloud::extra_id("d-bp1extra", n);
            c.disks.push(d);
        }
    });
    Some(peer)
}

#[tokio::test]
async fn every_listing_is_read_to_its_last_page() {
    let Some(peer) = paged_peer(5) else {
        return;
    };
    let inv = peer.adapter(Some(INSTANCE)).inventory().await.unwrap();
    let extra = |prefix: &str, with: &str| {
        let mut ids: Vec<String> = (1..=5)
            .map(|n| alibaba_peer::cloud::extra_id(prefix, n))
            .chain(std::iter::once(with.to_string()))
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(ids_of(&inv, ResourceKind::SystemDisk), vec![SYSTEM_DISK]);
    assert_eq!(
        ids_of(&inv, ResourceKind::DataDisk),
        extra("d-bp1extra", DATA_DISK)
    );
    assert_eq!(
        ids_of(&inv, ResourceKind::Image),
        extra("m-bp1extraimg", IMAGE)
    );
    assert_eq!(
        ids_of(&inv, ResourceKind::PublicIp),
        extra("eip-bp1extra", EIP)
    );
    assert_eq!(
        ids_of(&inv, ResourceKind::LoadBalancer),
        extra("lb-bp1extra", SLB)
    );
    assert_eq!(ids_of(&inv, ResourceKind::Snapshot).len(), 3);
    // 7 disks, 6 images, 6 EIPs, 6 load balancers, 3 snapshots at two a page.
    assert_eq!(peer.count("DescribeDisks"), 4);
    for action in [
        "DescribeImages",
        "DescribeEipAddresses",
        "DescribeLoadBalancers",
    ] {
        assert_eq!(peer.count(action), 3, "{action}");
    }
    assert_eq!(peer.count("DescribeSnapshots"), 2);
    let pages: Vec<String> = peer
        .calls()
        .iter()
        .filter(|c| c.action == "DescribeImages")
        .filter_map(|c| c.params.get("PageNumber").cloned())
        .collect();
    assert_eq!(pages, ["1", "2", "3"]);
    // Released, what bills without it is listed region-wide, also page by page.
    let adapter = peer.adapter(Some(INSTANCE));
    adapter.inventory().await.unwrap();
    adapter.perform(&Action::Release).await.unwrap();
    let inv = adapter.inventory().await.unwrap();
    assert!(inv.instance.is_none());
    assert_eq!(
        ids_of(&inv, ResourceKind::DataDisk),
        extra("d-bp1extra", DATA_DISK)
    );
    assert_eq!(
        ids_of(&inv, ResourceKind::PublicIp),
        extra("eip-bp1extra", EIP)
    );
    // Every image is read, but only the one made from its snapshot is the instance's.
    let pages = peer.count("DescribeImages");
    assert_eq!(ids_of(&inv, ResourceKind::Image), vec![IMAGE]);
    assert!(pages >= 6, "{pages}");
}

#[tokio::test]
async fn a_listing_past_fifty_pages_is_an_error_not_a_short_list() {
    // 61 images at one a page is 61 pages.
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.cloud(|c| {
        c.page_cap = Some(1);
        c.extra = 60;
    });
    let err = peer
        .adapter(Some(INSTANCE))
        .inventory()
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("past 50 pages"), "{err}");
    assert_eq!(peer.count("DescribeImages"), 50);
}

/// A HOME of the test's own whose aliyun CLI file holds `config`.
fn aliyun_home(name: &str, config: &str) -> std::path::PathBuf {
    let home = std::env::temp_dir().join(format!(
        "gpumeter-aliyun-home-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(home.join(".aliyun")).unwrap();
    std::fs::write(home.join(".aliyun/config.json"), config).unwrap();
    home
}

#[tokio::test]
async fn keys_only_in_the_aliyun_cli_profile_sign_the_calls() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let url = peer.url();
    let config = serde_json::json!({
        "current": "other",
        "profiles": [
            {"name": "other", "mode": "AK", "access_key_id": "LTAIother",
             "access_key_secret": "other-secret", "region_id": "cn-beijing"},
            {"name": "gpu", "mode": "AK", "access_key_id": alibaba_peer::KEY_ID,
             "access_key_secret": SECRET, "region_id": alibaba_peer::cloud::REGION},
        ]
    });
    let home = aliyun_home("keys", &config.to_string());
    let home_text = home.display().to_string();
    let env = gpumeter::provider::alibaba::credentials::env_from_lookup(|name| match name {
        "HOME" => Some(home_text.clone()),
        "ALIBABA_CLOUD_PROFILE" => Some("gpu".into()),
        "GPUMETER_ALIBABA_ENDPOINT" | "GPUMETER_ALIBABA_METADATA" => Some(url.clone()),
        _ => None,
    });
    assert_eq!(env.key_id, None, "no keys in the variables");
    let inv = Peer::adapter_with(&env, Some(INSTANCE))
        .inventory()
        .await
        .unwrap();
    assert_eq!(inv.instance.unwrap().id, INSTANCE);
    let _ = std::fs::remove_dir_all(home);
}

#[tokio::test]
async fn without_keys_anywhere_the_error_names_every_place_in_order() {
    let home = aliyun_home("none", r#"{"current": "default", "profiles": []}"#);
    let home_text = home.display().to_string();
    // Nothing listens on the discard port: the metadata service has no role to give.
    let env = gpumeter::provider::alibaba::credentials::env_from_lookup(|name| match name {
        "HOME" => Some(home_text.clone()),
        "ALIBABA_CLOUD_REGION_ID" => Some("cn-hangzhou".into()),
        "GPUMETER_ALIBABA_METADATA" => Some("http://127.0.0.1:9".into()),
        _ => None,
    });
    let err = Peer::adapter_with(&env, Some(INSTANCE))
        .inventory()
        .await
        .unwrap_err();
    let text = err.to_string();
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {text}"))
    };
    let places = [
        at("ALIBABA_CLOUD_ACCESS_KEY_ID/ALIBABA_CLOUD_ACCESS_KEY_SECRET"),
        at(&format!(
            "profile `default` in {}",
            home.join(".aliyun/config.json").display()
        )),
        at(&format!(
            "[default] in {}",
            home.join(".alibabacloud/credentials.ini").display()
        )),
        at("the ECS RAM role at http://127.0.0.1:9"),
    ];
    assert!(places.is_sorted(), "{text}");
    assert!(matches!(err.kind(), ErrorKind::Auth(_)), "{err:?}");
    let _ = std::fs::remove_dir_all(home);
}

/// What the watchdog and the cockpit ask between full inventories: one DescribeInstances,
/// whose state is the one the inventory reads; `None` where the instance is not listed.
#[tokio::test]
async fn a_look_is_one_describe_instances_in_the_inventory_s_words() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(INSTANCE));
    for status in ["Running", "Stopped", "Starting"] {
        peer.cloud(|c| c.instance.as_mut().unwrap().status = status.into());
        let before = peer.calls().len();
        let look = adapter.look().await.unwrap();
        let asked: Vec<String> = peer.calls()[before..]
            .iter()
            .map(|c| c.action.clone())
            .collect();
        assert_eq!(asked, ["DescribeInstances"], "{status}");
        let read = adapter.inventory().await.unwrap().instance.unwrap().state;
        assert_eq!(look, Look::State(Some(read)), "{status}");
    }
    peer.cloud(|c| c.instance = None);
    assert_eq!(adapter.look().await.unwrap(), Look::State(None));
}
