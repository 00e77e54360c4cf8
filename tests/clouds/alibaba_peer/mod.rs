//! A loopback Alibaba Cloud for tests: 127.0.0.1 only, a tiny HTTP/1.1 server on a std
//! `TcpListener`, one thread per connection. It verifies every V3 signature the way the service
//! does (recomputed here from the received request and the shared secret, with its own
//! canonicalisation), answers with the documented JSON shapes from a small in-memory cloud, also
//! serves the metadata service's paths, and can be told to throttle, fail, hang, garble or
//! reject the key.

pub mod cloud;
pub mod fleet;
mod listing;
pub mod model_check;
mod tags;
mod verify;

use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use gpumeter::provider::alibaba::{AlibabaCloud, AlibabaEnv, Readback, Settings};
use serde_json::{Value, json};

use crate::common::loopback::{self, Faults, Loopback, RateLimit, Reply, Request, lock};

pub use cloud::{Cloud, INSTANCE};

pub const KEY_ID: &str = "LTAI5tLoopbackKeyId";
pub const SECRET: &str = "loopback-secret-0f9e8d7c6b";

/// The RAM role the metadata service lists, its temporary keys, and the hardened-mode token.
pub const ROLE_NAME: &str = "GpumeterLoopbackRamRole";
pub const ROLE_KEY_ID: &str = "STS.LoopbackRoleTmpKey";
pub const ROLE_SECRET: &str = "loopback-ram-role-secret-3c2b";
pub const ROLE_TOKEN: &str = "loopback-ram-role-token-4d3c";
const METADATA_TOKEN: &str = "loopback-metadata-token";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// 400 `Throttling.User`.
    Throttle,
    /// 500 `InternalError`.
    ServerError,
    /// Holds the connection without answering, longer than the client waits.
    Hang,
    /// 200 with a body that is not the documented JSON.
    Malformed,
    /// 404 `InvalidAccessKeyId.NotFound`.
    RejectKey,
    /// This status and body, as the service would send them.
    Answer(u16, &'static str),
}

/// One signed call the peer accepted (whatever it answered).
#[derive(Debug, Clone)]
pub struct Call {
    pub action: String,
    pub params: BTreeMap<String, String>,
}

struct Shared {
    cloud: Cloud,
    faults: Faults<Fault>,
    calls: Vec<Call>,
    nonces: HashSet<String>,
    model: model_check::Log,
    /// The key id of every request that verified.
    signers: Vec<String>,
    /// The account's request rate limit, once a test sets one.
    rate: Option<RateLimit>,
}

pub struct Peer {
    server: Loopback<Shared>,
}

impl Peer {
    /// A peer, or `None` (the test skips, said as every missing peer is) without the official
    /// SDK models it checks requests against.
    pub fn start() -> Option<Peer> {
        // Read before serving: the first read runs the extractor, longer than a client waits.
        crate::models::required()?;
        let shared = Shared {
            cloud: Cloud::fresh(),
            faults: Faults::new(),
            calls: Vec::new(),
            nonces: HashSet::new(),
            model: model_check::Log::default(),
            signers: Vec::new(),
            rate: None,
        };
        let server = Loopback::start(shared, "application/json;charset=utf-8", serve);
        Some(Peer { server })
    }

    pub fn url(&self) -> String {
        self.server.url()
    }

    /// Arms `fault` for calls to `action` (every action when `None`), `times` times or forever.
    pub fn fault(&self, fault: Fault, action: Option<&str>, times: Option<usize>) {
        self.server.state().faults.arm(fault, action, times);
    }

    /// Arms `fault` for every call to `action` after the first `after` ones.
    pub fn fault_after(&self, fault: Fault, action: &str, after: usize) {
        self.server.state().faults.arm_after(fault, action, after);
    }

    /// Adds `instances` GPU instances beside the main one (every 4th stopped), one instance
    /// without a GPU, and `orphans` unattached data disks ([`fleet`]).
    pub fn fleet_world(&self, instances: usize, orphans: usize) {
        self.cloud(|c| c.add_fleet(instances, orphans));
    }

    /// From now on, every call past `per_second` in any second is answered 400
    /// `Throttling.User`, as the service answers one over the account's rate.
    pub fn rate_limit(&self, per_second: usize) {
        self.server.state().rate = Some(RateLimit::new(per_second));
    }

    /// How many calls the rate limit refused.
    pub fn throttled(&self) -> usize {
        self.server.state().rate.as_ref().map_or(0, |r| r.refused)
    }

    pub fn calls(&self) -> Vec<Call> {
        self.server.state().calls.clone()
    }

    /// The key id of every call that verified, in order.
    pub fn signers(&self) -> Vec<String> {
        self.server.state().signers.clone()
    }

    pub fn count(&self, action: &str) -> usize {
        self.calls().iter().filter(|c| c.action == action).count()
    }

    /// Where requests or replies broke the official SDK models (every test's peer is checked
    /// for none when it is dropped).
    pub fn violations(&self) -> Vec<String> {
        self.server.state().model.violations.clone()
    }

    pub fn cloud<R>(&self, f: impl FnOnce(&mut Cloud) -> R) -> R {
        f(&mut self.server.state().cloud)
    }

    /// The environment a user would set to point gpumeter here.
    pub fn env(&self) -> AlibabaEnv {
        env_at(&self.url())
    }

    /// The adapter, quick to give up: 300 ms per call, two retries, five read-backs.
    pub fn adapter(&self, instance: Option<&str>) -> AlibabaCloud {
        Self::adapter_with(&self.env(), instance)
    }

    pub fn adapter_with(env: &AlibabaEnv, instance: Option<&str>) -> AlibabaCloud {
        Self::adapter_in(env, instance, None)
    }

    /// Like [`Peer::adapter_with`], asking `region` rather than the environment's.
    pub fn adapter_in(
        env: &AlibabaEnv,
        instance: Option<&str>,
        region: Option<&str>,
    ) -> AlibabaCloud {
        let settings = Settings::resolve(env, instance, region).expect("settings");
        AlibabaCloud::new(settings, loopback::quick_policy())
            .expect("adapter")
            .with_readback(Readback {
                attempts: 5,
                interval: Duration::from_millis(5),
            })
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let violations = self.violations();
            assert!(
                violations.is_empty(),
                "off the official models: {violations:#?}"
            );
        }
    }
}

/// The environment a user would set to point gpumeter at `url`.
pub fn env_at(url: &str) -> AlibabaEnv {
    let url = url.to_string();
    gpumeter::provider::alibaba::credentials::env_from_lookup(move |name| match name {
        "ALIBABA_CLOUD_ACCESS_KEY_ID" => Some(KEY_ID.into()),
        "ALIBABA_CLOUD_ACCESS_KEY_SECRET" => Some(SECRET.into()),
        "ALIBABA_CLOUD_REGION_ID" => Some(cloud::REGION.into()),
        "GPUMETER_ALIBABA_ENDPOINT" | "GPUMETER_ALIBABA_METADATA" => Some(url.clone()),
        _ => None,
    })
}

fn error(code: &str, message: &str) -> String {
    json!({"RequestId": "req-err", "HostId": "loopback", "Code": code, "Message": message})
        .to_string()
}

fn throttled() -> String {
    error(
        "Throttling.User",
        "Request was denied due to user flow control.",
    )
}

fn serve(request: &Request, shared: &Mutex<Shared>) -> Reply {
    if request.path.starts_with("/latest/") {
        let (status, body) = metadata(request, &lock(shared).cloud);
        return Reply::Answer(status, body);
    }
    let checked = {
        let mut s = lock(shared);
        verify::check(request, &mut s.nonces)
    };
    let (action, params) = match checked {
        Ok(ok) => ok,
        Err((status, code)) => return Reply::Answer(status, error(&code, "rejected")),
    };
    lock(shared).signers.extend(verify::key_id(request));
    let admitted = lock(shared).rate.as_mut().is_none_or(RateLimit::admit);
    if !admitted {
        return Reply::Answer(400, throttled());
    }
    if let Some(refused) = screen(shared, &action, &params) {
        return refused;
    }
    let fault = lock(shared).faults.take(|a| a == action);
    match fault {
        Some(Fault::Throttle) => Reply::Answer(400, throttled()),
        Some(Fault::ServerError) => Reply::Answer(500, error("InternalError", "oops")),
        Some(Fault::Hang) => Reply::Hang(Duration::from_secs(3)),
        Some(Fault::Malformed) => Reply::Answer(200, "{\"RequestId\": \"r\", \"Instan".into()),
        Some(Fault::Answer(status, body)) => Reply::Answer(status, body.into()),
        Some(Fault::RejectKey) => Reply::Answer(
            404,
            error(
                "InvalidAccessKeyId.NotFound",
                "Specified access key is not found.",
            ),
        ),
        None => {
            let mut s = lock(shared);
            let (status, body): (u16, Value) = s.cloud.handle(&action, &params);
            model_check::reply(&action, status, &body, &mut s.model);
            Reply::Answer(status, body.to_string())
        }
    }
}

/// The service's answer to a request that breaks the official model, which is also recorded.
fn screen(
    shared: &Mutex<Shared>,
    action: &str,
    params: &BTreeMap<String, String>,
) -> Option<Reply> {
    let mut s = lock(shared);
    s.calls.push(Call {
        action: action.to_string(),
        params: params.clone(),
    });
    let (status, code) = model_check::request(action, params, &mut s.model)?;
    Some(Reply::Answer(
        status,
        error(code, "the request is not the official model's"),
    ))
}

/// The RAM role's paths as `EcsRamRoleCredentialsProvider` reads them, in hardened mode: nothing
/// without the token.
fn ram_role(request: &Request) -> Option<(u16, String)> {
    const ROLES: &str = "/latest/meta-data/ram/security-credentials/";
    let rest = request.path.strip_prefix(ROLES)?;
    if request.header("x-aliyun-ecs-metadata-token") != Some(METADATA_TOKEN) {
        return Some((401, String::new()));
    }
    Some(match (request.method.as_str(), rest) {
        ("GET", "") => (200, ROLE_NAME.into()),
        ("GET", ROLE_NAME) => {
            let expires = jiff::Timestamp::now() + jiff::SignedDuration::from_hours(1);
            let body = json!({
                "AccessKeyId": ROLE_KEY_ID,
                "AccessKeySecret": ROLE_SECRET,
                "SecurityToken": ROLE_TOKEN,
                "Expiration": expires.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
                "LastUpdated": "2026-01-01T00:00:00Z",
                "Code": "Success",
            });
            (200, body.to_string())
        }
        _ => (404, String::new()),
    })
}

fn metadata(request: &Request, cloud: &Cloud) -> (u16, String) {
    if let Some(answer) = ram_role(request) {
        return answer;
    }
    match (request.method.as_str(), request.path.as_str()) {
        ("PUT", "/latest/api/token")
            if request
                .header("x-aliyun-ecs-metadata-token-ttl-seconds")
                .is_some() =>
        {
            (200, METADATA_TOKEN.into())
        }
        ("GET", "/latest/meta-data/instance-id") => (200, INSTANCE.into()),
        ("GET", "/latest/meta-data/instance/spot/termination-time") => {
            match &cloud.spot_termination {
                Some(t) => (200, t.clone()),
                None => (404, String::new()),
            }
        }
        _ => (404, String::new()),
    }
}
