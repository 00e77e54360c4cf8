//! The keys a signed-API adapter (Alibaba, Tencent) signs each call with: a fixed pair from the
//! environment or a file, or the instance role's temporary keys from the metadata service,
//! fetched on the first call and again before they expire. A failed early refresh keeps the old
//! set while it still works, and every set ever handed out is remembered so that text can be
//! redacted of all of them.

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use jiff::{SignedDuration, Timestamp};

use super::ProviderError;
use super::env::KeyPair;
use super::http::HttpError;
use super::key_cache::{Expiring, KeyCache};

/// Where the keys come from, once the credential chain has picked its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    /// Long-term or STS keys given as they are; `from` names where they were found.
    Fixed { keys: KeyPair, from: String },
    /// The instance's role from the metadata service: its name when configured (else the one
    /// the service lists), and every place tried before it, for the error when it has none.
    InstanceRole {
        role: Option<String>,
        tried: Vec<String>,
    },
    /// A role assumed with an OIDC token; the cloud's settings carry the role and the token's
    /// file. `tried` names the places before it.
    WebIdentity { tried: Vec<String> },
}

impl KeySource {
    /// The fixed keys, when that is the source.
    pub fn fixed_keys(&self) -> Option<&KeyPair> {
        match self {
            KeySource::Fixed { keys, .. } => Some(keys),
            KeySource::InstanceRole { .. } | KeySource::WebIdentity { .. } => None,
        }
    }
}

/// Why a role gave no keys, in one line that holds no secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoleError {
    /// The service could not be asked, or gave no answer.
    #[error(transparent)]
    Http(#[from] HttpError),
    /// The service could not be asked as it must be (no metadata token, no token file), or
    /// failed with what was sent redacted from its error.
    #[error("{0}")]
    Unasked(String),
    /// The service says there is no role (`has no RAM role`).
    #[error("{0}")]
    NoRole(String),
    #[error("{}", crate::t!("prov-role-not-a-name"))]
    NotARoleName,
    #[error("{}", crate::t!("prov-role-not-ready", code = .0.as_str()))]
    NotReady(String),
    #[error("{}", crate::t!("prov-role-status", status = .0.to_string()))]
    Status(u16),
    /// An answer that is not the documented one, or a refusal to hand out keys.
    #[error("{0}")]
    Answer(String),
}

/// One set of temporary keys and when they stop working.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TempKeys {
    pub keys: KeyPair,
    pub expires: Option<Timestamp>,
}

/// The role a metadata service's listing names first (or `given`), if it is a role name at
/// all: one path segment, nothing that would change the URL it is put in. `none` says there is
/// no role ("has no RAM role").
pub fn role_name(given: Option<&str>, listed: &str, none: &str) -> Result<String, RoleError> {
    let role = given.unwrap_or_else(|| listed.lines().next().unwrap_or_default().trim());
    if role.is_empty() {
        return Err(RoleError::NoRole(none.to_string()));
    }
    if role.contains(['/', '?', '#']) || role.chars().any(char::is_whitespace) {
        return Err(RoleError::NotARoleName);
    }
    Ok(role.to_string())
}

/// A metadata service's role answer is usable only with `Code` `Success`.
pub fn ready(code: &str) -> Result<(), RoleError> {
    if code == "Success" {
        Ok(())
    } else {
        Err(RoleError::NotReady(code.to_string()))
    }
}

impl Expiring for TempKeys {
    fn expires(&self) -> Option<Timestamp> {
        self.expires
    }
}

impl TempKeys {
    /// A role's answer as keys: the id, secret and token trimmed, none of them empty (`who`
    /// sent them; `expected` says what a good answer holds). The error holds no secret.
    pub fn from_answer(
        (id, secret, token): (&str, &str, &str),
        expires: Timestamp,
        who: &str,
        expected: &str,
    ) -> Result<TempKeys, RoleError> {
        let (id, secret, token) = (id.trim(), secret.trim(), token.trim());
        if id.is_empty() || secret.is_empty() || token.is_empty() {
            return Err(RoleError::Answer(crate::t!(
                "prov-role-field-empty",
                who = who,
                expected = expected
            )));
        }
        Ok(TempKeys {
            keys: KeyPair {
                id: id.to_string(),
                secret: super::env::Secret::new(secret),
                token: Some(super::env::Secret::new(token)),
            },
            expires: Some(expires),
        })
    }
}

/// What one role's answer is, for the errors that read it: `who` sends it, `expected` says what a
/// good one holds, `no_expiry` what the answer says when it does not tell when the keys end.
#[derive(Debug, Clone)]
pub struct RoleReply {
    pub who: String,
    pub expected: String,
    pub no_expiry: String,
}

impl RoleReply {
    /// The role's JSON answer as `A`.
    pub fn parse<A: serde::de::DeserializeOwned>(&self, body: &str) -> Result<A, RoleError> {
        serde_json::from_str(body).map_err(|_| {
            RoleError::Answer(crate::t!(
                "prov-role-not-expected",
                expected = self.expected.as_str()
            ))
        })
    }

    /// The answer's id, secret and token as keys that end at `expires` (`None`: the answer did
    /// not say when, in a form that reads).
    pub fn keys(
        &self,
        parts: (&str, &str, &str),
        expires: Option<Timestamp>,
    ) -> Result<TempKeys, RoleError> {
        let expires = expires.ok_or_else(|| {
            RoleError::Answer(crate::t!(
                "prov-role-no-expiry",
                no_expiry = self.no_expiry.as_str(),
                expected = self.expected.as_str()
            ))
        })?;
        TempKeys::from_answer(parts, expires, &self.who, &self.expected)
    }
}

/// What fetches a fresh set: the metadata service of one cloud. Its error says why in one line
/// that holds no secret.
#[async_trait]
pub trait Fetch: Send + Sync {
    async fn fetch(&self) -> Result<TempKeys, RoleError>;
}

/// What the store names when the role gives no keys at all.
pub struct Naming {
    pub provider: &'static str,
    /// The variable a user would set instead (`ALIBABA_CLOUD_ACCESS_KEY_ID`).
    pub key_var: &'static str,
    /// Every place tried before the role.
    pub tried: Vec<String>,
    /// The role's place (`the ECS RAM role at http://100.100.100.200`).
    pub place: String,
    /// The places the official chain tries after the role that are not read here.
    pub after: Vec<String>,
}

/// The keys for each call.
pub struct KeyStore {
    fetch: Option<(Box<dyn Fetch>, Naming)>,
    refresh_before: Duration,
    cache: KeyCache<TempKeys>,
}

impl fmt::Debug for KeyStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let source = match &self.fetch {
            Some((_, naming)) => naming.place.as_str(),
            None => "fixed",
        };
        f.debug_struct("KeyStore")
            .field("source", &source)
            .finish_non_exhaustive()
    }
}

impl KeyStore {
    /// Keys given as they are.
    pub fn fixed(keys: KeyPair) -> Self {
        KeyStore {
            fetch: None,
            refresh_before: Duration::ZERO,
            cache: KeyCache::new(Some(TempKeys {
                keys,
                expires: None,
            })),
        }
    }

    /// Keys fetched by `fetch` on the first call, and again once they are within
    /// `refresh_before` of expiring.
    /// The store for the role `made` reads (its error, one line, is the provider's state
    /// error), named by `naming`.
    pub fn role<F: Fetch + 'static>(
        made: Result<F, impl fmt::Display>,
        naming: Naming,
        refresh_before: Duration,
    ) -> Result<Self, ProviderError> {
        let fetch = made.map_err(|e| ProviderError::state(naming.provider, e.to_string()))?;
        Ok(Self::fetched(Box::new(fetch), naming, refresh_before))
    }

    pub fn fetched(fetch: Box<dyn Fetch>, naming: Naming, refresh_before: Duration) -> Self {
        KeyStore {
            fetch: Some((fetch, naming)),
            refresh_before,
            cache: KeyCache::new(None),
        }
    }

    /// The keys to sign the next call with.
    pub async fn current(&self) -> Result<KeyPair, ProviderError> {
        let now = Timestamp::now();
        let early = SignedDuration::try_from(self.refresh_before).unwrap_or(SignedDuration::ZERO);
        let fresh_enough = |t: &TempKeys| t.expires.is_none_or(|e| e.duration_since(now) >= early);
        let fetch = async {
            let Some((fetch, naming)) = &self.fetch else {
                // Fixed keys never go stale; this is only reached if the cache was never filled.
                return Err(ProviderError::state(
                    "gpumeter",
                    crate::t!("prov-role-no-keys"),
                ));
            };
            fetch.fetch().await.map_err(|why| {
                let why = why.to_string();
                let place = crate::t!(
                    "prov-role-place-why",
                    place = naming.place.as_str(),
                    why = why
                );
                let mut tried: Vec<&str> = naming.tried.iter().map(String::as_str).collect();
                tried.push(&place);
                tried.extend(naming.after.iter().map(String::as_str));
                ProviderError::missing(naming.provider, naming.key_var, &tried)
            })
        };
        Ok(self.cache.get(fresh_enough, fetch).await?.keys)
    }

    /// `text` with the secret and token of every set these keys have held replaced.
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for TempKeys { keys, .. } in &self.cache.handed() {
            for secret in std::iter::once(&keys.secret).chain(&keys.token) {
                if secret.expose().len() >= 4 {
                    out = out.replace(secret.expose(), "<redacted>");
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::provider::env::Secret;

    /// Answers the queued results in order, then fails.
    struct Queue(Mutex<Vec<Result<TempKeys, RoleError>>>);

    #[async_trait]
    impl Fetch for Queue {
        async fn fetch(&self) -> Result<TempKeys, RoleError> {
            let mut q = self.0.lock().unwrap();
            if q.is_empty() {
                Err(RoleError::Unasked("no more".into()))
            } else {
                q.remove(0)
            }
        }
    }

    fn set(id: &str, minutes: i64) -> TempKeys {
        TempKeys {
            keys: KeyPair {
                id: id.into(),
                secret: Secret::new(format!("{id}-secret")),
                token: Some(Secret::new(format!("{id}-token"))),
            },
            expires: Some(Timestamp::now() + SignedDuration::from_mins(minutes)),
        }
    }

    fn store(answers: Vec<Result<TempKeys, RoleError>>) -> KeyStore {
        let naming = Naming {
            provider: "alibaba",
            key_var: "KEY",
            tried: vec!["KEY/SECRET".into()],
            place: "the role".into(),
            after: vec!["OIDC (not supported)".into()],
        };
        KeyStore::fetched(
            Box::new(Queue(Mutex::new(answers))),
            naming,
            Duration::from_secs(300),
        )
    }

    #[tokio::test]
    async fn keys_are_kept_until_near_expiry_then_fetched_again() {
        let s = store(vec![Ok(set("A", 60)), Ok(set("B", 2)), Ok(set("C", 60))]);
        assert_eq!(s.current().await.unwrap().id, "A");
        assert_eq!(s.current().await.unwrap().id, "A");
        let s = store(vec![Ok(set("B", 2)), Ok(set("C", 60))]);
        assert_eq!(s.current().await.unwrap().id, "B");
        // Within five minutes of expiring: fetched again.
        assert_eq!(s.current().await.unwrap().id, "C");
        let text = s.redact("B-secret B-token C-secret C-token B");
        assert_eq!(text, "<redacted> <redacted> <redacted> <redacted> B");
    }

    #[tokio::test]
    async fn a_failed_refresh_keeps_the_old_set_only_while_it_works() {
        let s = store(vec![
            Ok(set("B", 2)),
            Err(RoleError::Unasked("down".into())),
        ]);
        assert_eq!(s.current().await.unwrap().id, "B");
        assert_eq!(s.current().await.unwrap().id, "B");
        let s = store(vec![Ok(set("D", -1))]);
        assert_eq!(s.current().await.unwrap().id, "D");
        let err = s.current().await.unwrap_err();
        assert_eq!(
            err,
            ProviderError::missing(
                "alibaba",
                "KEY",
                &["KEY/SECRET", "the role (no more)", "OIDC (not supported)"]
            )
        );
        let fixed = KeyStore::fixed(set("F", 60).keys);
        assert_eq!(fixed.current().await.unwrap().id, "F");
        assert_eq!(fixed.redact("F-secret"), "<redacted>");
        assert!(!format!("{fixed:?}").contains("F-secret"));
    }
}
