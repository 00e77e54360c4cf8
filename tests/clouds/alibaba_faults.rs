//! The fault matrix for every Alibaba action: a timeout, throttling, a 500, a malformed body and
//! a rejected key, first on the call that changes something, then on the read-back. In no case
//! is the action reported done unless the read-back shows it.

use gpumeter::provider::{Action, Provider};
use jiff::{SignedDuration, Timestamp};

use crate::alibaba_peer::{Cloud, Fault, INSTANCE, Peer, SECRET};
use crate::common::fault_matrix::{self, not_done};

const FAULTS: [Fault; 5] = [
    Fault::Hang,
    Fault::Throttle,
    Fault::ServerError,
    Fault::Malformed,
    Fault::RejectKey,
];

type Case = fault_matrix::Case<Cloud>;

fn cases() -> Vec<Case> {
    vec![
        Case {
            action: Action::Release,
            call: "DeleteInstance",
            readback: ("DescribeInstances", 0),
            done: |c| c.instance.is_none(),
        },
        Case {
            action: Action::Stop,
            call: "StopInstance",
            readback: ("DescribeInstances", 0),
            done: |c| c.instance.as_ref().is_some_and(|i| i.status != "Running"),
        },
        Case {
            action: Action::SnapshotClean {
                keep: 0,
                final_snapshot: false,
            },
            call: "DeleteSnapshot",
            readback: ("DescribeSnapshots", 1),
            done: |c| c.snapshots.len() < 3,
        },
        Case {
            action: Action::SetDeadline {
                at: Some(Timestamp::now() + SignedDuration::from_hours(2)),
            },
            call: "ModifyInstanceAutoReleaseTime",
            readback: ("DescribeInstances", 0),
            done: |c| {
                c.instance
                    .as_ref()
                    .is_some_and(|i| !i.auto_release.is_empty())
            },
        },
    ]
}

async fn run_case(case: &Case) {
    for fault in FAULTS {
        // On the call that would change the cloud: nothing changes, nothing is reported done.
        let peer = Peer::start();
        peer.fault(fault, Some(case.call), None);
        let result = peer.adapter(Some(INSTANCE)).perform(&case.action).await;
        let what = format!("{} with {fault:?} on {}", case.action.label(), case.call);
        not_done(&result, &what, SECRET);
        assert!(!peer.cloud(|c| (case.done)(c)), "{what}: the cloud changed");
        if fault == Fault::RejectKey {
            let text = match &result {
                Err(e) => e.to_string(),
                Ok(r) => r.summary.clone(),
            };
            assert!(text.contains("rejected the credentials"), "{what}: {text}");
        }

        // On the read-back: the cloud changed, but nobody saw it, so it is not reported done.
        let peer = Peer::start();
        peer.fault_after(fault, case.readback.0, case.readback.1);
        let result = peer.adapter(Some(INSTANCE)).perform(&case.action).await;
        let what = format!(
            "{} with {fault:?} on {}",
            case.action.label(),
            case.readback.0
        );
        not_done(&result, &what, SECRET);
        assert!(
            peer.cloud(|c| (case.done)(c)),
            "{what}: the call itself went through"
        );
    }
    // One throttle or one 500, then an answer: retried, done, and confirmed.
    for fault in [Fault::Throttle, Fault::ServerError] {
        let peer = Peer::start();
        peer.fault(fault, Some(case.call), Some(1));
        let report = peer
            .adapter(Some(INSTANCE))
            .perform(&case.action)
            .await
            .unwrap();
        assert!(report.confirmed, "{fault:?} once: {report:?}");
        assert!(peer.count(case.call) >= 2);
    }
}

#[tokio::test]
async fn release_faults() {
    run_case(&cases()[0]).await;
}

#[tokio::test]
async fn stop_faults() {
    run_case(&cases()[1]).await;
}

#[tokio::test]
async fn snapshot_clean_faults() {
    run_case(&cases()[2]).await;
}

#[tokio::test]
async fn auto_release_faults() {
    run_case(&cases()[3]).await;
}

#[tokio::test]
async fn a_rejected_key_fails_inventory_with_a_clear_auth_error() {
    let peer = Peer::start();
    peer.fault(Fault::RejectKey, None, None);
    let err = peer.adapter(Some(INSTANCE)).inventory().await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("InvalidAccessKeyId"), "{text}");
    assert!(text.contains("ALIBABA_CLOUD_ACCESS_KEY_ID"), "{text}");
}

#[tokio::test]
async fn a_malformed_listing_is_an_error_not_a_released_instance() {
    let peer = Peer::start();
    peer.fault(Fault::Malformed, Some("DescribeInstances"), None);
    let err = peer.adapter(Some(INSTANCE)).inventory().await.unwrap_err();
    assert!(err.to_string().contains("not the documented JSON"), "{err}");
}
