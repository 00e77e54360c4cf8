//! Webhooks against a loopback receiver that records what it is sent and answers what each
//! test scripts: the payload of each service, signatures, retries, a receiver that fails, one
//! that hangs, rate limits on injected time, and no secret in anything printed.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gpumeter::app::Level;
use gpumeter::config::{Config, NotifyConfig};
use gpumeter::notify::sign;
use gpumeter::notify::{Alert, Notifier, Outcome};
use gpumeter::provider::http::HttpPolicy;
use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

const TOKEN: &str = "xyzzyTOKEN42";
const SECRET: &str = "SECxyzzySECRET";

#[derive(Debug, Clone)]
struct Request {
    target: String,
    content_type: String,
    body: String,
}

impl Request {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }

    fn query(&self) -> HashMap<String, String> {
        let url = reqwest::Url::parse(&format!("http://x{}", self.target)).unwrap();
        url.query_pairs().into_owned().collect()
    }
}

#[derive(Debug, Clone, Copy)]
enum Reply {
    Answer(u16, &'static str),
    /// Reads the request and never answers.
    Hang,
}

type Log = Arc<Mutex<Vec<Request>>>;

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let target = line.split_whitespace().nth(1)?.to_string();
    let (mut length, mut content_type) = (0, String::new());
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? <= 2 {
            break;
        }
        let (name, value) = line.split_once(':')?;
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().ok()?,
            "content-type" => content_type = value.trim().to_string(),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        target,
        content_type,
        body: String::from_utf8(body).ok()?,
    })
}

/// Answers `script` in order, then `200 ok`; returns the base URL (with the token in the path)
/// and the requests seen. Listens on 127.0.0.1 only.
fn receiver(script: Vec<Reply>) -> (String, Log) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/hook/{TOKEN}", listener.local_addr().unwrap());
    let log: Log = Arc::default();
    let seen = Arc::clone(&log);
    std::thread::spawn(move || {
        let mut hung = Vec::new();
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            let Some(request) = read_request(&stream) else {
                continue;
            };
            let n = {
                let mut log = seen.lock().unwrap();
                log.push(request);
                log.len() - 1
            };
            match script.get(n).copied().unwrap_or(Reply::Answer(200, "ok")) {
                Reply::Hang => hung.push(stream),
                Reply::Answer(status, body) => {
                    let _ = write!(
                        stream,
                        "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                }
            }
        }
    });
    (base, log)
}

fn t(minutes: i64) -> Timestamp {
    Timestamp::from_second(1_700_000_000).unwrap() + SignedDuration::from_mins(minutes)
}

fn alert(key: &str, at: Timestamp) -> Alert {
    Alert::new(
        Level::Warn,
        key,
        "Release in 10 minutes",
        "at 18:30 UTC",
        at,
    )
}

/// `[notify]` from TOML, as a user writes it.
fn notify_config(body: &str) -> NotifyConfig {
    Config::parse(&format!("[notify]\n{body}"), Path::new("t.toml"))
        .unwrap()
        .notify
}

fn hook(kind: &str, url: &str) -> String {
    format!("[[notify.webhook]]\nkind = \"{kind}\"\nurl = \"{url}\"\n")
}

const FAST: HttpPolicy = HttpPolicy {
    timeout: Duration::from_millis(300),
    connect_timeout: Duration::from_millis(300),
    retries: 2,
    backoff_base: Duration::from_millis(5),
    backoff_max: Duration::from_millis(20),
};

fn notifier(config: &NotifyConfig, retries: u32) -> Notifier {
    let policy = HttpPolicy { retries, ..FAST };
    Notifier::with_policy(config, Some("i-0abc".into()), policy).unwrap()
}

fn requests(log: &Log) -> Vec<Request> {
    log.lock().unwrap().clone()
}

#[tokio::test]
async fn each_kind_posts_its_services_shape() {
    let (base, log) = receiver(vec![]);
    let mut toml = String::new();
    for kind in ["slack", "feishu", "dingtalk", "wecom", "json"] {
        toml.push_str(&hook(kind, &format!("{base}/{kind}")));
    }
    let config = notify_config(&toml);
    let outcomes = notifier(&config, 0)
        .send(&alert("deadline:10m", t(0)), t(0))
        .outcomes()
        .await;
    assert_eq!(outcomes.len(), 5);
    assert!(
        outcomes.iter().all(|o| matches!(o, Outcome::Sent { .. })),
        "{outcomes:?}"
    );

    let text = "[gpumeter] WARN · i-0abc\nRelease in 10 minutes\nat 18:30 UTC";
    let by_kind: HashMap<String, Request> = requests(&log)
        .into_iter()
        .map(|r| (r.target.rsplit('/').next().unwrap().to_string(), r))
        .collect();
    assert_eq!(by_kind["slack"].json(), json!({ "text": text }));
    assert_eq!(
        by_kind["feishu"].json(),
        json!({ "msg_type": "text", "content": { "text": text } })
    );
    for kind in ["dingtalk", "wecom"] {
        assert_eq!(
            by_kind[kind].json(),
            json!({ "msgtype": "text", "text": { "content": text } })
        );
    }
    let generic = by_kind["json"].json();
    assert_eq!(generic["level"], "warn");
    assert_eq!(generic["title"], "Release in 10 minutes");
    assert_eq!(generic["body"], "at 18:30 UTC");
    assert_eq!(generic["key"], "deadline:10m");
    assert_eq!(generic["instance"], "i-0abc");
    assert_eq!(generic["at"], "2023-11-14T22:13:20Z");
    assert!(
        by_kind
            .values()
            .all(|r| r.content_type == "application/json")
    );
}

#[tokio::test]
async fn dingtalk_and_feishu_requests_carry_a_signature() {
    let (base, log) = receiver(vec![]);
    let toml = format!(
        "{}secret = \"{SECRET}\"\n{}secret = \"{SECRET}\"\n",
        hook("dingtalk", &format!("{base}/d?access_token={TOKEN}")),
        hook("feishu", &format!("{base}/f")),
    );
    let outcomes = notifier(&notify_config(&toml), 0)
        .send(&alert("idle", t(0)), t(0))
        .outcomes()
        .await;
    assert!(outcomes.iter().all(|o| !o.is_failure()), "{outcomes:?}");
    let seen = requests(&log);
    let dingtalk = seen.iter().find(|r| r.target.contains("/d?")).unwrap();
    let query = dingtalk.query();
    assert_eq!(query["access_token"], TOKEN);
    let ms: i64 = query["timestamp"].parse().unwrap();
    assert!((Timestamp::now().as_millisecond() - ms).abs() < 60_000);
    assert_eq!(query["sign"], sign::dingtalk(SECRET, ms));

    let feishu = seen
        .iter()
        .find(|r| r.target.ends_with("/f"))
        .unwrap()
        .json();
    let s: i64 = feishu["timestamp"].as_str().unwrap().parse().unwrap();
    assert_eq!(feishu["sign"], sign::feishu(SECRET, s));
    assert_eq!(feishu["msg_type"], "text");
}

#[tokio::test]
async fn a_server_error_is_retried_and_a_client_error_is_not() {
    let (base, log) = receiver(vec![Reply::Answer(500, "boom"), Reply::Answer(200, "ok")]);
    let config = notify_config(&hook("slack", &base));
    let outcomes = notifier(&config, 2)
        .send(&alert("a", t(0)), t(0))
        .outcomes()
        .await;
    assert!(
        matches!(outcomes[..], [Outcome::Sent { .. }]),
        "{outcomes:?}"
    );
    assert_eq!(requests(&log).len(), 2);

    let (base, log) = receiver(vec![Reply::Answer(400, "invalid_payload")]);
    let config = notify_config(&hook("slack", &base));
    let outcomes = notifier(&config, 2)
        .send(&alert("a", t(0)), t(0))
        .outcomes()
        .await;
    assert_eq!(outcomes.len(), 1);
    assert_eq!(
        outcomes[0].to_string(),
        format!("webhook slack #1 ({}): HTTP 400", outcomes[0].hook().host)
    );
    assert_eq!(requests(&log).len(), 1, "a client error is an answer");
}

#[tokio::test]
async fn errors_in_a_200_body_fail_and_throttling_codes_are_retried() {
    let throttled = r#"{"errcode":130101,"errmsg":"send too fast"}"#;
    let (base, log) = receiver(vec![Reply::Answer(200, throttled)]);
    let config = notify_config(&hook("dingtalk", &base));
    let outcomes = notifier(&config, 2)
        .send(&alert("a", t(0)), t(0))
        .outcomes()
        .await;
    assert!(
        matches!(outcomes[..], [Outcome::Sent { .. }]),
        "{outcomes:?}"
    );
    assert_eq!(requests(&log).len(), 2);

    let rejected = r#"{"errcode":310000,"errmsg":"sign not match"}"#;
    let (base, log) = receiver(vec![Reply::Answer(200, rejected)]);
    let config = notify_config(&hook("wecom", &base));
    let outcomes = notifier(&config, 2)
        .send(&alert("a", t(0)), t(0))
        .outcomes()
        .await;
    assert!(
        outcomes[0]
            .to_string()
            .ends_with("HTTP 200: error 310000 sign not match"),
        "{outcomes:?}"
    );
    assert_eq!(requests(&log).len(), 1);

    let (base, _) = receiver(vec![Reply::Answer(200, "invalid_token")]);
    let config = notify_config(&hook("slack", &base));
    let outcomes = notifier(&config, 2)
        .send(&alert("a", t(0)), t(0))
        .outcomes()
        .await;
    assert!(outcomes[0].to_string().ends_with("HTTP 200: invalid_token"));
}

#[tokio::test]
async fn a_hanging_receiver_times_out_without_blocking_the_caller() {
    let (base, log) = receiver(vec![Reply::Hang, Reply::Hang]);
    let config = notify_config(&hook("json", &base));
    let notifier = notifier(&config, 1);
    let started = Instant::now();
    let sending = notifier.send(&alert("a", t(0)), t(0));
    assert!(
        started.elapsed() < Duration::from_millis(100),
        "send() waited {:?}",
        started.elapsed()
    );
    // Two attempts of 300ms and a backoff of at most 20ms, with room for a slow machine.
    let outcomes = tokio::time::timeout(Duration::from_secs(5), sending.outcomes())
        .await
        .expect("the send is bounded by its timeout");
    assert!(started.elapsed() >= Duration::from_millis(600));
    let text = outcomes[0].to_string();
    assert!(
        outcomes[0].is_failure() && text.contains("timed out"),
        "{text}"
    );
    assert_eq!(requests(&log).len(), 2, "the timeout was retried once");
}

#[tokio::test]
async fn the_same_key_is_held_until_repeat_after_and_each_hook_has_a_cap() {
    let (base, log) = receiver(vec![]);
    let config = notify_config(&format!(
        "repeat_after = \"10m\"\nmax_per_minute = 2\n{}",
        hook("slack", &base)
    ));
    let notifier = notifier(&config, 0);
    let send = |key: &str, at| {
        let sending = notifier.send(&alert(key, at), at);
        async move { sending.outcomes().await }
    };
    assert!(matches!(
        send("idle", t(0)).await[..],
        [Outcome::Sent { .. }]
    ));
    let held = send("idle", t(5)).await;
    assert!(matches!(held[..], [Outcome::Held { .. }]), "{held:?}");
    assert!(
        held[0].to_string().contains("held idle: already sent at"),
        "{held:?}"
    );
    assert!(matches!(
        send("idle", t(10)).await[..],
        [Outcome::Sent { .. }]
    ));
    // The cap: two a minute, whatever the key.
    let at = t(20);
    assert!(matches!(send("a", at).await[..], [Outcome::Sent { .. }]));
    assert!(matches!(send("b", at).await[..], [Outcome::Sent { .. }]));
    let busy = send("c", at).await;
    assert!(
        busy[0].to_string().ends_with("more than 2 a minute"),
        "{busy:?}"
    );
    assert_eq!(requests(&log).len(), 4);
}

#[tokio::test]
async fn a_failed_send_does_not_hold_back_the_next_one() {
    let (base, log) = receiver(vec![Reply::Answer(503, "")]);
    let config = notify_config(&hook("json", &base));
    let notifier = notifier(&config, 0);
    let first = notifier.send(&alert("k", t(0)), t(0)).outcomes().await;
    assert!(first[0].is_failure(), "{first:?}");
    let second = notifier.send(&alert("k", t(1)), t(1)).outcomes().await;
    assert!(matches!(second[..], [Outcome::Sent { .. }]), "{second:?}");
    assert_eq!(requests(&log).len(), 2);
}

#[tokio::test]
async fn levels_choose_the_hooks() {
    let (base, log) = receiver(vec![]);
    let config = notify_config(&format!(
        "min_level = \"error\"\n{}{}min_level = \"info\"\n",
        hook("json", &format!("{base}/strict")),
        hook("json", &format!("{base}/chatty")),
    ));
    let mut info = alert("i", t(0));
    info.level = Level::Info;
    let outcomes = notifier(&config, 0).send(&info, t(0)).outcomes().await;
    assert_eq!(outcomes.len(), 1);
    assert_eq!(outcomes[0].hook().number, 2);
    assert!(requests(&log)[0].target.ends_with("/chatty"));
}

#[tokio::test]
async fn outcomes_can_be_read_from_a_channel() {
    let (base, _) = receiver(vec![]);
    let config = notify_config(&hook("slack", &base));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    notifier(&config, 0)
        .send(&alert("a", t(0)), t(0))
        .report_to(tx);
    let outcome = rx.recv().await.unwrap();
    assert!(matches!(outcome, Outcome::Sent { .. }), "{outcome:?}");
    assert!(
        rx.recv().await.is_none(),
        "the channel closes when all are in"
    );
}

#[test]
fn outside_a_runtime_a_send_fails_instead_of_panicking() {
    let config = notify_config(&hook("slack", "http://127.0.0.1:9/x"));
    let outcomes = notifier(&config, 0).send(&alert("a", t(0)), t(0));
    assert!(
        outcomes.held()[0]
            .to_string()
            .ends_with("not sent: no async runtime")
    );
}

#[tokio::test]
async fn no_output_ever_shows_the_address_or_the_secret() {
    let (base, _) = receiver(vec![Reply::Answer(500, "no"), Reply::Hang]);
    // A closed port: the connection is refused, and reqwest's error would name the URL.
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let toml = format!(
        "{}{}secret = \"{SECRET}\"\n{}{}",
        hook("slack", &base),
        hook("dingtalk", &format!("{base}/d?access_token={TOKEN}")),
        hook("json", &format!("http://{closed}/hook/{TOKEN}")),
        hook(
            "feishu",
            &format!("http://{closed}/open-apis/bot/v2/hook/{TOKEN}")
        ),
    );
    let config = notify_config(&format!("{toml}secret = \"{SECRET}\"\n"));
    let notifier = notifier(&config, 0);
    let outcomes = notifier.send(&alert("a", t(0)), t(0)).outcomes().await;
    assert_eq!(outcomes.len(), 4);
    assert!(outcomes.iter().all(Outcome::is_failure), "{outcomes:#?}");
    let mut printed = vec![
        format!("{notifier:?}"),
        format!("{config:?}"),
        format!("{config:#?}"),
    ];
    for outcome in &outcomes {
        printed.push(outcome.to_string());
        printed.push(format!("{outcome:?}"));
    }
    for text in &printed {
        for secret in [TOKEN, SECRET, "access_token", "/hook/"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
    }
    assert!(
        printed[3].starts_with("webhook slack #1 (127.0.0.1:"),
        "{printed:?}"
    );
}
