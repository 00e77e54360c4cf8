//! The Lambda Cloud, RunPod and Vast.ai adapters against loopback peers: inventory with live
//! prices, the actions with their read-back, account storage, and the meter's view of a
//! stopped pod and of a Vast host's own rates.

use gpumeter::meter::{ComputeTerms, InstanceState, Lifecycle, ResourceKind, Usage, accrue};
use gpumeter::pricing::bundled_sheet;
use gpumeter::provider::bearer::KeyEnv;
use gpumeter::provider::lambda::{Lambda, LambdaSettings};
use gpumeter::provider::vast::model;
use gpumeter::provider::{Action, LinkedResource, Provider};
use jiff::{SignedDuration, Timestamp};
use rust_decimal::dec;

use crate::gpu_peer::{self, KEY, Kind, Peer};

#[tokio::test]
async fn lambda_lists_the_live_price_and_every_file_system() {
    let peer = Peer::start(Kind::Lambda);
    let inv = peer.lambda().inventory().await.unwrap();
    let i = inv.instance.unwrap();
    assert_eq!(i.live_price_per_hour, Some(dec!(0.75)));
    assert_eq!(
        (i.sku.as_str(), i.state),
        ("gpu_1x_a10", InstanceState::Running)
    );
    assert_eq!(i.region.as_deref(), Some("us-west-1"));
    assert_eq!(inv.resources.len(), 2);
    for fs in &inv.resources {
        assert_eq!(fs.kind, ResourceKind::NetworkVolume);
        assert!(
            !fs.deleted_with_instance,
            "file systems survive termination"
        );
        assert_eq!(fs.size_gib, dec!(100));
    }
    assert!(inv.deadline.is_none());
}

#[tokio::test]
async fn lambda_says_why_it_cannot_stop_snapshot_or_hold_a_deadline() {
    let peer = Peer::start(Kind::Lambda);
    let lambda = peer.lambda();
    let caps = lambda.capabilities();
    assert!(!caps.stop && !caps.snapshots && !caps.deadline);
    let err = lambda.perform(&Action::Stop).await.unwrap_err();
    assert!(err.is_unsupported());
    let text = err.to_string();
    assert!(text.starts_with("lambda cannot stop"), "{text}");
    assert!(text.contains("bills until it is terminated"), "{text}");
    let clean = Action::SnapshotClean {
        keep: 0,
        final_snapshot: false,
        delete: None,
    };
    assert!(
        lambda
            .perform(&clean)
            .await
            .unwrap_err()
            .to_string()
            .contains("no snapshots")
    );
    assert!(lambda.plan(&Action::Stop).is_empty());
    assert_eq!(peer.calls().len(), 0, "nothing was asked of Lambda");
}

#[tokio::test]
async fn lambda_release_is_confirmed_only_once_terminated() {
    let peer = Peer::start(Kind::Lambda);
    let lambda = peer.lambda();
    let report = lambda.perform(&Action::Release).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(report.summary.contains("terminated"), "{}", report.summary);
    assert_eq!(
        peer.cloud(|c| c.status.clone()).as_deref(),
        Some("terminated")
    );
    assert!(
        peer.count("GET /api/v1/instances/") >= 3,
        "polled past `terminating`"
    );
    let again = lambda.perform(&Action::Release).await.unwrap();
    assert!(
        again.confirmed && again.summary.contains("already released"),
        "{again:?}"
    );
}

#[tokio::test]
async fn lambda_finds_its_instance_by_hostname_and_deletes_file_systems() {
    let peer = Peer::start(Kind::Lambda);
    let env = KeyEnv::from_pairs(peer.env_pairs(Kind::Lambda));
    let s = LambdaSettings::resolve(&env, None, Some("10-0-8-196\n".into()));
    let lambda = Lambda::new(s, gpu_peer::policy());
    assert_eq!(
        lambda.instance_id().await.unwrap(),
        gpu_peer::cloud::LAMBDA_ID
    );
    let listed = lambda.inventory().await.unwrap().resources;
    let fs = |id: &str| listed.iter().find(|r| r.id == id).unwrap().clone();
    let gone = lambda.delete(&fs("fs-old")).await.unwrap();
    assert!(gone.confirmed, "{gone:?}");
    assert!(peer.cloud(|c| c.storage.iter().all(|s| s.id != "fs-old")));
    let err = lambda.delete(&fs("fs-weights")).await.unwrap_err();
    assert!(err.to_string().contains("filesystem-in-use"), "{err}");
    let lost = Lambda::new(
        LambdaSettings::resolve(&env, None, Some("elsewhere".into())),
        gpu_peer::policy(),
    );
    assert!(
        lost.inventory()
            .await
            .unwrap_err()
            .to_string()
            .contains("--instance")
    );
}

#[tokio::test]
async fn runpod_lists_the_pod_its_disks_and_network_volumes() {
    let peer = Peer::start(Kind::Runpod);
    let inv = peer.runpod().inventory().await.unwrap();
    let pod = inv.instance.unwrap();
    assert_eq!(pod.live_price_per_hour, Some(dec!(0.34)));
    assert_eq!(pod.sku, "rtx-4090-community");
    let by_class = |c: &str| {
        inv.resources
            .iter()
            .find(|r| r.class.as_deref() == Some(c))
            .unwrap()
    };
    assert_eq!(by_class("volume").size_gib, dec!(50));
    assert_eq!(by_class("container").size_gib, dec!(20));
    assert!(by_class("volume").deleted_with_instance);
    let nv = inv
        .resources
        .iter()
        .find(|r| r.kind == ResourceKind::NetworkVolume)
        .unwrap();
    assert_eq!((nv.id.as_str(), nv.state.as_str()), ("nv-data", "attached"));
    assert!(!nv.deleted_with_instance);
}

#[tokio::test]
async fn a_stopped_pod_costs_nothing_in_compute_but_its_volume_bills_at_the_stopped_rate() {
    let peer = Peer::start(Kind::Runpod);
    let runpod = peer.runpod();
    runpod.inventory().await.unwrap();
    let report = runpod.perform(&Action::Stop).await.unwrap();
    assert!(
        report.confirmed && report.summary.contains("EXITED"),
        "{report:?}"
    );
    let inv = runpod.inventory().await.unwrap();
    let pod = inv.instance.unwrap();
    assert_eq!(pod.state, InstanceState::Stopped);
    assert_eq!(
        pod.live_price_per_hour,
        Some(dec!(0)),
        "the API's cost reads 0"
    );
    let sheet = bundled_sheet("runpod").unwrap();
    let mut usage = Usage::new(
        Lifecycle::from_changes(pod.history.clone()).unwrap(),
        ComputeTerms::Hourly { per_hour: dec!(0) },
    );
    usage.resources = inv.resources.iter().map(LinkedResource::to_meter).collect();
    let accrual = accrue(
        sheet,
        &usage,
        Timestamp::now() + SignedDuration::from_hours(1),
    );
    assert!(accrual.unpriced.is_empty(), "{:?}", accrual.unpriced);
    assert_eq!(accrual.burn_per_hour.compute, dec!(0));
    let hours = rust_decimal::Decimal::from(sheet.billing.month_hours);
    // 50 GB volume at 0.20 stopped, 20 GB container at 0, 200 GB network volume at 0.07.
    let want = (dec!(50) * dec!(0.20) + dec!(200) * dec!(0.07)) / hours;
    assert_eq!(accrual.burn_per_hour.storage.round_dp(9), want.round_dp(9));
}

#[tokio::test]
async fn runpod_terminates_and_deletes_network_volumes_with_read_back() {
    let peer = Peer::start(Kind::Runpod);
    let runpod = peer.runpod();
    let report = runpod.perform(&Action::Release).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(peer.cloud(|c| c.status.is_none()));
    assert_eq!(
        report.calls[1],
        "POST /v2/pods/pod7xq2kzq/action {\"action\":\"terminate\"}"
    );
    let stop = runpod.perform(&Action::Stop).await.unwrap();
    assert!(!stop.confirmed, "a gone pod is not stopped: {stop:?}");
    let volume = runpod.sweep().await.unwrap();
    let volume = volume.iter().find(|r| r.id == "nv-data").unwrap();
    let gone = runpod.delete(volume).await.unwrap();
    assert!(gone.confirmed, "{gone:?}");
    let inv = runpod.inventory().await.unwrap();
    assert!(inv.instance.is_none() && inv.resources.is_empty());
}

#[tokio::test]
async fn vast_prices_the_rental_live_and_the_host_rates_through_its_own_sheet() {
    let peer = Peer::start(Kind::Vast);
    let vast = peer.vast();
    let base = bundled_sheet("vast-typical").unwrap();
    assert!(
        vast.own_sheet(base).is_none(),
        "no rates before an inventory"
    );
    let inv = vast.inventory().await.unwrap();
    let i = inv.instance.unwrap();
    assert_eq!(
        i.live_price_per_hour,
        Some(dec!(0.40)),
        "dph_base, storage apart"
    );
    assert_eq!(i.sku, "1x-rtx-4090");
    assert_eq!(i.created, Timestamp::from_second(1_764_403_200).unwrap());
    let disk = &inv.resources[0];
    assert_eq!(
        (disk.class.as_deref(), disk.size_gib),
        (Some(model::STORAGE_CLASS), dec!(100))
    );
    let sheet = vast.own_sheet(base).unwrap();
    assert_eq!(sheet.network.egress_per_unit, Some(dec!(0.02)));
    assert_eq!(sheet.network.ingress_per_unit, dec!(0.005));
    let price = sheet.storage.disk[model::STORAGE_CLASS];
    assert_eq!(
        (price.per_gib_month, price.when_stopped),
        (dec!(0.15), Some(dec!(0.15)))
    );
    assert_eq!(sheet.billing.month_hours, 720);
    assert_eq!(sheet.skus, base.skus, "the rest of the sheet stays");
}

#[test]
fn without_dph_base_the_storage_share_comes_off_dph_total() {
    let row = serde_json::json!({"id": 7, "actual_status": "exited", "intended_status": "stopped",
        "dph_total": 0.4208, "storage_cost": 0.15, "disk_space": 100, "gpu_name": "H100 SXM"});
    let seen = model::parse(&row).unwrap();
    assert_eq!(seen.state(), InstanceState::Stopped);
    let want = dec!(0.4208) - dec!(0.15) * dec!(100) / dec!(720);
    assert_eq!(seen.compute_per_hour(), Some(want));
    assert_eq!(seen.sku(), "1x-h100-sxm");
    let crashed =
        serde_json::json!({"id": 8, "actual_status": "exited", "intended_status": "running"});
    assert_eq!(
        model::parse(&crashed).unwrap().state(),
        InstanceState::Running
    );
}

#[tokio::test]
async fn vast_stops_and_destroys_with_read_back() {
    let peer = Peer::start(Kind::Vast);
    let vast = peer.vast();
    let stop = vast.perform(&Action::Stop).await.unwrap();
    assert!(
        stop.confirmed && stop.summary.contains("stopped"),
        "{stop:?}"
    );
    let again = vast.perform(&Action::Stop).await.unwrap();
    assert!(
        again.confirmed && again.summary.contains("already stopped"),
        "{again:?}"
    );
    let destroy = vast.perform(&Action::Release).await.unwrap();
    assert!(destroy.confirmed, "{destroy:?}");
    assert!(peer.cloud(|c| c.status.is_none()));
    assert!(vast.inventory().await.unwrap().instance.is_none());
}

#[tokio::test]
async fn a_missing_key_names_its_variable_and_no_debug_shows_the_key() {
    let s = LambdaSettings::resolve(&KeyEnv::default(), Some("x".into()), None);
    let err = Lambda::new(s, gpu_peer::policy())
        .inventory()
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "missing credential: set LAMBDA_API_KEY");
    let peer = Peer::start(Kind::Vast);
    let env = KeyEnv::from_pairs(peer.env_pairs(Kind::Vast));
    let shown = format!(
        "{env:?} {:?} {:?}",
        gpumeter::provider::vast::settings(&env, None),
        gpumeter::provider::runpod::settings(&env, None),
    );
    assert!(!shown.contains(KEY), "{shown}");
    let block = "PATH=/bin\0CONTAINER_ID=4242\0CONTAINER_API_KEY=scoped\0";
    let vars = gpumeter::provider::vast::pid1_vars(block);
    let s = gpumeter::provider::vast::settings(&KeyEnv::from_pairs(vars), None);
    assert_eq!(s.instance_id.as_deref(), Some("4242"));
    assert!(s.key.is_ok(), "the container's scoped key serves");
}

/// RunPod's answer to a key that may not make the call.
const NOT_THIS_KEY: &str =
    r#"{"title":"Forbidden","status":403,"detail":"this API key may not list network volumes"}"#;

#[tokio::test]
async fn a_key_that_may_not_list_network_volumes_still_reports_the_pod_and_its_disks() {
    for status in [401, 403] {
        let peer = Peer::start(Kind::Runpod);
        let fault = gpu_peer::Fault::Answer(status, NOT_THIS_KEY);
        peer.fault(fault, Some("GET /v2/network-volumes"), Some(1));
        let runpod = peer.runpod();
        let inv = runpod.inventory().await.unwrap();
        let pod = inv.instance.unwrap();
        assert_eq!(pod.live_price_per_hour, Some(dec!(0.34)));
        let mut classes: Vec<_> = inv.resources.iter().map(|r| r.class.clone()).collect();
        classes.sort();
        assert_eq!(
            classes,
            [Some("container".to_string()), Some("volume".to_string())]
        );
        let gaps = runpod.gaps();
        assert_eq!(gaps.len(), 1, "{gaps:?}");
        assert!(gaps[0].contains("network volumes unknown"), "{gaps:?}");
        assert!(gaps[0].contains(&status.to_string()), "{gaps:?}");
        assert!(!gaps[0].contains(KEY), "{gaps:?}");
        // Once the key may list them again, they are listed and the gap is gone.
        let inv = runpod.inventory().await.unwrap();
        assert!(runpod.gaps().is_empty());
        assert!(
            inv.resources
                .iter()
                .any(|r| r.kind == ResourceKind::NetworkVolume)
        );
    }
}

#[tokio::test]
async fn a_failure_other_than_the_key_on_network_volumes_still_fails_the_inventory() {
    let peer = Peer::start(Kind::Runpod);
    peer.fault(
        gpu_peer::Fault::ServerError,
        Some("GET /v2/network-volumes"),
        None,
    );
    let err = peer.runpod().inventory().await.unwrap_err().to_string();
    assert!(err.contains("500"), "{err}");
}

#[tokio::test]
async fn vast_lists_its_volumes_and_they_outlive_the_instance() {
    let peer = Peer::start(Kind::Vast);
    peer.cloud(|c| {
        c.storage = vec![
            gpu_peer::cloud::Storage {
                id: "31337".into(),
                name: "datasets".into(),
                in_use: true,
            },
            gpu_peer::cloud::Storage {
                id: "31338".into(),
                name: "old-checkpoints".into(),
                in_use: false,
            },
        ];
    });
    let vast = peer.vast();
    let inv = vast.inventory().await.unwrap();
    let volumes: Vec<&LinkedResource> = inv
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::NetworkVolume)
        .collect();
    assert_eq!(volumes.len(), 2, "{:?}", inv.resources);
    let used = volumes.iter().find(|v| v.id == "volume-31337").unwrap();
    assert_eq!(
        (used.name.as_str(), used.state.as_str()),
        ("datasets", "running, attached")
    );
    assert_eq!(used.size_gib, dec!(64));
    assert!(volumes.iter().all(|v| !v.deleted_with_instance));
    let idle = volumes.iter().find(|v| v.id == "volume-31338").unwrap();
    assert_eq!(idle.state, "running");
    assert!(peer.calls().iter().any(|c| c == "GET /api/v0/volumes"));
    // Destroyed, the instance is gone and both volumes still bill.
    let report = vast.perform(&Action::Release).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    let inv = vast.inventory().await.unwrap();
    assert!(inv.instance.is_none());
    let left: Vec<&str> = inv.resources.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(left, ["volume-31337", "volume-31338"]);
    // A key that may not list them leaves them unknown, not absent.
    let peer = Peer::start(Kind::Vast);
    peer.fault(
        gpu_peer::Fault::Answer(403, r#"{"success":false,"error":"forbidden","msg":"no"}"#),
        Some("GET /api/v0/volumes"),
        None,
    );
    let vast = peer.vast();
    let inv = vast.inventory().await.unwrap();
    assert!(inv.instance.is_some());
    let gaps = vast.gaps();
    assert!(
        gaps.len() == 1 && gaps[0].contains("volumes unknown"),
        "{gaps:?}"
    );
}
