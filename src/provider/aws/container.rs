//! Container credentials (ECS task roles, the EKS Pod Identity agent): a `GET` of a local URL,
//! with an `Authorization` token when one is set, answered with the role's keys in JSON. The
//! rules are botocore's `ContainerProvider` and `ContainerMetadataFetcher`.

use std::fmt;
use std::net::IpAddr;
use std::path::PathBuf;

use serde::Deserialize;

use super::credentials::{
    AwsEnv, CONTAINER_FULL_URI, CONTAINER_RELATIVE_URI, CONTAINER_TOKEN, CONTAINER_TOKEN_FILE,
    Credentials,
};
use crate::provider::ProviderError;
use crate::provider::http::{Http, HttpPolicy, Repeat, by_status};

/// The ECS agent's address, for `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI`.
pub const ECS_HOST: &str = "169.254.170.2";
/// Plain-http hosts allowed besides loopback: ECS, the EKS Pod Identity agent (v4 and v6).
const ALLOWED_HOSTS: [&str; 4] = [ECS_HOST, "169.254.170.23", "fd00:ec2::23", "localhost"];

/// The `Authorization` header's source: the file is read again for each fetch.
#[derive(Clone)]
pub enum ContainerAuth {
    None,
    Token(String),
    File(PathBuf),
}

impl fmt::Debug for ContainerAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContainerAuth::None => f.write_str("None"),
            ContainerAuth::Token(_) => f.write_str("Token(<redacted>)"),
            ContainerAuth::File(p) => write!(f, "File({})", p.display()),
        }
    }
}

impl ContainerAuth {
    /// The token to send, checked to be one header line; errors never show it.
    pub fn token(&self, from: &str) -> Result<Option<String>, ProviderError> {
        let token = match self {
            ContainerAuth::None => return Ok(None),
            ContainerAuth::Token(t) => t.clone(),
            ContainerAuth::File(path) => std::fs::read_to_string(path).map_err(|e| {
                ProviderError::state(
                    super::ID,
                    crate::t!(
                        "aws-container-token-file-unreadable",
                        var = CONTAINER_TOKEN_FILE,
                        path = path.display().to_string(),
                        error = e.to_string()
                    ),
                )
            })?,
        };
        if token.contains(['\r', '\n']) {
            return Err(ProviderError::state(
                super::ID,
                crate::t!("aws-container-token-lines", from = from),
            ));
        }
        Ok(Some(token))
    }
}

/// The URL and token the environment sets, if it sets one: the relative URI first, as botocore.
/// A full URI must be https, loopback or one of the documented agent addresses.
pub fn from_env(env: &AwsEnv) -> Option<Result<(String, ContainerAuth, String), ProviderError>> {
    let (url, from) = match (env.get(CONTAINER_RELATIVE_URI), env.get(CONTAINER_FULL_URI)) {
        (Some(rel), _) => (format!("http://{ECS_HOST}{rel}"), CONTAINER_RELATIVE_URI),
        (None, Some(full)) => (full.to_string(), CONTAINER_FULL_URI),
        (None, None) => return None,
    };
    if let Err(why) = allowed(&url) {
        return Some(Err(ProviderError::state(
            super::ID,
            format!("{from} `{url}`: {why}"),
        )
        .with_fix(&crate::t!(
            "aws-fix-container-url",
            hosts = ALLOWED_HOSTS.join(", ")
        ))));
    }
    let auth = match (env.get(CONTAINER_TOKEN_FILE), env.get(CONTAINER_TOKEN)) {
        (Some(file), _) => ContainerAuth::File(PathBuf::from(file)),
        (None, Some(token)) => ContainerAuth::Token(token.to_string()),
        (None, None) => ContainerAuth::None,
    };
    Some(Ok((url, auth, from.to_string())))
}

// A `String` error: the refusal is one line of the credential chain's "looked for" list.
fn allowed(url: &str) -> Result<(), String> {
    let parsed = reqwest::Url::parse(url).map_err(|e| e.to_string())?;
    if parsed.scheme() == "https" {
        return Ok(());
    }
    if parsed.scheme() != "http" {
        return Err(crate::t!("aws-url-not-http").into_owned());
    }
    let host = parsed
        .host_str()
        .ok_or_else(|| crate::t!("aws-url-no-host").into_owned())?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if loopback || ALLOWED_HOSTS.contains(&bare) {
        Ok(())
    } else {
        Err(crate::t!("aws-container-plain-http", host = host))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Answer {
    access_key_id: String,
    secret_access_key: String,
    token: Option<String>,
    expiration: Option<jiff::Timestamp>,
}

/// The role's keys from `url`; the answer's text never reaches an error.
pub async fn fetch(
    url: &str,
    token: Option<&str>,
    policy: HttpPolicy,
    from: &str,
) -> Result<Credentials, ProviderError> {
    let fail = |why: String| {
        ProviderError::unreachable(
            super::ID,
            crate::t!("aws-container-failed", from = from, why = why),
        )
    };
    let http = Http::new(policy).map_err(|e| fail(e.to_string()))?;
    let r = http
        .call(
            Repeat::Safe,
            |c| {
                let b = c.get(url).header("accept", "application/json");
                match token {
                    Some(t) => b.header("authorization", t),
                    None => b,
                }
            },
            by_status,
        )
        .await
        .map_err(|e| fail(e.to_string()))?;
    if r.status != 200 {
        return Err(fail(crate::t!(
            "aws-answered-http",
            status = r.status.to_string()
        )));
    }
    let a: Answer = serde_json::from_str(&r.body)
        .map_err(|_| fail(crate::t!("aws-container-no-json").into_owned()))?;
    Ok(Credentials {
        access_key_id: a.access_key_id,
        secret_access_key: a.secret_access_key,
        session_token: a.token,
        expiration: a.expiration,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> AwsEnv {
        AwsEnv::from_pairs(pairs.iter().copied())
    }

    #[test]
    fn only_https_loopback_and_the_agents_are_asked() {
        for ok in [
            "https://creds.example.com/x",
            "http://127.0.0.1:9/creds",
            "http://127.5.0.1/creds",
            "http://[::1]:8/creds",
            "http://localhost/creds",
            "http://169.254.170.2/v2/credentials/id",
            "http://169.254.170.23/v1/credentials",
            "http://[fd00:ec2::23]/v1/credentials",
        ] {
            assert_eq!(allowed(ok), Ok(()), "{ok}");
        }
        for bad in [
            "http://10.0.0.1/creds",
            "http://example.com/",
            "ftp://127.0.0.1/",
        ] {
            assert!(allowed(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_relative_uri_wins_and_the_token_file_beats_the_token() {
        let (url, auth, from) = from_env(&env(&[
            (CONTAINER_RELATIVE_URI, "/v2/credentials/abc"),
            (CONTAINER_FULL_URI, "http://127.0.0.1:1/x"),
            (CONTAINER_TOKEN, "tok-secret"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(url, "http://169.254.170.2/v2/credentials/abc");
        assert_eq!(from, CONTAINER_RELATIVE_URI);
        assert_eq!(format!("{auth:?}"), "Token(<redacted>)");
        let (_, auth, _) = from_env(&env(&[
            (CONTAINER_FULL_URI, "http://127.0.0.1:1/x"),
            (CONTAINER_TOKEN, "tok-secret"),
            (CONTAINER_TOKEN_FILE, "/run/token"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(format!("{auth:?}"), "File(/run/token)");
        let e = from_env(&env(&[(CONTAINER_FULL_URI, "http://10.1.2.3/x")]))
            .unwrap()
            .unwrap_err();
        assert!(e.to_string().contains("not allowed"), "{e}");
        assert!(from_env(&env(&[])).is_none());
        let bad = ContainerAuth::Token("a\nb".into()).token("t").unwrap_err();
        assert!(!bad.to_string().contains("a\nb"), "{bad}");
    }
}
