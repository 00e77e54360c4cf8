//! Fifty scrapers against one URL: each keeps its connection open, as Prometheus does, and
//! scrapes back to back for the whole window; what each scrape took and what the server spent.

use std::time::{Duration, Instant};

use gpumeter::provider::http::{Http, HttpPolicy};
use hyper::body::Bytes;

/// What one server did under the load.
pub struct Load {
    /// Each scrape's latency, shortest first.
    pub latencies: Vec<Duration>,
    pub bytes: usize,
    /// The server's user and system CPU over the window.
    pub cpu_s: f64,
    pub window: Duration,
}

impl Load {
    /// The `per_mille`th of a thousand, nearest rank, in milliseconds.
    pub fn ms(&self, per_mille: usize) -> f64 {
        let rank = (self.latencies.len() * per_mille).div_ceil(1000).max(1);
        self.latencies
            .get(rank.min(self.latencies.len()) - 1)
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    }

    pub fn per_second(&self) -> f64 {
        f64::from(u32::try_from(self.latencies.len()).unwrap_or(u32::MAX))
            / self.window.as_secs_f64()
    }

    pub fn cpu_us_per_scrape(&self) -> f64 {
        self.cpu_s * 1e6 / f64::from(u32::try_from(self.latencies.len()).unwrap_or(u32::MAX))
    }
}

fn client() -> reqwest::Client {
    Http::new(HttpPolicy::default())
        .expect("an HTTP client")
        .client()
        .clone()
}

/// The first page `url` answers that holds every one of `series`.
pub async fn full_page(url: &str, series: &[&str]) -> Bytes {
    let ready = client();
    let started = Instant::now();
    loop {
        if let Ok(response) = ready.get(url).send().await
            && let Ok(page) = response.bytes().await
            && series
                .iter()
                .all(|s| page.windows(s.len()).any(|w| w == s.as_bytes()))
        {
            return page;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{url} never answered with all of {series:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `scrapers` scrapers on `url` for `window`; `pid` is the server's process.
pub async fn scrape(url: &str, scrapers: usize, window: Duration, pid: u32) -> Load {
    let cpu_before = cpu_seconds(pid);
    let until = Instant::now() + window;
    let tasks: Vec<_> = (0..scrapers)
        .map(|_| {
            let url = url.to_string();
            // Each its own client, so each keeps a connection of its own.
            let client = client();
            tokio::spawn(async move {
                let mut seen = Vec::new();
                let mut bytes = 0;
                while Instant::now() < until {
                    let at = Instant::now();
                    let body = client.get(&url).send().await.expect("scrape").bytes().await;
                    bytes = body.expect("a body").len();
                    seen.push(at.elapsed());
                }
                (seen, bytes)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut bytes = 0;
    for task in tasks {
        let (seen, b) = task.await.expect("scraper");
        latencies.extend(seen);
        bytes = b;
    }
    let cpu_s = cpu_seconds(pid) - cpu_before;
    latencies.sort();
    Load {
        latencies,
        bytes,
        cpu_s,
        window,
    }
}

/// The process's user and system time so far, from /proc (Linux only; zero elsewhere).
fn cpu_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of stat, 11 and 12 after the command's name.
    (ticks(11) + ticks(12)) / 100.0
}
