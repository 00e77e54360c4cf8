//! A loopback Alibaba Cloud for tests: 127.0.0.1 only, a tiny HTTP/1.1 server on a std
//! `TcpListener`, one thread per connection. It verifies every V3 signature the way the service
//! does (recomputed here from the received request and the shared secret, with its own
//! canonicalisation), answers with the documented JSON shapes from a small in-memory cloud, also
//! serves the metadata service's paths, and can be told to throttle, fail, hang, garble or
//! reject the key.

pub mod cloud;
mod listing;
mod verify;

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use gpumeter::provider::alibaba::{AlibabaCloud, AlibabaEnv, Readback, Settings};
use gpumeter::provider::http::HttpPolicy;
use serde_json::{Value, json};

pub use cloud::{Cloud, INSTANCE};

pub const KEY_ID: &str = "LTAI5tLoopbackKeyId";
pub const SECRET: &str = "loopback-secret-0f9e8d7c6b";

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
}

struct Armed {
    fault: Fault,
    action: Option<String>,
    /// `None`: every matching call.
    remaining: Option<usize>,
    /// Matching calls to let through first.
    skip: usize,
}

/// One signed call the peer accepted (whatever it answered).
#[derive(Debug, Clone)]
pub struct Call {
    pub action: String,
    pub params: BTreeMap<String, String>,
}

struct Shared {
    cloud: Cloud,
    faults: Vec<Armed>,
    calls: Vec<Call>,
    nonces: HashSet<String>,
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
    pub fn start() -> Peer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Mutex::new(Shared {
            cloud: Cloud::fresh(),
            faults: Vec::new(),
            calls: Vec::new(),
            nonces: HashSet::new(),
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

    /// Arms `fault` for calls to `action` (every action when `None`), `times` times or forever.
    pub fn fault(&self, fault: Fault, action: Option<&str>, times: Option<usize>) {
        lock(&self.shared).faults.push(Armed {
            fault,
            action: action.map(str::to_string),
            remaining: times,
            skip: 0,
        });
    }

    /// Arms `fault` for every call to `action` after the first `after` ones.
    pub fn fault_after(&self, fault: Fault, action: &str, after: usize) {
        lock(&self.shared).faults.push(Armed {
            fault,
            action: Some(action.to_string()),
            remaining: None,
            skip: after,
        });
    }

    pub fn clear_faults(&self) {
        lock(&self.shared).faults.clear();
    }

    pub fn calls(&self) -> Vec<Call> {
        lock(&self.shared).calls.clone()
    }

    pub fn actions(&self) -> Vec<String> {
        self.calls().into_iter().map(|c| c.action).collect()
    }

    pub fn count(&self, action: &str) -> usize {
        self.calls().iter().filter(|c| c.action == action).count()
    }

    pub fn cloud<R>(&self, f: impl FnOnce(&mut Cloud) -> R) -> R {
        f(&mut lock(&self.shared).cloud)
    }

    /// The environment a user would set to point gpumeter here.
    pub fn env(&self) -> AlibabaEnv {
        let url = self.url();
        AlibabaEnv::from_lookup(|name| match name {
            "ALIBABA_CLOUD_ACCESS_KEY_ID" => Some(KEY_ID.into()),
            "ALIBABA_CLOUD_ACCESS_KEY_SECRET" => Some(SECRET.into()),
            "ALIBABA_CLOUD_REGION_ID" => Some("cn-hangzhou".into()),
            "GPUMETER_ALIBABA_ENDPOINT" | "GPUMETER_ALIBABA_METADATA" => Some(url.clone()),
            _ => None,
        })
    }

    /// The adapter, quick to give up: 300 ms per call, two retries, five read-backs.
    pub fn adapter(&self, instance: Option<&str>) -> AlibabaCloud {
        Self::adapter_with(&self.env(), instance)
    }

    pub fn adapter_with(env: &AlibabaEnv, instance: Option<&str>) -> AlibabaCloud {
        let policy = HttpPolicy {
            timeout: Duration::from_millis(300),
            connect_timeout: Duration::from_millis(300),
            retries: 2,
            backoff_base: Duration::from_millis(5),
            backoff_max: Duration::from_millis(20),
        };
        let settings = Settings::resolve(env, instance, None).expect("settings");
        AlibabaCloud::new(settings, policy)
            .expect("adapter")
            .with_readback(Readback {
                attempts: 5,
                interval: Duration::from_millis(5),
            })
    }
}

struct Request {
    method: String,
    path: String,
    query: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (name, value) = h.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    Some(Request {
        method,
        path: path.to_string(),
        query: query.to_string(),
        headers,
        body,
    })
}

fn respond(mut stream: &TcpStream, status: u16, body: &str) {
    let text = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json;charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(text.as_bytes());
    let _ = stream.flush();
}

fn error(code: &str, message: &str) -> String {
    json!({"RequestId": "req-err", "HostId": "loopback", "Code": code, "Message": message})
        .to_string()
}

fn serve(stream: &TcpStream, shared: &Mutex<Shared>) {
    let Some(request) = read_request(stream) else {
        return;
    };
    if request.path.starts_with("/latest/") {
        let (status, body) = metadata(&request, &lock(shared).cloud);
        return respond(stream, status, &body);
    }
    let checked = {
        let mut s = lock(shared);
        verify::check(&request, &mut s.nonces)
    };
    let (action, params) = match checked {
        Ok(ok) => ok,
        Err((status, code)) => return respond(stream, status, &error(&code, "rejected")),
    };
    let fault = {
        let mut s = lock(shared);
        s.calls.push(Call {
            action: action.clone(),
            params: params.clone(),
        });
        take_fault(&mut s.faults, &action)
    };
    match fault {
        Some(Fault::Throttle) => respond(
            stream,
            400,
            &error(
                "Throttling.User",
                "Request was denied due to user flow control.",
            ),
        ),
        Some(Fault::ServerError) => respond(stream, 500, &error("InternalError", "oops")),
        Some(Fault::Hang) => std::thread::sleep(Duration::from_secs(3)),
        Some(Fault::Malformed) => respond(stream, 200, "{\"RequestId\": \"r\", \"Instan"),
        Some(Fault::RejectKey) => respond(
            stream,
            404,
            &error(
                "InvalidAccessKeyId.NotFound",
                "Specified access key is not found.",
            ),
        ),
        None => {
            let (status, body): (u16, Value) = lock(shared).cloud.handle(&action, &params);
            respond(stream, status, &body.to_string());
        }
    }
}

fn take_fault(faults: &mut Vec<Armed>, action: &str) -> Option<Fault> {
    let index = faults
        .iter()
        .position(|f| f.action.as_deref().is_none_or(|a| a == action))?;
    let armed = &mut faults[index];
    if armed.skip > 0 {
        armed.skip -= 1;
        return None;
    }
    let fault = armed.fault;
    if let Some(left) = &mut armed.remaining {
        *left -= 1;
        if *left == 0 {
            faults.remove(index);
        }
    }
    Some(fault)
}

fn metadata(request: &Request, cloud: &Cloud) -> (u16, String) {
    match (request.method.as_str(), request.path.as_str()) {
        ("PUT", "/latest/api/token") => (200, "loopback-metadata-token".into()),
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
