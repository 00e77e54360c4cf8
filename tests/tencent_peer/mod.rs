//! A loopback Tencent Cloud for tests: 127.0.0.1 only, a tiny HTTP/1.1 server on a std
//! `TcpListener`, one thread per connection. It verifies every TC3 signature the way the service
//! does, answers with the documented JSON shapes (errors inside HTTP 200), serves the metadata
//! service's instance id, and can be told to throttle, fail, hang, garble or reject the key.

pub mod cloud;
mod verify;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use gpumeter::provider::http::HttpPolicy;
use gpumeter::provider::tencent::{Readback, Settings, TencentCloud, TencentEnv};
use serde_json::Value;

pub use cloud::{Cloud, INSTANCE};

pub const KEY_ID: &str = "AKIDLoopbackSecretId";
pub const SECRET: &str = "loopback-tencent-secret-5a4b3c";

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
}

struct Armed {
    fault: Fault,
    action: Option<String>,
    remaining: Option<usize>,
    skip: usize,
}

/// One signed call the peer accepted (whatever it answered).
#[derive(Debug, Clone)]
pub struct Call {
    pub action: String,
    pub body: Value,
}

struct Shared {
    cloud: Cloud,
    faults: Vec<Armed>,
    calls: Vec<Call>,
    rejected: Vec<String>,
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
            rejected: Vec::new(),
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

    pub fn count(&self, action: &str) -> usize {
        self.calls().iter().filter(|c| c.action == action).count()
    }

    /// The codes of the signature checks that failed.
    pub fn rejected(&self) -> Vec<String> {
        lock(&self.shared).rejected.clone()
    }

    pub fn cloud<R>(&self, f: impl FnOnce(&mut Cloud) -> R) -> R {
        f(&mut lock(&self.shared).cloud)
    }

    /// The environment a user would set to point gpumeter here, with `secret` as the key.
    pub fn env_with(&self, secret: &str) -> TencentEnv {
        let url = self.url();
        let secret = secret.to_string();
        TencentEnv::from_lookup(move |name| match name {
            "TENCENTCLOUD_SECRET_ID" => Some(KEY_ID.into()),
            "TENCENTCLOUD_SECRET_KEY" => Some(secret.clone()),
            "TENCENTCLOUD_REGION" => Some("ap-guangzhou".into()),
            "GPUMETER_TENCENT_ENDPOINT" | "GPUMETER_TENCENT_METADATA" => Some(url.clone()),
            _ => None,
        })
    }

    pub fn env(&self) -> TencentEnv {
        self.env_with(SECRET)
    }

    /// The adapter, quick to give up: 300 ms per call, two retries, five read-backs.
    pub fn adapter(&self, instance: Option<&str>) -> TencentCloud {
        Self::adapter_with(&self.env(), instance)
    }

    pub fn adapter_with(env: &TencentEnv, instance: Option<&str>) -> TencentCloud {
        let policy = HttpPolicy {
            timeout: Duration::from_millis(300),
            connect_timeout: Duration::from_millis(300),
            retries: 2,
            backoff_base: Duration::from_millis(5),
            backoff_max: Duration::from_millis(20),
        };
        let settings = Settings::resolve(env, instance, None).expect("settings");
        TencentCloud::new(settings, policy)
            .expect("adapter")
            .with_readback(Readback {
                attempts: 5,
                interval: Duration::from_millis(5),
            })
    }
}

pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
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
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}

fn respond(mut stream: &TcpStream, status: u16, body: &str) {
    let text = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(text.as_bytes());
    let _ = stream.flush();
}

fn serve(stream: &TcpStream, shared: &Mutex<Shared>) {
    let Some(request) = read_request(stream) else {
        return;
    };
    if request.method == "GET" && request.path == "/latest/meta-data/instance-id" {
        return respond(stream, 200, INSTANCE);
    }
    let action = match verify::check(&request) {
        Ok(action) => action,
        Err(code) => {
            lock(shared).rejected.push(code.clone());
            return respond(stream, 200, &cloud::error(&code, "rejected").to_string());
        }
    };
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let fault = {
        let mut s = lock(shared);
        s.calls.push(Call {
            action: action.clone(),
            body: body.clone(),
        });
        take_fault(&mut s.faults, &action)
    };
    let reply = |code: &str| cloud::error(code, "fault").to_string();
    match fault {
        Some(Fault::Throttle) => respond(stream, 200, &reply("RequestLimitExceeded")),
        Some(Fault::TooMany) => respond(stream, 429, "Too Many Requests"),
        Some(Fault::ServerError) => respond(stream, 500, "<html>oops</html>"),
        Some(Fault::Hang) => std::thread::sleep(Duration::from_secs(3)),
        Some(Fault::Malformed) => respond(stream, 200, "{\"Response\": {\"InstanceSe"),
        Some(Fault::RejectKey) => respond(stream, 200, &reply("AuthFailure.SecretIdNotFound")),
        None => {
            let answer = lock(shared).cloud.handle(&action, &body);
            respond(stream, 200, &answer.to_string());
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
