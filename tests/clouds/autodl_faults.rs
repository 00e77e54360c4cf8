//! The fault matrix for each AutoDL action, as the other GPU clouds run it: a timeout,
//! throttling, a 500, a malformed body and a refused token, first on the call that changes
//! something, then on the status read back after it. No action is reported done unless the
//! read-back shows it; a refused token names `AUTODL_TOKEN`; no error carries the token.

use gpumeter::provider::{Action, ActionReport, Provider, ProviderError};

use crate::autodl_peer::{Cloud, INSTANCE, Peer, TOKEN};
use crate::gpu_peer::Fault;

const FAULTS: [Fault; 5] = [
    Fault::Hang,
    Fault::Throttle,
    Fault::ServerError,
    Fault::Malformed,
    Fault::RejectKey,
];

const STATUS: &str = "GET /api/v1/dev/instance/pro/status";

struct Case {
    action: Action,
    /// The instance's status before the action.
    from: &'static str,
    call: &'static str,
    done: fn(&Cloud) -> bool,
}

fn not_done(result: &Result<ActionReport, ProviderError>, what: &str) -> String {
    let text = match result {
        Ok(report) => {
            assert!(!report.confirmed, "{what}: reported done: {report:?}");
            format!("{} {:?}", report.summary, report.calls)
        }
        Err(e) => format!("{e} {}", e.fix()),
    };
    assert!(!text.contains(TOKEN), "{what}: {text}");
    text
}

fn peer_at(from: &str) -> Peer {
    let peer = Peer::start();
    peer.cloud(|c| c.set_status(INSTANCE, from));
    peer
}

async fn run_case(case: &Case) {
    for fault in FAULTS {
        let peer = peer_at(case.from);
        peer.fault(fault, Some(case.call), None);
        let result = peer.adapter().perform(&case.action).await;
        let what = format!("{} with {fault:?} on {}", case.action.label(), case.call);
        let text = not_done(&result, &what);
        assert!(!peer.cloud(|c| (case.done)(c)), "{what}: the cloud changed");
        if fault == Fault::RejectKey {
            assert!(text.contains("AUTODL_TOKEN"), "{what}: {text}");
        }

        let peer = peer_at(case.from);
        peer.fault_after(fault, STATUS, 1);
        let result = peer.adapter().perform(&case.action).await;
        let what = format!("{} with {fault:?} on the read-back", case.action.label());
        not_done(&result, &what);
    }
}

#[tokio::test]
async fn stop_start_and_release_are_never_done_on_a_fault() {
    let cases = [
        Case {
            action: Action::Stop,
            from: "running",
            call: "POST /api/v1/dev/instance/pro/power_off",
            done: |c| c.status(INSTANCE) == Some("shutdown"),
        },
        Case {
            action: Action::Start,
            from: "shutdown",
            call: "POST /api/v1/dev/instance/pro/power_on",
            done: |c| c.status(INSTANCE) == Some("running"),
        },
        Case {
            action: Action::Release,
            from: "shutdown",
            call: "POST /api/v1/dev/instance/pro/release",
            done: |c| c.status(INSTANCE).is_none(),
        },
    ];
    for case in &cases {
        run_case(case).await;
    }
}

#[tokio::test]
async fn one_throttle_or_one_server_error_on_a_read_is_retried() {
    for fault in [Fault::Throttle, Fault::ServerError] {
        let peer = Peer::start();
        peer.fault(fault, Some("POST /api/v1/dev/instance/pro/list"), Some(1));
        let inv = peer.adapter().inventory().await;
        assert!(inv.is_ok_and(|i| i.instance.is_some()), "{fault:?}");
    }
}
