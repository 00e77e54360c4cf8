//! The AWS chain's role sources: web identity (from the environment and from a profile) and a
//! profile's `role_arn` + `source_profile` against moto's STS, whose keys moto's EC2 takes, each
//! used for a real checklist and release through the binary; the container credentials endpoint
//! and the web identity token's refresh against small loopback peers that record what they got.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use gpumeter::provider::aws::credentials::{AwsEnv, AwsSettings, Keys};
use gpumeter::provider::http::HttpPolicy;

use crate::aws_moto::{SECRET, chain_cli, no_secret_anywhere, release_through_the_chain, rt};
use crate::common::loopback::{Loopback, Reply, Request, quick_policy};

const ROLE: &str = "arn:aws:iam::123456789012:role/gpumeter-meter";
/// A stand-in for an OIDC token: it must never show anywhere.
const TOKEN: &str = "eyJhbGciOiJSUzI1NiJ9.web-identity-token-never-shown-5e1d";

fn shared(dir: &Path) -> PathBuf {
    let shared = dir.join("aws");
    std::fs::create_dir_all(&shared).unwrap();
    shared
}

/// The settings the library resolves from `pairs`, with the metadata service off.
fn settings(pairs: &[(&str, String)]) -> AwsSettings {
    let mut all: Vec<(&str, String)> = vec![("AWS_EC2_METADATA_DISABLED", "true".into())];
    all.extend(pairs.iter().cloned());
    AwsSettings::resolve(&AwsEnv::from_pairs(all), None, None)
}

fn keys(s: &AwsSettings) -> &Keys {
    s.credentials.as_ref().unwrap()
}

/// Temporary keys from moto's STS: `ASIA…`, with a session token and an expiry.
fn assert_assumed(keys: &Keys) {
    let c = rt().block_on(keys.current()).unwrap();
    assert!(c.access_key_id.starts_with("ASIA"), "{c:?}");
    assert!(c.session_token.is_some() && c.expiration.is_some(), "{c:?}");
    let shown = keys.redact(&format!("{} {}", c.secret_access_key, TOKEN));
    assert_eq!(shown, "<redacted> <redacted>");
}

#[test]
fn web_identity_from_a_token_file_against_moto() {
    let Some((moto, mut cli, s, ec2, rt)) = chain_cli("web-env", |dir, _| {
        let token = shared(dir).join("token");
        std::fs::write(&token, TOKEN).unwrap();
        vec![
            (
                "AWS_WEB_IDENTITY_TOKEN_FILE",
                Some(token.display().to_string()),
            ),
            ("AWS_ROLE_ARN", Some(ROLE.into())),
            ("AWS_ROLE_SESSION_NAME", Some("ci-run".into())),
            ("AWS_REGION", Some("us-east-1".into())),
        ]
    }) else {
        return;
    };
    let token = cli.dir.join("aws/token").display().to_string();
    let lib = settings(&[
        ("AWS_WEB_IDENTITY_TOKEN_FILE", token),
        ("AWS_ROLE_ARN", ROLE.into()),
        ("AWS_REGION", "us-east-1".into()),
        ("AWS_ENDPOINT_URL", moto.url.clone()),
    ]);
    let picked = format!("{:?}", keys(&lib).source());
    assert!(
        picked.starts_with("WebIdentity(AWS_WEB_IDENTITY_TOKEN_FILE"),
        "{picked}"
    );
    assert_assumed(keys(&lib));

    release_through_the_chain(&mut cli, &s, &ec2, &rt);
    assert!(!cli.seen.contains(TOKEN), "{}", cli.seen);
    let dir = cli.dir.clone();
    no_secret_anywhere(&dir, &cli.seen);
}

#[test]
fn web_identity_from_a_profile_against_moto() {
    let Some((moto, mut cli, s, ec2, rt)) = chain_cli("web-profile", |dir, _| {
        let shared = shared(dir);
        std::fs::write(shared.join("token"), TOKEN).unwrap();
        // The default profile has keys that would sign as someone else: the named one is read.
        std::fs::write(
            shared.join("config"),
            format!(
                "[default]\naws_access_key_id = AKIDWRONG\naws_secret_access_key = wrong-unused\n\
                 [profile ci]\nrole_arn = {ROLE}\nweb_identity_token_file = {}\n\
                 region = us-east-1\n",
                shared.join("token").display()
            ),
        )
        .unwrap();
        vec![
            ("AWS_PROFILE", Some("ci".into())),
            (
                "AWS_CONFIG_FILE",
                Some(shared.join("config").display().to_string()),
            ),
            (
                "AWS_SHARED_CREDENTIALS_FILE",
                Some(shared.join("none").display().to_string()),
            ),
        ]
    }) else {
        return;
    };
    let lib = settings(&[
        ("AWS_PROFILE", "ci".into()),
        (
            "AWS_CONFIG_FILE",
            cli.dir.join("aws/config").display().to_string(),
        ),
        ("AWS_ENDPOINT_URL", moto.url.clone()),
    ]);
    let picked = format!("{:?}", keys(&lib).source());
    assert!(
        picked.starts_with("WebIdentity(web_identity_token_file of profile ci"),
        "{picked}"
    );
    assert_assumed(keys(&lib));

    release_through_the_chain(&mut cli, &s, &ec2, &rt);
    assert!(!cli.seen.contains(TOKEN) && !cli.seen.contains("wrong-unused"));
    let dir = cli.dir.clone();
    no_secret_anywhere(&dir, &cli.seen);
}

#[test]
fn a_role_from_a_source_profile_against_moto() {
    let Some((moto, mut cli, s, ec2, rt)) = chain_cli("assume-role", |dir, _| {
        let shared = shared(dir);
        std::fs::write(
            shared.join("credentials"),
            format!("[base]\naws_access_key_id = AKIDMOTOTEST\naws_secret_access_key = {SECRET}\n"),
        )
        .unwrap();
        std::fs::write(
            shared.join("config"),
            format!(
                "[profile meter]\nrole_arn = {ROLE}\nsource_profile = base\n\
                 role_session_name = gpumeter-test\nduration_seconds = 900\nregion = us-east-1\n"
            ),
        )
        .unwrap();
        vec![
            ("AWS_PROFILE", Some("meter".into())),
            (
                "AWS_CONFIG_FILE",
                Some(shared.join("config").display().to_string()),
            ),
            (
                "AWS_SHARED_CREDENTIALS_FILE",
                Some(shared.join("credentials").display().to_string()),
            ),
        ]
    }) else {
        return;
    };
    let lib = settings(&[
        ("AWS_PROFILE", "meter".into()),
        (
            "AWS_CONFIG_FILE",
            cli.dir.join("aws/config").display().to_string(),
        ),
        (
            "AWS_SHARED_CREDENTIALS_FILE",
            cli.dir.join("aws/credentials").display().to_string(),
        ),
        ("AWS_ENDPOINT_URL", moto.url.clone()),
    ]);
    let picked = format!("{:?}", keys(&lib).source());
    assert!(
        picked.starts_with(&format!("AssumeRole(profile meter: {ROLE} with Fixed(")),
        "{picked}"
    );
    let c = rt.block_on(keys(&lib).current()).unwrap();
    assert!(c.access_key_id.starts_with("ASIA"), "{c:?}");
    // The role's keys, not the source profile's, and the source's secret is redacted too.
    assert_ne!(c.access_key_id, "AKIDMOTOTEST");
    assert_eq!(keys(&lib).redact(SECRET), "<redacted>");

    release_through_the_chain(&mut cli, &s, &ec2, &rt);
    let dir = cli.dir.clone();
    no_secret_anywhere(&dir, &cli.seen);
}

/// What a loopback peer was sent, and how long its keys last.
struct Seen {
    /// The `Authorization` the container endpoint takes; anything else is a 401.
    expect: String,
    got: Vec<String>,
    minutes: i64,
}

fn expiry(minutes: i64) -> String {
    (jiff::Timestamp::now() + jiff::SignedDuration::from_mins(minutes)).to_string()
}

/// The container endpoint: the role's keys as ECS serves them, for the right token only.
fn container(r: &Request, seen: &Mutex<Seen>) -> Reply {
    let mut seen = seen.lock().unwrap();
    let auth = r.header("authorization").unwrap_or_default().to_string();
    seen.got.push(auth.clone());
    if r.method != "GET" || r.path != "/v1/credentials" || auth != seen.expect {
        return Reply::Answer(401, r#"{"message":"unauthorized"}"#.into());
    }
    Reply::Answer(
        200,
        format!(
            r#"{{"AccessKeyId":"ASIACONTAINER","SecretAccessKey":"{SECRET}","Token":"container-session-token","Expiration":"{}","RoleArn":"{ROLE}"}}"#,
            expiry(seen.minutes)
        ),
    )
}

fn container_policy() -> HttpPolicy {
    HttpPolicy {
        retries: 0,
        throttled_retries: 0,
        ..quick_policy()
    }
}

#[test]
fn container_credentials_send_the_token_and_refresh_near_expiry() {
    let peer = Loopback::start(
        Seen {
            expect: "container-auth-one".into(),
            got: Vec::new(),
            minutes: 3,
        },
        "application/json",
        container,
    );
    let dir = std::env::temp_dir().join(format!("gpumeter-container-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let token = dir.join("token");
    std::fs::write(&token, "container-auth-one").unwrap();
    let lib = settings(&[
        (
            "AWS_CONTAINER_CREDENTIALS_FULL_URI",
            format!("{}/v1/credentials", peer.url()),
        ),
        (
            "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
            token.display().to_string(),
        ),
        (
            "AWS_CONTAINER_AUTHORIZATION_TOKEN",
            "ignored-when-a-file-is-set".into(),
        ),
    ]);
    let picked = format!("{:?}", keys(&lib).source());
    assert!(
        picked.starts_with("Container(AWS_CONTAINER_CREDENTIALS_FULL_URI"),
        "{picked}"
    );
    let keys = Keys::with_policy(keys(&lib).source().clone(), container_policy());
    let rt = rt();
    let c = rt.block_on(keys.current()).unwrap();
    assert_eq!(c.access_key_id, "ASIACONTAINER");
    assert_eq!(c.session_token.as_deref(), Some("container-session-token"));
    // Three minutes left: the next call fetches again, with the token file read again.
    std::fs::write(&token, "container-auth-two").unwrap();
    peer.state().expect = "container-auth-two".into();
    rt.block_on(keys.current()).unwrap();
    assert_eq!(
        peer.state().got,
        ["container-auth-one", "container-auth-two"]
    );
    assert_eq!(
        keys.redact("container-auth-one container-auth-two container-session-token"),
        "<redacted> <redacted> <redacted>"
    );

    // A refused token is an error that shows neither token nor answer.
    let fresh = Keys::with_policy(keys.source().clone(), container_policy());
    std::fs::write(&token, "container-auth-wrong").unwrap();
    let e = rt.block_on(fresh.current()).unwrap_err().to_string();
    assert!(
        e.contains("HTTP 401") && !e.contains("container-auth"),
        "{e}"
    );

    // An hour left: fetched once for two calls.
    std::fs::write(&token, "container-auth-two").unwrap();
    peer.state().minutes = 60;
    peer.state().got.clear();
    let lasting = Keys::with_policy(keys.source().clone(), container_policy());
    rt.block_on(lasting.current()).unwrap();
    rt.block_on(lasting.current()).unwrap();
    assert_eq!(peer.state().got.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// STS `AssumeRoleWithWebIdentity` as the AWS model answers it, recording the token it got.
fn sts(r: &Request, seen: &Mutex<Seen>) -> Reply {
    let mut seen = seen.lock().unwrap();
    let body = r.text().into_owned();
    let field = |name: &str| {
        body.split('&')
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .unwrap_or_default()
            .to_string()
    };
    if field("Action") != "AssumeRoleWithWebIdentity" || field("Version") != "2011-06-15" {
        return Reply::Answer(
            400,
            "<ErrorResponse><Error><Code>InvalidAction</Code></Error></ErrorResponse>".into(),
        );
    }
    seen.got.push(field("WebIdentityToken"));
    Reply::Answer(
        200,
        format!(
            "<AssumeRoleWithWebIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\
             <AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>ASIAWEB</AccessKeyId>\
             <SecretAccessKey>web-secret</SecretAccessKey><SessionToken>web-session</SessionToken>\
             <Expiration>{}</Expiration></Credentials></AssumeRoleWithWebIdentityResult>\
             </AssumeRoleWithWebIdentityResponse>",
            expiry(seen.minutes)
        ),
    )
}

#[test]
fn the_web_identity_token_file_is_read_again_at_each_refresh() {
    let peer = Loopback::start(
        Seen {
            expect: String::new(),
            got: Vec::new(),
            minutes: 3,
        },
        "text/xml",
        sts,
    );
    let dir = std::env::temp_dir().join(format!("gpumeter-web-refresh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let token = dir.join("token");
    std::fs::write(&token, "token-one\n").unwrap();
    let lib = settings(&[
        ("AWS_WEB_IDENTITY_TOKEN_FILE", token.display().to_string()),
        ("AWS_ROLE_ARN", ROLE.into()),
        ("AWS_REGION", "eu-west-1".into()),
        ("AWS_ENDPOINT_URL_STS", peer.url()),
    ]);
    let rt = rt();
    assert_eq!(
        rt.block_on(keys(&lib).current()).unwrap().access_key_id,
        "ASIAWEB"
    );
    // The token is rotated by whoever wrote it (the kubelet, the CI runner).
    std::fs::write(&token, "token-two\n").unwrap();
    rt.block_on(keys(&lib).current()).unwrap();
    assert_eq!(peer.state().got, ["token-one", "token-two"]);
    assert_eq!(
        keys(&lib).redact("token-one token-two web-secret"),
        "<redacted> <redacted> <redacted>"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn container_credentials_for_a_release_against_moto() {
    let peer = Loopback::start(
        Seen {
            expect: "container-auth-cli".into(),
            got: Vec::new(),
            minutes: 60,
        },
        "application/json",
        container,
    );
    let url = format!("{}/v1/credentials", peer.url());
    let Some((_moto, mut cli, s, ec2, rt)) = chain_cli("container", |_, _| {
        vec![
            ("AWS_CONTAINER_CREDENTIALS_FULL_URI", Some(url)),
            (
                "AWS_CONTAINER_AUTHORIZATION_TOKEN",
                Some("container-auth-cli".into()),
            ),
            ("AWS_REGION", Some("us-east-1".into())),
        ]
    }) else {
        return;
    };
    release_through_the_chain(&mut cli, &s, &ec2, &rt);
    assert!(peer.state().got.iter().all(|t| t == "container-auth-cli"));
    assert!(!peer.state().got.is_empty());
    assert!(
        !cli.seen.contains("container-auth-cli") && !cli.seen.contains("container-session-token")
    );
    let dir = cli.dir.clone();
    no_secret_anywhere(&dir, &cli.seen);
}
