//! The settings: region, endpoints, the chain through `AwsSettings::resolve`, redaction.

use super::*;

const SECRET: &str = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

fn env(pairs: &[(&str, &str)]) -> AwsEnv {
    AwsEnv::from_pairs(pairs.iter().copied())
}

/// A home directory holding `~/.aws/credentials` and `~/.aws/config`.
fn home(name: &str, credentials: &str, config: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpumeter-chain-{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join(".aws")).unwrap();
    std::fs::write(dir.join(".aws/credentials"), credentials).unwrap();
    std::fs::write(dir.join(".aws/config"), config).unwrap();
    dir
}

fn source(s: &AwsSettings) -> String {
    format!("{:?}", s.credentials.as_ref().unwrap().source())
}

#[test]
fn the_chain_takes_the_first_source_with_keys() {
    let h = home(
        "order",
        "[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = filesecret\n\
         [train]\naws_access_key_id = TRAINKEY\naws_secret_access_key = trainsecret\n",
        "[default]\nregion = eu-west-1\n[profile train]\nregion = ap-south-1\n\
         [profile proc]\ncredential_process = echo x\naws_access_key_id = CFG\n\
         aws_secret_access_key = cfgsecret\n[profile cfg]\naws_access_key_id = CFG\n\
         aws_secret_access_key = cfgsecret\nregion = cn-north-1\n",
    );
    let home_dir = h.to_str().unwrap();
    let with_env = [
        (HOME, home_dir),
        (ACCESS_KEY_ID, "ENVKEY"),
        (SECRET_ACCESS_KEY, "envsecret"),
    ];
    let s = AwsSettings::resolve(&env(&with_env), None, None);
    assert_eq!(source(&s), "Fixed(the environment)");
    assert_eq!(
        s.region.unwrap(),
        "eu-west-1",
        "the default profile's region"
    );

    let s = AwsSettings::resolve(&env(&[(HOME, home_dir)]), None, None);
    assert!(
        source(&s).contains(".aws/credentials [default]"),
        "{}",
        source(&s)
    );
    let s = AwsSettings::resolve(&env(&[(HOME, home_dir), (PROFILE, "train")]), None, None);
    assert!(source(&s).contains("[train]"), "{}", source(&s));
    assert_eq!(s.region.unwrap(), "ap-south-1");
    let s = AwsSettings::resolve(
        &env(&[
            (HOME, home_dir),
            (PROFILE, "train"),
            (DEFAULT_REGION, "us-west-1"),
        ]),
        None,
        None,
    );
    assert_eq!(
        s.region.unwrap(),
        "us-west-1",
        "the environment before the file"
    );

    let s = AwsSettings::resolve(&env(&[(HOME, home_dir), (PROFILE, "proc")]), None, None);
    assert!(source(&s).starts_with("Process("), "{}", source(&s));
    assert!(!source(&s).contains("echo"), "the command is not shown");
    let s = AwsSettings::resolve(&env(&[(HOME, home_dir), (PROFILE, "cfg")]), None, None);
    assert!(
        source(&s).contains(".aws/config [profile cfg]"),
        "{}",
        source(&s)
    );
    assert_eq!(
        s.endpoint.as_deref(),
        Some("https://ec2.cn-north-1.amazonaws.com.cn")
    );

    // No keys anywhere: the instance role, unless the metadata service is off.
    let s = AwsSettings::resolve(&env(&[(HOME, home_dir), (PROFILE, "none")]), None, None);
    assert!(
        source(&s).starts_with("Instance(http://169.254.169.254"),
        "{}",
        source(&s)
    );
    let _ = std::fs::remove_dir_all(&h);
}

#[test]
fn the_missing_credential_names_every_place_in_order() {
    let s = AwsSettings::resolve(
        &env(&[
            (SHARED_CREDENTIALS_FILE, "/nonexistent/creds"),
            (CONFIG_FILE, "/nonexistent/conf"),
            (PROFILE, "train"),
            (IMDS_DISABLED, "true"),
        ]),
        None,
        None,
    );
    let e = s.credentials.unwrap_err().to_string();
    assert_eq!(
        e,
        "missing credential: set AWS_ACCESS_KEY_ID (looked in \
         AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, role_arn of profile train, \
         AWS_WEB_IDENTITY_TOKEN_FILE and web_identity_token_file of profile train, \
         /nonexistent/creds [train], \
         credential_process in /nonexistent/conf [profile train], \
         /nonexistent/conf [profile train], \
         AWS_CONTAINER_CREDENTIALS_RELATIVE_URI/AWS_CONTAINER_CREDENTIALS_FULL_URI, \
         the instance role (off: AWS_EC2_METADATA_DISABLED))"
    );
}

#[test]
fn a_bad_file_names_its_line_and_half_a_key_pair_is_named() {
    let h = home(
        "bad",
        "[default]\naws_access_key_id = A\n",
        "[default]\nnonsense\n",
    );
    let s = AwsSettings::resolve(&env(&[(HOME, h.to_str().unwrap())]), None, None);
    let e = s.credentials.unwrap_err().to_string();
    assert!(e.contains(".aws/config:2"), "{e}");
    std::fs::write(h.join(".aws/config"), "").unwrap();
    let s = AwsSettings::resolve(&env(&[(HOME, h.to_str().unwrap())]), None, None);
    let e = s.credentials.unwrap_err().to_string();
    assert!(e.contains("set aws_secret_access_key"), "{e}");
    let _ = std::fs::remove_dir_all(&h);
}

#[test]
fn temporary_credentials_are_stale_five_minutes_before_expiry() {
    let now = Timestamp::now();
    let mut c = Credentials {
        access_key_id: "A".into(),
        secret_access_key: "S".into(),
        session_token: None,
        expiration: None,
    };
    assert!(!c.stale(now));
    c.expiration = Some(now + jiff::SignedDuration::from_mins(6));
    assert!(!c.stale(now));
    c.expiration = Some(now + jiff::SignedDuration::from_mins(4));
    assert!(c.stale(now));
}

#[test]
fn china_regions_have_their_own_domain() {
    assert_eq!(
        default_endpoint("cn-northwest-1"),
        "https://ec2.cn-northwest-1.amazonaws.com.cn"
    );
    assert_eq!(
        default_endpoint("us-east-1"),
        "https://ec2.us-east-1.amazonaws.com"
    );
}

#[test]
fn a_missing_variable_is_named() {
    let s = AwsSettings::resolve(
        &env(&[(SECRET_ACCESS_KEY, "x"), (IMDS_DISABLED, "true")]),
        None,
        None,
    );
    assert_eq!(
        s.credentials.unwrap_err(),
        ProviderError::missing("aws", ACCESS_KEY_ID, &[ACCESS_KEY_ID])
    );
    let from = region_from();
    assert_eq!(
        s.region.unwrap_err(),
        ProviderError::missing("aws", REGION, &from.each_ref().map(String::as_str))
    );
    let s = AwsSettings::resolve(&env(&[(ACCESS_KEY_ID, "AKID")]), None, None);
    assert_eq!(
        s.credentials.unwrap_err().to_string(),
        "missing credential: set AWS_SECRET_ACCESS_KEY"
    );
}

#[test]
fn endpoint_follows_the_aws_tools_order() {
    let base = [(REGION, "eu-west-1")];
    let s = AwsSettings::resolve(&env(&base), None, None);
    assert_eq!(
        s.endpoint.as_deref(),
        Some("https://ec2.eu-west-1.amazonaws.com")
    );
    let s = AwsSettings::resolve(
        &env(&[
            (REGION, "eu-west-1"),
            (ENDPOINT, "http://127.0.0.1:1/"),
            (ENDPOINT_EC2, "http://127.0.0.1:2"),
        ]),
        None,
        Some("us-east-1".into()),
    );
    assert_eq!(s.endpoint.as_deref(), Some("http://127.0.0.1:2"));
    assert_eq!(s.region.unwrap(), "us-east-1", "the flag wins");
    let s = AwsSettings::resolve(&env(&[(IMDS_DISABLED, "true")]), None, None);
    assert_eq!(s.imds_endpoint, None);
}

#[test]
fn debug_output_never_shows_the_secret() {
    let e = env(&[
        (ACCESS_KEY_ID, "AKIDEXAMPLE"),
        (SECRET_ACCESS_KEY, SECRET),
        (SESSION_TOKEN, "token-secret-value"),
        (REGION, "us-east-1"),
    ]);
    let s = AwsSettings::resolve(&e, None, None);
    let creds = Credentials::from_env(&e).unwrap();
    let shown = format!("{e:?} {s:?} {:#?} {creds:?}", s.credentials);
    assert!(!shown.contains(SECRET), "{shown}");
    assert!(!shown.contains("token-secret-value"), "{shown}");
    assert!(format!("{creds:?}").contains("AKIDEXAMPLE"));
    assert_eq!(s.credentials.unwrap().redact(SECRET), "<redacted>");
    assert_eq!(
        creds.redact(&format!("key {SECRET} and token-secret-value")),
        "key <redacted> and <redacted>"
    );
}

#[tokio::test]
async fn environment_keys_honour_their_expiration() {
    let keys = |expiry: &str| {
        Credentials::from_env(&env(&[
            (ACCESS_KEY_ID, "ASIAEXAMPLE"),
            (SECRET_ACCESS_KEY, SECRET),
            (SESSION_TOKEN, "token-example"),
            (CREDENTIAL_EXPIRATION, expiry),
        ]))
    };
    // As `aws configure export-credentials --format env` writes it.
    let later = keys("2099-01-01T00:00:00+00:00").unwrap();
    assert_eq!(
        later.expiration,
        Some("2099-01-01T00:00:00Z".parse().unwrap())
    );
    let fixed = |credentials| {
        Keys::new(Source::Fixed {
            credentials,
            from: "the environment".into(),
        })
    };
    let lasting = fixed(later);
    assert_eq!(
        lasting.hard_expiry(),
        Some("2099-01-01T00:00:00Z".parse().unwrap())
    );
    assert!(lasting.current().await.is_ok());

    let gone = fixed(keys("2020-01-01T00:00:00Z").unwrap());
    let e = gone.current().await.unwrap_err().to_string();
    assert!(
        e.contains("expired") && e.contains(CREDENTIAL_EXPIRATION),
        "{e}"
    );
    assert!(!e.contains(SECRET) && !e.contains("token-example"), "{e}");

    let bad = keys("tomorrow").unwrap_err().to_string();
    assert!(
        bad.contains(CREDENTIAL_EXPIRATION) && bad.contains("tomorrow"),
        "{bad}"
    );

    let permanent = Credentials::from_env(&env(&[
        (ACCESS_KEY_ID, "AKIAEXAMPLE"),
        (SECRET_ACCESS_KEY, SECRET),
    ]))
    .unwrap();
    assert_eq!(fixed(permanent).hard_expiry(), None);
}

#[test]
fn an_unreadable_expiration_reads_in_chinese_with_its_value() {
    let e = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || {
        let bad = env(&[
            (ACCESS_KEY_ID, "AKID"),
            (SECRET_ACCESS_KEY, SECRET),
            (CREDENTIAL_EXPIRATION, "tomorrow"),
        ]);
        let e = Credentials::from_env(&bad).unwrap_err();
        format!("{e}; {}", e.fix())
    });
    assert!(
        e.contains("AWS_CREDENTIAL_EXPIRATION 的值 `tomorrow` 不是时间点"),
        "{e}"
    );
    assert!(e.contains("长期密钥请取消设置它"), "{e}");
    assert!(!e.contains(SECRET), "{e}");
}
