//! A small blocking HTTP/1.0 client for loopback (the test's Prometheus and each `gpumeter
//! serve`) and Prometheus's JSON API on top of it. HTTP/1.0 keeps the answers unchunked and
//! the connection closed after each one.

use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

/// `GET path` from `addr`: the status code and the body, or why there is none.
pub fn get(addr: &str, path: &str) -> Result<(u16, String), String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n")
        .map_err(|e| format!("GET http://{addr}{path}: {e}"))?;
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .map_err(|e| format!("GET http://{addr}{path}: {e}"))?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("GET http://{addr}{path}: no header end in {text:?}"))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("GET http://{addr}{path}: no status in {head:?}"))?;
    Ok((status, body.to_string()))
}

/// Percent-encodes everything but RFC 3986's unreserved characters, for a query parameter.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A Prometheus server's HTTP API.
pub struct Api {
    pub addr: String,
}

impl Api {
    /// `GET /api/v1/PATH`'s `data`, or the error Prometheus (or the connection) gave.
    pub fn data(&self, path: &str) -> Result<Value, String> {
        let (status, body) = get(&self.addr, &format!("/api/v1/{path}"))?;
        let json: Value = serde_json::from_str(&body)
            .map_err(|e| format!("/api/v1/{path}: {e} in {status} {body}"))?;
        if json["status"] != "success" {
            return Err(format!("/api/v1/{path}: {status} {json}"));
        }
        Ok(json["data"].clone())
    }

    /// An instant query's result vector: each series' labels and value.
    pub fn query(&self, promql: &str) -> Result<Vec<Series>, String> {
        let data = self.data(&format!("query?query={}", encode(promql)))?;
        if data["resultType"] != "vector" {
            return Err(format!(
                "{promql}: a {} result, not a vector",
                data["resultType"]
            ));
        }
        data["result"]
            .as_array()
            .ok_or_else(|| format!("{promql}: no result in {data}"))?
            .iter()
            .map(|s| Series::from_json(s).ok_or_else(|| format!("{promql}: odd series {s}")))
            .collect()
    }
}

/// One series of an instant vector.
#[derive(Debug, Clone)]
pub struct Series {
    pub labels: serde_json::Map<String, Value>,
    pub value: f64,
}

impl Series {
    fn from_json(s: &Value) -> Option<Series> {
        let labels = s["metric"].as_object()?.clone();
        let value = s["value"].get(1)?.as_str()?.parse().ok()?;
        Some(Series { labels, value })
    }

    /// The value of label `name`, or "" when the series has none (as PromQL treats it).
    pub fn label(&self, name: &str) -> &str {
        self.labels.get(name).and_then(Value::as_str).unwrap_or("")
    }
}
