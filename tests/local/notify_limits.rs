//! Webhooks against a loopback receiver: rate limits on injected time, levels, how outcomes
//! reach the caller, and no secret in anything printed.

use std::net::TcpListener;

use gpumeter::app::Level;
use gpumeter::notify::Outcome;

use crate::notify_peer::{
    Reply, SECRET, TOKEN, alert, hook, notifier, notify_config, receiver, requests, t,
};

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
