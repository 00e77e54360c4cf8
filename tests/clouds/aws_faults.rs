//! The AWS adapter against a scripted loopback EC2: timeouts, throttling, server errors,
//! malformed answers and refused credentials, for the inventory and every action. An action is
//! never reported confirmed unless the read-back says so; safe calls are retried; errors say
//! what happened and never carry a secret. Also the spot notice from a stub metadata service.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::{AwsEnv, AwsSettings};
use gpumeter::provider::http::HttpPolicy;
use gpumeter::provider::readback::Readback;
use gpumeter::provider::{Action, Auth, ErrorKind, Provider, ProviderError};

const SECRET: &str = "fault-secret-that-must-never-show-77ab";
const ID: &str = "i-0fault";

/// What the server does with one request.
#[derive(Clone)]
enum Reply {
    Answer(u16, String),
    /// Sleeps past the client's timeout, then closes.
    Hang,
}

struct Req {
    path: String,
    action: String,
    token: Option<String>,
}

type Script = dyn Fn(&Req, usize) -> Reply + Send + Sync;

/// Serves `script(request, how many times this action was asked before)`; counts per action.
fn serve(script: Arc<Script>) -> (String, Arc<Mutex<HashMap<String, usize>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let counts = Arc::new(Mutex::new(HashMap::new()));
    let seen = Arc::clone(&counts);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            let (script, seen) = (Arc::clone(&script), Arc::clone(&seen));
            std::thread::spawn(move || {
                let Some(req) = read(&mut stream) else { return };
                let n = {
                    let mut counts = seen.lock().unwrap();
                    let c = counts.entry(req.action.clone()).or_insert(0);
                    *c += 1;
                    *c - 1
                };
                match script(&req, n) {
                    Reply::Hang => std::thread::sleep(Duration::from_millis(900)),
                    Reply::Answer(status, body) => {
                        let _ = write!(
                            stream,
                            "HTTP/1.1 {status} X\r\ncontent-type: text/xml\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                            body.len()
                        );
                    }
                }
            });
        }
    });
    (url, counts)
}

fn read(stream: &mut std::net::TcpStream) -> Option<Req> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split_whitespace().nth(1)?.to_string();
    let (mut length, mut token) = (0, None);
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? <= 2 {
            break;
        }
        let (k, v) = line.split_once(':')?;
        match k.to_ascii_lowercase().as_str() {
            "content-length" => length = v.trim().parse().ok()?,
            "x-aws-ec2-metadata-token" => token = Some(v.trim().to_string()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let body = String::from_utf8_lossy(&body);
    let action = body
        .split('&')
        .find_map(|kv| kv.strip_prefix("Action="))
        .map_or_else(|| path.clone(), str::to_string);
    Some(Req {
        path,
        action,
        token,
    })
}

fn ok(action: &str, inner: &str) -> Reply {
    Reply::Answer(
        200,
        format!(
            "<{action}Response xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">{inner}</{action}Response>"
        ),
    )
}

fn error(status: u16, code: &str, message: &str) -> Reply {
    Reply::Answer(
        status,
        format!(
            "<Response><Errors><Error><Code>{code}</Code><Message>{message}</Message></Error></Errors><RequestID>r</RequestID></Response>"
        ),
    )
}

fn instance(state: &str) -> Reply {
    ok(
        "DescribeInstances",
        &format!(
            "<reservationSet><item><instancesSet><item><instanceId>{ID}</instanceId>\
             <instanceType>g5.xlarge</instanceType><instanceState><code>16</code><name>{state}</name>\
             </instanceState><launchTime>2026-01-01T00:00:00.000Z</launchTime>\
             <rootDeviceName>/dev/sda1</rootDeviceName><blockDeviceMapping><item>\
             <deviceName>/dev/sda1</deviceName><ebs><volumeId>vol-root</volumeId>\
             <deleteOnTermination>true</deleteOnTermination></ebs></item></blockDeviceMapping>\
             </item></instancesSet></item></reservationSet>"
        ),
    )
}

fn snapshots(ids: &[&str]) -> Reply {
    let mut items = String::new();
    for (n, id) in ids.iter().enumerate() {
        let _ = write!(
            items,
            "<item><snapshotId>{id}</snapshotId><volumeId>vol-root</volumeId>\
             <status>completed</status><startTime>2026-01-0{}T00:00:00.000Z</startTime>\
             <volumeSize>100</volumeSize></item>",
            n + 1
        );
    }
    ok(
        "DescribeSnapshots",
        &format!("<snapshotSet>{items}</snapshotSet>"),
    )
}

/// A healthy EC2 with one running instance and two snapshots (`snap-a` older than `snap-b`).
fn healthy(req: &Req, state: &str) -> Reply {
    match req.action.as_str() {
        "DescribeInstances" => instance(state),
        "DescribeVolumes" => ok("DescribeVolumes", "<volumeSet/>"),
        "DescribeSnapshots" => snapshots(&["snap-a", "snap-b"]),
        "DescribeImages" => ok("DescribeImages", "<imagesSet/>"),
        "DescribeAddresses" => ok("DescribeAddresses", "<addressesSet/>"),
        other => ok(other, "<return>true</return>"),
    }
}

fn aws(url: &str) -> Aws {
    let env = AwsEnv::from_pairs([
        ("AWS_ACCESS_KEY_ID", "AKIDFAULT"),
        ("AWS_SECRET_ACCESS_KEY", SECRET),
        ("AWS_SESSION_TOKEN", "session-token-secret-31"),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ENDPOINT_URL_EC2", url),
        ("AWS_EC2_METADATA_SERVICE_ENDPOINT", url),
    ]);
    let policy = HttpPolicy {
        timeout: Duration::from_millis(300),
        connect_timeout: Duration::from_millis(300),
        retries: 2,
        throttled_retries: 2,
        backoff_base: Duration::from_millis(5),
        backoff_max: Duration::from_millis(20),
    };
    Aws::with_policy(
        AwsSettings::resolve(&env, Some(ID.into()), None),
        policy,
        policy,
    )
    .with_readback(Readback {
        attempts: 3,
        interval: Duration::from_millis(5),
    })
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn actions() -> [Action; 4] {
    [
        Action::Release,
        Action::Stop,
        Action::SnapshotClean {
            keep: 1,
            final_snapshot: false,
            delete: None,
        },
        Action::SnapshotClean {
            keep: 0,
            final_snapshot: true,
            delete: None,
        },
    ]
}

fn no_secret(text: &str) {
    assert!(
        !text.contains(SECRET) && !text.contains("session-token-secret-31"),
        "{text}"
    );
}

/// Each fault, on every call: what the error must say, and whether safe calls are retried.
fn faults() -> Vec<(&'static str, Reply, &'static str, bool)> {
    vec![
        ("timeout", Reply::Hang, "timed out", true),
        ("429", Reply::Answer(429, String::new()), "HTTP429", true),
        (
            "RequestLimitExceeded",
            error(400, "RequestLimitExceeded", "Request limit exceeded."),
            "RequestLimitExceeded",
            true,
        ),
        (
            "500",
            error(500, "InternalError", "boom"),
            "InternalError",
            true,
        ),
        (
            "malformed",
            Reply::Answer(200, "<DescribeInstancesResponse><reservationSet>".into()),
            "unreadable answer",
            false,
        ),
        (
            "auth",
            error(401, "AuthFailure", &format!("bad key {SECRET}")),
            "AuthFailure",
            false,
        ),
        (
            "unauthorized",
            error(403, "UnauthorizedOperation", "not allowed"),
            "UnauthorizedOperation",
            false,
        ),
    ]
}

#[test]
fn a_fault_on_every_call_fails_the_inventory_and_confirms_no_action() {
    let rt = rt();
    for (name, reply, says, retried) in faults() {
        let script: Arc<Script> = Arc::new(move |_, _| reply.clone());
        let (url, counts) = serve(script);
        let aws = aws(&url);
        let err = rt.block_on(aws.inventory()).unwrap_err().to_string();
        assert!(err.contains(says), "{name}: {err}");
        no_secret(&err);
        let calls = counts.lock().unwrap().get("DescribeInstances").copied();
        assert_eq!(calls, Some(if retried { 3 } else { 1 }), "{name}");
        for action in actions() {
            match rt.block_on(aws.perform(&action)) {
                Ok(report) => {
                    assert!(!report.confirmed, "{name} {action:?}: {report:?}");
                    no_secret(&format!("{report:?}"));
                }
                Err(e) => {
                    assert!(e.to_string().contains(says), "{name} {action:?}: {e}");
                    no_secret(&format!("{e} {e:?}"));
                }
            }
        }
    }
}

#[test]
fn a_transient_fault_once_is_retried_and_the_action_confirmed() {
    let rt = rt();
    for (name, reply, _, retried) in faults().into_iter().filter(|f| f.3) {
        assert!(retried);
        let script: Arc<Script> = Arc::new(move |req, n| match req.action.as_str() {
            "TerminateInstances" if n == 0 => reply.clone(),
            "DescribeInstances" if n >= 1 => instance("shutting-down"),
            _ => healthy(req, "running"),
        });
        let (url, counts) = serve(script);
        let report = rt.block_on(aws(&url).perform(&Action::Release)).unwrap();
        assert!(report.confirmed, "{name}: {report:?}");
        assert_eq!(counts.lock().unwrap()["TerminateInstances"], 2, "{name}");
    }
}

#[test]
fn a_failed_or_contrary_read_back_is_never_confirmed() {
    let rt = rt();
    for (name, reply, _, _) in faults() {
        for action in [Action::Release, Action::Stop] {
            let reply = reply.clone();
            let script: Arc<Script> = Arc::new(move |req, n| match req.action.as_str() {
                "DescribeInstances" if n >= 1 => reply.clone(),
                _ => healthy(req, "running"),
            });
            let (url, _) = serve(script);
            let report = rt.block_on(aws(&url).perform(&action)).unwrap();
            assert!(!report.confirmed, "{name} {action:?}: {report:?}");
            assert!(report.summary.contains("read-back failed"), "{report:?}");
            no_secret(&report.summary);
        }
    }
    // EC2 accepted the call but still reads back `running`.
    let script: Arc<Script> = Arc::new(|req, _| healthy(req, "running"));
    let (url, _) = serve(script);
    for action in [Action::Release, Action::Stop] {
        let report = rt.block_on(aws(&url).perform(&action)).unwrap();
        assert!(!report.confirmed, "{report:?}");
    }
    // DeleteSnapshot accepted, but the snapshot is still listed.
    let clean = Action::SnapshotClean {
        keep: 1,
        final_snapshot: false,
        delete: None,
    };
    let report = rt.block_on(aws(&url).perform(&clean)).unwrap();
    assert!(!report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("still listed: snap-a"),
        "{report:?}"
    );
}

#[test]
fn snapshot_clean_deletes_beyond_the_newest_and_confirms_by_read_back() {
    let script: Arc<Script> = Arc::new(|req, n| match req.action.as_str() {
        "DescribeSnapshots" if n >= 1 => snapshots(&[]),
        _ => healthy(req, "running"),
    });
    let (url, counts) = serve(script);
    let aws = aws(&url);
    let rt = rt();
    rt.block_on(aws.inventory()).unwrap();
    let clean = Action::SnapshotClean {
        keep: 1,
        final_snapshot: false,
        delete: None,
    };
    assert!(
        aws.plan(&clean)
            .contains(&"ec2 DeleteSnapshot SnapshotId=snap-a".to_string())
    );
    counts.lock().unwrap().clear();
    let report = rt.block_on(aws.perform(&clean)).unwrap();
    assert!(report.confirmed, "{report:?}");
    assert_eq!(counts.lock().unwrap()["DeleteSnapshot"], 1);
    assert!(
        report
            .calls
            .contains(&"ec2 DeleteSnapshot SnapshotId=snap-a".to_string())
    );
}

#[test]
fn releasing_a_gone_instance_reports_it_and_is_not_an_error() {
    let rt = rt();
    let gone: Arc<Script> = Arc::new(|req, _| match req.action.as_str() {
        "DescribeInstances" => ok("DescribeInstances", "<reservationSet/>"),
        _ => healthy(req, "running"),
    });
    let terminated: Arc<Script> = Arc::new(|req, _| healthy(req, "terminated"));
    let not_found: Arc<Script> = Arc::new(|req, n| match req.action.as_str() {
        "TerminateInstances" => error(400, "InvalidInstanceID.NotFound", "no such instance"),
        "DescribeInstances" if n >= 1 => ok("DescribeInstances", "<reservationSet/>"),
        _ => healthy(req, "running"),
    });
    for script in [gone, terminated, not_found] {
        let (url, counts) = serve(script);
        let aws = aws(&url);
        // The ledger of this data directory saw the instance run.
        aws.add_seen(&[("aws", ID)].into_iter().collect());
        let report = rt.block_on(aws.perform(&Action::Release)).unwrap();
        assert!(report.confirmed, "{report:?}");
        assert!(report.summary.contains("already released"), "{report:?}");
        assert!(
            counts
                .lock()
                .unwrap()
                .get("TerminateInstances")
                .copied()
                .unwrap_or(0)
                <= 1
        );
    }
}

/// A wrong `--region`, a mistyped id, any id EC2 does not know: EC2 lists nothing, and
/// nothing this data directory saw says the instance ever existed. That is not "released".
#[test]
fn an_instance_ec2_does_not_know_and_nobody_saw_is_an_error_not_done() {
    let rt = rt();
    let gone: Arc<Script> = Arc::new(|req, _| match req.action.as_str() {
        "DescribeInstances" => ok("DescribeInstances", "<reservationSet/>"),
        "TerminateInstances" | "StopInstances" => {
            error(400, "InvalidInstanceID.NotFound", "no such instance")
        }
        _ => healthy(req, "running"),
    });
    let (url, counts) = serve(gone);
    let aws = aws(&url);
    // Seen elsewhere: another instance, and the same id at another provider.
    aws.add_seen(&[("aws", "i-0other"), ("alibaba", ID)].into_iter().collect());
    for action in [Action::Release, Action::Stop] {
        let e = rt.block_on(aws.perform(&action)).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::State { fix: Some(_) }),
            "{e:?}"
        );
        let said = e.to_string();
        assert!(said.contains(ID) && said.contains("never seen"), "{said}");
        assert!(
            said.contains("region us-east-1") && said.contains(&url),
            "{said}"
        );
        assert!(e.fix().contains("--region"), "{}", e.fix());
    }
    let e = rt.block_on(aws.inventory()).unwrap_err();
    assert!(e.to_string().contains("never seen"), "{e}");
    let sent = counts.lock().unwrap();
    assert_eq!(sent.get("TerminateInstances"), None, "{sent:?}");
    assert_eq!(sent.get("StopInstances"), None, "{sent:?}");
}

#[test]
fn the_spot_notice_comes_from_the_metadata_service() {
    let notice: Arc<Script> = Arc::new(|req, _| match (req.path.as_str(), req.token.as_deref()) {
        ("/latest/api/token", _) => Reply::Answer(200, "tok-1".into()),
        ("/latest/meta-data/instance-id", Some("tok-1")) => Reply::Answer(200, "i-0imds".into()),
        ("/latest/meta-data/spot/instance-action", Some("tok-1")) => Reply::Answer(
            200,
            r#"{"action":"terminate","time":"2026-11-30T08:22:00Z"}"#.into(),
        ),
        _ => Reply::Answer(401, String::new()),
    });
    let rt = rt();
    let (url, _) = serve(notice);
    let env = AwsEnv::from_pairs([
        ("AWS_EC2_METADATA_SERVICE_ENDPOINT", url.as_str()),
        ("AWS_REGION", "us-east-1"),
    ]);
    let aws = Aws::new(AwsSettings::resolve(&env, None, None));
    let n = rt.block_on(aws.spot_notice()).unwrap().unwrap();
    assert_eq!(n.action, "terminate");
    assert_eq!(n.time.to_string(), "2026-11-30T08:22:00Z");
    assert_eq!(rt.block_on(aws.instance_id()).unwrap(), "i-0imds");
    // No credentials, and no instance role: the first call names every place looked in.
    let err = rt.block_on(aws.inventory()).unwrap_err().to_string();
    assert!(
        err.starts_with("missing credential: set AWS_ACCESS_KEY_ID (looked in ")
            && err.ends_with(&format!("the instance role at {url})")),
        "{err}"
    );

    let none: Arc<Script> = Arc::new(|req, _| match req.path.as_str() {
        "/latest/api/token" => Reply::Answer(200, "tok-1".into()),
        _ => Reply::Answer(404, String::new()),
    });
    let (url, _) = serve(none);
    let env = AwsEnv::from_pairs([("AWS_EC2_METADATA_SERVICE_ENDPOINT", url.as_str())]);
    let aws = Aws::new(AwsSettings::resolve(&env, None, None));
    assert_eq!(rt.block_on(aws.spot_notice()).unwrap(), None);
}

/// What the adapter says when EC2 gives `reply` to `on` (every action when `None`) and the
/// healthy answer to the rest; `action` is what it is asked (the inventory when `None`).
fn error_for(reply: Reply, on: Option<&str>, action: Option<&Action>) -> ProviderError {
    let target = on.map(str::to_string);
    let script: Arc<Script> = Arc::new(move |req, _| match &target {
        Some(t) if *t != req.action => healthy(req, "running"),
        _ => reply.clone(),
    });
    let (url, _) = serve(script);
    let aws = aws(&url);
    match action {
        Some(action) => rt().block_on(aws.perform(action)).unwrap_err(),
        None => rt().block_on(aws.inventory()).unwrap_err(),
    }
}

/// EC2's own answers, on a read or on the call that changes something, come out of the adapter
/// as the kind of failure they are, with what to fix.
#[test]
fn each_answer_comes_out_as_its_kind() {
    let denied = "You are not authorized to perform this operation. User: arn:aws:iam::1:user/r \
                  is not authorized to perform: ec2:TerminateInstances on resource: arn:aws:ec2:x";
    let stop = Some(Action::Stop);
    let refused = "AWS was not able to validate the provided access credentials";
    let cases: Vec<(Reply, Option<&str>, Option<Action>, &str)> = vec![
        (error(401, "AuthFailure", refused), None, None, "auth"),
        (
            error(400, "RequestExpired", "Request has expired."),
            None,
            None,
            "auth",
        ),
        (
            error(400, "ExpiredToken", "The token is expired"),
            None,
            None,
            "auth",
        ),
        (
            error(403, "UnauthorizedOperation", denied),
            Some("TerminateInstances"),
            Some(Action::Release),
            "permission",
        ),
        (
            error(403, "UnauthorizedOperation", "Not authorized."),
            Some("StopInstances"),
            stop.clone(),
            "permission",
        ),
        (
            error(400, "RequestLimitExceeded", "Request limit exceeded."),
            None,
            None,
            "throttled",
        ),
        (
            error(400, "InvalidInstanceID.Malformed", "Invalid id"),
            None,
            None,
            "rejected",
        ),
        (
            error(400, "IncorrectInstanceState", "Not stoppable."),
            Some("StopInstances"),
            stop,
            "rejected",
        ),
        (
            error(503, "Unavailable", "The server is overloaded"),
            None,
            None,
            "unreachable",
        ),
        (Reply::Hang, None, None, "unreachable"),
        (
            Reply::Answer(200, "<DescribeInstancesResponse><reservationSet>".into()),
            None,
            None,
            "state",
        ),
        (
            Reply::Hang,
            None,
            Some(Action::SetDeadline { at: None }),
            "unsupported",
        ),
    ];
    for (reply, on, action, want) in cases {
        let what = format!("{want} from {on:?}");
        let err = error_for(reply, on, action.as_ref());
        assert_eq!(err.kind_label(), want, "{what}: {err:?}");
        assert_eq!(err.provider(), "aws");
        no_secret(&format!("{err} {err:?} {}", err.fix()));
        match err.kind() {
            ErrorKind::Auth(Auth::Refused { check, .. }) => {
                assert!(check.contains(&"AWS_ACCESS_KEY_ID".to_string()), "{what}");
            }
            ErrorKind::Auth(Auth::Expired { check, .. }) => {
                assert_eq!(check, &["AWS_SESSION_TOKEN".to_string()], "{what}");
            }
            ErrorKind::Permission {
                action: Some(named),
            } => {
                let expected = format!("ec2:{}", on.unwrap_or_default());
                assert_eq!(named, &expected, "{what}");
                assert!(err.fix().contains(&expected), "{what}: {}", err.fix());
            }
            ErrorKind::Rejected if on.is_none() => {
                assert!(err.fix().contains("instance id"), "{what}: {}", err.fix());
            }
            _ => {}
        }
    }
}

/// `snapshot-clean --keep 1 --final-snapshot` where CreateSnapshot answers an id that never
/// shows up: the old snapshots stay, every one, and the report says why.
#[test]
fn no_snapshot_is_deleted_before_the_final_one_reads_back_completed() {
    let rt = rt();
    let never: Arc<Script> = Arc::new(|req, _| match req.action.as_str() {
        "CreateSnapshot" => ok("CreateSnapshot", "<snapshotId>snap-final</snapshotId>"),
        "DescribeSnapshots" => snapshots(&["snap-a", "snap-b", "snap-c", "snap-d"]),
        _ => healthy(req, "running"),
    });
    let (url, counts) = serve(never);
    let aws = aws(&url).with_readback(Readback {
        attempts: 3,
        interval: Duration::from_millis(5),
    });
    let report = rt
        .block_on(aws.perform(&Action::SnapshotClean {
            keep: 1,
            final_snapshot: true,
            delete: None,
        }))
        .unwrap();
    assert!(!report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("snap-final") && report.summary.contains("no snapshot deleted"),
        "{report:?}"
    );
    let sent = counts.lock().unwrap();
    assert_eq!(sent.get("DeleteSnapshot"), None, "{sent:?}");
    assert_eq!(sent.get("CreateSnapshot"), Some(&1), "{sent:?}");
}
