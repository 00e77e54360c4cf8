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
        let Some(peer) = Peer::start() else {
            return;
        };
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
        let Some(peer) = Peer::start() else {
            return;
        };
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
            let Some(peer) = Peer::start() else {
                return;
            };
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
    let Some(peer) = Peer::start() else {
        return;
    };
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

/// Tencent Cloud's own answers, on a read or on the call that changes something, come out of
/// the adapter as the kind of failure they are, with what to fix.
#[tokio::test]
async fn each_answer_comes_out_as_its_kind() {
    use gpumeter::provider::{Auth, ErrorKind};
    const CAM: &str = r#"{"Response":{"Error":{"Code":"AuthFailure.UnauthorizedOperation","Message":"You are not authorized to perform this operation. [[request id:r-1]you are not authorized to perform operation (cvm:TerminateInstances)\nresource (qcs::cvm:ap-guangzhou:uin/100000000001:instance/ins-1) has no permission\n]"},"RequestId":"r-1"}}"#;
    const UNAUTHORIZED: &str = r#"{"Response":{"Error":{"Code":"UnauthorizedOperation","Message":"Unauthorized operation."},"RequestId":"r-2"}}"#;
    const CLOCK: &str = r#"{"Response":{"Error":{"Code":"AuthFailure.SignatureExpire","Message":"Signature expired. Timestamp and server time cannot differ by more than five minutes."},"RequestId":"r-3"}}"#;
    const MALFORMED_ID: &str = r#"{"Response":{"Error":{"Code":"InvalidInstanceId.Malformed","Message":"Invalid instance ID format."},"RequestId":"r-4"}}"#;
    const STOPPED: &str = r#"{"Response":{"Error":{"Code":"UnsupportedOperation.InstanceStateStopped","Message":"The instance has been shut down, and this operation is not supported."},"RequestId":"r-5"}}"#;
    let release = Some(Action::Release);
    let stop = Some(Action::Stop);
    // (answer, the call it answers (every call when `None`), the action, the kind)
    let cases: Vec<(Fault, Option<&str>, Option<Action>, &str)> = vec![
        (Fault::RejectKey, None, None, "auth"),
        (Fault::Answer(200, CLOCK), None, None, "auth"),
        (
            Fault::Answer(200, CAM),
            Some("TerminateInstances"),
            release,
            "permission",
        ),
        (
            Fault::Answer(200, UNAUTHORIZED),
            Some("StopInstances"),
            stop.clone(),
            "permission",
        ),
        (Fault::Throttle, None, None, "throttled"),
        (Fault::TooMany, None, None, "throttled"),
        (Fault::Answer(200, MALFORMED_ID), None, None, "rejected"),
        (
            Fault::Answer(200, STOPPED),
            Some("StopInstances"),
            stop,
            "rejected",
        ),
        (Fault::ServerError, None, None, "unreachable"),
        (Fault::Hang, None, None, "unreachable"),
        (Fault::Malformed, None, None, "state"),
    ];
    for (fault, call, action, want) in cases {
        let Some(peer) = Peer::start() else {
            return;
        };
        peer.fault(fault, call, None);
        let adapter = peer.adapter(Some(INSTANCE));
        let err = match &action {
            Some(action) => adapter.perform(action).await.unwrap_err(),
            None => adapter.inventory().await.unwrap_err(),
        };
        let what = format!("{fault:?} on {call:?}");
        assert_eq!(err.kind_label(), want, "{what}: {err:?}");
        assert_eq!(err.provider(), "tencent");
        let text = format!("{err} {err:?} {}", err.fix());
        assert!(!text.contains(SECRET), "{what}: {text}");
        match err.kind() {
            ErrorKind::Auth(Auth::Refused { check, .. }) => {
                assert_eq!(check, &["TENCENTCLOUD_SECRET_ID".to_string()], "{what}");
            }
            ErrorKind::Auth(Auth::Clock) => assert!(err.fix().contains("clock"), "{what}"),
            ErrorKind::Permission {
                action: Some(named),
            } => {
                let expected = format!("cvm:{}", call.unwrap_or_default());
                assert_eq!(named, &expected, "{what}");
                assert!(err.fix().contains(&expected), "{what}: {}", err.fix());
            }
            ErrorKind::Rejected if call.is_none() => {
                assert!(err.fix().contains("instance id"), "{what}: {}", err.fix());
            }
            _ => {}
        }
    }
    let Some(peer) = Peer::start() else {
        return;
    };
    let err = peer
        .adapter(Some(INSTANCE))
        .perform(&Action::SnapshotClean {
            keep: 1,
            final_snapshot: false,
            delete: None,
        })
        .await
        .unwrap_err();
    assert_eq!(err.kind_label(), "unsupported", "{err:?}");
}
