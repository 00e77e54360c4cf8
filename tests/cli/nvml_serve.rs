//! `gpumeter serve` on the real NVML path, against the fake libnvidia-ml.so.1: a scrape carries
//! each card the scenario has, and a reading NVML refuses (or a card that fell off the bus) is
//! absent from it, never a zero.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::fake_libs;

/// The first scrape of `serve` in `scenario` that carries a GPU series; `None` where the fake
/// cannot be built.
fn scrape(scenario: &str) -> Option<String> {
    let data = tempfile::tempdir().unwrap();
    let mut child = fake_libs::gpumeter(scenario, data.path())?
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read on a thread of its own to the end, so a later warning never meets a closed pipe.
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if line.contains("serving") {
                let _ = tx.send(line);
            }
        }
    });
    let serving = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("serve says where it listens");
    let addr = serving
        .rsplit_once("http://")
        .and_then(|(_, rest)| rest.split('/').next())
        .unwrap_or_else(|| panic!("{serving}"))
        .to_string();
    let started = Instant::now();
    let mut body = String::new();
    while started.elapsed() < Duration::from_secs(20) && !body.contains("DCGM_FI_DEV_GPU_UTIL{") {
        std::thread::sleep(Duration::from_millis(200));
        body = get(&addr);
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(body.contains("DCGM_FI_DEV_GPU_UTIL{"), "{scenario}: {body}");
    Some(body)
}

fn get(addr: &str) -> String {
    let Ok(mut stream) = std::net::TcpStream::connect(addr) else {
        return String::new();
    };
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut out = String::new();
    let _ = stream.read_to_string(&mut out);
    out
}

/// Each sample of `metric` as (its `gpu` label, its value).
fn samples(body: &str, metric: &str) -> Vec<(String, f64)> {
    body.lines()
        .filter(|l| l.starts_with(&format!("{metric}{{")))
        .map(|l| {
            let gpu = l
                .split("gpu=\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap_or_else(|| panic!("{l}"))
                .to_string();
            let value = l.rsplit(' ').next().unwrap().parse().unwrap();
            (gpu, value)
        })
        .collect()
}

#[test]
fn a_scrape_has_every_card_with_its_own_readings() {
    let Some(body) = scrape("eight") else {
        return;
    };
    let util = samples(&body, "DCGM_FI_DEV_GPU_UTIL");
    let expected: Vec<(String, f64)> = (0..8).map(|i| (i.to_string(), f64::from(97 - i))).collect();
    assert_eq!(util, expected);
    for (metric, value) in [
        ("DCGM_FI_DEV_FB_USED", 61440.0),
        ("DCGM_FI_DEV_FB_FREE", 20480.0),
        ("DCGM_FI_DEV_POWER_USAGE", 347.0),
        ("DCGM_FI_DEV_POWER_MGMT_LIMIT", 400.0),
        ("DCGM_FI_DEV_GPU_TEMP", 64.0),
        ("DCGM_FI_DEV_SM_CLOCK", 1410.0),
        ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 1_432_018_500.0),
    ] {
        let seen = samples(&body, metric);
        assert_eq!(seen.len(), 8, "{metric}");
        assert!(
            seen.iter().all(|(_, v)| (*v - value).abs() < 1e-6),
            "{metric}: {seen:?}"
        );
    }
    assert!(body.contains(r#"modelName="NVIDIA A100-SXM4-80GB""#));
    assert!(
        body.contains(r#"pci_bus_id="00000000:BD:00.0""#),
        "GPU 7's bus"
    );
    // The A100 has no fan: no fan series at all rather than a zero.
    assert!(samples(&body, "DCGM_FI_DEV_FAN_SPEED").is_empty());
}

#[test]
fn a_card_off_the_bus_leaves_the_scrape_and_the_other_stays() {
    let Some(body) = scrape("off_bus") else {
        return;
    };
    for metric in [
        "DCGM_FI_DEV_GPU_UTIL",
        "DCGM_FI_DEV_FB_USED",
        "DCGM_FI_DEV_POWER_USAGE",
    ] {
        let gpus: Vec<String> = samples(&body, metric).into_iter().map(|(g, _)| g).collect();
        assert_eq!(gpus, ["0"], "{metric}");
    }
}

#[test]
fn readings_nvml_refuses_are_absent_not_zero() {
    let Some(body) = scrape("errors") else {
        return;
    };
    for metric in [
        "DCGM_FI_DEV_POWER_USAGE",
        "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
        "DCGM_FI_DEV_GPU_TEMP",
        "gpumeter_gpu_power_weighted_load_percent",
    ] {
        assert!(samples(&body, metric).is_empty(), "{metric} in {body}");
    }
    assert_eq!(
        samples(&body, "DCGM_FI_DEV_GPU_UTIL"),
        [("0".to_string(), 97.0)]
    );
}
