//! The config `gpumeter init` writes: only the keys the user picked or the machine told, each
//! under a comment that says what it does. Pure: the text is a function of the picks.

use std::fmt::Write as _;

use crate::config::{OnExpiry, ProviderKind, WebhookKind, WebhookUrl};
use crate::detect::Detected;

/// When the deadline falls, as the user gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deadline {
    /// This long after the cockpit or watchdog starts (`4h`).
    In(String),
    /// The next time the local clock shows it (`18:30`).
    At(String),
}

/// What the user picked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picks {
    pub deadline: Option<Deadline>,
    pub at_zero: OnExpiry,
    /// How long idle before `on_idle` runs (`30m`); `None` keeps the default.
    pub idle_after: Option<String>,
    pub on_idle: OnExpiry,
    pub webhook: Option<WebhookUrl>,
}

fn policy(p: OnExpiry) -> &'static str {
    match p {
        OnExpiry::Alert => "alert",
        OnExpiry::Stop => "stop",
        OnExpiry::Release => "release",
    }
}

/// A TOML string, with anything a terminal could act on (controls, bidi) left out.
fn quoted(text: &str) -> String {
    let clean: String = text
        .chars()
        .filter(|c| !gpumeter_core::text::is_unsafe(*c))
        .collect();
    toml::Value::String(clean).to_string()
}

/// The chat service a webhook's host belongs to: its payload's shape. Anything else gets the
/// plain JSON object.
pub fn webhook_kind(url: &WebhookUrl) -> WebhookKind {
    let host = url.host();
    let on = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
    if on("hooks.slack.com") {
        WebhookKind::Slack
    } else if on("open.feishu.cn") || on("open.larksuite.com") {
        WebhookKind::Feishu
    } else if on("oapi.dingtalk.com") {
        WebhookKind::Dingtalk
    } else if on("qyapi.weixin.qq.com") {
        WebhookKind::Wecom
    } else {
        WebhookKind::Json
    }
}

/// The config text.
pub fn render(detected: &Detected, picks: &Picks) -> String {
    let mut out = format!(
        "# {}\n# {}\n",
        crate::t!("init-tpl-head"),
        crate::t!("init-tpl-head-2")
    );
    instance(&mut out, detected);
    deadline(&mut out, picks);
    let _ = write!(
        out,
        "\n[idle]\n# {}\nafter = {}\n# {}\non_idle = {}\n",
        crate::t!("init-tpl-idle-after"),
        quoted(picks.idle_after.as_deref().unwrap_or("30m")),
        crate::t!("init-tpl-idle-then"),
        quoted(policy(picks.on_idle)),
    );
    if let Some(url) = &picks.webhook {
        let _ = write!(
            out,
            "\n[notify]\n# {}\nwebhook = [{{ kind = {}, url = {} }}]\n",
            crate::t!("init-tpl-webhook"),
            quoted(webhook_kind(url).name()),
            quoted(url.expose().as_str()),
        );
    }
    out
}

fn instance(out: &mut String, detected: &Detected) {
    if detected.provider.is_none() && detected.instance.is_none() {
        let _ = write!(
            out,
            "\n[instance]\n# {}\n# provider = \"{}\"\n# id = \"i-0abc\"\n",
            crate::t!("init-tpl-nothing-detected", ids = ProviderKind::ids(", ")),
            ProviderKind::Aws.id()
        );
        return;
    }
    out.push_str("\n[instance]\n");
    if let Some(p) = &detected.provider {
        line(
            out,
            &crate::t!("init-tpl-provider"),
            &p.from,
            "provider",
            p.value.id(),
        );
    }
    if let Some(i) = &detected.instance {
        line(
            out,
            &crate::t!("init-tpl-instance"),
            &i.from,
            "id",
            &i.value,
        );
    }
    if let Some(r) = &detected.region {
        line(
            out,
            &crate::t!("init-tpl-region"),
            &r.from,
            "region",
            &r.value,
        );
    }
    if let Some(sku) = &detected.instance_type {
        out.push_str("\n[pricing]\n");
        line(
            out,
            &crate::t!("init-tpl-sku"),
            &sku.from,
            "sku",
            &sku.value,
        );
    }
    if detected
        .provider
        .as_ref()
        .is_some_and(|p| p.value == ProviderKind::Command)
    {
        let _ = writeln!(out, "# {}", crate::t!("init-tpl-command"));
    }
}

fn line(out: &mut String, what: &str, from: &str, key: &str, value: &str) {
    let from = gpumeter_core::text::one_line(from, 80);
    let said = crate::t!("init-tpl-from", what = what, from = from);
    let _ = writeln!(out, "# {said}\n{key} = {}", quoted(value));
}

fn deadline(out: &mut String, picks: &Picks) {
    out.push_str("\n[deadline]\n");
    match &picks.deadline {
        Some(Deadline::In(d)) => {
            let _ = writeln!(
                out,
                "# {}\nrelease_in = {}",
                crate::t!("init-tpl-release-in"),
                quoted(d)
            );
        }
        Some(Deadline::At(t)) => {
            let _ = writeln!(
                out,
                "# {}\nrelease_at = {}",
                crate::t!("init-tpl-release-at"),
                quoted(t)
            );
        }
        None => {
            let _ = writeln!(out, "# {}", crate::t!("init-tpl-no-deadline"));
        }
    }
    let _ = writeln!(
        out,
        "# {}\non_expiry = {}",
        crate::t!("init-tpl-at-zero"),
        quoted(policy(picks.at_zero))
    );
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::config::Config;
    use crate::detect::Found;

    fn found<T>(value: T) -> Found<T> {
        Found {
            value,
            from: "config".into(),
        }
    }

    #[test]
    fn the_text_loads_and_holds_every_pick_with_a_comment_above_each_key() {
        let detected = Detected {
            provider: Some(found(ProviderKind::Aws)),
            instance: Some(found("i-0abc\u{202e}".to_string())),
            region: Some(found("us-east-1".to_string())),
            instance_type: Some(found("p4d.24xlarge".to_string())),
            problems: Vec::new(),
        };
        let picks = Picks {
            deadline: Some(Deadline::At("18:30".into())),
            at_zero: OnExpiry::Release,
            idle_after: Some("45m".into()),
            on_idle: OnExpiry::Stop,
            webhook: Some(WebhookUrl::parse("https://hooks.slack.com/services/T/B/X").unwrap()),
        };
        let text = render(&detected, &picks);
        assert!(!text.contains('\u{202e}'));
        let config = Config::parse(&text, Path::new("config.toml")).unwrap();
        assert_eq!(config.instance.provider, Some(ProviderKind::Aws));
        assert_eq!(config.instance.id.as_deref(), Some("i-0abc"));
        assert_eq!(config.pricing.sku.as_deref(), Some("p4d.24xlarge"));
        assert_eq!(
            config.deadline.release_at,
            Some(jiff::civil::time(18, 30, 0, 0))
        );
        assert_eq!(config.deadline.on_expiry, OnExpiry::Release);
        assert_eq!(config.idle.after, std::time::Duration::from_secs(45 * 60));
        assert_eq!(config.idle.on_idle, OnExpiry::Stop);
        assert_eq!(config.notify.webhook[0].kind, WebhookKind::Slack);
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            if l.contains(" = ") && !l.starts_with('#') {
                assert!(lines[i - 1].starts_with('#'), "no comment above `{l}`");
            }
        }
        // In Chinese the comments are Chinese and the keys and values the same.
        let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || render(&detected, &picks));
        assert!(
            chinese.contains("# 实例所在的云（来自 config）。\nprovider = \"aws\""),
            "{chinese}"
        );
        let keys = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with('#'))
                .map(String::from)
                .collect()
        };
        assert_eq!(keys(&chinese), keys(&text));
        assert!(Config::parse(&chinese, Path::new("config.toml")).is_ok());
    }

    #[test]
    fn with_nothing_detected_the_template_names_every_provider_and_still_loads() {
        let detected = Detected {
            provider: None,
            instance: None,
            region: None,
            instance_type: None,
            problems: Vec::new(),
        };
        let picks = Picks {
            deadline: None,
            at_zero: OnExpiry::Alert,
            idle_after: None,
            on_idle: OnExpiry::Alert,
            webhook: None,
        };
        let text = render(&detected, &picks);
        assert!(
            text.contains(&format!("one of {}.", ProviderKind::ids(", "))),
            "{text}"
        );
        let config = Config::parse(&text, Path::new("config.toml")).unwrap();
        assert_eq!(config.instance.provider, None);
    }

    #[test]
    fn webhook_kinds_follow_the_host() {
        let kind = |u: &str| webhook_kind(&WebhookUrl::parse(u).unwrap());
        assert_eq!(
            kind("https://oapi.dingtalk.com/robot/send?access_token=x"),
            WebhookKind::Dingtalk
        );
        assert_eq!(
            kind("https://open.feishu.cn/open-apis/bot/v2/hook/x"),
            WebhookKind::Feishu
        );
        assert_eq!(
            kind("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=x"),
            WebhookKind::Wecom
        );
        assert_eq!(kind("https://slack.com.evil.example/x"), WebhookKind::Json);
    }
}
