//! `gpumeter serve` and `gpumeter fleet` run as programs: a scrape of the demo, the warning off
//! loopback, the fleet from `[[fleet]]` as JSON, and no fleet at all.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn gpumeter() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    command.env("NO_COLOR", "1");
    command
}

/// The body of one `GET /metrics` from the server at `addr`, headers included.
pub(crate) fn get(addr: &str) -> String {
    let mut stream = std::net::TcpStream::connect(addr).expect("the server listens");
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn serve_off_loopback_warns_and_answers_scrapes() {
    let data = tempfile::tempdir().unwrap();
    let mut child = gpumeter()
        .args(["--demo", "--gpus", "2", "--data-dir"])
        .arg(data.path())
        .args(["serve", "--listen", "0.0.0.0:0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let warning = lines.next().unwrap().unwrap();
    assert!(
        warning.contains("warning") && warning.contains("not loopback"),
        "{warning}"
    );
    let serving = lines.next().unwrap().unwrap();
    let port = serving
        .rsplit_once(':')
        .and_then(|(_, rest)| rest.split('/').next())
        .and_then(|p| p.parse::<u16>().ok())
        .unwrap_or_else(|| panic!("{serving}"));
    let addr = format!("127.0.0.1:{port}");
    let started = Instant::now();
    let mut body = String::new();
    // The cost comes with the first tick, the GPUs with the first sample: wait for both.
    let ready =
        |body: &str| body.contains("gpumeter_cost_total") && body.contains("DCGM_FI_DEV_GPU_UTIL{");
    while started.elapsed() < Duration::from_secs(20) && !ready(&body) {
        std::thread::sleep(Duration::from_millis(200));
        body = get(&addr);
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(body.starts_with("HTTP/1.1 200"), "{body}");
    assert!(body.contains("DCGM_FI_DEV_GPU_UTIL{"), "{body}");
    assert!(body.contains("gpumeter_cost_total{"), "{body}");
    assert!(body.contains("provider=\"demo\""), "{body}");
}

#[test]
fn fleet_reads_every_configured_instance_as_json() {
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("config.toml");
    std::fs::write(
        &config,
        "[[fleet]]\nprovider = \"demo\"\naccount = \"lab\"\ninstances = [\"i-a\", \"i-b\"]\n",
    )
    .unwrap();
    let out = gpumeter()
        .arg("--data-dir")
        .arg(data.path())
        .arg("--config")
        .arg(&config)
        .args(["fleet", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert_eq!(row["account"], "lab");
        assert_eq!(row["provider"], "demo");
        assert_eq!(row["state"], "running");
        // The demo cloud has one instance: both ids find it, so they overlap; nothing reports.
        let flags: Vec<&str> = row["flags"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(flags, ["forgotten", "overlap"]);
        assert!(row["leftovers"].as_array().unwrap().len() > 3);
    }
    assert_eq!(rows[0]["instance_id"], "i-a");
}

#[test]
fn no_fleet_and_no_instance_is_bad_input() {
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    let out = gpumeter()
        .arg("--data-dir")
        .arg(data.path())
        .arg("--config")
        .arg(&config)
        .arg("fleet")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("[[fleet]]"));
}
