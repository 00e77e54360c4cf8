//! A metadata service for unit tests: HTTP/1.1 on 127.0.0.1, one request per connection, each
//! answered by the test's handler from the method, the path and the headers; every request is
//! kept so the test can see what was asked.

use std::io::{BufRead, BufReader, Write as _};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// One request as it arrived: header names in lower case.
#[derive(Debug, Clone)]
pub struct Asked {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
}

impl Asked {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

type Handler = dyn Fn(&Asked) -> (u16, String) + Send + Sync;

pub struct Stub {
    pub url: String,
    asked: Arc<Mutex<Vec<Asked>>>,
    handler: Arc<Mutex<Arc<Handler>>>,
}

impl Stub {
    pub fn start(handler: impl Fn(&Asked) -> (u16, String) + Send + Sync + 'static) -> Stub {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let asked = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Mutex<Arc<Handler>>> = Arc::new(Mutex::new(Arc::new(handler)));
        let (log, answer) = (Arc::clone(&asked), Arc::clone(&handler));
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                let Some(request) = read(&stream) else {
                    continue;
                };
                log.lock().unwrap().push(request.clone());
                let handle = Arc::clone(&answer.lock().unwrap());
                let (status, body) = handle(&request);
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        Stub {
            url,
            asked,
            handler,
        }
    }

    /// Answers from now on with `handler`.
    pub fn answer(&self, handler: impl Fn(&Asked) -> (u16, String) + Send + Sync + 'static) {
        *self.handler.lock().unwrap() = Arc::new(handler);
    }

    pub fn asked(&self) -> Vec<Asked> {
        self.asked.lock().unwrap().clone()
    }
}

fn read(stream: &std::net::TcpStream) -> Option<Asked> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next()?.to_string(), parts.next()?.to_string());
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        let Some((name, value)) = h.trim_end().split_once(':') else {
            break;
        };
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    Some(Asked {
        method,
        path,
        headers,
    })
}
