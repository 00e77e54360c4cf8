//! A loopback Tencent Cloud for tests: 127.0.0.1 only, a tiny HTTP/1.1 server on a std
//! `TcpListener`, one thread per connection. It verifies every TC3 signature the way the service
//! does, answers with the documented JSON shapes (errors inside HTTP 200), serves the metadata
//! service's instance id, and can be told to throttle, fail, hang, garble or reject the key.

pub mod cloud;
pub mod fleet;
pub mod model_check;
mod tags;
mod verify;

use std::sync::Mutex;
use std::time::Duration;

use gpumeter::provider::tencent::{Readback, Settings, TencentCloud, TencentEnv};
use serde_json::Value;

use crate::common::loopback::{self, Faults, Loopback, RateLimit, Reply, Request, lock};

pub use cloud::{Cloud, INSTANCE};

pub const KEY_ID: &str = "AKIDLoopbackSecretId";
pub const SECRET: &str = "loopback-tencent-secret-5a4b3c";
/// The CVM role the metadata service lists, and its temporary keys.
pub const ROLE_NAME: &str = "GpumeterLoopbackCvmRole";
pub const ROLE_KEY_ID: &str = "AKIDLoopbackRoleTmpId";
pub const ROLE_SECRET: &str = "loopback-role-tmp-key-7e6d";
pub const ROLE_TOKEN: &str = "loopback-role-token-8f7e";
/// The region the peer's instance is in.
pub const REGION: &str = "ap-guangzhou";
/// The regions DescribeRegions lists, the peer's own first; the others hold nothing.
pub const REGIONS: [&str; 3] = [REGION, "ap-beijing", "ap-shanghai"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// 200 with `RequestLimitExceeded` inside.
    Throttle,
    /// A bare 429.
    TooMany,
    /// 500 with a body that is not JSON.
    ServerError,
    /// Holds the connection without answering, longer than the client waits.
    Hang,
    /// 200 with a body that is not the documented JSON.
    Malformed,
    /// 200 with `AuthFailure.SecretIdNotFound`: a revoked key.
    RejectKey,
    /// This status and body, as the service would send them.
    Answer(u16, &'static str),
}

/// One signed call the peer accepted (whatever it answered).
#[derive(Debug, Clone)]
pub struct Call {
    pub action: String,
    pub body: Value,
}

struct Shared {
    cloud: Cloud,
    faults: Faults<Fault>,
    calls: Vec<Call>,
    rejected: Vec<String>,
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
            rejected: Vec::new(),
            model: model_check::Log::default(),
            signers: Vec::new(),
            rate: None,
        };
        let server = Loopback::start(shared, "application/json", serve);
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

    /// From now on, every call past `per_second` in any second is answered
    /// `RequestLimitExceeded` in the error envelope, as the service answers one over its rate.
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

    pub fn count(&self, action: &str) -> usize {
        self.calls().iter().filter(|c| c.action == action).count()
    }

    /// The codes of the signature checks that failed.
    pub fn rejected(&self) -> Vec<String> {
        self.server.state().rejected.clone()
    }

    /// Where requests or replies broke the official SDK models (every test's peer is checked
    /// for none when it is dropped).
    pub fn violations(&self) -> Vec<String> {
        self.server.state().model.violations.clone()
    }

    /// The key id of every call that verified, in order.
    pub fn signers(&self) -> Vec<String> {
        self.server.state().signers.clone()
    }

    pub fn cloud<R>(&self, f: impl FnOnce(&mut Cloud) -> R) -> R {
        f(&mut self.server.state().cloud)
    }

    /// The environment a user would set to point gpumeter here, with `secret` as the key.
    pub fn env_with(&self, secret: &str) -> TencentEnv {
        env_at(&self.url(), secret)
    }

    pub fn env(&self) -> TencentEnv {
        self.env_with(SECRET)
    }

    /// The adapter, quick to give up: 300 ms per call, two retries, five read-backs.
    pub fn adapter(&self, instance: Option<&str>) -> TencentCloud {
        Self::adapter_with(&self.env(), instance)
    }

    pub fn adapter_with(env: &TencentEnv, instance: Option<&str>) -> TencentCloud {
        Self::adapter_in(env, instance, None)
    }

    /// Like [`Peer::adapter_with`], asking `region` rather than the environment's.
    pub fn adapter_in(
        env: &TencentEnv,
        instance: Option<&str>,
        region: Option<&str>,
    ) -> TencentCloud {
        let settings = Settings::resolve(env, instance, region).expect("settings");
        TencentCloud::new(settings, loopback::quick_policy())
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

/// The environment a user would set to point gpumeter at `url`, with `secret` as the key.
pub fn env_at(url: &str, secret: &str) -> TencentEnv {
    let (url, secret) = (url.to_string(), secret.to_string());
    gpumeter::provider::tencent::credentials::env_from_lookup(move |name| match name {
        "TENCENTCLOUD_SECRET_ID" => Some(KEY_ID.into()),
        "TENCENTCLOUD_SECRET_KEY" => Some(secret.clone()),
        "TENCENTCLOUD_REGION" => Some(REGION.into()),
        "GPUMETER_TENCENT_ENDPOINT" | "GPUMETER_TENCENT_METADATA" => Some(url.clone()),
        _ => None,
    })
}

/// The CVM role's paths, as `CVMRoleCredential` reads them.
fn cam_role(request: &Request) -> Option<Reply> {
    const ROLES: &str = "/latest/meta-data/cam/security-credentials/";
    let rest = request.target.strip_prefix(ROLES)?;
    if request.method != "GET" {
        return Some(Reply::Answer(405, String::new()));
    }
    Some(match rest {
        "" => Reply::Answer(200, ROLE_NAME.into()),
        ROLE_NAME => Reply::Answer(
            200,
            serde_json::json!({
                "TmpSecretId": ROLE_KEY_ID,
                "TmpSecretKey": ROLE_SECRET,
                "Token": ROLE_TOKEN,
                "ExpiredTime": jiff::Timestamp::now().as_second() + 3600,
                "Expiration": "",
                "Code": "Success",
            })
            .to_string(),
        ),
        _ => Reply::Answer(404, "Not Found".into()),
    })
}

fn serve(request: &Request, shared: &Mutex<Shared>) -> Reply {
    if let Some(reply) = cam_role(request) {
        return reply;
    }
    if request.method == "GET" && request.target == "/latest/meta-data/instance-id" {
        return Reply::Answer(200, INSTANCE.into());
    }
    if request.method == "GET" && request.target == "/latest/meta-data/spot/termination-time" {
        return match lock(shared).cloud.spot_termination.clone() {
            Some(time) => Reply::Answer(200, time),
            None => Reply::Answer(404, "Not Found".into()),
        };
    }
    let action = match verify::check(request) {
        Ok(action) => action,
        Err(code) => {
            lock(shared).rejected.push(code.clone());
            return Reply::Answer(200, cloud::error(&code, "rejected").to_string());
        }
    };
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    lock(shared).signers.extend(verify::key_id(request));
    let admitted = lock(shared).rate.as_mut().is_none_or(RateLimit::admit);
    if !admitted {
        let answer = cloud::error("RequestLimitExceeded", "request limit exceeded");
        return Reply::Answer(200, answer.to_string());
    }
    if let Some(refused) = screen(shared, &action, &body) {
        return refused;
    }
    let fault = lock(shared).faults.take(|a| a == action);
    let reply = |code: &str| cloud::error(code, "fault").to_string();
    match fault {
        Some(Fault::Throttle) => Reply::Answer(200, reply("RequestLimitExceeded")),
        Some(Fault::TooMany) => Reply::Answer(429, "Too Many Requests".into()),
        Some(Fault::ServerError) => Reply::Answer(500, "<html>oops</html>".into()),
        Some(Fault::Hang) => Reply::Hang(Duration::from_secs(3)),
        Some(Fault::Malformed) => Reply::Answer(200, "{\"Response\": {\"InstanceSe".into()),
        Some(Fault::RejectKey) => Reply::Answer(200, reply("AuthFailure.SecretIdNotFound")),
        Some(Fault::Answer(status, body)) => Reply::Answer(status, body.into()),
        None if request.header("x-tc-region").is_some()
            && request.header("x-tc-region") == lock(shared).cloud.refused_region.as_deref() =>
        {
            let answer = cloud::error("UnsupportedRegion", "The region is not supported.");
            checked(shared, &action, &answer)
        }
        // Another region holds none of this: asked there, it is a cloud without the instance.
        None if request.header("x-tc-region") != Some(REGION) => {
            let mut elsewhere = Cloud::fresh();
            elsewhere.instance = None;
            elsewhere.addresses.clear();
            elsewhere.disks.clear();
            let answer = elsewhere.handle(&action, &body);
            checked(shared, &action, &answer)
        }
        None => {
            let answer = lock(shared).cloud.handle(&action, &body);
            checked(shared, &action, &answer)
        }
    }
}

/// The service's answer to a request that breaks the official model, which is also recorded.
fn screen(shared: &Mutex<Shared>, action: &str, body: &Value) -> Option<Reply> {
    let mut s = lock(shared);
    s.calls.push(Call {
        action: action.to_string(),
        body: body.clone(),
    });
    let code = model_check::request(action, body, &mut s.model)?;
    let answer = cloud::error(code, "the request is not the official model's");
    Some(Reply::Answer(200, answer.to_string()))
}

/// `answer`, once checked against the official reply model.
fn checked(shared: &Mutex<Shared>, action: &str, answer: &Value) -> Reply {
    model_check::reply(action, answer, &mut lock(shared).model);
    Reply::Answer(200, answer.to_string())
}
