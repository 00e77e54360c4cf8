//! `gpumeter serve` over HTTP: a scrape answers at once from the newest page while the
//! provider's API hangs, and only `/metrics` is served.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use gpumeter::demo::demo_simulator;
use gpumeter::provider::{Action, ActionReport, Capabilities, Inventory, Provider, ProviderError};
use gpumeter::serve::{Collector, Page, ServeSources, Target, serve};
use gpumeter::spend::Spend;
use gpumeter::telemetry::SamplerConfig;
use jiff::tz::TimeZone;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// A provider whose every call hangs for 30 seconds.
struct Hanging;

#[async_trait]
impl Provider for Hanging {
    fn name(&self) -> &'static str {
        "hanging"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::NONE
    }

    fn plan_instance(&self, _action: &Action) -> Vec<String> {
        Vec::new()
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        tokio::time::sleep(Duration::from_secs(30)).await;
        Err(ProviderError::unreachable("hung", "hung"))
    }

    async fn act(&self, _action: &Action) -> Result<ActionReport, ProviderError> {
        tokio::time::sleep(Duration::from_secs(30)).await;
        Err(ProviderError::unreachable("hung", "hung"))
    }
}

async fn get(addr: std::net::SocketAddr, request: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).await.unwrap();
    out
}

fn get_metrics() -> &'static str {
    "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_answers_at_once_while_the_provider_hangs() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let target = Target {
        instance_id: "i-test".into(),
        provider: "hanging".into(),
    };
    let collector = Collector::new(target, Spend::new(None, None, TimeZone::UTC), None);
    let sim = demo_simulator("training");
    let sources = ServeSources {
        gpu: sim.clone(),
        host: sim,
        sampling: SamplerConfig {
            interval: Duration::from_millis(100),
        },
        inventory_every: gpumeter::serve::run::DEMO_INVENTORY_EVERY,
        provider: Arc::new(Hanging),
        ledger: None,
    };
    let server = tokio::spawn(serve(listener, collector, sources));

    let started = Instant::now();
    let mut body = String::new();
    while started.elapsed() < Duration::from_secs(5) {
        let asked = Instant::now();
        body = get(addr, get_metrics()).await;
        assert!(
            asked.elapsed() < Duration::from_millis(500),
            "a scrape took {:?}",
            asked.elapsed()
        );
        if body.contains("DCGM_FI_DEV_GPU_UTIL{") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(body.starts_with("HTTP/1.1 200"), "{body}");
    assert!(
        body.contains("content-type: text/plain; version=0.0.4"),
        "{body}"
    );
    assert!(
        body.contains("DCGM_FI_DEV_GPU_UTIL{instance_id=\"i-test\",provider=\"hanging\",gpu=\"0\"")
    );
    // The inventory has not answered: no cloud series, not a made-up 0.
    assert!(!body.contains("gpumeter_cloud_up"));
    assert!(!body.contains("gpumeter_cost_total"));

    let missing = get(
        addr,
        "GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
    let post = get(
        addr,
        "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(post.starts_with("HTTP/1.1 405"), "{post}");
    server.abort();
}

/// A page channel with nothing in it but the instance: enough to answer scrapes.
fn pages() -> tokio::sync::watch::Receiver<Page> {
    let target = Target {
        instance_id: "i-test".into(),
        provider: "test".into(),
    };
    let mut collector = Collector::new(target, Spend::new(None, None, TimeZone::UTC), None);
    let (tx, rx) =
        tokio::sync::watch::channel(Page::of(&collector.snapshot(jiff::Timestamp::now())));
    // The receiver keeps the last value after the sender goes.
    drop(tx);
    rx
}

/// Reads until the server closes the connection; what came, and how long that took.
async fn until_closed(stream: &mut tokio::net::TcpStream, bound: Duration) -> (String, Duration) {
    let started = Instant::now();
    let mut got = Vec::new();
    let read = tokio::time::timeout(bound, stream.read_to_end(&mut got)).await;
    assert!(
        read.is_ok(),
        "the connection was still open after {bound:?}; it sent {:?}",
        String::from_utf8_lossy(&got)
    );
    (
        String::from_utf8_lossy(&got).into_owned(),
        started.elapsed(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_and_idle_connections_are_closed() {
    use gpumeter::serve::http::{Limits, serve_http_with};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = Limits {
        header_read: Duration::from_millis(300),
        connection: Duration::from_secs(2),
        closing: Duration::from_millis(500),
    };
    let server = tokio::spawn(serve_http_with(listener, pages(), limits));

    // Half a request line, then nothing: closed once the headers are overdue.
    let mut half = tokio::net::TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /metr").await.unwrap();
    // Well before the connection's own limit: the header timeout closed it.
    let headers_overdue = Duration::from_millis(1500);
    let (_, took) = until_closed(&mut half, headers_overdue).await;
    assert!(
        took >= Duration::from_millis(250),
        "closed too soon: {took:?}"
    );

    // Headers that never end.
    let mut slow = tokio::net::TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    until_closed(&mut slow, headers_overdue).await;

    // A connection that sends nothing at all.
    let mut silent = tokio::net::TcpStream::connect(addr).await.unwrap();
    until_closed(&mut silent, headers_overdue).await;

    // A kept-alive connection is answered, then closed when it goes idle.
    let mut kept = tokio::net::TcpStream::connect(addr).await.unwrap();
    kept.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let (answer, _) = until_closed(&mut kept, headers_overdue).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    // A client that keeps asking is cut off at the connection's limit, between answers.
    let mut busy = tokio::net::TcpStream::connect(addr).await.unwrap();
    let started = Instant::now();
    let mut answers = 0;
    let mut buf = [0u8; 4096];
    loop {
        if busy
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .is_err()
        {
            break;
        }
        match tokio::time::timeout(Duration::from_secs(3), busy.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => answers += 1,
            Ok(_) => break,
            Err(timeout) => panic!(
                "{timeout}: no answer and no close after {:?}",
                started.elapsed()
            ),
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "a busy connection outlived its limit"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(answers >= 5, "only {answers} answers before the close");
    assert!(started.elapsed() >= Duration::from_millis(1900));
    server.abort();
}

/// `serve` itself has the limits: on a paused clock, a half-sent request is closed once the
/// default header timeout has passed.
#[tokio::test(start_paused = true)]
async fn serve_closes_a_half_sent_request_after_the_default_timeout() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let target = Target {
        instance_id: "i-test".into(),
        provider: "hanging".into(),
    };
    let collector = Collector::new(target, Spend::new(None, None, TimeZone::UTC), None);
    let sim = demo_simulator("training");
    let sources = ServeSources {
        gpu: sim.clone(),
        host: sim,
        sampling: SamplerConfig {
            interval: Duration::from_secs(1),
        },
        inventory_every: gpumeter::serve::run::DEMO_INVENTORY_EVERY,
        provider: Arc::new(Hanging),
        ledger: None,
    };
    let server = tokio::spawn(serve(listener, collector, sources));
    let mut half = tokio::net::TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /metr").await.unwrap();
    let started = tokio::time::Instant::now();
    let mut got = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(60), half.read_to_end(&mut got)).await;
    assert!(read.is_ok(), "still open after a minute");
    let waited = started.elapsed();
    let limit = gpumeter::serve::http::Limits::default().header_read;
    assert!(
        waited >= limit && waited < limit + Duration::from_secs(2),
        "{waited:?}"
    );
    server.abort();
}
