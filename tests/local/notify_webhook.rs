//! Webhooks against a loopback receiver: the payload of each service, signatures, retries, a
//! receiver that fails and one that hangs.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use gpumeter::notify::Outcome;
use gpumeter::notify::sign;
use jiff::Timestamp;
use serde_json::json;

use crate::notify_peer::{
    Reply, Request, SECRET, TOKEN, alert, hook, notifier, notify_config, receiver, requests, t,
};

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
