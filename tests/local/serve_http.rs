//! `gpumeter serve` over HTTP: a scrape answers at once from the newest snapshot while the
//! provider's API hangs, and only `/metrics` is served.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use gpumeter::demo::demo_simulator;
use gpumeter::provider::{Action, ActionReport, Capabilities, Inventory, Provider, ProviderError};
use gpumeter::serve::{Collector, ServeSources, Target, serve};
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
        Capabilities {
            stop: false,
            snapshots: false,
            deadline: false,
        }
    }

    fn plan(&self, _action: &Action) -> Vec<String> {
        Vec::new()
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        tokio::time::sleep(Duration::from_secs(30)).await;
        Err(ProviderError::unreachable("hung", "hung"))
    }

    async fn perform(&self, _action: &Action) -> Result<ActionReport, ProviderError> {
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
