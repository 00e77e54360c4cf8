//! A loopback AutoDL for tests, on the shared loopback server: it checks the developer token
//! (`Authorization: <token>`, no scheme) on every call, answers the documented shapes from a
//! small in-memory account ([`cloud`]), checks each request and reply against the documented
//! subset beside this file, and can be told to hang, throttle, fail, garble or refuse the token.

pub mod cloud;

use std::sync::Mutex;
use std::time::Duration;

use gpumeter::provider::autodl::{self, Autodl};
use gpumeter::provider::bearer::KeyEnv;

use crate::common::loopback::{self, Faults, Loopback, Reply, Request, lock};
use crate::gpu_peer::{Fault, schema::Spec};

pub use cloud::{Cloud, IMAGE, INSTANCE, OTHERS};

pub const TOKEN: &str = "eyJhbGciOiJFUzI1NiJ9.peer-token-5b2d4a6f8e0c";

struct Shared {
    cloud: Cloud,
    faults: Faults<Fault>,
    calls: Vec<String>,
    spec: Spec,
    violations: Vec<String>,
}

pub struct Peer {
    server: Loopback<Shared>,
}

impl Peer {
    pub fn start() -> Peer {
        let shared = Shared {
            cloud: Cloud::fresh(),
            faults: Faults::new(),
            calls: Vec::new(),
            spec: Spec::parse(include_str!("autodl-api-subset.json")),
            violations: Vec::new(),
        };
        Peer {
            server: Loopback::start(shared, "application/json", serve),
        }
    }

    pub fn url(&self) -> String {
        self.server.url()
    }

    pub fn fault(&self, fault: Fault, call: Option<&str>, times: Option<usize>) {
        self.server.state().faults.arm(fault, call, times);
    }

    pub fn fault_after(&self, fault: Fault, call: &str, after: usize) {
        self.server.state().faults.arm_after(fault, call, after);
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

    pub fn env_pairs(&self) -> Vec<(&'static str, String)> {
        env_pairs_at(&self.url())
    }

    pub fn adapter(&self) -> Autodl {
        adapter_at(&self.url(), INSTANCE)
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let violations = std::mem::take(&mut self.server.state().violations);
        if violations.is_empty() {
            return;
        }
        let report = format!("against the documented shapes:\n{}", violations.join("\n"));
        if std::thread::panicking() {
            eprintln!("{report}");
        } else {
            panic!("{report}");
        }
    }
}

/// The variables a user would set to point gpumeter here.
pub fn env_pairs_at(url: &str) -> Vec<(&'static str, String)> {
    vec![
        (autodl::TOKEN_VAR, TOKEN.to_string()),
        (autodl::ENDPOINT_VAR, url.to_string()),
    ]
}

pub fn adapter_at(url: &str, instance: &str) -> Autodl {
    let s = autodl::settings(
        &KeyEnv::from_pairs(env_pairs_at(url)),
        Some(instance.into()),
    );
    Autodl::new(s, loopback::quick_policy()).with_readback(crate::gpu_peer::readback())
}

fn serve(request: &Request, shared: &Mutex<Shared>) -> Reply {
    let call = format!("{} {}", request.method, request.path);
    let fault = {
        let mut s = lock(shared);
        s.calls.push(call.clone());
        s.faults.take(|prefix| call.starts_with(prefix))
    };
    if request.header("authorization") != Some(TOKEN) {
        return Reply::Answer(401, cloud::refusal("AuthorizeFailed", "token invalid"));
    }
    match fault {
        Some(Fault::Hang) => Reply::Hang(Duration::from_millis(900)),
        Some(Fault::Throttle) => Reply::Answer(429, cloud::refusal("TooManyRequests", "slow down")),
        Some(Fault::ServerError) => Reply::Answer(500, cloud::refusal("InternalError", "internal")),
        Some(Fault::Malformed) => Reply::Answer(200, "<html>maintenance</html>".into()),
        Some(Fault::Answer(status, body)) => Reply::Answer(status, body.into()),
        Some(Fault::RejectKey) => {
            Reply::Answer(401, cloud::refusal("AuthorizeFailed", "token revoked"))
        }
        None => {
            let mut s = lock(shared);
            let (status, body) = s.cloud.answer(request);
            let (method, path, query) = (&request.method, &request.path, &request.query);
            let checked = s
                .spec
                .request(method, path, query, &request.text())
                .and(s.spec.reply(method, path, status, &body));
            if let Err(why) = checked {
                s.violations.push(why);
            }
            Reply::Answer(status, body)
        }
    }
}
