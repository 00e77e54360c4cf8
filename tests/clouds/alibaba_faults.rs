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
                delete: None,
            },
            call: "DeleteSnapshot",
            // The listing before the call reads three snapshots in three pages.
            readback: ("DescribeSnapshots", 3),
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
        let Some(peer) = Peer::start() else {
            return;
        };
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
            "{what}: the call itself went through"
        );
    }
    // One throttle or one 500, then an answer: retried, done, and confirmed.
    for fault in [Fault::Throttle, Fault::ServerError] {
        let Some(peer) = Peer::start() else {
            return;
        };
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
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.fault(Fault::RejectKey, None, None);
    let err = peer.adapter(Some(INSTANCE)).inventory().await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("InvalidAccessKeyId"), "{text}");
    assert!(text.contains("ALIBABA_CLOUD_ACCESS_KEY_ID"), "{text}");
}

#[tokio::test]
async fn a_malformed_listing_is_an_error_not_a_released_instance() {
    let Some(peer) = Peer::start() else {
        return;
    };
    peer.fault(Fault::Malformed, Some("DescribeInstances"), None);
    let err = peer.adapter(Some(INSTANCE)).inventory().await.unwrap_err();
    assert!(err.to_string().contains("not the documented JSON"), "{err}");
}

/// Alibaba Cloud's own answers, on a read or on the call that changes something, come out of
/// the adapter as the kind of failure they are, with what to fix.
#[tokio::test]
async fn each_answer_comes_out_as_its_kind() {
    use gpumeter::provider::{Auth, ErrorKind};
    const RAM: &str = r#"{"RequestId":"r-1","HostId":"ecs.cn-hangzhou.aliyuncs.com","Code":"Forbidden.RAM","Message":"User not authorized to operate on the specified resource, or this API doesn't support RAM.","AccessDeniedDetail":{"AuthAction":"ecs:DeleteInstance","AuthPrincipalType":"SubUser","NoPermissionType":"ImplicitDeny","PolicyType":"AccountLevelIdentityBasedPolicy"}}"#;
    const RAM_PLAIN: &str = r#"{"RequestId":"r-2","Code":"Forbidden.RAM","Message":"User not authorized to operate on the specified resource."}"#;
    const STS: &str = r#"{"RequestId":"r-3","Code":"InvalidSecurityToken.Expired","Message":"Specified SecurityToken is expired."}"#;
    const CLOCK: &str = r#"{"RequestId":"r-4","Code":"InvalidTimeStamp.Expired","Message":"Specified time stamp or date value is expired."}"#;
    const STATUS: &str = r#"{"RequestId":"r-5","Code":"IncorrectInstanceStatus","Message":"The current status of the resource does not support this operation."}"#;
    let stop = Some(Action::Stop);
    // (answer, the call it answers (every call when `None`), the action, the kind)
    let cases: Vec<(Fault, Option<&str>, Option<Action>, &str)> = vec![
        (Fault::RejectKey, None, None, "auth"),
        (Fault::Answer(400, STS), None, None, "auth"),
        (Fault::Answer(400, CLOCK), None, None, "auth"),
        (
            Fault::Answer(403, RAM),
            Some("DeleteInstance"),
            Some(Action::Release),
            "permission",
        ),
        (Fault::Answer(403, RAM_PLAIN), None, None, "permission"),
        (Fault::Throttle, None, None, "throttled"),
        (
            Fault::Answer(400, STATUS),
            Some("StopInstance"),
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
        assert_eq!(err.provider(), "alibaba");
        let text = format!("{err} {err:?} {}", err.fix());
        assert!(!text.contains(SECRET), "{what}: {text}");
        match err.kind() {
            ErrorKind::Auth(Auth::Refused { check, .. }) => {
                assert_eq!(
                    check,
                    &["ALIBABA_CLOUD_ACCESS_KEY_ID".to_string()],
                    "{what}"
                );
            }
            ErrorKind::Auth(Auth::Expired { check, .. }) => {
                assert_eq!(
                    check,
                    &["ALIBABA_CLOUD_SECURITY_TOKEN".to_string()],
                    "{what}"
                );
            }
            ErrorKind::Auth(Auth::Clock) => assert!(err.fix().contains("clock"), "{what}"),
            ErrorKind::Permission {
                action: Some(named),
            } => {
                // Named by the refusal when it says, else by the call.
                let expected = if call.is_some() {
                    "ecs:DeleteInstance"
                } else {
                    "ecs:DescribeInstances"
                };
                assert_eq!(named, expected, "{what}");
                assert!(err.fix().contains(expected), "{what}: {}", err.fix());
            }
            ErrorKind::Rejected => assert_eq!(err.code(), Some("IncorrectInstanceStatus")),
            _ => {}
        }
    }
    // Refused before it is sent: the provider takes no deadline under 30 minutes ahead.
    let Some(peer) = Peer::start() else {
        return;
    };
    let soon = Action::SetDeadline {
        at: Some(Timestamp::now() + SignedDuration::from_mins(10)),
    };
    let err = peer
        .adapter(Some(INSTANCE))
        .perform(&soon)
        .await
        .unwrap_err();
    assert_eq!(err.kind_label(), "rejected", "{err:?}");
    assert_eq!(peer.count("ModifyInstanceAutoReleaseTime"), 0);
}
