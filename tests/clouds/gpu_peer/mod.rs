//! Loopback Lambda Cloud, RunPod and Vast.ai for tests: 127.0.0.1 only, a tiny HTTP/1.1 server
//! on a std `TcpListener`, one thread per connection. It checks the bearer key on every call,
//! answers the documented JSON shapes from a small in-memory cloud ([`cloud`]), and can be told
//! to hang, throttle, fail, garble or reject the key on chosen calls.

pub mod cloud;
pub mod fleet;
pub mod schema;

use std::sync::Mutex;
use std::time::Duration;

use gpumeter::provider::bearer::{KeyEnv, Readback};
use gpumeter::provider::http::HttpPolicy;
use gpumeter::provider::lambda::{Lambda, LambdaSettings};
use gpumeter::provider::runpod::{self, Runpod};
use gpumeter::provider::vast::{self, Vast};

use crate::common::loopback::{self, Faults, Loopback, Reply, Request, lock};

pub use cloud::{Cloud, Kind};

pub const KEY: &str = "peer-key-7f3a9c1e5b2d4a6f8e0c";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Holds the connection longer than the client waits.
    Hang,
    /// 429.
    Throttle,
    /// 500.
    ServerError,
    /// 200 with a body that is not JSON.
    Malformed,
    /// 401 (Vast: 403), as for a revoked key.
    RejectKey,
    /// This status and body, as the service would send them.
    Answer(u16, &'static str),
}

struct Shared {
    cloud: Cloud,
    /// Each armed for the calls (`METHOD /path`) that start with its target.
    faults: Faults<Fault>,
    calls: Vec<String>,
    /// The provider's published API, where the project carries it.
    spec: Option<schema::Spec>,
    /// Each reply the peer sent and each request the adapter sent that the reference refuses.
    violations: Vec<String>,
}

/// The published reference for `kind`, cut to what gpumeter calls.
fn spec(kind: Kind) -> Option<schema::Spec> {
    let text = match kind {
        Kind::Runpod => include_str!("runpod-openapi-subset.json"),
        Kind::Lambda => include_str!("lambda-api-v1-subset.json"),
        // Vast.ai publishes no API description; the peer follows the official `vastai` package.
        Kind::Vast => return None,
    };
    Some(schema::Spec::parse(text))
}

pub struct Peer {
    server: Loopback<Shared>,
}

impl Peer {
    pub fn start(kind: Kind) -> Peer {
        let shared = Shared {
            cloud: Cloud::fresh(kind),
            faults: Faults::new(),
            calls: Vec::new(),
            spec: spec(kind),
            violations: Vec::new(),
        };
        let server = Loopback::start(shared, "application/json", serve);
        Peer { server }
    }

    pub fn url(&self) -> String {
        self.server.url()
    }

    /// Arms `fault` for the calls that start with `call` (every call when `None`), `times`
    /// times or forever.
    pub fn fault(&self, fault: Fault, call: Option<&str>, times: Option<usize>) {
        self.server.state().faults.arm(fault, call, times);
    }

    /// Every call matching `call` after the first `after` ones.
    pub fn fault_after(&self, fault: Fault, call: &str, after: usize) {
        self.server.state().faults.arm_after(fault, call, after);
    }

    /// What the reference refused so far, forgotten: for a test that breaks it on purpose.
    pub fn take_violations(&self) -> Vec<String> {
        std::mem::take(&mut self.server.state().violations)
    }

    pub fn calls(&self) -> Vec<String> {
        self.server.state().calls.clone()
    }

    pub fn count(&self, prefix: &str) -> usize {
        self.calls()
            .iter()
            .filter(|c| c.starts_with(prefix))
            .count()
    }

    pub fn cloud<R>(&self, f: impl FnOnce(&mut Cloud) -> R) -> R {
        f(&mut self.server.state().cloud)
    }

    /// The variables a user would set to point gpumeter here.
    pub fn env_pairs(&self, kind: Kind) -> Vec<(&'static str, String)> {
        env_pairs_at(kind, &self.url())
    }

    pub fn lambda(&self) -> Lambda {
        lambda_at(&self.url())
    }

    pub fn runpod(&self) -> Runpod {
        runpod_at(&self.url())
    }

    pub fn vast(&self) -> Vast {
        vast_at(&self.url())
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let violations = self.take_violations();
        if violations.is_empty() {
            return;
        }
        let report = format!(
            "against the published reference:\n{}",
            violations.join("\n")
        );
        if std::thread::panicking() {
            eprintln!("{report}");
        } else {
            panic!("{report}");
        }
    }
}

/// The variables a user would set to point gpumeter at a peer at `url`.
pub fn env_pairs_at(kind: Kind, url: &str) -> Vec<(&'static str, String)> {
    let (key, endpoint) = match kind {
        Kind::Lambda => ("LAMBDA_API_KEY", "GPUMETER_LAMBDA_ENDPOINT"),
        Kind::Runpod => ("RUNPOD_API_KEY", "GPUMETER_RUNPOD_ENDPOINT"),
        Kind::Vast => ("VAST_API_KEY", "GPUMETER_VAST_ENDPOINT"),
    };
    let url = match kind {
        Kind::Lambda => format!("{url}/api/v1"),
        _ => url.to_string(),
    };
    vec![(key, KEY.to_string()), (endpoint, url)]
}

fn env(kind: Kind, url: &str) -> KeyEnv {
    KeyEnv::from_pairs(env_pairs_at(kind, url))
}

pub fn lambda_at(url: &str) -> Lambda {
    let s = LambdaSettings::resolve(&env(Kind::Lambda, url), Some(cloud::LAMBDA_ID.into()), None);
    Lambda::new(s, policy()).with_readback(readback())
}

pub fn runpod_at(url: &str) -> Runpod {
    let s = runpod::settings(&env(Kind::Runpod, url), Some(cloud::POD_ID.into()));
    Runpod::new(s, policy()).with_readback(readback())
}

pub fn vast_at(url: &str) -> Vast {
    let s = vast::settings(&env(Kind::Vast, url), Some(cloud::VAST_ID.into()));
    Vast::new(s, policy()).with_readback(readback())
}

/// Quick to give up: 300 ms per call, two retries.
pub fn policy() -> HttpPolicy {
    loopback::quick_policy()
}

pub fn readback() -> Readback {
    Readback {
        attempts: 5,
        interval: Duration::from_millis(5),
    }
}

fn serve(request: &Request, shared: &Mutex<Shared>) -> Reply {
    let call = format!("{} {}", request.method, request.path);
    let (fault, kind) = {
        let mut s = lock(shared);
        s.calls.push(call.clone());
        (
            s.faults.take(|prefix| call.starts_with(prefix)),
            s.cloud.kind,
        )
    };
    if request.header("authorization") != Some(format!("Bearer {KEY}").as_str()) {
        return Reply::Answer(401, cloud::error(kind, 401, "invalid API key"));
    }
    match fault {
        Some(Fault::Hang) => Reply::Hang(Duration::from_millis(900)),
        Some(Fault::Throttle) => Reply::Answer(429, cloud::error(kind, 429, "slow down")),
        Some(Fault::ServerError) => Reply::Answer(500, cloud::error(kind, 500, "internal")),
        Some(Fault::Malformed) => Reply::Answer(200, "<html>maintenance</html>".into()),
        Some(Fault::Answer(status, body)) => Reply::Answer(status, body.into()),
        Some(Fault::RejectKey) => {
            let status = if kind == Kind::Vast { 403 } else { 401 };
            Reply::Answer(status, cloud::error(kind, status, "key revoked"))
        }
        None => {
            let mut s = lock(shared);
            let (status, body) = s.cloud.answer(request);
            let (method, path, query) = (&request.method, &request.path, &request.query);
            let checked = s.spec.as_ref().map(|spec| {
                let asked = spec.request(method, path, query, &request.text());
                asked.and(spec.reply(method, path, status, &body))
            });
            if let Some(Err(why)) = checked {
                s.violations.push(why);
            }
            Reply::Answer(status, body)
        }
    }
}
