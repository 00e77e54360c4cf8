//! STS, for roles: `AssumeRole` signed with another source's keys, and
//! `AssumeRoleWithWebIdentity`, unsigned, with an OIDC token. Query API version 2011-06-15, a
//! form POST answered in XML.

use std::path::Path;

use super::credentials::{AwsEnv, Credentials, ENDPOINT, ENDPOINT_STS, WEB_IDENTITY_TOKEN_FILE};
use super::sigv4;
use super::xml;
use crate::provider::ProviderError;
use crate::provider::http::{Http, HttpError, HttpPolicy, HttpResponse, Repeat, by_status};

pub const VERSION: &str = "2011-06-15";
const CONTENT_TYPE: &str = "application/x-www-form-urlencoded; charset=utf-8";

/// Where STS is asked and the region its signatures are scoped to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sts {
    pub endpoint: String,
    pub region: String,
}

impl Sts {
    /// `AWS_ENDPOINT_URL_STS`, then `AWS_ENDPOINT_URL`, then the region's own endpoint
    /// (`.amazonaws.com.cn` in China), or the global one when no region is known: botocore's
    /// `sts_regional_endpoints = regional`, its default.
    pub fn resolve(env: &AwsEnv, region: Option<&str>) -> Self {
        let region_or_global = region.unwrap_or("us-east-1").to_string();
        let given = env
            .get(ENDPOINT_STS)
            .or_else(|| env.get(ENDPOINT))
            .map(|e| e.trim_end_matches('/').to_string());
        let endpoint = given.unwrap_or_else(|| match region {
            Some(r) if r.starts_with("cn-") => format!("https://sts.{r}.amazonaws.com.cn"),
            Some(r) => format!("https://sts.{r}.amazonaws.com"),
            None => "https://sts.amazonaws.com".into(),
        });
        Sts {
            endpoint,
            region: region_or_global,
        }
    }
}

/// The role to assume and the profile's (or environment's) settings for the session.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Role {
    pub arn: String,
    pub session_name: Option<String>,
    pub external_id: Option<String>,
    pub duration_seconds: Option<u32>,
}

impl Role {
    fn params(&self) -> Vec<(&'static str, String)> {
        // botocore names an unnamed session `botocore-session-<unix time>`.
        let name = self
            .session_name
            .clone()
            .unwrap_or_else(|| format!("gpumeter-session-{}", jiff::Timestamp::now().as_second()));
        let mut params = vec![("RoleArn", self.arn.clone()), ("RoleSessionName", name)];
        if let Some(id) = &self.external_id {
            params.push(("ExternalId", id.clone()));
        }
        if let Some(d) = self.duration_seconds {
            params.push(("DurationSeconds", d.to_string()));
        }
        params
    }
}

/// The web identity token, read afresh (the file is rotated by whoever wrote it). The error
/// names the file, never its text.
pub fn read_token(path: &Path, from: &str) -> Result<String, ProviderError> {
    let fail = |why: String| {
        ProviderError::state(
            super::ID,
            crate::t!(
                "aws-token-file-failed",
                path = path.display().to_string(),
                from = from,
                why = why
            ),
        )
        .with_fix(&crate::t!(
            "aws-fix-token-file",
            var = WEB_IDENTITY_TOKEN_FILE
        ))
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| fail(crate::t!("aws-cannot-be-read", error = e.to_string())))?;
    let token = text.trim();
    if token.is_empty() {
        return Err(fail(crate::t!("aws-is-empty").into_owned()));
    }
    Ok(token.to_string())
}

fn form(action: &str, params: &[(&str, String)]) -> String {
    let mut body = format!("Action={action}&Version={VERSION}");
    for (k, v) in params {
        body.push('&');
        body.push_str(k);
        body.push('=');
        body.push_str(&sigv4::uri_encode(v));
    }
    body
}

fn authority(endpoint: &str) -> Result<String, ProviderError> {
    super::query::endpoint_url("STS", endpoint, ENDPOINT_STS).map(|(_, authority)| authority)
}

/// `AssumeRoleWithWebIdentity`: unsigned, the token is the proof.
pub async fn assume_role_with_web_identity(
    sts: &Sts,
    role: &Role,
    token: &str,
    from: &str,
) -> Result<Credentials, ProviderError> {
    let mut params = role.params();
    params.retain(|(k, _)| *k != "ExternalId");
    params.push(("WebIdentityToken", token.to_string()));
    let body = form("AssumeRoleWithWebIdentity", &params);
    let r = post(|c| {
        c.post(&sts.endpoint)
            .header("content-type", CONTENT_TYPE)
            .body(body.clone())
    })
    .await?;
    answer("AssumeRoleWithWebIdentity", role, from, r, &[token])
}

/// `AssumeRole`, signed (SigV4, service `sts`) with `signer`.
pub async fn assume_role(
    sts: &Sts,
    role: &Role,
    signer: &Credentials,
    from: &str,
) -> Result<Credentials, ProviderError> {
    let body = form("AssumeRole", &role.params());
    let host = authority(&sts.endpoint)?;
    let r = post(|c| {
        let target = (sts.endpoint.as_str(), host.as_str());
        super::query::signed_post(c, target, (&sts.region, "sts"), &body, signer)
    })
    .await?;
    let secrets: Vec<&str> = std::iter::once(signer.secret_access_key.as_str())
        .chain(signer.session_token.as_deref())
        .collect();
    answer("AssumeRole", role, from, r, &secrets)
}

fn redact(text: &str, secrets: &[&str]) -> String {
    secrets
        .iter()
        .filter(|s| s.len() >= 4)
        .fold(text.to_string(), |t, s| t.replace(s, "<redacted>"))
}

/// The keys in a 2xx answer, or the error STS (or the network) gave, with `secrets` redacted.
/// Sends `request` once, and again on what is safe to repeat, with the default policy.
async fn post(
    request: impl Fn(&reqwest::Client) -> reqwest::RequestBuilder,
) -> Result<Result<HttpResponse, HttpError>, ProviderError> {
    let http = Http::new(HttpPolicy::default())
        .map_err(|e| ProviderError::state(super::ID, e.to_string()))?;
    Ok(http.call(Repeat::Safe, request, by_status).await)
}

fn answer(
    action: &str,
    role: &Role,
    from: &str,
    result: Result<HttpResponse, HttpError>,
    secrets: &[&str],
) -> Result<Credentials, ProviderError> {
    let call = format!("sts {action}");
    let r = result.map_err(|e| {
        ProviderError::unreachable(super::ID, redact(&e.to_string(), secrets)).with_call(&call)
    })?;
    if (200..300).contains(&r.status) {
        return credentials(&r.body, action)
            .map_err(|what| {
                ProviderError::state(super::ID, crate::t!("aws-unreadable-answer", what = what))
            })
            .map_err(|e| e.with_call(&call));
    }
    let (code, message) =
        xml::error(&r.body).unwrap_or_else(|| (format!("HTTP{}", r.status), String::new()));
    let message = crate::t!(
        "aws-sts-message",
        message = redact(&message, secrets),
        arn = role.arn.as_str(),
        from = from
    );
    let e = match code.as_str() {
        "AccessDenied" => ProviderError::permission(super::ID, Some(&format!("sts:{action}"))),
        "ExpiredToken" | "ExpiredTokenException" => {
            ProviderError::expired(super::ID, &crate::t!("aws-what-sts-token"), &[from])
        }
        "InvalidIdentityToken"
        | "IDPRejectedClaim"
        | "InvalidClientTokenId"
        | "SignatureDoesNotMatch" => {
            ProviderError::refused(super::ID, &crate::t!("aws-what-sts-credentials"), &[from])
        }
        "Throttling" => ProviderError::throttled(super::ID, r.retry_after),
        _ if r.status == 429 => ProviderError::throttled(super::ID, r.retry_after),
        _ if r.status >= 500 => ProviderError::unreachable(super::ID, ""),
        _ => ProviderError::rejected(super::ID),
    };
    Err(e.with_call(&call).with_code(&code).with_message(&message))
}

// A `String` error: it becomes the message of the STS call's ProviderError, with its code.
/// `<Credentials>` of an `AssumeRole*Result`.
fn credentials(body: &str, action: &str) -> Result<Credentials, String> {
    let doc = xml::parse_answer(body, action).map_err(|m| m.0)?;
    let c = doc
        .descendants()
        .find(|n| n.is_element() && n.tag_name().name() == "Credentials")
        .ok_or_else(|| crate::t!("aws-xml-missing", element = "Credentials"))?;
    let need = |name: &str| {
        xml::text(c, name)
            .map(str::to_string)
            .ok_or_else(|| crate::t!("aws-xml-missing", element = name))
    };
    let expiration = need("Expiration")?
        .parse::<jiff::Timestamp>()
        .map_err(|_| crate::t!("aws-xml-unreadable-expiration").into_owned())?;
    Ok(Credentials {
        access_key_id: need("AccessKeyId")?,
        secret_access_key: need("SecretAccessKey")?,
        session_token: Some(need("SessionToken")?),
        expiration: Some(expiration),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sts_endpoint_follows_the_aws_tools_order() {
        let env = |pairs: &[(&str, &str)]| AwsEnv::from_pairs(pairs.iter().copied());
        let s = Sts::resolve(&env(&[]), Some("eu-west-1"));
        assert_eq!(s.endpoint, "https://sts.eu-west-1.amazonaws.com");
        let s = Sts::resolve(&env(&[]), Some("cn-north-1"));
        assert_eq!(s.endpoint, "https://sts.cn-north-1.amazonaws.com.cn");
        let s = Sts::resolve(&env(&[]), None);
        assert_eq!(
            (s.endpoint.as_str(), s.region.as_str()),
            ("https://sts.amazonaws.com", "us-east-1")
        );
        let both = [
            (ENDPOINT, "http://127.0.0.1:1/"),
            (ENDPOINT_STS, "http://127.0.0.1:2"),
        ];
        assert_eq!(
            Sts::resolve(&env(&both), Some("eu-west-1")).endpoint,
            "http://127.0.0.1:2"
        );
        let s = Sts::resolve(&env(&both[..1]), Some("eu-west-1"));
        assert_eq!(s.endpoint, "http://127.0.0.1:1");
        assert_eq!(s.region, "eu-west-1");
    }

    #[test]
    fn the_form_carries_the_role_settings_encoded() {
        let role = Role {
            arn: "arn:aws:iam::123456789012:role/r".into(),
            session_name: Some("s 1".into()),
            external_id: Some("x".into()),
            duration_seconds: Some(900),
        };
        assert_eq!(
            form("AssumeRole", &role.params()),
            "Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2Fr\
             &RoleSessionName=s%201&ExternalId=x&DurationSeconds=900"
        );
        let unnamed = Role::default().params();
        assert!(unnamed[1].1.starts_with("gpumeter-session-"), "{unnamed:?}");
    }

    #[test]
    fn an_answer_gives_temporary_keys_and_an_error_hides_the_token() {
        let ok = "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\
                  <AssumeRoleResult><Credentials><AccessKeyId>ASIA1</AccessKeyId>\
                  <SecretAccessKey>sec</SecretAccessKey><SessionToken>tok</SessionToken>\
                  <Expiration>2099-01-01T00:00:00Z</Expiration></Credentials>\
                  </AssumeRoleResult></AssumeRoleResponse>";
        let c = credentials(ok, "AssumeRole").unwrap();
        assert_eq!(c.access_key_id, "ASIA1");
        assert!(c.expiration.is_some() && c.session_token.is_some());
        assert!(credentials(ok, "AssumeRoleWithWebIdentity").is_err());

        let refused = crate::provider::http::HttpResponse::new(
            400,
            "<ErrorResponse><Error><Code>InvalidIdentityToken</Code>\
             <Message>bad token eyJsecret-token</Message></Error></ErrorResponse>",
        );
        let e = answer(
            "AssumeRoleWithWebIdentity",
            &Role::default(),
            "AWS_WEB_IDENTITY_TOKEN_FILE",
            Ok(refused),
            &["eyJsecret-token"],
        )
        .unwrap_err();
        assert!(!format!("{e} {e:?}").contains("eyJsecret-token"), "{e}");
        assert_eq!(e.code(), Some("InvalidIdentityToken"));
        assert_eq!(e.call(), Some("sts AssumeRoleWithWebIdentity"));
    }

    #[test]
    fn the_token_file_is_named_never_shown() {
        let dir = std::env::temp_dir().join(format!("gpumeter-sts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("token");
        std::fs::write(&file, "  eyJtoken\n").unwrap();
        assert_eq!(read_token(&file, "test").unwrap(), "eyJtoken");
        std::fs::write(&file, "\n").unwrap();
        let e = read_token(&file, "test").unwrap_err().to_string();
        assert!(e.contains("token") && e.contains("is empty"), "{e}");
        let e = read_token(&dir.join("none"), "test")
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot be read"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
