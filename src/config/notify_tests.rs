use std::path::Path;
use std::time::Duration;

use super::*;
use crate::config::{Config, ConfigError};

const TOKEN: &str = "T0SECRET/B0SECRET/xyzzyTOKEN";

fn parse(src: &str) -> Result<Config, ConfigError> {
    Config::parse(src, Path::new("cfg/config.toml"))
}

fn invalid(src: &str) -> (usize, usize, String) {
    match parse(src) {
        Err(e @ ConfigError::Invalid { line, column, .. }) => (line, column, e.to_string()),
        other => panic!("expected an invalid-config error, got {other:?}"),
    }
}

#[test]
fn defaults_ring_the_bell_and_send_osc_9_from_warnings_up() {
    let n = parse("").unwrap().notify;
    assert!(n.bell);
    assert_eq!(n.osc, OscStyle::Osc9);
    assert_eq!(n.min_level, MinLevel::Warn);
    assert_eq!(n.repeat_after, Duration::from_secs(900));
    assert_eq!(n.max_per_minute, 6);
    assert!(n.webhook.is_empty());
}

#[test]
fn reads_every_kind_in_both_table_forms() {
    let src = format!(
        "[notify]\nbell = false\nosc = \"777\"\nmin_level = \"info\"\nrepeat_after = \"5m\"\n\
         max_per_minute = 2\ntimeout = \"3s\"\nretries = 0\n\
         webhook = [{{ kind = \"slack\", url = \"https://hooks.slack.com/services/{TOKEN}\" }}]\n\
         [[notify.webhook]]\nkind = \"lark\"\nurl = \"https://open.larksuite.com/open-apis/bot/v2/hook/x\"\n\
         secret = \"s\"\nmin_level = \"error\"\n"
    );
    // An inline array and [[...]] tables cannot both define the key; try each separately.
    let inline: String = src.split("[[notify.webhook]]").next().unwrap().to_string();
    let n = parse(&inline).unwrap().notify;
    assert!(!n.bell);
    assert_eq!(n.osc, OscStyle::Osc777);
    assert_eq!(n.min_level, MinLevel::Info);
    assert_eq!(n.timeout, Duration::from_secs(3));
    assert_eq!(n.retries, 0);
    assert_eq!(n.webhook[0].kind, WebhookKind::Slack);
    assert_eq!(n.webhook[0].url.host(), "hooks.slack.com");

    let tables = "[[notify.webhook]]\nkind = \"dingtalk\"\n\
                  url = \"https://oapi.dingtalk.com/robot/send?access_token=abc\"\nsecret = \"SEC1\"\n\
                  [[notify.webhook]]\nkind = \"wecom\"\nurl = \"https://qyapi.weixin.qq.com/x?key=k\"\n\
                  [[notify.webhook]]\nkind = \"json\"\nurl = \"http://127.0.0.1:9000/hook\"\n\
                  [[notify.webhook]]\nkind = \"lark\"\nurl = \"https://open.larksuite.com/h\"\n\
                  min_level = \"error\"\n";
    let hooks = parse(tables).unwrap().notify.webhook;
    let kinds: Vec<_> = hooks.iter().map(|h| h.kind).collect();
    assert_eq!(
        kinds,
        [
            WebhookKind::Dingtalk,
            WebhookKind::Wecom,
            WebhookKind::Json,
            WebhookKind::Feishu
        ]
    );
    assert_eq!(hooks[0].secret.as_ref().unwrap().expose(), "SEC1");
    assert_eq!(hooks[2].url.host(), "127.0.0.1:9000");
    assert_eq!(hooks[3].min_level, Some(MinLevel::Error));
}

#[test]
fn a_bad_kind_points_at_its_line_and_column() {
    let src = "[notify]\nbell = true\n\n[[notify.webhook]]\nkind = \"teams\"\nurl = \"https://x.example/h\"\n";
    let (line, column, text) = invalid(src);
    assert_eq!((line, column), (5, 8), "{text}");
    assert!(text.starts_with("cfg/config.toml:5:8:"), "{text}");
    assert!(text.contains("teams") && text.contains("slack"), "{text}");
}

#[test]
fn bad_values_are_refused_without_quoting_the_address() {
    let cases = [
        (
            "webhook = [{ kind = \"slack\", url = \"hooks.slack.com/xyzzyTOKEN\" }]",
            "web address",
        ),
        (
            "webhook = [{ kind = \"slack\", url = \"ftp://h/xyzzyTOKEN\" }]",
            "https://",
        ),
        (
            "webhook = [{ kind = \"slack\", url = \"https://h/x\", secret = \"xyzzyTOKEN\" }]",
            "not signed",
        ),
        (
            "webhook = [{ kind = \"json\", url = \"https://h/x\", colour = 1 }]",
            "colour",
        ),
        ("osc = \"99\"", "777"),
        ("min_level = \"done\"", "warn"),
        ("max_per_minute = 0", "1 or more"),
        ("repeat_after = \"0s\"", "zero"),
    ];
    for (body, expect) in cases {
        let (line, _, text) = invalid(&format!("[notify]\n{body}\n"));
        assert_eq!(line, 2, "{text}");
        assert!(text.contains(expect), "{body}: {text}");
        assert!(!text.contains("xyzzyTOKEN"), "{body}: {text}");
    }
}

#[test]
fn debug_and_display_never_show_the_token_or_the_secret() {
    let src = format!(
        "[[notify.webhook]]\nkind = \"dingtalk\"\n\
         url = \"https://oapi.dingtalk.com/robot/send?access_token={TOKEN}\"\nsecret = \"SECxyzzyTOKEN\"\n"
    );
    let config = parse(&src).unwrap();
    let hook = &config.notify.webhook[0];
    for text in [
        format!("{config:?}"),
        format!("{config:#?}"),
        format!("{hook:?}"),
        hook.url.to_string(),
        hook.secret.as_ref().unwrap().to_string(),
    ] {
        assert!(!text.contains("xyzzyTOKEN"), "{text}");
        assert!(!text.contains("access_token"), "{text}");
    }
    assert_eq!(hook.url.to_string(), "https://oapi.dingtalk.com/…");
    assert!(hook.url.expose().as_str().contains(TOKEN));
}

#[test]
fn done_counts_as_a_warning() {
    assert!(MinLevel::Warn.admits(Level::Done));
    assert!(MinLevel::Warn.admits(Level::Error));
    assert!(!MinLevel::Warn.admits(Level::Info));
    assert!(!MinLevel::Error.admits(Level::Done));
    assert!(MinLevel::Info.admits(Level::Info));
}
