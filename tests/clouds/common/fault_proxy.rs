//! A fault proxy in front of a cloud peer (moto or a loopback peer). It forwards each request
//! as it came and relays the answer, or, where a fault is armed, answers in the cloud's place:
//! it hangs, answers a bare status (what a wrong endpoint or a proxy in the way sends), cuts the
//! answer short, garbles it, answers the call that changes the cloud with what the cloud
//! answered to it before, without forwarding it ("accepted but not done"), or answers one read
//! with the cloud's own answer emptied of every item (an eventually consistent listing's lie).

use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::loopback::{Request, lock, read_headers, read_request};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Holds the connection longer than the client waits, without forwarding.
    Hang,
    /// This status with a body that is not the provider's, without forwarding.
    Status(u16),
    /// Forwards; relays the status and half the body under the full length, then closes.
    Truncated,
    /// Forwards; answers 200 with a body that is neither JSON nor XML.
    Malformed,
    /// Does not forward; answers what the cloud answered to the same call in another world.
    Accepted,
    /// Forwards one read, and answers it with every list in the answer empty; then forwards
    /// as usual.
    EmptyOnce,
    /// [`Fault::Accepted`] on the change, and the first read after it [`Fault::EmptyOnce`].
    AcceptedThenEmpty,
}

/// Which calls an armed fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum On {
    /// The call that changes the cloud, each time it is sent.
    Change,
    /// Every call after the first change call went through.
    AfterChange,
    /// Every call.
    Every,
    /// The first read ([`is_read`]).
    FirstRead,
    /// The first read after the change call was answered.
    ReadAfterChange,
}

/// Whether a call only reads: `Describe*` on the Query and RPC clouds, `GET` on the REST ones.
pub fn is_read(name: &str) -> bool {
    name.starts_with("Describe") || name.starts_with("GET ")
}

/// An answer as the cloud sent it.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub body: String,
}

struct State {
    upstream: String,
    /// What the name of the call that changes the cloud starts with.
    change: String,
    armed: Option<(Fault, On)>,
    /// Whether a change call has been forwarded.
    changed: bool,
    /// Whether a change call has been answered, forwarded or not.
    change_answered: bool,
    /// Whether a fault that applies once has applied.
    fired: bool,
    /// The cloud's answer to the last change call forwarded.
    change_answer: Option<Answer>,
    /// What [`Fault::Accepted`] answers.
    replay: Option<Answer>,
    /// Each call's name, in the order they came.
    calls: Vec<String>,
    /// Each call's signed service ([`signed_service`]), in the same order.
    services: Vec<String>,
    hang: Duration,
}

pub struct FaultProxy {
    port: u16,
    state: Arc<Mutex<State>>,
}

impl FaultProxy {
    /// Listens on a free port of 127.0.0.1 and forwards to `upstream` (`http://host:port`);
    /// `change` starts the name of the call that changes the cloud ([`call_name`]).
    pub fn start(upstream: &str, change: &str) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let upstream = upstream
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let state = Arc::new(Mutex::new(State {
            upstream,
            change: change.to_string(),
            armed: None,
            changed: false,
            change_answered: false,
            fired: false,
            change_answer: None,
            replay: None,
            calls: Vec::new(),
            services: Vec::new(),
            hang: Duration::from_millis(900),
        }));
        let for_thread = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = Arc::clone(&for_thread);
                std::thread::spawn(move || serve(&stream, &state));
            }
        });
        FaultProxy { port, state }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn arm(&self, fault: Fault, on: On) -> &Self {
        lock(&self.state).armed = Some((fault, on));
        self
    }

    /// What [`Fault::Accepted`] answers.
    pub fn replay(&self, answer: Answer) -> &Self {
        lock(&self.state).replay = Some(answer);
        self
    }

    /// How long [`Fault::Hang`] holds a connection: longer than the client waits.
    pub fn hang_for(&self, how_long: Duration) -> &Self {
        lock(&self.state).hang = how_long;
        self
    }

    /// The cloud's answer to the last change call that went through.
    pub fn change_answer(&self) -> Option<Answer> {
        lock(&self.state).change_answer.clone()
    }

    pub fn calls(&self) -> Vec<String> {
        lock(&self.state).calls.clone()
    }

    /// Each call as `(signed service, name)`, in the order they came.
    pub fn signed_calls(&self) -> Vec<(String, String)> {
        let s = lock(&self.state);
        s.services
            .iter()
            .cloned()
            .zip(s.calls.iter().cloned())
            .collect()
    }
}

/// The service a call was signed for: the credential scope's service for SigV4 (`.../ec2/
/// aws4_request`) and TC3 (`.../cvm/tc3_request`), `acs:<version>` for Alibaba's ACS3, whose
/// scope names no product; empty for an unsigned call.
pub fn signed_service(request: &Request) -> String {
    if let Some(version) = request.header("x-acs-version") {
        return format!("acs:{version}");
    }
    request
        .header("authorization")
        .and_then(|auth| auth.split("Credential=").nth(1))
        .and_then(|credential| {
            let scope: Vec<&str> = credential.split([',', ' ']).next()?.split('/').collect();
            scope.len().checked_sub(2).map(|i| scope[i].to_string())
        })
        .unwrap_or_default()
}

/// A call's name: Tencent's `X-TC-Action`, Alibaba's `x-acs-action`, EC2's `Action` parameter
/// (in the query or the form body), else `METHOD /path` for the REST clouds.
pub fn call_name(request: &Request) -> String {
    if let Some(action) = request
        .header("x-tc-action")
        .or_else(|| request.header("x-acs-action"))
    {
        return action.to_string();
    }
    let body = request.text();
    request
        .query
        .split('&')
        .chain(body.split('&'))
        .find_map(|kv| kv.strip_prefix("Action="))
        .map_or_else(
            || format!("{} {}", request.method, request.path),
            str::to_string,
        )
}

/// Whether `fault` armed `on` applies to a call, and marks a fault that applies once.
fn applies(s: &mut State, fault: Fault, on: On, is_change: bool, is_read: bool) -> bool {
    let once = |s: &mut State, now: bool| {
        let fire = now && !s.fired;
        s.fired |= fire;
        fire
    };
    match (fault, on) {
        (Fault::AcceptedThenEmpty, _) if is_change => true,
        (Fault::AcceptedThenEmpty, _) | (_, On::ReadAfterChange) => {
            let now = is_read && s.change_answered;
            once(s, now)
        }
        (_, On::Change) => is_change,
        (_, On::AfterChange) => s.changed,
        (_, On::Every) => true,
        (_, On::FirstRead) => once(s, is_read),
    }
}

fn serve(stream: &TcpStream, state: &Mutex<State>) {
    let Some(request) = read_request(stream) else {
        return;
    };
    let name = call_name(&request);
    let (fault, upstream, is_change, hang) = {
        let mut s = lock(state);
        s.calls.push(name.clone());
        s.services.push(signed_service(&request));
        let is_change = name.starts_with(&s.change);
        let fault = s.armed.and_then(|(fault, on)| {
            applies(&mut s, fault, on, is_change, is_read(&name)).then_some(fault)
        });
        (fault, s.upstream.clone(), is_change, s.hang)
    };
    let answer = match fault {
        Some(Fault::Hang) => {
            std::thread::sleep(hang);
            return;
        }
        Some(Fault::Status(status)) => Answer {
            status,
            content_type: "text/html".into(),
            body: format!("<html><body><h1>{status}</h1>nginx</body></html>"),
        },
        Some(Fault::Accepted | Fault::AcceptedThenEmpty) if is_change => {
            let mut s = lock(state);
            s.change_answered = true;
            match s.replay.clone() {
                Some(answer) => answer,
                None => panic!("Fault::Accepted armed without an answer to replay"),
            }
        }
        _ => {
            let Some(answer) = forward(&upstream, &request) else {
                return;
            };
            let mut s = lock(state);
            if is_change {
                s.changed = true;
                s.change_answered = true;
                s.change_answer = Some(answer.clone());
            }
            answer
        }
    };
    match fault {
        Some(Fault::Truncated) => write_answer(stream, &answer, answer.body.len() / 2),
        Some(Fault::Malformed) => {
            let garbled = Answer {
                status: 200,
                body: "\u{1}garbled \u{fffd}{<".into(),
                ..answer
            };
            write_answer(stream, &garbled, garbled.body.len());
        }
        Some(Fault::EmptyOnce | Fault::AcceptedThenEmpty) if !is_change => {
            let empty = Answer {
                body: emptied(&answer.body),
                ..answer
            };
            write_answer(stream, &empty, empty.body.len());
        }
        _ => write_answer(stream, &answer, answer.body.len()),
    }
}

/// `body` with every list emptied: each JSON array `[]` and each `TotalCount` 0; each EC2
/// `<...Set>` element left without items. Still a well-formed answer of the same call.
pub fn emptied(body: &str) -> String {
    if let Ok(mut json) = serde_json::from_str::<serde_json::Value>(body) {
        empty_json(&mut json);
        return json.to_string();
    }
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let name_end = after.find(['>', ' ', '/']).unwrap_or(after.len());
        let name = &after[..name_end];
        let close = format!("</{name}>");
        let set_body = after[name_end..].strip_prefix('>');
        match set_body.and_then(|inner| inner.find(&close).map(|end| (inner, end))) {
            Some((inner, end)) if name.ends_with("Set") => {
                out.push_str(&rest[..open]);
                let _ = write!(out, "<{name}>{close}");
                rest = &inner[end + close.len()..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn empty_json(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Array(items) => items.clear(),
        serde_json::Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                if key == "TotalCount" && field.is_number() {
                    *field = serde_json::Value::from(0);
                } else {
                    empty_json(field);
                }
            }
        }
        _ => {}
    }
}

/// Sends `request` to `upstream` as it came (its `Host` and signature untouched) and reads the
/// whole answer; `None` when the cloud cannot be reached or answers something unreadable.
fn forward(upstream: &str, request: &Request) -> Option<Answer> {
    let mut out = TcpStream::connect(upstream).ok()?;
    out.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let mut head = format!("{} {} HTTP/1.1\r\n", request.method, request.target);
    for (name, value) in &request.headers {
        if name != "connection" {
            let _ = write!(head, "{name}: {value}\r\n");
        }
    }
    head.push_str("connection: close\r\n\r\n");
    out.write_all(head.as_bytes()).ok()?;
    out.write_all(&request.body).ok()?;
    read_answer(out)
}

fn read_answer(stream: TcpStream) -> Option<Answer> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let status = line.split_whitespace().nth(1)?.parse().ok()?;
    let (mut length, mut chunked, mut content_type) = (None, false, String::new());
    for (name, value) in read_headers(&mut reader)? {
        match name.as_str() {
            "content-length" => length = value.parse::<usize>().ok(),
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "content-type" => content_type = value,
            _ => {}
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).ok()?;
            let size = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).ok()?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(length) = length {
        body.resize(length, 0);
        reader.read_exact(&mut body).ok()?;
    } else {
        reader.read_to_end(&mut body).ok()?;
    }
    Some(Answer {
        status,
        content_type,
        body: String::from_utf8(body).ok()?,
    })
}

/// Writes `answer` with its full length but only the first `send` bytes of its body.
fn write_answer(mut stream: &TcpStream, answer: &Answer, send: usize) {
    let head = format!(
        "HTTP/1.1 {} X\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        answer.status,
        answer.content_type,
        answer.body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&answer.body.as_bytes()[..send]);
    let _ = stream.flush();
}
