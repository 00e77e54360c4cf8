//! Where the AWS adapter's settings come from: the standard AWS environment variables, read once
//! at the edge into an [`AwsEnv`] snapshot, the shared AWS files ([`super::profile`]), the
//! instance metadata service, plus the flags and the config file. Tests build the snapshot from
//! pairs and never touch the process environment.
//!
//! The credential chain is this project's own, in the order the AWS CLI (botocore) follows; see
//! [`super::chain`] for the order and [`super::keys`] for the refresh.
//!
//! Secrets never leave this module in readable form: every `Debug` here redacts them.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

pub use super::keys::{Keys, Source};
use super::profile::SharedFiles;
use crate::provider::ProviderError;
use crate::provider::http::HttpPolicy;

pub const ACCESS_KEY_ID: &str = "AWS_ACCESS_KEY_ID";
pub const SECRET_ACCESS_KEY: &str = "AWS_SECRET_ACCESS_KEY";
pub const SESSION_TOKEN: &str = "AWS_SESSION_TOKEN";
pub const REGION: &str = "AWS_REGION";
pub const DEFAULT_REGION: &str = "AWS_DEFAULT_REGION";
pub const ENDPOINT_EC2: &str = "AWS_ENDPOINT_URL_EC2";
pub const ENDPOINT: &str = "AWS_ENDPOINT_URL";
/// The AWS SDKs' override for the instance metadata service (tests point it at loopback).
pub const IMDS_ENDPOINT: &str = "AWS_EC2_METADATA_SERVICE_ENDPOINT";
pub const IMDS_DISABLED: &str = "AWS_EC2_METADATA_DISABLED";
pub const PROFILE: &str = "AWS_PROFILE";
pub const SHARED_CREDENTIALS_FILE: &str = "AWS_SHARED_CREDENTIALS_FILE";
pub const CONFIG_FILE: &str = "AWS_CONFIG_FILE";
/// Where `~/.aws` is.
pub const HOME: &str = "HOME";
pub const ENDPOINT_STS: &str = "AWS_ENDPOINT_URL_STS";
pub const WEB_IDENTITY_TOKEN_FILE: &str = "AWS_WEB_IDENTITY_TOKEN_FILE";
pub const ROLE_ARN: &str = "AWS_ROLE_ARN";
pub const ROLE_SESSION_NAME: &str = "AWS_ROLE_SESSION_NAME";
pub const CONTAINER_RELATIVE_URI: &str = "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI";
pub const CONTAINER_FULL_URI: &str = "AWS_CONTAINER_CREDENTIALS_FULL_URI";
pub const CONTAINER_TOKEN: &str = "AWS_CONTAINER_AUTHORIZATION_TOKEN";
pub const CONTAINER_TOKEN_FILE: &str = "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE";

/// How long a `credential_process` may take.
pub const PROCESS_TIMEOUT: Duration = Duration::from_secs(60);
/// Temporary credentials are fetched again this long before they expire.
pub const REFRESH_BEFORE: Duration = Duration::from_secs(5 * 60);

const NAMES: [&str; 21] = [
    ACCESS_KEY_ID,
    SECRET_ACCESS_KEY,
    SESSION_TOKEN,
    REGION,
    DEFAULT_REGION,
    ENDPOINT_EC2,
    ENDPOINT,
    IMDS_ENDPOINT,
    IMDS_DISABLED,
    PROFILE,
    SHARED_CREDENTIALS_FILE,
    CONFIG_FILE,
    HOME,
    ENDPOINT_STS,
    WEB_IDENTITY_TOKEN_FILE,
    ROLE_ARN,
    ROLE_SESSION_NAME,
    CONTAINER_RELATIVE_URI,
    CONTAINER_FULL_URI,
    CONTAINER_TOKEN,
    CONTAINER_TOKEN_FILE,
];

/// Where the region is looked for, in order.
pub const REGION_FROM: [&str; 6] = [
    "--region",
    "[instance] region",
    REGION,
    DEFAULT_REGION,
    "the profile's region in ~/.aws/config",
    "the instance metadata service",
];

/// The AWS variables of one environment, taken at one moment.
#[derive(Clone, Default)]
pub struct AwsEnv {
    vars: Vec<(&'static str, String)>,
}

impl AwsEnv {
    /// The process environment's AWS variables.
    pub fn from_process() -> Self {
        Self::from_pairs(
            NAMES
                .iter()
                .filter_map(|name| std::env::var(name).ok().map(|v| (*name, v))),
        )
    }

    /// Variables given as pairs; names that are not AWS variables this adapter reads are ignored.
    pub fn from_pairs<K: AsRef<str>, V: Into<String>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        let vars = pairs
            .into_iter()
            .filter_map(|(k, v)| {
                let name = NAMES.iter().find(|n| **n == k.as_ref())?;
                let value: String = v.into();
                (!value.trim().is_empty()).then_some((*name, value))
            })
            .collect();
        AwsEnv { vars }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars
            .iter()
            .rev()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}

impl fmt::Debug for AwsEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.vars.iter().map(|(k, _)| *k).collect();
        f.debug_struct("AwsEnv").field("set", &names).finish()
    }
}

/// An access key pair and, for temporary credentials, the session token.
#[derive(Clone)]
pub struct Credentials {
    pub access_key_id: String,
    pub secret_access_key: String,
    pub session_token: Option<String>,
    /// When temporary credentials stop working; `None` for long-term keys.
    pub expiration: Option<Timestamp>,
}

impl Credentials {
    /// The keys in the environment; a half-set pair is an error naming the missing half.
    pub fn from_env(env: &AwsEnv) -> Result<Self, ProviderError> {
        let need = |name: &'static str| {
            env.get(name)
                .map(str::to_string)
                .ok_or_else(|| ProviderError::missing("aws", name, &[name]))
        };
        Ok(Credentials {
            access_key_id: need(ACCESS_KEY_ID)?,
            secret_access_key: need(SECRET_ACCESS_KEY)?,
            session_token: env.get(SESSION_TOKEN).map(str::to_string),
            expiration: None,
        })
    }

    /// Whether these should be fetched again before the next call.
    pub fn stale(&self, now: Timestamp) -> bool {
        self.expiration.is_some_and(|exp| {
            exp.duration_since(now) < jiff::SignedDuration::try_from(REFRESH_BEFORE).unwrap()
        })
    }

    /// `text` with the secret and the session token replaced, for anything shown or logged.
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in std::iter::once(&self.secret_access_key).chain(&self.session_token) {
            if secret.len() >= 4 {
                out = out.replace(secret.as_str(), "<redacted>");
            }
        }
        out
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &"<redacted>")
            .field(
                "session_token",
                &self.session_token.as_ref().map(|_| "<redacted>"),
            )
            .field("expiration", &self.expiration)
            .finish()
    }
}

/// Everything the adapter needs to know before its first call.
#[derive(Debug, Clone)]
pub struct AwsSettings {
    /// `Err` keeps the missing credential and every place tried, reported on the first call that
    /// needs it.
    pub credentials: Result<Arc<Keys>, ProviderError>,
    pub region: Result<String, ProviderError>,
    /// The EC2 endpoint, `https://ec2.<region>.amazonaws.com` (`.com.cn` in China) unless
    /// overridden.
    pub endpoint: Option<String>,
    /// The instance to watch; `None` asks the metadata service.
    pub instance_id: Option<String>,
    pub imds_endpoint: Option<String>,
    /// Whether the endpoint came from the environment rather than from the region.
    endpoint_given: bool,
}

/// The EC2 endpoint AWS gives `region`: the China partition has its own domain.
pub fn default_endpoint(region: &str) -> String {
    if region.starts_with("cn-") {
        format!("https://ec2.{region}.amazonaws.com.cn")
    } else {
        format!("https://ec2.{region}.amazonaws.com")
    }
}

/// `~/` in a path from the environment is the home directory, as in the AWS tools.
fn path_from(env: &AwsEnv, var: &str, default: &str) -> Option<PathBuf> {
    let home = env.get(HOME).map(PathBuf::from);
    match env.get(var) {
        Some(p) => match (p.strip_prefix("~/"), &home) {
            (Some(rest), Some(h)) => Some(h.join(rest)),
            _ => Some(PathBuf::from(p)),
        },
        None => home.map(|h| h.join(default)),
    }
}

/// The shared files for the environment's profile.
pub fn shared_files(env: &AwsEnv) -> Result<SharedFiles, ProviderError> {
    SharedFiles::load(
        env.get(PROFILE).unwrap_or("default"),
        path_from(env, SHARED_CREDENTIALS_FILE, ".aws/credentials"),
        path_from(env, CONFIG_FILE, ".aws/config"),
    )
}

impl AwsSettings {
    /// Settings from the environment and the shared files, with the flags' or config's instance
    /// and region first. The metadata service is asked nothing here: see [`Self::complete`].
    pub fn resolve(env: &AwsEnv, instance_id: Option<String>, region: Option<String>) -> Self {
        let imds_disabled = env
            .get(IMDS_DISABLED)
            .is_some_and(|v| v.eq_ignore_ascii_case("true"));
        let imds_endpoint = (!imds_disabled).then(|| {
            env.get(IMDS_ENDPOINT)
                .unwrap_or(super::imds::DEFAULT_ENDPOINT)
                .trim_end_matches('/')
                .to_string()
        });
        let files = shared_files(env);
        let profile_region = files
            .as_ref()
            .ok()
            .and_then(|f| f.config_file("region").map(str::to_string));
        let region = region
            .or_else(|| env.get(REGION).map(str::to_string))
            .or_else(|| env.get(DEFAULT_REGION).map(str::to_string))
            .or(profile_region)
            .ok_or_else(|| ProviderError::missing("aws", REGION, &REGION_FROM));
        let given = env
            .get(ENDPOINT_EC2)
            .or_else(|| env.get(ENDPOINT))
            .map(|e| e.trim_end_matches('/').to_string());
        let endpoint_given = given.is_some();
        let endpoint = given.or_else(|| region.as_ref().ok().map(|r| default_endpoint(r)));
        let sts = super::sts::Sts::resolve(env, region.as_ref().ok().map(String::as_str));
        let cx = super::chain::Context {
            env,
            imds_endpoint: imds_endpoint.as_deref(),
            sts: &sts,
        };
        let credentials = super::chain::chain(&cx, &files).map(|s| Arc::new(Keys::new(s)));
        AwsSettings {
            credentials,
            region,
            endpoint,
            instance_id,
            imds_endpoint,
            endpoint_given,
        }
    }

    /// What only the network can tell: the region from the metadata service when nothing else
    /// named one, and the first set of credentials, so a missing one is known before any call.
    pub async fn complete(&mut self, imds: HttpPolicy) {
        if self.region.is_err()
            && let Some(endpoint) = &self.imds_endpoint
            && let Ok(m) = super::imds::Imds::new(endpoint, imds)
            && let Ok(region) = m.region().await
        {
            if !self.endpoint_given {
                self.endpoint = Some(default_endpoint(&region));
            }
            self.region = Ok(region);
        }
        if let Ok(keys) = &self.credentials
            && let Err(e) = keys.current().await
        {
            self.credentials = Err(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

    fn env(pairs: &[(&str, &str)]) -> AwsEnv {
        AwsEnv::from_pairs(pairs.iter().copied())
    }

    /// A home directory holding `~/.aws/credentials` and `~/.aws/config`.
    fn home(name: &str, credentials: &str, config: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-chain-{name}-{}", std::process::id()));
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
        assert_eq!(
            s.region.unwrap_err(),
            ProviderError::missing("aws", REGION, &REGION_FROM)
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
}
