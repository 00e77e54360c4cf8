//! `gpumeter serve` under fifty concurrent scrapers, beside a static floor: a bare hyper server
//! answering with one page fetched from gpumeter, the same bytes, under the same scrapers. Each
//! scraper keeps its connection open, as Prometheus does, and scrapes back to back for the
//! whole window, far more often than any scrape interval would. Prints, for each server, each
//! scrape's latency at p50, p99 and the worst, the scrapes a second and the server's CPU a
//! scrape, then gpumeter's over the floor's; fails when gpumeter's p50 is more than twice the
//! floor's. `--scrapers N` and `--seconds S` (each server's window) change the load;
//! `--gpumeter PATH` measures another build, an older one say, against the same floor.
//!
//!     cargo bench --bench serve_scrapers [-- --scrapers 50 --seconds 10 --gpumeter PATH]

mod floor;
mod load;

use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::Duration;

use load::Load;

const DEFAULT_SCRAPERS: usize = 50;
const DEFAULT_SECONDS: u64 = 10;
/// gpumeter's p50 may be at most this many times the floor's: above it, serving costs more
/// than handing out bytes already rendered.
const MAX_P50_RATIO: f64 = 2.0;

fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn number(args: &[String], name: &str, default: u64) -> u64 {
    arg(args, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn stop(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        return ExitCode::SUCCESS;
    }
    if let Some(page) = arg(&args, floor::FLAG) {
        return floor::serve(Path::new(page));
    }
    let scrapers = usize::try_from(number(&args, "--scrapers", DEFAULT_SCRAPERS as u64))
        .unwrap_or(DEFAULT_SCRAPERS);
    let window = Duration::from_secs(number(&args, "--seconds", DEFAULT_SECONDS));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let data = std::env::temp_dir().join(format!("gpumeter-serve-bench-{}", std::process::id()));
    let gpumeter = arg(&args, "--gpumeter").unwrap_or(env!("CARGO_BIN_EXE_gpumeter"));
    let server = Command::new(gpumeter)
        .args(["--demo", "--data-dir"])
        .arg(&data)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gpumeter serve");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let url = format!("http://127.0.0.1:{port}/metrics");
    // A page from before the first samples is empty: wait for every source, and serve that.
    let every_source = [r#"source="gpu""#, r#"source="host""#, r#"source="cloud""#];
    let page = runtime.block_on(load::full_page(&url, &every_source));
    let ours = runtime.block_on(load::scrape(&url, scrapers, window, server.id()));
    stop(server);
    let page_file = data.join("page.txt");
    std::fs::write(&page_file, &page).expect("write the page");
    let (floor, floor_port) = floor::start(&page_file);
    let url = format!("http://127.0.0.1:{floor_port}/metrics");
    runtime.block_on(load::full_page(&url, &[]));
    let theirs = runtime.block_on(load::scrape(&url, scrapers, window, floor.id()));
    stop(floor);
    let _ = std::fs::remove_dir_all(&data);
    report(scrapers, &ours, &theirs)
}

fn report(scrapers: usize, ours: &Load, floor: &Load) -> ExitCode {
    println!(
        "{scrapers} scrapers, {} s a server, pages of {} and {} bytes",
        ours.window.as_secs(),
        ours.bytes,
        floor.bytes
    );
    println!(
        "{:<16}{:>10}{:>10}{:>10}{:>10}{:>14}",
        "", "scrapes/s", "p50 ms", "p99 ms", "max ms", "CPU µs/scrape"
    );
    let row = |name: &str, l: &Load| {
        println!(
            "{name:<16}{:>10.0}{:>10.2}{:>10.2}{:>10.2}{:>14.1}",
            l.per_second(),
            l.ms(500),
            l.ms(990),
            l.ms(1000),
            l.cpu_us_per_scrape()
        );
    };
    row("gpumeter", ours);
    row("static floor", floor);
    let ratio = ours.ms(500) / floor.ms(500);
    println!(
        "{:<16}{:>9.2}×{:>9.2}×{:>9.2}×{:>9.2}×{:>13.2}×",
        "gpumeter/floor",
        ours.per_second() / floor.per_second(),
        ratio,
        ours.ms(990) / floor.ms(990),
        ours.ms(1000) / floor.ms(1000),
        ours.cpu_us_per_scrape() / floor.cpu_us_per_scrape()
    );
    if ratio > MAX_P50_RATIO {
        eprintln!("gpumeter's p50 is {ratio:.2}× the static floor's, above {MAX_P50_RATIO}×");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
