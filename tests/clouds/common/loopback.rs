//! The plumbing the loopback test peers share: a tiny HTTP/1.1 server on a std `TcpListener`,
//! 127.0.0.1 only, one thread per connection; the request parser (request line, headers, a
//! `Content-Length` body); the reply writer; and the faults a test arms on a peer. What a peer
//! verifies, what its cloud holds and what its answers look like stay in the peer's own module.

use std::borrow::Cow;
use std::io::{BufRead, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use gpumeter::provider::http::HttpPolicy;

/// One request as it arrived.
pub struct Request {
    pub method: String,
    /// The request target as sent: the path and any query.
    pub target: String,
    /// The target up to any `?`.
    pub path: String,
    /// The target after the `?`, still encoded; empty when there is none.
    pub query: String,
    /// Names in lower case, values trimmed, in the order they came.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The first header called `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text, with anything not UTF-8 replaced.
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.body)
    }
}

/// What a peer does with one request.
pub enum Reply {
    /// A status and a body.
    Answer(u16, String),
    /// Holds the connection without answering for this long, then closes it.
    Hang(Duration),
}

/// Reads one request: `None` when the connection closes early or the request is not HTTP/1.1
/// as this parser knows it.
pub fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    let headers = read_headers(&mut reader)?;
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
        target,
        headers,
        body,
    })
}

/// The header lines up to the blank one: names in lower case, values trimmed.
pub fn read_headers(reader: &mut impl BufRead) -> Option<Vec<(String, String)>> {
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            return Some(headers);
        }
        let (name, value) = h.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
}

/// Writes `reply` (a hang is a sleep) and lets the connection close.
pub fn respond(mut stream: &TcpStream, content_type: &str, reply: Reply) {
    match reply {
        Reply::Hang(how_long) => std::thread::sleep(how_long),
        Reply::Answer(status, body) => {
            let text = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(text.as_bytes());
            let _ = stream.flush();
        }
    }
}

/// Locks a peer's state, a panic on another connection's thread notwithstanding.
pub fn lock<S>(state: &Mutex<S>) -> MutexGuard<'_, S> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A running loopback server and the state its handler answers from.
pub struct Loopback<S> {
    port: u16,
    state: Arc<Mutex<S>>,
}

impl<S: Send + 'static> Loopback<S> {
    /// Listens on a free port of 127.0.0.1 and answers every request that parses with what
    /// `handle` replies, its body sent as `content_type`.
    pub fn start(
        state: S,
        content_type: &'static str,
        handle: fn(&Request, &Mutex<S>) -> Reply,
    ) -> Loopback<S> {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(state));
        let for_thread = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = Arc::clone(&for_thread);
                std::thread::spawn(move || {
                    if let Some(request) = read_request(&stream) {
                        respond(&stream, content_type, handle(&request, &state));
                    }
                });
            }
        });
        Loopback { port, state }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn state(&self) -> MutexGuard<'_, S> {
        lock(&self.state)
    }
}

struct Armed<F> {
    fault: F,
    /// What the calls it applies to are matched against; `None`: every call.
    target: Option<String>,
    /// `None`: every matching call.
    remaining: Option<usize>,
    /// Matching calls to let through first.
    skip: usize,
}

/// The faults armed on a peer, each for the calls its target matches.
pub struct Faults<F> {
    armed: Vec<Armed<F>>,
}

impl<F: Copy> Faults<F> {
    pub fn new() -> Faults<F> {
        Faults { armed: Vec::new() }
    }

    /// Arms `fault` for the calls `target` matches (every call when `None`), `times` times or
    /// forever.
    pub fn arm(&mut self, fault: F, target: Option<&str>, times: Option<usize>) {
        self.armed.push(Armed {
            fault,
            target: target.map(str::to_string),
            remaining: times,
            skip: 0,
        });
    }

    /// Arms `fault` for every call `target` matches after the first `after` ones.
    pub fn arm_after(&mut self, fault: F, target: &str, after: usize) {
        self.armed.push(Armed {
            fault,
            target: Some(target.to_string()),
            remaining: None,
            skip: after,
        });
    }

    /// The fault for one call, counted down. The first armed fault whose target `matches`
    /// decides: nothing while it still lets calls through; one used up is dropped.
    pub fn take(&mut self, matches: impl Fn(&str) -> bool) -> Option<F> {
        let index = self
            .armed
            .iter()
            .position(|a| a.target.as_deref().is_none_or(&matches))?;
        let armed = &mut self.armed[index];
        if armed.skip > 0 {
            armed.skip -= 1;
            return None;
        }
        let fault = armed.fault;
        if let Some(left) = &mut armed.remaining {
            *left -= 1;
            if *left == 0 {
                self.armed.remove(index);
            }
        }
        Some(fault)
    }
}

/// The client's side: quick to give up, 300 ms per call, two retries.
pub fn quick_policy() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_millis(300),
        connect_timeout: Duration::from_millis(300),
        retries: 2,
        throttled_retries: 2,
        backoff_base: Duration::from_millis(5),
        backoff_max: Duration::from_millis(20),
    }
}

/// A provider's request rate limit, as the Alibaba, Tencent and AWS APIs apply one per account:
/// at most `per_second` calls in any second; a call over it is to be answered with the
/// provider's own throttling error. Counts what it refused, so a test can see the limit bite.
pub struct RateLimit {
    per_second: usize,
    admitted: std::collections::VecDeque<std::time::Instant>,
    pub refused: usize,
}

impl RateLimit {
    pub fn new(per_second: usize) -> RateLimit {
        RateLimit {
            per_second,
            admitted: std::collections::VecDeque::new(),
            refused: 0,
        }
    }

    /// Whether a call arriving now is within the limit (and counts it if so).
    pub fn admit(&mut self) -> bool {
        let now = std::time::Instant::now();
        while self
            .admitted
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1))
        {
            self.admitted.pop_front();
        }
        if self.admitted.len() < self.per_second {
            self.admitted.push_back(now);
            true
        } else {
            self.refused += 1;
            false
        }
    }
}
