//! Loopback Lambda Cloud, RunPod and Vast.ai for tests: 127.0.0.1 only, a tiny HTTP/1.1 server
//! on a std `TcpListener`, one thread per connection. It checks the bearer key on every call,
//! answers the documented JSON shapes from a small in-memory cloud ([`cloud`]), and can be told
//! to hang, throttle, fail, garble or reject the key on chosen calls.

pub mod cloud;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use gpumeter::provider::bearer::{KeyEnv, Readback};
use gpumeter::provider::http::HttpPolicy;
use gpumeter::provider::lambda::{Lambda, LambdaSettings};
use gpumeter::provider::runpod::{Runpod, RunpodSettings};
use gpumeter::provider::vast::{Vast, VastSettings};

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
}

struct Armed {
    fault: Fault,
    /// `METHOD /path` prefix the fault applies to; `None`: every call.
    call: Option<String>,
    remaining: Option<usize>,
    skip: usize,
}

struct Shared {
    cloud: Cloud,
    faults: Vec<Armed>,
    calls: Vec<String>,
}

pub struct Peer {
    port: u16,
    shared: Arc<Mutex<Shared>>,
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Peer {
    pub fn start(kind: Kind) -> Peer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Mutex::new(Shared {
            cloud: Cloud::fresh(kind),
            faults: Vec::new(),
            calls: Vec::new(),
        }));
        let for_thread = Arc::clone(&shared);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = Arc::clone(&for_thread);
                std::thread::spawn(move || serve(&stream, &shared));
            }
        });
        Peer { port, shared }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn fault(&self, fault: Fault, call: Option<&str>, times: Option<usize>) {
        lock(&self.shared).faults.push(Armed {
            fault,
            call: call.map(str::to_string),
            remaining: times,
            skip: 0,
        });
    }

    /// Every call matching `call` after the first `after` ones.
    pub fn fault_after(&self, fault: Fault, call: &str, after: usize) {
        lock(&self.shared).faults.push(Armed {
            fault,
            call: Some(call.to_string()),
            remaining: None,
            skip: after,
        });
    }

    pub fn calls(&self) -> Vec<String> {
        lock(&self.shared).calls.clone()
    }

    pub fn count(&self, prefix: &str) -> usize {
        self.calls()
            .iter()
            .filter(|c| c.starts_with(prefix))
            .count()
    }

    pub fn cloud<R>(&self, f: impl FnOnce(&mut Cloud) -> R) -> R {
        f(&mut lock(&self.shared).cloud)
    }

    /// The variables a user would set to point gpumeter here.
    pub fn env_pairs(&self, kind: Kind) -> Vec<(&'static str, String)> {
        let (key, endpoint) = match kind {
            Kind::Lambda => ("LAMBDA_API_KEY", "GPUMETER_LAMBDA_ENDPOINT"),
            Kind::Runpod => ("RUNPOD_API_KEY", "GPUMETER_RUNPOD_ENDPOINT"),
            Kind::Vast => ("VAST_API_KEY", "GPUMETER_VAST_ENDPOINT"),
        };
        let url = match kind {
            Kind::Lambda => format!("{}/api/v1", self.url()),
            _ => self.url(),
        };
        vec![(key, KEY.to_string()), (endpoint, url)]
    }

    fn env(&self, kind: Kind) -> KeyEnv {
        KeyEnv::from_pairs(self.env_pairs(kind))
    }

    pub fn lambda(&self) -> Lambda {
        let s =
            LambdaSettings::resolve(&self.env(Kind::Lambda), Some(cloud::LAMBDA_ID.into()), None);
        Lambda::new(s, policy()).with_readback(readback())
    }

    pub fn runpod(&self) -> Runpod {
        let s = RunpodSettings::resolve(&self.env(Kind::Runpod), Some(cloud::POD_ID.into()));
        Runpod::new(s, policy()).with_readback(readback())
    }

    pub fn vast(&self) -> Vast {
        let s = VastSettings::resolve(&self.env(Kind::Vast), Some(cloud::VAST_ID.into()));
        Vast::new(s, policy()).with_readback(readback())
    }
}

/// Quick to give up: 300 ms per call, two retries.
pub fn policy() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_millis(300),
        connect_timeout: Duration::from_millis(300),
        retries: 2,
        backoff_base: Duration::from_millis(5),
        backoff_max: Duration::from_millis(20),
    }
}

pub fn readback() -> Readback {
    Readback {
        attempts: 5,
        interval: Duration::from_millis(5),
    }
}

pub struct Request {
    pub method: String,
    pub path: String,
    pub query: String,
    pub auth: Option<String>,
    pub body: String,
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    let (mut length, mut auth) = (0usize, None);
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (name, value) = h.split_once(':')?;
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "authorization" => auth = Some(value.trim().to_string()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    Some(Request {
        method,
        path: path.to_string(),
        query: query.to_string(),
        auth,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

fn respond(mut stream: &TcpStream, status: u16, body: &str) {
    let text = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(text.as_bytes());
    let _ = stream.flush();
}

/// The fault armed for `call`, if any, counting it down.
fn armed(shared: &mut Shared, call: &str) -> Option<Fault> {
    for a in &mut shared.faults {
        if a.call.as_deref().is_some_and(|c| !call.starts_with(c)) || a.remaining == Some(0) {
            continue;
        }
        if a.skip > 0 {
            a.skip -= 1;
            continue;
        }
        if let Some(n) = &mut a.remaining {
            *n -= 1;
        }
        return Some(a.fault);
    }
    None
}

fn serve(stream: &TcpStream, shared: &Mutex<Shared>) {
    let Some(request) = read_request(stream) else {
        return;
    };
    let call = format!("{} {}", request.method, request.path);
    let (fault, kind) = {
        let mut s = lock(shared);
        s.calls.push(call.clone());
        (armed(&mut s, &call), s.cloud.kind)
    };
    if request.auth.as_deref() != Some(format!("Bearer {KEY}").as_str()) {
        return respond(stream, 401, &cloud::error(kind, 401, "invalid API key"));
    }
    match fault {
        Some(Fault::Hang) => std::thread::sleep(Duration::from_millis(900)),
        Some(Fault::Throttle) => respond(stream, 429, &cloud::error(kind, 429, "slow down")),
        Some(Fault::ServerError) => respond(stream, 500, &cloud::error(kind, 500, "internal")),
        Some(Fault::Malformed) => respond(stream, 200, "<html>maintenance</html>"),
        Some(Fault::RejectKey) => {
            let status = if kind == Kind::Vast { 403 } else { 401 };
            respond(stream, status, &cloud::error(kind, status, "key revoked"));
        }
        None => {
            let (status, body) = lock(shared).cloud.answer(&request);
            respond(stream, status, &body);
        }
    }
}
