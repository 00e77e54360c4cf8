//! Where the AWS adapter's settings come from: the standard AWS environment variables, read once
//! at the edge into an [`AwsEnv`] snapshot, the shared AWS files ([`super::profile`]), the
//! instance metadata service, plus the flags and the config file. Tests build the snapshot from
//! pairs and never touch the process environment.
//!
//! The credential chain is this project's own, in the order the AWS CLI (botocore) documents:
//! the environment; the shared credentials file's keys for the profile; the profile's
//! `credential_process`; the config file's keys for the profile; the instance role from IMDS.
//!
//! Secrets never leave this module in readable form: every `Debug` here redacts them.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use serde::Deserialize;

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

/// How long a `credential_process` may take.
pub const PROCESS_TIMEOUT: Duration = Duration::from_secs(60);
/// Temporary credentials are fetched again this long before they expire.
pub const REFRESH_BEFORE: Duration = Duration::from_secs(5 * 60);

const NAMES: [&str; 13] = [
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
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Fixed { from, .. } => write!(f, "Fixed({from})"),
            // The command line may carry a secret of its own: only say where it was set.
            Source::Process { from, .. } => write!(f, "Process({from})"),
            Source::Instance { endpoint, .. } => write!(f, "Instance({endpoint})"),
        }
    }
}

/// The credentials for each call: fetched from the [`Source`] once, and again when temporary
/// ones come within [`REFRESH_BEFORE`] of their expiry.
pub struct Keys {
    source: Source,
    imds: HttpPolicy,
    cached: tokio::sync::Mutex<Option<Credentials>>,
    /// Every set handed out, so text can be redacted without waiting for the lock above.
    handed: std::sync::Mutex<Vec<Credentials>>,
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

    /// With the given patience for the metadata service.
    pub fn with_policy(source: Source, imds: HttpPolicy) -> Self {
        let cached = match &source {
            Source::Fixed { credentials, .. } => Some(credentials.clone()),
            _ => None,
        };
        Keys {
            source,
            imds,
            handed: std::sync::Mutex::new(cached.iter().cloned().collect()),
            cached: tokio::sync::Mutex::new(cached),
        }
    }

    /// Keys given as they are.
    pub fn fixed(credentials: Credentials) -> Self {
        Self::new(Source::Fixed {
            credentials,
            from: "given".into(),
        })
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The credentials to sign the next call with.
    pub async fn current(&self) -> Result<Credentials, ProviderError> {
        let mut cached = self.cached.lock().await;
        if let Some(c) = cached.as_ref().filter(|c| !c.stale(Timestamp::now())) {
            return Ok(c.clone());
        }
        let fetched = match &self.source {
            Source::Fixed { credentials, .. } => Ok(credentials.clone()),
            Source::Process { command, from } => run_process(command, from).await,
            Source::Instance { endpoint, tried } => {
                let imds = super::imds::Imds::new(endpoint, self.imds)?;
                imds.role_credentials().await.map_err(|_| {
                    let tried: Vec<&str> = tried.iter().map(String::as_str).collect();
                    ProviderError::missing("aws", ACCESS_KEY_ID, &tried)
                })
            }
        };
        let fresh = match (fetched, cached.as_ref()) {
            (Ok(fresh), _) => fresh,
            // A failed early refresh keeps the old set while it still works.
            (Err(_), Some(old)) if old.expiration.is_some_and(|e| e > Timestamp::now()) => {
                return Ok(old.clone());
            }
            (Err(e), _) => return Err(e),
        };
        if let Ok(mut handed) = self.handed.lock() {
            handed.push(fresh.clone());
        }
        *cached = Some(fresh.clone());
        Ok(fresh)
    }

    /// `text` with every secret these keys have held replaced.
    pub fn redact(&self, text: &str) -> String {
        let handed = self.handed.lock().map(|h| h.clone()).unwrap_or_default();
        handed.iter().fold(text.to_string(), |t, c| c.redact(&t))
    }
}

/// `credential_process`'s answer, Version 1.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct ProcessAnswer {
    version: u32,
    access_key_id: String,
    secret_access_key: String,
    session_token: Option<String>,
    expiration: Option<Timestamp>,
}

/// Runs `command` through the shell, reads its JSON; its output never reaches an error.
async fn run_process(command: &str, from: &str) -> Result<Credentials, ProviderError> {
    let fail = |why: &str| {
        ProviderError::state("aws", format!("credential_process in {from} {why}"))
            .with_fix("run the command by hand to see what it says")
    };
    let child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| fail(&format!("could not start: {e}")))?;
    let out = tokio::time::timeout(PROCESS_TIMEOUT, child.wait_with_output())
        .await
        .map_err(|_| fail(&format!("took over {}s", PROCESS_TIMEOUT.as_secs())))?
        .map_err(|e| fail(&format!("failed: {e}")))?;
    if !out.status.success() {
        return Err(fail(&format!("failed ({})", out.status)));
    }
    let answer: ProcessAnswer = serde_json::from_slice(&out.stdout)
        .map_err(|_| fail("printed no JSON with Version, AccessKeyId and SecretAccessKey"))?;
    if answer.version != 1 {
        return Err(fail(&format!("answered Version {}, not 1", answer.version)));
    }
    Ok(Credentials {
        access_key_id: answer.access_key_id,
        secret_access_key: answer.secret_access_key,
        session_token: answer.session_token,
        expiration: answer.expiration,
    })
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

/// Keys `aws_access_key_id`/`aws_secret_access_key` (and the token) from one file's profile.
fn file_keys(
    get: impl Fn(&str) -> Option<String>,
    place: &str,
) -> Result<Option<Credentials>, ProviderError> {
    let id = get("aws_access_key_id");
    let secret = get("aws_secret_access_key");
    match (id, secret) {
        (Some(access_key_id), Some(secret_access_key)) => Ok(Some(Credentials {
            access_key_id,
            secret_access_key,
            session_token: get("aws_session_token"),
            expiration: None,
        })),
        (None, None) => Ok(None),
        (Some(_), None) => Err(ProviderError::missing(
            "aws",
            "aws_secret_access_key",
            &[place],
        )),
        (None, Some(_)) => Err(ProviderError::missing("aws", "aws_access_key_id", &[place])),
    }
}

/// The credential chain, without the network: the first source that has keys, or the instance
/// role when the metadata service is on, or every place tried.
fn chain(
    env: &AwsEnv,
    files: &Result<SharedFiles, ProviderError>,
    imds_endpoint: Option<&str>,
) -> Result<Source, ProviderError> {
    let in_env = env.get(ACCESS_KEY_ID).is_some() || env.get(SECRET_ACCESS_KEY).is_some();
    if in_env {
        return Credentials::from_env(env).map(|credentials| Source::Fixed {
            credentials,
            from: "the environment".into(),
        });
    }
    let mut tried = vec![format!("{ACCESS_KEY_ID}/{SECRET_ACCESS_KEY}")];
    let files = files.as_ref().map_err(Clone::clone)?;
    let (cred_place, config_place) = (files.credentials_place(), files.config_place());
    let owned = |v: Option<&str>| v.map(str::to_string);
    if let Some(credentials) = file_keys(|k| owned(files.credentials_file(k)), &cred_place)? {
        return Ok(Source::Fixed {
            credentials,
            from: cred_place,
        });
    }
    tried.push(cred_place.clone());
    let process = files
        .credentials_file("credential_process")
        .map(|c| (c, cred_place.clone()))
        .or_else(|| {
            files
                .config_file("credential_process")
                .map(|c| (c, config_place.clone()))
        });
    if let Some((command, from)) = process {
        return Ok(Source::Process {
            command: command.to_string(),
            from,
        });
    }
    tried.push(format!("credential_process in {config_place}"));
    if let Some(credentials) = file_keys(|k| owned(files.config_file(k)), &config_place)? {
        return Ok(Source::Fixed {
            credentials,
            from: config_place,
        });
    }
    tried.push(config_place);
    if let Some(endpoint) = imds_endpoint {
        tried.push(format!("the instance role at {endpoint}"));
        return Ok(Source::Instance {
            endpoint: endpoint.to_string(),
            tried,
        });
    }
    tried.push(format!("the instance role (off: {IMDS_DISABLED})"));
    let tried: Vec<&str> = tried.iter().map(String::as_str).collect();
    Err(ProviderError::missing("aws", ACCESS_KEY_ID, &tried))
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
        let credentials =
            chain(env, &files, imds_endpoint.as_deref()).map(|s| Arc::new(Keys::new(s)));
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
             AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, /nonexistent/creds [train], \
             credential_process in /nonexistent/conf [profile train], \
             /nonexistent/conf [profile train], \
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

    #[tokio::test]
    async fn credential_process_json_and_its_failure() {
        let ok = r#"printf '{"Version": 1, "AccessKeyId": "PROCKEY", "SecretAccessKey": "procsecret", "SessionToken": "proctoken", "Expiration": "2099-01-01T00:00:00Z"}'"#;
        let c = run_process(ok, "test").await.unwrap();
        assert_eq!(c.access_key_id, "PROCKEY");
        assert_eq!(c.session_token.as_deref(), Some("proctoken"));
        assert!(c.expiration.is_some());
        let e = run_process("echo leaked-output-9f; exit 3", "test")
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("credential_process in test failed"), "{e}");
        assert!(!e.contains("leaked-output-9f"), "{e}");
        let e = run_process("echo not-json-secret", "test")
            .await
            .unwrap_err()
            .to_string();
        assert!(!e.contains("not-json-secret"), "{e}");
    }

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
