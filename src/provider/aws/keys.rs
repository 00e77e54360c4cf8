//! The credentials each call is signed with: where they come from ([`Source`], the one the chain
//! picked) and [`Keys`], which fetches them once and again when temporary ones near their expiry.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use jiff::Timestamp;

use super::container::{self, ContainerAuth};
use super::credentials::{ACCESS_KEY_ID, CREDENTIAL_EXPIRATION, Credentials};
use super::sts::{self, Role, Sts};
use crate::provider::ProviderError;
use crate::provider::http::HttpPolicy;
use crate::provider::key_cache::{Expiring, KeyCache};

/// Where the keys come from, once the chain has picked the first source that has them.
#[derive(Clone)]
pub enum Source {
    /// Long-term or session keys given as they are: the environment or a shared file.
    Fixed {
        credentials: Credentials,
        from: String,
    },
    /// `credential_process` of a profile: run for each fresh set.
    Process { command: String, from: String },
    /// The instance role, from the metadata service at `endpoint`.
    Instance {
        endpoint: String,
        tried: Vec<String>,
    },
    /// The container credentials endpoint (ECS, EKS Pod Identity).
    Container {
        url: String,
        auth: ContainerAuth,
        from: String,
    },
    /// STS `AssumeRoleWithWebIdentity` with the token in `token_file`, read again for each set.
    WebIdentity {
        role: Role,
        token_file: PathBuf,
        sts: Sts,
        from: String,
    },
    /// STS `AssumeRole`, signed with the keys of another source.
    AssumeRole {
        role: Role,
        source: Arc<Keys>,
        sts: Sts,
        from: String,
    },
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Fixed { from, .. } => write!(f, "Fixed({from})"),
            // The command line may carry a secret of its own: only say where it was set.
            Source::Process { from, .. } => write!(f, "Process({from})"),
            Source::Instance { endpoint, .. } => write!(f, "Instance({endpoint})"),
            Source::Container { url, from, .. } => write!(f, "Container({from}: {url})"),
            Source::WebIdentity { role, from, .. } => {
                write!(f, "WebIdentity({from}: {})", role.arn)
            }
            Source::AssumeRole {
                role, source, from, ..
            } => write!(
                f,
                "AssumeRole({from}: {} with {:?})",
                role.arn,
                source.source()
            ),
        }
    }
}

/// The credentials for each call: fetched from the [`Source`] once, and again when temporary
/// ones come within [`super::credentials::REFRESH_BEFORE`] of their expiry.
pub struct Keys {
    source: Source,
    /// Patience for the services on the machine itself: the metadata service and the container
    /// endpoint.
    local: HttpPolicy,
    cache: KeyCache<Credentials>,
    /// Tokens sent to get them (web identity, container authorization), redacted the same way.
    tokens: std::sync::Mutex<Vec<String>>,
}

impl Expiring for Credentials {
    fn expires(&self) -> Option<Timestamp> {
        self.expiration
    }
}

impl fmt::Debug for Keys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Keys")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl Keys {
    pub fn new(source: Source) -> Self {
        Self::with_policy(source, super::imds::policy())
    }

    /// With the given patience for the metadata service and the container endpoint.
    pub fn with_policy(source: Source, local: HttpPolicy) -> Self {
        let cached = match &source {
            Source::Fixed { credentials, .. } => Some(credentials.clone()),
            _ => None,
        };
        Keys {
            source,
            local,
            cache: KeyCache::new(cached),
            tokens: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Keys given as they are.
    pub fn fixed(credentials: Credentials) -> Self {
        Self::new(Source::Fixed {
            credentials,
            from: crate::t!("aws-from-given").into_owned(),
        })
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    fn remember_token(&self, token: &str) {
        if let Ok(mut tokens) = self.tokens.lock()
            && !tokens.iter().any(|t| t == token)
        {
            tokens.push(token.to_string());
        }
    }

    async fn fetch(&self) -> Result<Credentials, ProviderError> {
        match &self.source {
            Source::Fixed { credentials, .. } => Ok(credentials.clone()),
            Source::Process { command, from } => super::process::run(command, from).await,
            Source::Instance { endpoint, tried } => {
                let imds = super::imds::Imds::new(endpoint, self.local)?;
                imds.role_credentials().await.map_err(|_| {
                    let tried: Vec<&str> = tried.iter().map(String::as_str).collect();
                    ProviderError::missing(super::ID, ACCESS_KEY_ID, &tried)
                })
            }
            Source::Container { url, auth, from } => {
                let token = auth.token(from)?;
                if let Some(t) = &token {
                    self.remember_token(t);
                }
                container::fetch(url, token.as_deref(), self.local, from).await
            }
            Source::WebIdentity {
                role,
                token_file,
                sts,
                from,
            } => {
                let token = sts::read_token(token_file, from)?;
                self.remember_token(&token);
                sts::assume_role_with_web_identity(sts, role, &token, from).await
            }
            Source::AssumeRole {
                role,
                source,
                sts,
                from,
            } => {
                // A role's source may be a role too: boxed, as the future is recursive.
                let signer = Box::pin(source.current()).await?;
                sts::assume_role(sts, role, &signer, from).await
            }
        }
    }

    /// When these keys stop working with nothing here able to fetch fresh ones: keys given as
    /// they are (the environment, a shared file) that carry an expiry, or a role assumed with
    /// such keys. `None` for long-term keys and for sources that fetch a fresh set themselves.
    pub fn hard_expiry(&self) -> Option<Timestamp> {
        match &self.source {
            Source::Fixed { credentials, .. } => credentials.expiration,
            Source::AssumeRole { source, .. } => source.hard_expiry(),
            _ => None,
        }
    }

    /// The credentials to sign the next call with.
    pub async fn current(&self) -> Result<Credentials, ProviderError> {
        if let Source::Fixed { credentials, from } = &self.source
            && credentials.expired(Timestamp::now())
        {
            // Sending them would only earn ExpiredToken; say which keys and where they came from.
            let at = credentials
                .expiration
                .map(|t| t.to_string())
                .unwrap_or_default();
            return Err(ProviderError::state(
                super::ID,
                crate::t!(
                    "aws-keys-expired",
                    from = from.as_str(),
                    at = at,
                    var = CREDENTIAL_EXPIRATION
                ),
            )
            .with_fix(&crate::t!("aws-fix-keys-expired")));
        }
        let fresh = |c: &Credentials| !c.stale(Timestamp::now());
        self.cache.get(fresh, self.fetch()).await
    }

    /// `text` with every secret these keys (and the keys they were got with) have held replaced.
    pub fn redact(&self, text: &str) -> String {
        let handed = self.cache.handed();
        let mut out = handed.iter().fold(text.to_string(), |t, c| c.redact(&t));
        let tokens = self.tokens.lock().map(|t| t.clone()).unwrap_or_default();
        for token in tokens.iter().filter(|t| t.len() >= 4) {
            out = out.replace(token.as_str(), "<redacted>");
        }
        if let Source::AssumeRole { source, .. } = &self.source {
            out = source.redact(&out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn temporary_credentials_are_fetched_again_near_their_expiry() {
        let dir = std::env::temp_dir().join(format!("gpumeter-refresh-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let runs = dir.join("runs");
        let expiry =
            |mins: i64| (Timestamp::now() + jiff::SignedDuration::from_mins(mins)).to_string();
        let script = |exp: &str| {
            format!(
                "echo run >> {}; printf '{{\"Version\": 1, \"AccessKeyId\": \"K\", \
                 \"SecretAccessKey\": \"S\", \"Expiration\": \"{exp}\"}}'",
                runs.display()
            )
        };
        let count = || {
            std::fs::read_to_string(&runs)
                .unwrap_or_default()
                .lines()
                .count()
        };
        let keys = |command: String| {
            Keys::new(Source::Process {
                command,
                from: "test".into(),
            })
        };
        let lasting = keys(script(&expiry(60)));
        lasting.current().await.unwrap();
        lasting.current().await.unwrap();
        assert_eq!(count(), 1, "an hour left: fetched once");
        let _ = std::fs::remove_file(&runs);
        let closing = keys(script(&expiry(3)));
        closing.current().await.unwrap();
        closing.current().await.unwrap();
        assert_eq!(count(), 2, "three minutes left: fetched for each call");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
