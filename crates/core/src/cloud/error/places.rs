//! The adapters' phrases inside a credential error: where a credential or a region was looked
//! for ("role_arn of profile default", "[default] in ~/.tencentcloud/default.credential") and
//! what a provider refused ("the credentials"). The adapters make them in English, around names,
//! variables and paths; [`shown`] says one in the user's language with those kept as they are.
//! A phrase it does not know (a variable, a path, a flag) is shown as it is.

use crate::i18n::{Arg, lookup, lookup_with};

/// Whole phrases and the message that says each.
const WHOLE: [(&str, &str); 11] = [
    ("the environment", "place-environment"),
    ("the instance metadata service", "place-instance-metadata"),
    (
        "the profile's region in ~/.aws/config",
        "place-aws-profile-region",
    ),
    ("the token given to STS", "place-the-token-to-sts"),
    ("the credentials", "place-the-credentials"),
    (
        "the credentials given to STS",
        "place-the-credentials-to-sts",
    ),
    ("the access key", "place-the-access-key"),
    ("the signature", "place-the-signature"),
    ("the STS token", "place-the-sts-token"),
    ("the API key", "place-the-api-key"),
    ("the session token", "place-the-session-token"),
];

/// Phrases with holes (`{}`) where names go, tried in this order, and the message that says
/// each with `$a` and `$b` for the holes. The holes are said again, so that a place inside a
/// place ("profile `x` in ~/.aliyun/config.json (no such profile)") is said whole.
const SHAPES: [(&str, &str); 15] = [
    ("{} (HOME is unset)", "place-home-unset"),
    ("{} (EcsRamRole)", "place-ecs-ram-role-mode"),
    ("{} (no such profile)", "place-no-such-profile"),
    (
        "{} (credential_source of profile {})",
        "place-credential-source",
    ),
    ("role_arn of profile {}", "place-role-arn"),
    (
        "{} and web_identity_token_file of profile {}",
        "place-web-identity",
    ),
    ("the instance role at {}", "place-instance-role-at"),
    ("the instance role (off: {})", "place-instance-role-off"),
    ("profile `{}` in {}", "place-profile-in"),
    ("region_id of {}", "place-region-id-of"),
    ("the OIDC role {} at {}", "place-oidc-role-at"),
    ("the ECS RAM role at {}", "place-ecs-ram-role-at"),
    ("the CVM role at {}", "place-cvm-role-at"),
    ("credential_process in {}", "place-credential-process-in"),
    ("{} in {}", "place-in"),
];

/// `phrase` in the user's language; English gives it back unchanged.
pub fn shown(phrase: &str) -> String {
    if let Some((_, id)) = WHOLE.iter().find(|(english, _)| *english == phrase) {
        return lookup(id).into_owned();
    }
    for (shape, id) in SHAPES {
        if let Some(holes) = holes(shape, phrase) {
            let args: Vec<(&'static str, Arg<'_>)> = ["a", "b"]
                .into_iter()
                .zip(holes)
                .map(|(name, hole)| (name, Arg::from(shown(hole))))
                .collect();
            return lookup_with(id, &args);
        }
    }
    phrase.to_string()
}

/// Every phrase of `phrases` as [`shown`] says it.
pub fn all_shown(phrases: &[String]) -> Vec<String> {
    phrases.iter().map(|p| shown(p)).collect()
}

/// What fills each `{}` of `shape` in `phrase`, each non-empty; `None` when it does not fit.
fn holes<'a>(shape: &str, phrase: &'a str) -> Option<Vec<&'a str>> {
    let parts: Vec<&str> = shape.split("{}").collect();
    let (first, rest) = parts.split_first()?;
    let (last, middle) = rest.split_last()?;
    let mut text = phrase.strip_prefix(first)?.strip_suffix(last)?;
    let mut out = Vec::new();
    for literal in middle {
        let at = text.find(literal)?;
        out.push(&text[..at]);
        text = &text[at + literal.len()..];
    }
    out.push(text);
    out.iter().all(|h| !h.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, has, scoped};

    /// One phrase of each kind, as the adapters make them.
    const PHRASES: [&str; 17] = [
        "the environment",
        "the credentials",
        "the instance metadata service",
        "role_arn of profile default",
        "AWS_WEB_IDENTITY_TOKEN_FILE and web_identity_token_file of profile ml",
        "the instance role at http://169.254.169.254",
        "the instance role (off: AWS_EC2_METADATA_DISABLED)",
        "credential_process in ~/.aws/config [profile ml]",
        "the instance role at http://169.254.169.254 (credential_source of profile ml)",
        "profile `default` in ~/.aliyun/config.json (no such profile)",
        "profile `ecs` in ~/.aliyun/config.json (EcsRamRole)",
        "region_id of ~/.aliyun/config.json (HOME is unset)",
        "the OIDC role acs:ram::1:role/x at https://sts.aliyuncs.com",
        "the ECS RAM role at http://100.100.100.200/latest/meta-data",
        "the CVM role at http://metadata.tencentyun.com/latest/meta-data",
        "[default] in ~/.tencentcloud/default.credential",
        "_sys_param.region in ~/.tccli/default.configure (HOME is unset)",
    ];

    #[test]
    fn every_message_is_in_both_languages_and_english_reads_as_the_adapter_wrote_it() {
        for (_, id) in WHOLE.iter().chain(SHAPES.iter()) {
            assert!(has(Lang::En, id) && has(Lang::ZhCn, id), "{id}");
        }
        for phrase in PHRASES {
            assert_eq!(scoped(Lang::En, || shown(phrase)), phrase);
        }
    }

    #[test]
    fn chinese_keeps_the_names_and_paths_and_says_the_rest() {
        for phrase in PHRASES {
            let said = scoped(Lang::ZhCn, || shown(phrase));
            assert_ne!(said, phrase);
            for word in [" of ", " in ", " at ", "the ", "unset", "no such", " and "] {
                assert!(!said.contains(word), "{word} in {said}");
            }
        }
        let said = scoped(Lang::ZhCn, || shown(PHRASES[9]));
        assert!(
            said.contains("`default`") && said.contains("~/.aliyun/config.json"),
            "{said}"
        );
        let said = scoped(Lang::ZhCn, || shown(PHRASES[5]));
        assert!(said.contains("http://169.254.169.254"), "{said}");
    }

    #[test]
    fn a_name_or_a_path_alone_is_shown_as_it_is() {
        for name in [
            "AWS_ACCESS_KEY_ID",
            "--region",
            "~/.aws/credentials [default]",
            "KEY/SECRET",
        ] {
            assert_eq!(scoped(Lang::ZhCn, || shown(name)), name);
        }
    }
}
