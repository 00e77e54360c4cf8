//! The chain's order, source by source, against botocore's: each new source winning where
//! botocore takes it and losing where an earlier one has keys. No network: only which source
//! is picked.

use std::fmt::Write as _;

use super::*;
use crate::provider::aws::credentials::{CONTAINER_TOKEN, ENDPOINT_STS};

const ROLE: &str = "arn:aws:iam::123456789012:role/train";

/// The shared files for `profile`, written under a fresh directory named `name`: fresh for
/// each call, since tests running at once ask for the same files and each removes its own.
fn files(name: &str, profile: &str, credentials: &str, config: &str) -> SharedFiles {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "gpumeter-chain-order-{name}-{}-{call}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("credentials"), credentials).unwrap();
    std::fs::write(dir.join("config"), config).unwrap();
    let f = SharedFiles::load(
        profile,
        Some(dir.join("credentials")),
        Some(dir.join("config")),
    )
    .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    f
}

// A test's answer: the chain's error as the text the assertions read.
fn pick(pairs: &[(&str, &str)], files: SharedFiles) -> Result<String, String> {
    let env = AwsEnv::from_pairs(pairs.iter().copied());
    let sts = Sts::resolve(&env, Some("eu-west-1"));
    let cx = Context {
        env: &env,
        imds_endpoint: Some("http://169.254.169.254"),
        sts: &sts,
    };
    chain(&cx, &Ok(files))
        .map(|s| format!("{s:?}"))
        .map_err(|e| format!("{e}; fix: {}", e.fix()))
}

const KEYS: [(&str, &str); 2] = [(ACCESS_KEY_ID, "ENVKEY"), (SECRET_ACCESS_KEY, "envsecret")];
const WEB_ENV: [(&str, &str); 2] = [
    (WEB_IDENTITY_TOKEN_FILE, "/var/run/token"),
    (ROLE_ARN, "arn:aws:iam::123456789012:role/env"),
];
const CONTAINER: [(&str, &str); 2] = [
    (CONTAINER_FULL_URI, "http://127.0.0.1:9/creds"),
    (CONTAINER_TOKEN, "container-token-secret"),
];

fn role_profile() -> SharedFiles {
    files(
        "role",
        "dev",
        "[base]\naws_access_key_id = BASE\naws_secret_access_key = basesecret\n\
         [dev]\naws_access_key_id = DEVKEY\naws_secret_access_key = devsecret\n",
        &format!(
            "[profile dev]\nrole_arn = {ROLE}\nsource_profile = base\nexternal_id = ext\n\
             duration_seconds = 900\nrole_session_name = s\n"
        ),
    )
}

#[test]
fn the_environment_beats_every_new_source() {
    let all: Vec<(&str, &str)> = [KEYS, WEB_ENV, CONTAINER].concat();
    assert_eq!(
        pick(&all, role_profile()).unwrap(),
        "Fixed(the environment)"
    );
}

#[test]
fn a_profile_role_beats_web_identity_and_the_profile_own_keys() {
    let with_web: Vec<(&str, &str)> = [WEB_ENV, CONTAINER].concat();
    let picked = pick(&with_web, role_profile()).unwrap();
    assert!(
        picked.starts_with(&format!("AssumeRole(profile dev: {ROLE} with Fixed("))
            && picked.contains("credentials [base])"),
        "{picked}"
    );
    let env = AwsEnv::default();
    let sts = Sts::resolve(&env, Some("eu-west-1"));
    let cx = Context {
        env: &env,
        imds_endpoint: None,
        sts: &sts,
    };
    let Source::AssumeRole { role, sts, .. } = chain(&cx, &Ok(role_profile())).unwrap() else {
        panic!("not a role")
    };
    assert_eq!(
        role,
        Role {
            arn: ROLE.into(),
            session_name: Some("s".into()),
            external_id: Some("ext".into()),
            duration_seconds: Some(900),
        }
    );
    assert_eq!(sts.endpoint, "https://sts.eu-west-1.amazonaws.com");
}

#[test]
fn web_identity_from_the_environment_beats_the_shared_files_and_the_container() {
    let f = files(
        "web",
        "default",
        "[default]\naws_access_key_id = FILE\naws_secret_access_key = filesecret\n",
        &format!("[default]\nrole_arn = {ROLE}\nweb_identity_token_file = /profile/token\n"),
    );
    let with: Vec<(&str, &str)> = [WEB_ENV, CONTAINER].concat();
    // The environment's settings first, each on its own: its role over the profile's.
    let picked = pick(&with, f.clone()).unwrap();
    assert_eq!(
        picked,
        "WebIdentity(AWS_WEB_IDENTITY_TOKEN_FILE: arn:aws:iam::123456789012:role/env)"
    );
    // A profile with role_arn and web_identity_token_file is web identity, not AssumeRole.
    let picked = pick(&CONTAINER, f).unwrap();
    assert_eq!(
        picked,
        format!("WebIdentity(web_identity_token_file of profile default: {ROLE})")
    );
    let e = pick(&WEB_ENV[..1], files("web-norole", "default", "", "")).unwrap_err();
    assert!(e.contains(ROLE_ARN), "{e}");
}

#[test]
fn an_sso_profile_is_named_instead_of_falling_through() {
    let f = files(
        "sso",
        "work",
        "[work]\naws_access_key_id = STALE\naws_secret_access_key = stalesecret\n",
        "[profile work]\nsso_session = corp\nsso_account_id = 123456789012\n\
         sso_role_name = Admin\n[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\n",
    );
    let e = pick(&CONTAINER, f.clone()).unwrap_err();
    assert!(e.contains("profile work is an SSO profile"), "{e}");
    assert!(
        e.contains("aws sso login --profile work")
            && e.contains("aws configure export-credentials --profile work --format env"),
        "{e}"
    );
    assert_eq!(pick(&KEYS, f).unwrap(), "Fixed(the environment)");
}

#[test]
fn the_container_loses_to_the_profile_and_beats_the_instance_role() {
    let keyed = files(
        "container-keys",
        "default",
        "",
        "[default]\naws_access_key_id = CFG\naws_secret_access_key = cfgsecret\n",
    );
    assert!(pick(&CONTAINER, keyed).unwrap().starts_with("Fixed("));
    let proc = files(
        "container-proc",
        "default",
        "",
        "[default]\ncredential_process = x\n",
    );
    assert!(pick(&CONTAINER, proc).unwrap().starts_with("Process("));
    let empty = files("container-none", "default", "", "");
    let picked = pick(&CONTAINER, empty.clone()).unwrap();
    assert_eq!(
        picked,
        "Container(AWS_CONTAINER_CREDENTIALS_FULL_URI: http://127.0.0.1:9/creds)"
    );
    assert!(!picked.contains("container-token-secret"));
    assert!(pick(&[], empty).unwrap().starts_with("Instance("));
}

#[test]
fn source_profiles_chain_and_a_loop_is_named() {
    let chained = files(
        "chained",
        "a",
        "[c]\naws_access_key_id = C\naws_secret_access_key = csecret\n",
        &format!(
            "[profile a]\nrole_arn = {ROLE}-a\nsource_profile = b\n\
             [profile b]\nrole_arn = {ROLE}-b\nsource_profile = c\n"
        ),
    );
    let picked = pick(&[], chained).unwrap();
    assert!(
        picked.starts_with(&format!(
            "AssumeRole(profile a: {ROLE}-a with AssumeRole(profile b: {ROLE}-b with Fixed("
        )),
        "{picked}"
    );
    let looped = files(
        "loop",
        "a",
        "",
        &format!(
            "[profile a]\nrole_arn = {ROLE}\nsource_profile = b\n\
             [profile b]\nrole_arn = {ROLE}\nsource_profile = a\n"
        ),
    );
    let e = pick(&[], looped).unwrap_err();
    assert!(e.contains("source_profile loop: a -> b -> a"), "{e}");
    // Naming itself is how a profile uses its own keys for its role.
    let own = files(
        "self",
        "a",
        "[a]\naws_access_key_id = A\naws_secret_access_key = asecret\n",
        &format!("[profile a]\nrole_arn = {ROLE}\nsource_profile = a\n"),
    );
    assert!(pick(&[], own).unwrap().starts_with("AssumeRole(profile a"));
    let bare_self = files(
        "bare-self",
        "a",
        "",
        &format!("[profile a]\nrole_arn = {ROLE}\nsource_profile = a\n"),
    );
    assert!(pick(&[], bare_self).unwrap_err().contains("loop"));
    let mut config = String::new();
    for i in 0..=MAX_ROLE_CHAIN {
        let _ = write!(
            config,
            "[profile p{i}]\nrole_arn = {ROLE}\nsource_profile = p{}\n",
            i + 1
        );
    }
    let _ = write!(
        config,
        "[profile p{}]\naws_access_key_id = K\naws_secret_access_key = s\n",
        MAX_ROLE_CHAIN + 1
    );
    let e = pick(&[], files("deep", "p0", "", &config)).unwrap_err();
    assert!(
        e.contains(&format!("more than {MAX_ROLE_CHAIN} roles")),
        "{e}"
    );
    let missing = files(
        "missing",
        "a",
        "",
        &format!("[profile a]\nrole_arn = {ROLE}\nsource_profile = nope\n"),
    );
    assert!(
        pick(&[], missing)
            .unwrap_err()
            .contains("nope of profile a does not exist")
    );
}

#[test]
fn credential_source_names_a_later_source_for_the_role() {
    let with = |source: &str| {
        files(
            &format!("cs-{source}"),
            "r",
            "",
            &format!("[profile r]\nrole_arn = {ROLE}\ncredential_source = {source}\n"),
        )
    };
    let picked = pick(&[], with("Ec2InstanceMetadata")).unwrap();
    assert!(
        picked.ends_with("with Instance(http://169.254.169.254))"),
        "{picked}"
    );
    let picked = pick(&CONTAINER, with("EcsContainer")).unwrap();
    assert!(picked.contains("with Container("), "{picked}");
    let e = pick(&[], with("EcsContainer")).unwrap_err();
    assert!(
        e.contains("credential_source EcsContainer of profile r"),
        "{e}"
    );
    assert!(
        pick(&[], with("Environment")).is_err(),
        "no keys in the environment"
    );
    assert!(
        pick(&[], with("environment"))
            .unwrap_err()
            .contains("is not one of")
    );
    let both = files(
        "cs-both",
        "r",
        "",
        &format!(
            "[profile r]\nrole_arn = {ROLE}\ncredential_source = Environment\nsource_profile = r\n"
        ),
    );
    assert!(
        pick(&[], both)
            .unwrap_err()
            .contains("both source_profile and credential_source")
    );
    let neither = files(
        "cs-neither",
        "r",
        "",
        &format!("[profile r]\nrole_arn = {ROLE}\n"),
    );
    assert!(
        pick(&[], neither)
            .unwrap_err()
            .contains("neither source_profile")
    );
}

#[test]
fn the_sts_endpoint_override_reaches_the_role() {
    let env = AwsEnv::from_pairs([(ENDPOINT_STS, "http://127.0.0.1:7")]);
    let sts = Sts::resolve(&env, Some("eu-west-1"));
    let cx = Context {
        env: &env,
        imds_endpoint: None,
        sts: &sts,
    };
    let Source::AssumeRole { sts, .. } = chain(&cx, &Ok(role_profile())).unwrap() else {
        panic!("not a role")
    };
    assert_eq!(sts.endpoint, "http://127.0.0.1:7");
    assert_eq!(sts.region, "eu-west-1");
}

#[test]
fn a_profile_error_reads_in_chinese_with_its_names() {
    let f = files(
        "zh",
        "dev",
        "",
        "[profile dev]\nrole_arn = x\nsource_profile = base\ncredential_source = Environment\n",
    );
    let e = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || pick(&[], f)).unwrap_err();
    assert!(
        e.contains("配置文件 dev 同时有 source_profile 和 credential_source"),
        "{e}"
    );
    assert!(e.contains("请修正 ~/.aws/config"), "{e}");
}
