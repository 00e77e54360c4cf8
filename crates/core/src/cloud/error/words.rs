//! A [`ProviderError`] in words, from the catalogue (`i18n/*/errors.ftl`): what happened and
//! what to fix. [`ProviderError::shown`] and [`ProviderError::shown_fix`] are in the language
//! the user reads; `Display` and [`ProviderError::fix`] are the same words in English, for
//! what never changes with the language (JSON, logs, the ledger). The provider's own code and
//! message, the call and the settings named are never translated.

use std::fmt;

use super::{Auth, ErrorKind, ProviderError, places};
use crate::cloud::ProviderKind;
use crate::i18n::{self, Lang};

/// How the screen names a provider, in the current language (阿里云 for Alibaba Cloud). A
/// name that is no [`ProviderKind`]'s id (an adapter standing in for none) is shown as it is.
fn label(provider: &str) -> String {
    match ProviderKind::from_id(provider) {
        Some(kind) => i18n::lookup_named(&format!("err-provider-name-{}", kind.id()))
            .unwrap_or_else(|| kind.display_name().to_string()),
        None => provider.to_string(),
    }
}

/// Where the provider's permissions are granted, in the current language.
fn policy(provider: &str) -> String {
    let Some(kind) = ProviderKind::from_id(provider) else {
        return crate::t!("err-grant-at-unknown").into_owned();
    };
    i18n::lookup_named(&format!("err-grant-at-{}", kind.id()))
        .unwrap_or_else(|| kind.permissions_at().to_string())
}

/// `a`, `a and b`, `a, b and c`, each in the user's language.
fn and_list(items: &[String]) -> String {
    let items = places::all_shown(items);
    match &items[..] {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => {
            let init = init.join(&crate::t!("err-list-sep"));
            crate::t!("err-list-and", init = init, last = last.as_str())
        }
    }
}

/// `a, b, c`, for the places a credential was looked for, each in the user's language.
fn list(items: &[String]) -> String {
    places::all_shown(items).join(&crate::t!("err-list-sep"))
}

impl ProviderError {
    /// One short line of what the user should do about it, in English.
    pub fn fix(&self) -> String {
        i18n::scoped(Lang::En, || self.shown_fix())
    }

    /// What happened, in the current language.
    pub fn shown(&self) -> String {
        let provider = label(&self.0.provider);
        let call = self
            .0
            .call
            .as_ref()
            .map(|c| format!("{c}: "))
            .unwrap_or_default();
        let answer = self.answer();
        match &self.0.kind {
            ErrorKind::Auth(Auth::Missing { name, tried }) => {
                let name = name.as_str();
                if tried.len() == 1 && tried[0] == *name {
                    crate::t!("err-provider-missing", name = name)
                } else {
                    crate::t!(
                        "err-provider-missing-looked",
                        name = name,
                        tried = list(tried)
                    )
                }
            }
            ErrorKind::Auth(Auth::Refused { what, check }) => {
                let text = crate::t!(
                    "err-provider-refused",
                    provider = provider.as_str(),
                    what = places::shown(what),
                    answer = answer,
                    check = and_list(check)
                );
                format!("{call}{text}")
            }
            ErrorKind::Auth(Auth::Expired { what, check }) => {
                let text = crate::t!(
                    "err-provider-expired",
                    provider = provider.as_str(),
                    what = places::shown(what),
                    answer = answer,
                    check = and_list(check)
                );
                format!("{call}{text}")
            }
            ErrorKind::Auth(Auth::Clock) => {
                let text = crate::t!(
                    "err-provider-clock",
                    provider = provider.as_str(),
                    answer = answer
                );
                format!("{call}{text}")
            }
            ErrorKind::Unsupported { what } => crate::t!(
                "err-provider-unsupported",
                provider = self.0.provider.as_str(),
                what = what.as_str()
            ),
            ErrorKind::State { .. } => crate::t!(
                "err-provider-state",
                detail = format!("{call}{}", self.0.message)
            ),
            ErrorKind::Permission { .. }
            | ErrorKind::Throttled { .. }
            | ErrorKind::Rejected
            | ErrorKind::Unreachable => {
                let said = match (&self.0.code, self.0.message.is_empty()) {
                    (Some(code), true) => code.clone(),
                    (Some(code), false) => format!("{code}: {}", self.0.message),
                    (None, _) => self.0.message.clone(),
                };
                format!("{call}{said}")
            }
        }
    }

    /// ` (code)` and `: message`, each when there is one.
    fn answer(&self) -> String {
        let code = self.0.code.as_ref().map(|c| format!(" ({c})"));
        let message = Some(&self.0.message)
            .filter(|m| !m.is_empty())
            .map(|m| format!(": {}", m.trim_end_matches('.')));
        format!(
            "{}{}",
            code.unwrap_or_default(),
            message.unwrap_or_default()
        )
    }

    /// One short line of what the user should do about it, in the current language.
    pub fn shown_fix(&self) -> String {
        let provider = label(&self.0.provider);
        match &self.0.kind {
            ErrorKind::Auth(auth) => self.auth_fix(auth),
            ErrorKind::Permission {
                action: Some(action),
            } => crate::t!(
                "err-fix-permission",
                action = action.as_str(),
                policy = policy(&self.0.provider)
            ),
            ErrorKind::Permission { action: None } => match &self.0.call {
                Some(call) => crate::t!(
                    "err-fix-permission-call",
                    call = call.as_str(),
                    policy = policy(&self.0.provider)
                ),
                None => crate::t!("err-fix-permission-any", policy = policy(&self.0.provider)),
            },
            ErrorKind::Throttled {
                retry_after: Some(after),
            } => crate::t!(
                "err-fix-throttled-wait",
                seconds = after.as_secs().max(1).to_string(),
                provider = provider.as_str()
            ),
            ErrorKind::Throttled { retry_after: None } => {
                crate::t!("err-fix-throttled", provider = provider.as_str())
            }
            ErrorKind::Rejected => {
                let code = self.0.code.as_deref().unwrap_or("");
                if code.to_ascii_lowercase().contains("instanceid") {
                    crate::t!("err-fix-instance-id").into_owned()
                } else if code.is_empty() {
                    crate::t!("err-fix-rejected", provider = provider.as_str())
                } else {
                    crate::t!(
                        "err-fix-rejected-code",
                        provider = provider.as_str(),
                        code = code
                    )
                }
            }
            ErrorKind::Unsupported { .. } => {
                crate::t!("err-fix-unsupported", provider = provider.as_str())
            }
            ErrorKind::State { fix: Some(fix) } => fix.clone(),
            ErrorKind::State { fix: None } => {
                crate::t!("err-fix-state", provider = provider.as_str())
            }
            ErrorKind::Unreachable => match &self.0.code {
                Some(code) => crate::t!(
                    "err-fix-unreachable-code",
                    provider = provider.as_str(),
                    code = code.as_str()
                ),
                None => crate::t!("err-fix-unreachable", provider = provider.as_str()),
            },
        }
    }

    fn auth_fix(&self, auth: &Auth) -> String {
        let provider = label(&self.0.provider);
        match auth {
            Auth::Missing { name, tried } => {
                if tried.len() == 1 && tried[0] == *name {
                    crate::t!("err-fix-missing", name = name.as_str())
                } else {
                    crate::t!(
                        "err-fix-missing-looked",
                        name = name.as_str(),
                        tried = list(tried)
                    )
                }
            }
            Auth::Refused { what, check } => crate::t!(
                "err-fix-refused",
                check = and_list(check),
                provider = provider.as_str(),
                what = places::shown(what)
            ),
            Auth::Expired { what, check } => crate::t!(
                "err-fix-expired",
                check = and_list(check),
                what = places::shown(what)
            ),
            Auth::Clock => crate::t!("err-fix-clock", provider = provider.as_str()),
        }
    }
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&i18n::scoped(Lang::En, || self.shown()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_words_follow_the_language_and_display_stays_english() {
        let e = ProviderError::permission("aws", Some("ec2:TerminateInstances"));
        let chinese = i18n::scoped(Lang::ZhCn, || e.shown_fix());
        assert!(chinese.contains("ec2:TerminateInstances"), "{chinese}");
        assert_ne!(chinese, e.fix());
        assert_eq!(
            i18n::scoped(Lang::ZhCn, || e.fix()),
            "the key lacks ec2:TerminateInstances; grant it in IAM"
        );
        let missing = ProviderError::missing("runpod", "RUNPOD_API_KEY", &["a", "b"]);
        let shown = i18n::scoped(Lang::ZhCn, || missing.shown());
        assert!(
            shown.contains("RUNPOD_API_KEY") && shown.contains("a、b"),
            "{shown}"
        );
        assert_eq!(
            i18n::scoped(Lang::ZhCn, || missing.to_string()),
            "missing credential: set RUNPOD_API_KEY (looked in a, b)"
        );
    }

    #[test]
    fn the_places_looked_and_what_was_refused_are_said_in_the_users_language() {
        let tried = [
            "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY",
            "role_arn of profile default",
            "the instance role (off: AWS_EC2_METADATA_DISABLED)",
        ];
        let missing = ProviderError::missing("aws", "AWS_ACCESS_KEY_ID", &tried);
        let english = missing.to_string();
        assert!(
            english.ends_with(&format!("(looked in {})", tried.join(", "))),
            "{english}"
        );
        let chinese = i18n::scoped(Lang::ZhCn, || missing.shown());
        let fix = i18n::scoped(Lang::ZhCn, || missing.shown_fix());
        for said in [&chinese, &fix] {
            assert!(said.contains("profile default 的 role_arn"), "{said}");
            assert!(said.contains("AWS_EC2_METADATA_DISABLED"), "{said}");
            assert!(
                !said.contains("of profile") && !said.contains("instance role"),
                "{said}"
            );
        }
        let refused = ProviderError::refused("aws", "the credentials", &["AWS_ACCESS_KEY_ID"]);
        assert!(refused.to_string().contains("the credentials"));
        let chinese = i18n::scoped(Lang::ZhCn, || refused.shown());
        assert!(
            chinese.contains("凭证") && !chinese.contains("the credentials"),
            "{chinese}"
        );
    }

    #[test]
    fn every_provider_has_a_name_in_each_language_and_english_is_its_own() {
        for kind in ProviderKind::ALL {
            let id = format!("err-provider-name-{}", kind.id());
            assert!(
                i18n::has(Lang::En, &id) && i18n::has(Lang::ZhCn, &id),
                "{id}"
            );
            let english = i18n::scoped(Lang::En, || label(kind.id()));
            assert_eq!(english, kind.display_name());
        }
        let alibaba = i18n::scoped(Lang::ZhCn, || label("alibaba"));
        assert_eq!(alibaba, "阿里云");
    }

    #[test]
    fn every_provider_says_where_permissions_are_granted_in_each_language() {
        for kind in ProviderKind::ALL {
            let id = format!("err-grant-at-{}", kind.id());
            assert!(
                i18n::has(Lang::En, &id) && i18n::has(Lang::ZhCn, &id),
                "{id}"
            );
            let english = i18n::scoped(Lang::En, || policy(kind.id()));
            assert_eq!(english, kind.permissions_at());
        }
    }
}
