//! The fault matrix for every Tencent action: a timeout, throttling inside HTTP 200, a bare 429,
//! a 500, a malformed body and a revoked key, first on the call that changes something, then on
//! the read-back. In no case is the action reported done unless the read-back shows it.

use gpumeter::provider::{Action, Provider};
use jiff::{SignedDuration, Timestamp};

use crate::common::fault_matrix::{self, not_done};
use crate::tencent_peer::{Cloud, Fault, INSTANCE, Peer, SECRET};

const FAULTS: [Fault; 6] = [
    Fault::Hang,
    Fault::Throttle,
    Fault::TooMany,
    Fault::ServerError,
    Fault::Malformed,
    Fault::RejectKey,
];

type Case = fault_matrix::Case<Cloud>;

fn cases() -> Vec<Case> {
    let at = Timestamp::from_second((Timestamp::now() + SignedDuration::from_hours(2)).as_second())
        .unwrap();
    vec![
        Case {
            action: Action::Release,
            call: "TerminateInstances",
            readback: ("DescribeInstances", 0),
            done: |c| c.instance.is_none() || c.terminating,
        },
        Case {
            action: Action::Stop,
            call: "StopInstances",
            readback: ("DescribeInstances", 0),
            done: |c| c.instance.as_ref().is_some_and(|i| i.state == "STOPPED"),
        },
        Case {
            action: Action::SetDeadline { at: Some(at) },
            call: "ImportInstancesActionTimer",
            readback: ("DescribeInstancesActionTimer", 1),
            done: |c| !c.timers.is_empty(),
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
        if let Ok(report) = &result {
            assert!(!report.summary.is_empty(), "{what}");
        }

        // On the read-back: the cloud changed, but the adapter cannot see it, so it does not
        // claim it.
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
            "{what}: the call did not go through"
        );
    }
}

#[tokio::test]
async fn release_is_never_done_without_a_read_back() {
    run_case(&cases()[0]).await;
}

#[tokio::test]
async fn stop_is_never_done_without_a_read_back() {
    run_case(&cases()[1]).await;
}

#[tokio::test]
async fn the_deadline_is_never_held_without_a_read_back() {
    run_case(&cases()[2]).await;
}

#[tokio::test]
async fn a_transient_fault_that_clears_still_ends_confirmed() {
    for (i, case) in cases().iter().enumerate() {
        for fault in [Fault::Throttle, Fault::TooMany, Fault::ServerError] {
            let peer = Peer::start();
            peer.fault(fault, Some(case.readback.0), Some(1));
            let report = peer
                .adapter(Some(INSTANCE))
                .perform(&case.action)
                .await
                .unwrap();
            assert!(report.confirmed, "case {i} {fault:?}: {report:?}");
        }
    }
}

#[tokio::test]
async fn a_revoked_key_is_never_a_missing_instance() {
    let peer = Peer::start();
    peer.fault(Fault::RejectKey, None, None);
    let cloud = peer.adapter(Some(INSTANCE));
    let err = cloud.inventory().await.unwrap_err();
    assert!(err.to_string().contains("TENCENTCLOUD_SECRET_ID"), "{err}");
    let release = cloud.perform(&Action::Release).await;
    match release {
        Err(e) => assert!(!e.to_string().contains("already released"), "{e}"),
        Ok(r) => panic!("a revoked key gave a report: {r:?}"),
    }
    assert!(peer.cloud(|c| c.instance.is_some()));
}
