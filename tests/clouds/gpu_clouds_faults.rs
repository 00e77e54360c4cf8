//! The fault matrix for every Lambda, RunPod and Vast.ai action: a timeout, throttling, a 500,
//! a malformed body and a revoked key, first on the call that changes something, then on the
//! read-back. In no case is the action reported done unless the read-back shows it; one
//! throttle or one 500 is retried; no error carries the key.

use gpumeter::provider::{Action, ActionReport, ErrorKind, Provider, ProviderError};

use crate::gpu_peer::{self, Cloud, Fault, KEY, Kind, Peer};

const FAULTS: [Fault; 5] = [
    Fault::Hang,
    Fault::Throttle,
    Fault::ServerError,
    Fault::Malformed,
    Fault::RejectKey,
];

struct Case {
    kind: Kind,
    action: Action,
    /// The call that changes the cloud.
    call: &'static str,
    /// The read-back, after one of the same call before the change.
    readback: &'static str,
    done: fn(&Cloud) -> bool,
}

fn adapter(peer: &Peer, kind: Kind) -> Box<dyn Provider> {
    match kind {
        Kind::Lambda => Box::new(peer.lambda()),
        Kind::Runpod => Box::new(peer.runpod()),
        Kind::Vast => Box::new(peer.vast()),
    }
}

fn key_var(kind: Kind) -> &'static str {
    match kind {
        Kind::Lambda => "LAMBDA_API_KEY",
        Kind::Runpod => "RUNPOD_API_KEY",
        Kind::Vast => "VAST_API_KEY",
    }
}

fn not_done(result: &Result<ActionReport, ProviderError>, what: &str) -> String {
    let text = match result {
        Ok(report) => {
            assert!(!report.confirmed, "{what}: reported done: {report:?}");
            format!("{} {:?}", report.summary, report.calls)
        }
        Err(e) => e.to_string(),
    };
    assert!(!text.contains(KEY), "{what}: {text}");
    text
}

async fn run_case(case: &Case) {
    for fault in FAULTS {
        let peer = Peer::start(case.kind);
        peer.fault(fault, Some(case.call), None);
        let result = adapter(&peer, case.kind).perform(&case.action).await;
        let what = format!(
            "{:?} {} with {fault:?} on {}",
            case.kind,
            case.action.label(),
            case.call
        );
        let text = not_done(&result, &what);
        assert!(!peer.cloud(|c| (case.done)(c)), "{what}: the cloud changed");
        if fault == Fault::RejectKey {
            assert!(text.contains("rejected the API key"), "{what}: {text}");
            assert!(text.contains(key_var(case.kind)), "{what}: {text}");
        }

        let peer = Peer::start(case.kind);
        peer.fault_after(fault, case.readback, 1);
        let result = adapter(&peer, case.kind).perform(&case.action).await;
        let what = format!(
            "{:?} {} with {fault:?} on the read-back",
            case.kind,
            case.action.label()
        );
        not_done(&result, &what);
        assert!(
            peer.cloud(|c| (case.done)(c)),
            "{what}: the call itself went through"
        );
    }
    for fault in [Fault::Throttle, Fault::ServerError] {
        let peer = Peer::start(case.kind);
        peer.fault(fault, Some(case.call), Some(1));
        let report = adapter(&peer, case.kind)
            .perform(&case.action)
            .await
            .unwrap();
        assert!(report.confirmed, "{fault:?} once: {report:?}");
        assert!(peer.count(case.call) >= 2, "retried");
    }
}

#[tokio::test]
async fn lambda_terminate_faults() {
    run_case(&Case {
        kind: Kind::Lambda,
        action: Action::Release,
        call: "POST /api/v1/instance-operations/terminate",
        readback: "GET /api/v1/instances/",
        done: |c| c.status.as_deref() != Some("active"),
    })
    .await;
}

#[tokio::test]
async fn runpod_stop_faults() {
    run_case(&Case {
        kind: Kind::Runpod,
        action: Action::Stop,
        call: "POST /v2/pods/",
        readback: "GET /v2/pods/",
        done: |c| c.status.as_deref() == Some("EXITED"),
    })
    .await;
}

#[tokio::test]
async fn runpod_terminate_faults() {
    run_case(&Case {
        kind: Kind::Runpod,
        action: Action::Release,
        call: "POST /v2/pods/",
        readback: "GET /v2/pods/",
        done: |c| c.status.is_none(),
    })
    .await;
}

#[tokio::test]
async fn vast_stop_faults() {
    run_case(&Case {
        kind: Kind::Vast,
        action: Action::Stop,
        call: "PUT /api/v0/instances/",
        readback: "GET /api/v0/instances/",
        done: |c| c.status.as_deref() == Some("stopped"),
    })
    .await;
}

#[tokio::test]
async fn vast_destroy_faults() {
    run_case(&Case {
        kind: Kind::Vast,
        action: Action::Release,
        call: "DELETE /api/v0/instances/",
        readback: "GET /api/v0/instances/",
        done: |c| c.status.is_none(),
    })
    .await;
}

#[tokio::test]
async fn a_bad_inventory_is_an_error_never_a_released_instance() {
    for kind in [Kind::Lambda, Kind::Runpod, Kind::Vast] {
        for fault in FAULTS {
            let peer = Peer::start(kind);
            peer.fault(fault, None, None);
            let err = adapter(&peer, kind).inventory().await.unwrap_err();
            let text = err.to_string();
            assert!(!text.contains(KEY), "{text}");
            match fault {
                Fault::Malformed => assert!(text.contains("not the documented JSON"), "{text}"),
                Fault::RejectKey => assert!(text.contains(key_var(kind)), "{text}"),
                Fault::Throttle => assert!(text.contains("429"), "{text}"),
                Fault::ServerError => assert!(text.contains("500"), "{text}"),
                Fault::Hang => assert!(text.contains("timed out"), "{text}"),
                Fault::Answer(..) => unreachable!("not in FAULTS"),
            }
        }
    }
}

#[tokio::test]
async fn a_wrong_key_is_refused_by_the_peer_and_named_by_the_adapter() {
    let peer = Peer::start(Kind::Runpod);
    let env = gpumeter::provider::bearer::KeyEnv::from_pairs([
        ("RUNPOD_API_KEY", "someone-elses-key".to_string()),
        ("GPUMETER_RUNPOD_ENDPOINT", peer.url()),
    ]);
    let s = gpumeter::provider::runpod::settings(&env, Some("pod7xq2kzq".into()));
    let runpod = gpumeter::provider::runpod::Runpod::new(s, gpu_peer::policy());
    let err = runpod
        .perform(&Action::Release)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("RunPod rejected the API key (HTTP 401)"),
        "{err}"
    );
    assert!(!err.contains("someone-elses-key"), "{err}");
    assert!(peer.cloud(|c| c.status.is_some()));
}

/// One provider answer, the call it answers (every call when `None`), the action that meets it
/// (the inventory when `None`), and the kind of failure it must come out as.
type Answered = (Fault, Option<&'static str>, Option<Action>, &'static str);

/// Each answer comes out of `kind`'s adapter as its kind, naming what to fix and not the key.
async fn check_kinds(kind: Kind, cases: Vec<Answered>) {
    use gpumeter::provider::{Auth, ErrorKind};
    for (fault, call, action, want) in cases {
        let peer = Peer::start(kind);
        peer.fault(fault, call, None);
        let adapter = adapter(&peer, kind);
        let err = match &action {
            Some(action) => adapter.perform(action).await.unwrap_err(),
            None => adapter.inventory().await.unwrap_err(),
        };
        let what = format!("{kind:?} {fault:?} on {call:?}");
        assert_eq!(err.kind_label(), want, "{what}: {err:?}");
        let text = format!("{err} {err:?} {}", err.fix());
        assert!(!text.contains(KEY), "{what}: {text}");
        match err.kind() {
            ErrorKind::Auth(Auth::Refused { check, .. }) => {
                assert_eq!(check, &[key_var(kind).to_string()], "{what}");
                assert!(err.fix().contains(key_var(kind)), "{what}: {}", err.fix());
            }
            ErrorKind::Permission { .. } => {
                let named = err.call().is_some_and(|c| err.fix().contains(c));
                assert!(named, "{what}: {}", err.fix());
            }
            ErrorKind::Rejected => assert!(err.code().is_some_and(|c| c.contains("400"))),
            _ => {}
        }
    }
}

const SLOW: &str = r#"{"error":{"code":"global/unknown","message":"slow down"}}"#;

#[tokio::test]
async fn each_lambda_answer_comes_out_as_its_kind() {
    const REFUSED: &str = r#"{"error":{"code":"global/invalid-api-key","message":"API key was invalid, expired, or deleted.","suggestion":"Check your API key or create a new one, then try again."}}"#;
    const INACTIVE: &str =
        r#"{"error":{"code":"global/account-inactive","message":"Your account is inactive."}}"#;
    const BAD: &str =
        r#"{"error":{"code":"global/invalid-parameters","message":"Invalid instance ID."}}"#;
    let terminate = Some("POST /api/v1/instance-operations/terminate");
    let release = Some(Action::Release);
    check_kinds(
        Kind::Lambda,
        vec![
            (Fault::Answer(401, REFUSED), None, None, "auth"),
            (
                Fault::Answer(403, INACTIVE),
                terminate,
                release.clone(),
                "permission",
            ),
            (Fault::Answer(429, SLOW), None, None, "throttled"),
            (Fault::Answer(400, BAD), terminate, release, "rejected"),
            (Fault::Answer(503, SLOW), None, None, "unreachable"),
            (Fault::Hang, None, None, "unreachable"),
            (Fault::Malformed, None, None, "state"),
            (Fault::Hang, None, Some(Action::Stop), "unsupported"),
        ],
    )
    .await;
}

#[tokio::test]
async fn each_runpod_answer_comes_out_as_its_kind() {
    const READ_ONLY: &str =
        r#"{"title":"Forbidden","status":403,"detail":"this API key is read-only"}"#;
    const BAD: &str = r#"{"title":"Bad Request","status":400,"detail":"invalid pod id"}"#;
    let pods = Some("POST /v2/pods/");
    check_kinds(
        Kind::Runpod,
        vec![
            (Fault::Answer(401, READ_ONLY), None, None, "auth"),
            (
                Fault::Answer(403, READ_ONLY),
                pods,
                Some(Action::Stop),
                "permission",
            ),
            (Fault::Answer(429, BAD), None, None, "throttled"),
            (
                Fault::Answer(400, BAD),
                pods,
                Some(Action::Release),
                "rejected",
            ),
            (Fault::Answer(502, BAD), None, None, "unreachable"),
        ],
    )
    .await;
}

#[tokio::test]
async fn each_vast_answer_comes_out_as_its_kind() {
    const REFUSED: &str = r#"{"success":false,"error":"invalid_user","msg":"bad api key"}"#;
    const BAD: &str = r#"{"success":false,"error":"invalid_args","msg":"bad state"}"#;
    let instances = Some("PUT /api/v0/instances/");
    check_kinds(
        Kind::Vast,
        vec![
            // Vast.ai refuses a key it does not take with 403: the key is what to check.
            (Fault::Answer(403, REFUSED), None, None, "auth"),
            (Fault::Answer(429, BAD), None, None, "throttled"),
            (
                Fault::Answer(400, BAD),
                instances,
                Some(Action::Stop),
                "rejected",
            ),
            (Fault::Answer(500, BAD), None, None, "unreachable"),
        ],
    )
    .await;
}

/// An instance the provider does not list (a mistyped id, one released elsewhere) is not
/// "already destroyed" unless this data directory saw it exist; a 404 for one instance that the
/// provider's list still holds (a wrong route, a proxy) is never "destroyed", seen or not.
/// Nothing is sent either way.
#[tokio::test]
async fn a_404_is_done_only_for_a_seen_instance_the_list_lacks() {
    let cases = [
        (
            Kind::Lambda,
            "GET /api/v1/instances/",
            "POST /api/v1/instance-operations",
        ),
        (Kind::Runpod, "GET /v2/pods/", "POST /v2/pods/"),
        (
            Kind::Vast,
            "GET /api/v0/instances/",
            "DELETE /api/v0/instances/",
        ),
    ];
    for (kind, read, change) in cases {
        let id = match kind {
            Kind::Lambda => gpu_peer::cloud::LAMBDA_ID,
            Kind::Runpod => gpu_peer::cloud::POD_ID,
            Kind::Vast => gpu_peer::cloud::VAST_ID,
        };
        // Listed, but its own path answers 404: an error, even once seen.
        let peer = Peer::start(kind);
        peer.fault(
            Fault::Answer(404, r#"{"detail":"not found"}"#),
            Some(read),
            None,
        );
        let cloud = adapter(&peer, kind);
        cloud.add_seen(&[(cloud.name(), id)].into_iter().collect());
        let result = cloud.perform(&Action::Release).await;
        assert!(result.is_err(), "{kind:?} {result:?}");
        assert_eq!(peer.count(change), 0, "{kind:?}: {:?}", peer.calls());

        // Not listed at all, never seen: a state error naming the endpoint.
        let peer = Peer::start(kind);
        peer.cloud(|c| c.status = None);
        let cloud = adapter(&peer, kind);
        for action in [Action::Release, Action::Stop] {
            if !cloud.capabilities().stop && action == Action::Stop {
                continue;
            }
            let e = cloud.perform(&action).await.unwrap_err();
            let said = e.to_string();
            assert!(
                matches!(e.kind(), ErrorKind::State { fix: Some(_) }),
                "{kind:?} {e:?}"
            );
            assert!(
                said.contains("never seen") && said.contains(&peer.url()),
                "{kind:?} {said}"
            );
        }
        let e = cloud.inventory().await.unwrap_err();
        assert!(e.to_string().contains("never seen"), "{kind:?} {e}");
        assert_eq!(peer.count(change), 0, "{kind:?}: {:?}", peer.calls());

        // Seen by this data directory's ledger: now absent means released.
        cloud.add_seen(&[(cloud.name(), id)].into_iter().collect());
        let report = cloud.perform(&Action::Release).await.unwrap();
        assert!(report.confirmed, "{kind:?} {report:?}");
        assert!(report.summary.contains("already"), "{kind:?} {report:?}");
        assert!(cloud.inventory().await.unwrap().instance.is_none());
        assert_eq!(peer.count(change), 0, "{kind:?}: {:?}", peer.calls());
    }
}
