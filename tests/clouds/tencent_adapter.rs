//! The Tencent Cloud adapter against a loopback peer that verifies TC3 signatures and keeps a
//! small CVM: inventory, stop with its billing mode read back, release, the action-timer
//! deadline, throttling inside HTTP 200, a wrong key, and the checklist through the binary.

use gpumeter::meter::{InstanceState, ResourceKind};
use gpumeter::provider::refresh::Look;
use gpumeter::provider::tencent::StoppedMode;
use gpumeter::provider::{Action, Provider};
use jiff::{SignedDuration, Timestamp};

use crate::tencent_peer::{self, Fault, INSTANCE, Peer, SECRET};

fn whole(at: Timestamp) -> Timestamp {
    Timestamp::from_second(at.as_second()).unwrap()
}

#[tokio::test]
async fn inventory_lists_the_instance_its_disks_and_its_address() {
    let Some(peer) = Peer::start() else {
        return;
    };
    // No instance configured: the metadata service names it.
    let cloud = peer.adapter(None);
    let inv = cloud.inventory().await.unwrap();
    let i = inv.instance.unwrap();
    assert_eq!((i.id.as_str(), i.sku.as_str()), (INSTANCE, "GN7.2XLARGE32"));
    assert_eq!(i.state, InstanceState::Running);
    let fate: Vec<(ResourceKind, &str, bool)> = inv
        .resources
        .iter()
        .map(|r| (r.kind, r.id.as_str(), r.deleted_with_instance))
        .collect();
    assert_eq!(
        fate,
        [
            (ResourceKind::SystemDisk, "disk-sys", true),
            (ResourceKind::DataDisk, "disk-keep", false),
            (ResourceKind::DataDisk, "disk-go", true),
            // An ordinary EIP: ReleaseAddress does not free it.
            (ResourceKind::PublicIp, "203.0.113.7", false),
        ]
    );
    assert!(inv.deadline.is_none());
    assert!(peer.rejected().is_empty(), "{:?}", peer.rejected());
    let debug = format!("{:?}", peer.env());
    assert!(!debug.contains(SECRET), "{debug}");
}

#[tokio::test]
async fn a_wrong_secret_fails_the_signature_and_names_the_variables() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let wrong = "not-the-loopback-secret";
    let cloud = Peer::adapter_with(&peer.env_with(wrong), Some(INSTANCE));
    let err = cloud.inventory().await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("AuthFailure.SignatureFailure"), "{text}");
    assert!(text.contains("TENCENTCLOUD_SECRET_KEY"), "{text}");
    assert!(!text.contains(wrong) && !text.contains(SECRET), "{text}");
    assert_eq!(peer.rejected(), ["AuthFailure.SignatureFailure"]);
    // An auth failure is an answer, not something to retry.
    assert_eq!(peer.count("DescribeInstances"), 0);
}

#[tokio::test]
async fn stop_reads_back_the_billing_mode() {
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
        report.summary.contains("STOP_CHARGING"),
        "{}",
        report.summary
    );
    let stop = &peer.calls()[0];
    assert_eq!(stop.action, "StopInstances");
    assert_eq!(stop.body["StoppedMode"], "STOP_CHARGING");

    // The provider may keep charging anyway: the report says so.
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.cloud(|c| c.stop_charging_supported = false);
    let report = peer
        .adapter(Some(INSTANCE))
        .perform(&Action::Stop)
        .await
        .unwrap();
    assert!(report.confirmed);
    assert!(
        report
            .summary
            .contains("still charging compute (KEEP_CHARGING)"),
        "{}",
        report.summary
    );
    let keep = peer
        .adapter(Some(INSTANCE))
        .with_stopped_mode(StoppedMode::KeepCharging);
    assert!(keep.plan(&Action::Stop)[0].contains("KEEP_CHARGING"));
}

#[tokio::test]
async fn release_waits_for_the_instance_to_go_and_a_second_one_says_so() {
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.cloud(|c| c.terminating_reads = 2);
    let cloud = peer.adapter(Some(INSTANCE));
    cloud.inventory().await.unwrap();
    let report = cloud.perform(&Action::Release).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("no longer lists it"),
        "{}",
        report.summary
    );
    assert!(
        report
            .summary
            .contains("still billing: data disk disk-keep, public IP 203.0.113.7"),
        "{}",
        report.summary
    );
    let terminate = peer
        .calls()
        .into_iter()
        .find(|c| c.action == "TerminateInstances");
    assert_eq!(terminate.unwrap().body["ReleaseAddress"], true);
    assert!(peer.count("DescribeInstances") >= 3);
    // The leftovers are still named after the instance is gone.
    let after = cloud.inventory().await.unwrap();
    assert!(after.instance.is_none());
    let ids: Vec<&str> = after.resources.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["disk-keep", "203.0.113.7"]);

    let again = cloud.perform(&Action::Release).await.unwrap();
    assert!(again.confirmed);
    assert!(
        again.summary.contains("already released"),
        "{}",
        again.summary
    );
}

/// `ReleaseAddress=true` frees only HighQualityEIP, AntiDDoSEIP, EIPv6 and HighQualityEIPv6: an
/// ordinary EIP is unbound and goes on billing, so it is a leftover, not "released with it".
#[tokio::test]
async fn an_ordinary_eip_outlives_the_release_and_a_high_quality_one_does_not() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let cloud = peer.adapter(Some(INSTANCE));
    let inv = cloud.inventory().await.unwrap();
    let ip = inv
        .resources
        .iter()
        .find(|r| r.kind == ResourceKind::PublicIp)
        .unwrap();
    assert!(!ip.deleted_with_instance, "{ip:?}");
    assert!(ip.state.contains("EIP"), "{ip:?}");
    let report = cloud.perform(&Action::Release).await.unwrap();
    assert!(
        report.summary.contains("public IP 203.0.113.7"),
        "{report:?}"
    );
    // The peer, like the provider, keeps the EIP: unbound and billing.
    assert!(peer.cloud(|c| {
        c.addresses
            .iter()
            .any(|a| a.ip == "203.0.113.7" && !a.bound)
    }));

    let Some(peer) = Peer::start() else {
        return;
    };
    peer.cloud(|c| c.addresses[0].kind = "HighQualityEIP".into());
    let cloud = peer.adapter(Some(INSTANCE));
    let inv = cloud.inventory().await.unwrap();
    let ip = inv
        .resources
        .iter()
        .find(|r| r.kind == ResourceKind::PublicIp)
        .unwrap();
    assert!(ip.deleted_with_instance, "{ip:?}");
    let report = cloud.perform(&Action::Release).await.unwrap();
    assert!(!report.summary.contains("203.0.113.7"), "{report:?}");
    assert!(peer.cloud(|c| c.addresses.is_empty()));
    assert!(peer.rejected().is_empty(), "{:?}", peer.rejected());
}

/// After a release the known disks, their snapshots and the addresses are read again from CBS and
/// VPC: what survives shows as it is now, and what was deleted since drops out.
#[tokio::test]
async fn after_a_release_the_leftovers_are_read_again() {
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.cloud(|c| {
        c.snapshots.push(tencent_peer::cloud::Snapshot {
            id: "snap-sys".into(),
            disk: "disk-sys".into(),
            size: 50,
        });
    });
    let cloud = peer.adapter(Some(INSTANCE));
    cloud.inventory().await.unwrap();
    assert!(cloud.perform(&Action::Release).await.unwrap().confirmed);
    let after = cloud.inventory().await.unwrap();
    let seen: Vec<(&str, &str)> = after
        .resources
        .iter()
        .map(|r| (r.id.as_str(), r.state.as_str()))
        .collect();
    assert_eq!(
        seen,
        [
            ("disk-keep", "UNATTACHED"),
            ("snap-sys", "NORMAL"),
            ("203.0.113.7", "UNBIND (EIP)")
        ]
    );
    assert!(after.resources.iter().all(|r| !r.deleted_with_instance));
    assert!(peer.count("DescribeDisks") >= 1 && peer.count("DescribeSnapshots") >= 1);

    // Cleaned up since: nothing is left to name.
    peer.cloud(|c| {
        c.disks.clear();
        c.snapshots.clear();
        c.addresses.clear();
    });
    let later = cloud.inventory().await.unwrap();
    assert!(later.resources.is_empty(), "{:?}", later.resources);

    // A read that fails keeps what was last seen, marked as not read again.
    peer.fault(Fault::ServerError, Some("DescribeDisks"), None);
    let failing = cloud.inventory().await.unwrap();
    let ids: Vec<&str> = failing.resources.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["disk-keep"]);
    assert_eq!(
        failing.resources[0].state,
        "last seen with the instance; not read again"
    );
    assert!(peer.rejected().is_empty(), "{:?}", peer.rejected());
}

/// ActionTime is ISO 8601 UTC in the ActionTimer model, but the timer filters are documented as
/// `2018-05-01 19:00:00`, with no zone. A time read back without its zone is no instant: the
/// deadline is not held on it, and the report says why.
#[tokio::test]
async fn a_timer_read_back_without_a_zone_is_not_a_held_deadline() {
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.cloud(|c| c.zoneless_times = true);
    let cloud = peer.adapter(Some(INSTANCE));
    let at = whole(Timestamp::now() + SignedDuration::from_hours(2));
    let set = cloud
        .perform(&Action::SetDeadline { at: Some(at) })
        .await
        .unwrap();
    assert!(!set.confirmed, "{set:?}");
    assert!(
        set.summary.contains("without a time zone"),
        "{}",
        set.summary
    );
    assert!(set.summary.contains("not confirmed"), "{}", set.summary);
    assert!(cloud.inventory().await.unwrap().deadline.is_none());

    // The same timer read back in ISO 8601 is held.
    peer.cloud(|c| c.zoneless_times = false);
    assert_eq!(cloud.inventory().await.unwrap().deadline.unwrap().at, at);
}

/// The spot reclaim notice is the metadata service's `spot/termination-time`: 404 while there is
/// none, else a time documented as UTC+8 with no zone written.
#[tokio::test]
async fn the_spot_notice_is_the_documented_termination_time_in_utc_plus_8() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let cloud = peer.adapter(Some(INSTANCE));
    assert_eq!(cloud.interruption_notice().await.unwrap(), None);
    peer.cloud(|c| c.spot_termination = Some("2018-08-18 12:05:33".into()));
    let at: Timestamp = "2018-08-18T04:05:33Z".parse().unwrap();
    assert_eq!(cloud.interruption_notice().await.unwrap(), Some(at));
    peer.cloud(|c| c.spot_termination = Some("soon".into()));
    let err = cloud.interruption_notice().await.unwrap_err();
    assert!(err.to_string().contains("spot notice"), "{err}");
}

#[tokio::test]
async fn the_deadline_is_an_action_timer_read_back() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let cloud = peer.adapter(Some(INSTANCE));
    let at = whole(Timestamp::now() + SignedDuration::from_hours(2));
    let set = cloud
        .perform(&Action::SetDeadline { at: Some(at) })
        .await
        .unwrap();
    assert!(set.confirmed, "{set:?}");
    assert!(
        set.summary.contains("action timer read back"),
        "{}",
        set.summary
    );
    assert_eq!(cloud.inventory().await.unwrap().deadline.unwrap().at, at);

    // Extending imports the new timer, then deletes the old one.
    let later = at + SignedDuration::from_hours(1);
    let extend = cloud
        .perform(&Action::SetDeadline { at: Some(later) })
        .await
        .unwrap();
    assert!(extend.confirmed, "{extend:?}");
    assert_eq!(peer.cloud(|c| c.timers.len()), 1);
    assert_eq!(cloud.inventory().await.unwrap().deadline.unwrap().at, later);

    let cancel = cloud
        .perform(&Action::SetDeadline { at: None })
        .await
        .unwrap();
    assert!(cancel.confirmed, "{cancel:?}");
    assert!(peer.cloud(|c| c.timers.is_empty()));
    assert!(cloud.inventory().await.unwrap().deadline.is_none());

    // Too soon is refused before any call.
    let before = peer.calls().len();
    let soon = Timestamp::now() + SignedDuration::from_mins(2);
    let err = cloud
        .perform(&Action::SetDeadline { at: Some(soon) })
        .await
        .unwrap_err();
    assert!(err.to_string().contains("5 minutes"), "{err}");
    assert_eq!(peer.calls().len(), before);
}

#[tokio::test]
async fn throttling_inside_a_200_is_retried() {
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.fault(Fault::Throttle, Some("DescribeInstances"), Some(1));
    peer.fault(
        Fault::TooMany,
        Some("DescribeInstancesActionTimer"),
        Some(1),
    );
    let inv = peer.adapter(Some(INSTANCE)).inventory().await.unwrap();
    assert!(inv.instance.is_some());
    assert_eq!(peer.count("DescribeInstances"), 2);
    assert_eq!(peer.count("DescribeInstancesActionTimer"), 2);
}

#[tokio::test]
async fn snapshot_clean_is_not_offered() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let cloud = peer.adapter(Some(INSTANCE));
    assert!(!cloud.capabilities().snapshots);
    let clean = Action::SnapshotClean {
        keep: 1,
        final_snapshot: false,
        delete: None,
    };
    let err = cloud.perform(&clean).await.unwrap_err();
    assert!(err.is_unsupported(), "{err:?}");
}

fn gpumeter(peer: &Peer, dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = crate::common::gpumeter()
        .args(["--data-dir", &dir.display().to_string()])
        .args(args)
        .args(["--provider", "tencent", "--instance", INSTANCE])
        .env("TENCENTCLOUD_SECRET_ID", tencent_peer::KEY_ID)
        .env("TENCENTCLOUD_SECRET_KEY", SECRET)
        .env("TENCENTCLOUD_REGION", "ap-guangzhou")
        .env("GPUMETER_TENCENT_ENDPOINT", peer.url())
        .env("XDG_CONFIG_HOME", dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!text.contains(SECRET), "{text}");
    (out.status.code(), text)
}

#[test]
fn checklist_and_release_through_the_binary() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("gpumeter-tencent-cli-{}", std::process::id()));
    let (code, text) = gpumeter(&peer, &dir, &["checklist"]);
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains(&format!("After releasing {INSTANCE}")),
        "{text}"
    );
    assert!(
        text.contains("disk-keep") && !text.contains("disk-go"),
        "{text}"
    );

    let (code, text) = gpumeter(&peer, &dir, &["release", "--yes"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("release: done"), "{text}");
    assert!(peer.cloud(|c| c.instance.is_none()));

    // A new run still names the disk that stayed, from what the last one saw.
    let (code, text) = gpumeter(&peer, &dir, &["checklist"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, Some(3), "{text}");
    // Read again from CBS and VPC: what is still there, as it is now.
    assert!(
        text.contains("disk-keep") && text.contains("203.0.113.7"),
        "{text}"
    );
    assert!(!text.contains("not read again"), "{text}");
    assert!(peer.rejected().is_empty(), "{:?}", peer.rejected());
}

/// What the adapter keeps of an instance is a sighting in its region only: asked in another
/// region, an instance the provider does not list there is not released.
#[tokio::test]
async fn a_remembered_instance_is_released_only_in_its_own_region() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let in_region = |region: Option<&str>| {
        let settings =
            gpumeter::provider::tencent::Settings::resolve(&peer.env(), Some(INSTANCE), region)
                .expect("settings");
        gpumeter::provider::tencent::TencentCloud::new(
            settings,
            crate::common::loopback::quick_policy(),
        )
        .expect("adapter")
        .remembering(dir.path())
    };
    in_region(None).inventory().await.unwrap();
    peer.cloud(|c| c.instance = None);

    let e = in_region(Some("ap-shanghai"))
        .perform(&Action::Release)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("ap-shanghai"), "{e}");
    let report = in_region(None).perform(&Action::Release).await.unwrap();
    assert!(report.confirmed, "{report:?}");
}

/// A HOME of the test's own with tccli's files for `profile`.
fn tccli_home(name: &str, profile: &str, credential: &str, configure: &str) -> std::path::PathBuf {
    let home =
        std::env::temp_dir().join(format!("gpumeter-tccli-home-{name}-{}", std::process::id()));
    let dir = home.join(".tccli");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{profile}.credential")), credential).unwrap();
    std::fs::write(dir.join(format!("{profile}.configure")), configure).unwrap();
    home
}

#[tokio::test]
async fn keys_only_in_the_tccli_profile_sign_the_calls() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let url = peer.url();
    let credential = serde_json::json!({"secretId": tencent_peer::KEY_ID, "secretKey": SECRET});
    let configure = serde_json::json!({"_sys_param": {"region": tencent_peer::REGION}});
    let home = tccli_home(
        "keys",
        "gpu",
        &credential.to_string(),
        &configure.to_string(),
    );
    let home_text = home.display().to_string();
    let env = gpumeter::provider::tencent::credentials::env_from_lookup(|name| match name {
        "HOME" => Some(home_text.clone()),
        "TCCLI_PROFILE" => Some("gpu".into()),
        "GPUMETER_TENCENT_ENDPOINT" | "GPUMETER_TENCENT_METADATA" => Some(url.clone()),
        _ => None,
    });
    assert_eq!(env.key_id, None, "no keys in the variables");
    let inv = Peer::adapter_with(&env, Some(INSTANCE))
        .inventory()
        .await
        .unwrap();
    assert_eq!(inv.instance.unwrap().id, INSTANCE);
    assert!(peer.rejected().is_empty(), "{:?}", peer.rejected());
    let _ = std::fs::remove_dir_all(home);
}

#[tokio::test]
async fn without_keys_anywhere_the_error_names_every_place_in_order() {
    let home = tccli_home("none", "other", "{}", "{}");
    let home_text = home.display().to_string();
    // Nothing listens on the discard port: the metadata service has no role to give.
    let env = gpumeter::provider::tencent::credentials::env_from_lookup(|name| match name {
        "HOME" => Some(home_text.clone()),
        "TENCENTCLOUD_REGION" => Some(tencent_peer::REGION.into()),
        "GPUMETER_TENCENT_METADATA" => Some("http://127.0.0.1:9".into()),
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
        at("TENCENTCLOUD_SECRET_ID/TENCENTCLOUD_SECRET_KEY"),
        at(&home.join(".tencentcloud/credentials").display().to_string()),
        at("/etc/tencentcloud/credentials"),
        at(&home.join(".tccli/default.credential").display().to_string()),
        at("the CVM role at http://127.0.0.1:9"),
    ];
    assert!(places.is_sorted(), "{text}");
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
    for state in ["RUNNING", "STOPPED", "STARTING"] {
        peer.cloud(|c| c.instance.as_mut().unwrap().state = state.into());
        let before = peer.calls().len();
        let look = adapter.look().await.unwrap();
        let asked: Vec<String> = peer.calls()[before..]
            .iter()
            .map(|c| c.action.clone())
            .collect();
        assert_eq!(asked, ["DescribeInstances"], "{state}");
        let read = adapter.inventory().await.unwrap().instance.unwrap().state;
        assert_eq!(look, Look::State(Some(read)), "{state}");
    }
    peer.cloud(|c| c.instance = None);
    assert_eq!(adapter.look().await.unwrap(), Look::State(None));
}
