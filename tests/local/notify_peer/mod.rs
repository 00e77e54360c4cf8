//! A loopback webhook receiver (127.0.0.1 only) that records what it is sent and answers
//! what each test scripts, and the helpers the webhook tests share.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gpumeter::app::Level;
use gpumeter::config::{Config, NotifyConfig};
use gpumeter::notify::{Alert, Notifier};
use gpumeter::provider::http::HttpPolicy;
use jiff::{SignedDuration, Timestamp};
use serde_json::Value;

pub const TOKEN: &str = "xyzzyTOKEN42";
pub const SECRET: &str = "SECxyzzySECRET";

#[derive(Debug, Clone)]
pub struct Request {
    pub target: String,
    pub content_type: String,
    pub body: String,
}

impl Request {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }

    pub fn query(&self) -> HashMap<String, String> {
        let url = reqwest::Url::parse(&format!("http://x{}", self.target)).unwrap();
        url.query_pairs().into_owned().collect()
    }
}

#[derive(Debug, Clone, Copy)]
pub enum Reply {
    Answer(u16, &'static str),
    /// Reads the request and never answers.
    Hang,
}

pub type Log = Arc<Mutex<Vec<Request>>>;

pub fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let target = line.split_whitespace().nth(1)?.to_string();
    let (mut length, mut content_type) = (0, String::new());
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? <= 2 {
            break;
        }
        let (name, value) = line.split_once(':')?;
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().ok()?,
            "content-type" => content_type = value.trim().to_string(),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        target,
        content_type,
        body: String::from_utf8(body).ok()?,
    })
}

/// Answers `script` in order, then `200 ok`; returns the base URL (with the token in the path)
/// and the requests seen. Listens on 127.0.0.1 only.
pub fn receiver(script: Vec<Reply>) -> (String, Log) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/hook/{TOKEN}", listener.local_addr().unwrap());
    let log: Log = Arc::default();
    let seen = Arc::clone(&log);
    std::thread::spawn(move || {
        let mut hung = Vec::new();
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            let Some(request) = read_request(&stream) else {
                continue;
            };
            let n = {
                let mut log = seen.lock().unwrap();
                log.push(request);
                log.len() - 1
            };
            match script.get(n).copied().unwrap_or(Reply::Answer(200, "ok")) {
                Reply::Hang => hung.push(stream),
                Reply::Answer(status, body) => {
                    let _ = write!(
                        stream,
                        "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                }
            }
        }
    });
    (base, log)
}

pub fn t(minutes: i64) -> Timestamp {
    Timestamp::from_second(1_700_000_000).unwrap() + SignedDuration::from_mins(minutes)
}

pub fn alert(key: &str, at: Timestamp) -> Alert {
    Alert::new(
        Level::Warn,
        key,
        "Release in 10 minutes",
        "at 18:30 UTC",
        at,
    )
}

/// `[notify]` from TOML, as a user writes it.
pub fn notify_config(body: &str) -> NotifyConfig {
    Config::parse(&format!("[notify]\n{body}"), Path::new("t.toml"))
        .unwrap()
        .notify
}

pub fn hook(kind: &str, url: &str) -> String {
    format!("[[notify.webhook]]\nkind = \"{kind}\"\nurl = \"{url}\"\n")
}

pub const FAST: HttpPolicy = HttpPolicy {
    timeout: Duration::from_millis(300),
    connect_timeout: Duration::from_millis(300),
    retries: 2,
    throttled_retries: 2,
    backoff_base: Duration::from_millis(5),
    backoff_max: Duration::from_millis(20),
};

pub fn notifier(config: &NotifyConfig, retries: u32) -> Notifier {
    let policy = HttpPolicy { retries, ..FAST };
    Notifier::with_policy(config, Some("i-0abc".into()), policy).unwrap()
}

pub fn requests(log: &Log) -> Vec<Request> {
    log.lock().unwrap().clone()
}
