//! `gpumeter serve` under fifty concurrent scrapers: each keeps its connection open, as
//! Prometheus does, and scrapes back to back for the whole window, far more often than any
//! scrape interval would. Prints each scrape's latency at p50, p99 and the worst, the scrapes a
//! second, and the CPU the server spent. `--scrapers N` and `--seconds S` change the load.
//!
//!     cargo bench --bench serve_scrapers [-- --scrapers 50 --seconds 10]

use std::process::{Command, Stdio};

use gpumeter::provider::http::{Http, HttpPolicy};
use std::time::{Duration, Instant};

const DEFAULT_SCRAPERS: usize = 50;
const DEFAULT_SECONDS: u64 = 10;

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
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

/// The `per_mille`th of a thousand, nearest rank.
fn percentile(sorted: &[Duration], per_mille: usize) -> Duration {
    let rank = (sorted.len() * per_mille).div_ceil(1000).max(1);
    sorted[rank.min(sorted.len()) - 1]
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let scrapers = usize::try_from(arg("--scrapers", DEFAULT_SCRAPERS as u64)).unwrap_or(50);
    let window = Duration::from_secs(arg("--seconds", DEFAULT_SECONDS));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let data = std::env::temp_dir().join(format!("gpumeter-serve-bench-{}", std::process::id()));
    let mut server = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["--demo", "--data-dir"])
        .arg(&data)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gpumeter serve");
    let url = format!("http://127.0.0.1:{port}/metrics");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let (latencies, bytes, cpu) = runtime.block_on(async {
        let client = || {
            Http::new(HttpPolicy::default())
                .expect("an HTTP client")
                .client()
                .clone()
        };
        let ready = client();
        let started = Instant::now();
        while ready.get(&url).send().await.is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "serve never answered"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let cpu_before = cpu_seconds(server.id());
        let until = Instant::now() + window;
        let tasks: Vec<_> = (0..scrapers)
            .map(|_| {
                let url = url.clone();
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
        let mut all = Vec::new();
        let mut bytes = 0;
        for task in tasks {
            let (seen, b) = task.await.expect("scraper");
            all.extend(seen);
            bytes = b;
        }
        (all, bytes, cpu_seconds(server.id()) - cpu_before)
    });
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&data);
    let mut sorted = latencies;
    sorted.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let per_second =
        f64::from(u32::try_from(sorted.len()).unwrap_or(u32::MAX)) / window.as_secs_f64();
    println!(
        "serve under {scrapers} scrapers for {} s: {} scrapes ({per_second:.0}/s) of {bytes} bytes; \
         latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; server CPU {:.2} s ({:.0} % of one core)",
        window.as_secs(),
        sorted.len(),
        ms(percentile(&sorted, 500)),
        ms(percentile(&sorted, 990)),
        ms(*sorted.last().expect("at least one scrape")),
        cpu,
        cpu / window.as_secs_f64() * 100.0,
    );
}
