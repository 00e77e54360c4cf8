use jiff::Timestamp;
use serde_json::json;

use super::*;
use crate::app::Level;

fn alert() -> Alert {
    Alert::new(
        Level::Warn,
        "deadline:10m",
        "Release in 10 minutes",
        "at 18:30 UTC",
        Timestamp::from_second(1_700_000_000).unwrap(),
    )
}

fn answer(status: u16, body: &str) -> HttpResponse {
    HttpResponse::new(status, body)
}

#[test]
fn chat_text_names_gpumeter_the_level_and_the_instance() {
    assert_eq!(
        text(&alert(), Some("i-0abc")),
        "[gpumeter] WARN · i-0abc\nRelease in 10 minutes\nat 18:30 UTC"
    );
    let mut bare = alert();
    bare.body.clear();
    assert_eq!(text(&bare, None), "[gpumeter] WARN\nRelease in 10 minutes");
    // The keyword stays for a bot's filter; the level follows the language, and the JSON
    // payload's level does not.
    let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || text(&bare, None));
    assert_eq!(chinese, "[gpumeter] 警告\nRelease in 10 minutes");
    let json = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || {
        payload(WebhookKind::Json, &alert(), None)
    });
    assert_eq!(json["level"], "warn");
}

#[test]
fn each_kind_has_its_services_shape() {
    let text = text(&alert(), Some("i-0abc"));
    let a = alert();
    let p = |kind| payload(kind, &a, Some("i-0abc"));
    assert_eq!(p(WebhookKind::Slack), json!({ "text": text }));
    assert_eq!(
        p(WebhookKind::Feishu),
        json!({ "msg_type": "text", "content": { "text": text } })
    );
    let dingtalk = json!({ "msgtype": "text", "text": { "content": text } });
    assert_eq!(p(WebhookKind::Dingtalk), dingtalk);
    assert_eq!(p(WebhookKind::Wecom), dingtalk);
    assert_eq!(
        p(WebhookKind::Json),
        json!({
            "source": "gpumeter",
            "level": "warn",
            "title": "Release in 10 minutes",
            "body": "at 18:30 UTC",
            "at": "2023-11-14T22:13:20Z",
            "key": "deadline:10m",
            "instance": "i-0abc",
        })
    );
    assert_eq!(
        payload(WebhookKind::Json, &a, None)["instance"],
        json!(null)
    );
}

#[test]
fn errors_in_a_200_body_are_failures() {
    use WebhookKind::{Dingtalk, Feishu, Json, Slack, Wecom};
    let ok = [
        (Slack, "ok"),
        (Slack, ""),
        (Feishu, r#"{"code":0,"msg":"success","data":{}}"#),
        (Feishu, r#"{"StatusCode":0,"StatusMessage":"success"}"#),
        (Dingtalk, r#"{"errcode":0,"errmsg":"ok"}"#),
        (Wecom, r#"{"errcode":0,"errmsg":"ok"}"#),
        (Json, r#"{"errcode":5}"#),
        (Json, "anything"),
    ];
    for (kind, body) in ok {
        assert_eq!(
            accepted(kind, &answer(200, body)),
            Ok(()),
            "{kind:?} {body}"
        );
        assert_eq!(judge(kind, &answer(200, body)), Verdict::Done);
    }
    let failed = [
        (Slack, "invalid_token", "HTTP 200: invalid_token"),
        (
            Slack,
            r#"{"ok":false,"error":"no_service"}"#,
            "HTTP 200: no_service",
        ),
        (
            Feishu,
            r#"{"code":19021,"msg":"sign match fail"}"#,
            "HTTP 200: error 19021 sign match fail",
        ),
        (
            Dingtalk,
            r#"{"errcode":310000,"errmsg":"sign not match"}"#,
            "HTTP 200: error 310000 sign not match",
        ),
        (
            Wecom,
            r#"{"errcode":93000,"errmsg":"invalid webhook url"}"#,
            "HTTP 200: error 93000 invalid webhook url",
        ),
    ];
    for (kind, body, expect) in failed {
        assert_eq!(
            accepted(kind, &answer(200, body)).map_err(|e| e.to_string()),
            Err(expect.into())
        );
        assert_eq!(
            judge(kind, &answer(200, body)),
            Verdict::Done,
            "not retried"
        );
    }
}

#[test]
fn statuses_and_throttling_codes() {
    assert_eq!(
        accepted(WebhookKind::Json, &answer(500, "boom")).map_err(|e| e.to_string()),
        Err("HTTP 500".into())
    );
    assert_eq!(
        accepted(
            WebhookKind::Dingtalk,
            &answer(400, r#"{"errcode":300001,"errmsg":"token is not exist"}"#)
        )
        .map_err(|e| e.to_string()),
        Err("HTTP 400: 300001 token is not exist".into())
    );
    assert_eq!(
        judge(WebhookKind::Json, &answer(429, "")),
        Verdict::Throttled
    );
    assert_eq!(
        judge(WebhookKind::Slack, &answer(503, "")),
        Verdict::Transient
    );
    assert_eq!(judge(WebhookKind::Slack, &answer(400, "")), Verdict::Done);
    let throttled = [
        (
            WebhookKind::Dingtalk,
            r#"{"errcode":130101,"errmsg":"send too fast"}"#,
        ),
        (
            WebhookKind::Wecom,
            r#"{"errcode":45009,"errmsg":"api freq out of limit"}"#,
        ),
        (
            WebhookKind::Feishu,
            r#"{"code":11232,"msg":"frequency limited"}"#,
        ),
    ];
    for (kind, body) in throttled {
        assert_eq!(
            judge(kind, &answer(200, body)),
            Verdict::Throttled,
            "{body}"
        );
        assert!(accepted(kind, &answer(200, body)).is_err());
    }
}

#[test]
fn a_service_message_cannot_carry_control_characters() {
    let body = r#"{"errcode":1,"errmsg":"bad\u001b]0;x\u0007 thing"}"#;
    let error = accepted(WebhookKind::Wecom, &answer(200, body))
        .unwrap_err()
        .to_string();
    assert!(!error.chars().any(char::is_control), "{error:?}");
}
