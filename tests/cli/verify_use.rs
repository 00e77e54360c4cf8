//! `verify --python` and `verify --bandwidth` run as the program, against the fake NVML (one
//! A100, sm_80): the real probe through the real `python3`, which imports a stub `torch` put on
//! `PYTHONPATH` by each test, and a download from a server on loopback that sends at a known
//! rate. Nothing leaves the machine.

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::TcpListener;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::fake_libs;

/// The A100's verdict with `args` after `verify --seconds 1`, `env` set; `None` where the fakes
/// cannot be built.
fn verify(args: &[&str], env: &[(&str, &Path)]) -> Option<Output> {
    let data = tempfile::tempdir().unwrap();
    let mut command = fake_libs::gpumeter("", data.path())?;
    command
        .env("HOME", data.path())
        .env("XDG_CONFIG_HOME", data.path())
        .args(["verify", "--seconds", "1"])
        .args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    Some(command.output().unwrap())
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

fn check<'a>(v: &'a Value, code: &str) -> &'a Value {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == code)
        .unwrap_or_else(|| panic!("no {code} check: {v:#}"))
}

/// A folder with a stub `torch` package answering as a torch `version` built for CUDA `cuda`
/// (`None`: a CPU-only build), with `available` and `archs`; and an interpreter beside it that
/// is `python3` without the machine's own site-packages, so a torch installed here is not seen.
struct Stub(tempfile::TempDir);

impl Stub {
    fn new(init: Option<&str>) -> Stub {
        let dir = tempfile::tempdir().unwrap();
        let python = dir.path().join("python");
        std::fs::write(&python, "#!/bin/sh\nexec python3 -s -S \"$@\"\n").unwrap();
        std::process::Command::new("chmod")
            .arg("+x")
            .arg(&python)
            .status()
            .unwrap();
        let lib = dir.path().join("lib");
        std::fs::create_dir_all(lib.join("torch/cuda")).unwrap();
        if let Some(init) = init {
            std::fs::write(lib.join("torch/__init__.py"), init).unwrap();
        } else {
            std::fs::remove_dir_all(lib.join("torch")).unwrap();
        }
        Stub(dir)
    }

    fn torch(version: &str, cuda: Option<&str>, available: bool, archs: &[&str]) -> Stub {
        let stub = Stub::new(Some(&format!(
            "__version__ = \"{version}\"\nfrom . import cuda, version\n"
        )));
        let lib = stub.lib();
        let cuda = cuda.map_or_else(|| "None".to_string(), |c| format!("\"{c}\""));
        std::fs::write(lib.join("torch/version.py"), format!("cuda = {cuda}\n")).unwrap();
        let py_archs: Vec<String> = archs.iter().map(|a| format!("\"{a}\"")).collect();
        let cuda_module = format!(
            "def is_available():\n    return {}\n\
             def get_arch_list():\n    return [{}] if is_available() else []\n\
             def device_count():\n    return 1\n\
             def get_device_name(i=0):\n    return \"NVIDIA A100-SXM4-80GB\"\n\
             def get_device_capability(i=0):\n    return (8, 0)\n",
            if available { "True" } else { "False" },
            py_archs.join(", ")
        );
        std::fs::write(lib.join("torch/cuda/__init__.py"), cuda_module).unwrap();
        stub
    }

    fn lib(&self) -> std::path::PathBuf {
        self.0.path().join("lib")
    }

    fn python(&self) -> String {
        self.0.path().join("python").display().to_string()
    }

    /// `verify --json --python` with this stub.
    fn verify(&self, extra: &[(&str, &Path)]) -> Option<(Value, i32)> {
        let lib = self.lib();
        let mut env = vec![("PYTHONPATH", lib.as_path())];
        env.extend_from_slice(extra);
        let out = verify(&["--json", "--python", &self.python()], &env)?;
        Some((json(&out), out.status.code().unwrap()))
    }
}

const FAIL: i32 = 3;

#[test]
fn a_torch_built_for_the_card_passes_and_the_json_says_what_it_saw() {
    let stub = Stub::torch(
        "2.5.1+cu124",
        Some("12.4"),
        true,
        &["sm_70", "sm_80", "sm_90"],
    );
    let Some((v, _)) = stub.verify(&[]) else {
        return;
    };
    assert_eq!(check(&v, "torch")["verdict"], "pass", "{v:#}");
    assert_eq!(check(&v, "torch_arch")["verdict"], "pass");
    assert_eq!(check(&v, "torch_arch")["measured"]["value"], "sm_80");
    let p = &v["python"];
    assert_eq!(p["state"], "read");
    assert_eq!(p["torch_version"], "2.5.1+cu124");
    assert_eq!(p["torch_cuda"], "12.4");
    assert_eq!(p["cuda_available"], true);
    assert_eq!(p["device_name"], "NVIDIA A100-SXM4-80GB");
    assert_eq!(
        p["arch_list"],
        serde_json::json!(["sm_70", "sm_80", "sm_90"])
    );
    assert_eq!(v["bandwidth"], Value::Null, "not asked");
}

#[test]
fn a_cpu_only_build_fails_before_the_hours_are_spent() {
    let stub = Stub::torch("2.5.1+cpu", None, false, &[]);
    let Some((v, rc)) = stub.verify(&[]) else {
        return;
    };
    assert_eq!(rc, FAIL, "{v:#}");
    let c = check(&v, "torch");
    assert_eq!(c["verdict"], "fail");
    let message = c["message"].as_str().unwrap();
    assert!(
        message.contains("CPU-only") && message.contains("whl/cu128"),
        "{message}"
    );
    assert_eq!(v["python"]["torch_cuda"], Value::Null);
    assert_eq!(v["python"]["cuda_available"], false);
}

#[test]
fn an_arch_list_without_sm_80_fails_naming_it_and_the_wheels_that_have_it() {
    let stub = Stub::torch("1.7.1", Some("9.2"), true, &["sm_37", "sm_50", "sm_70"]);
    let Some((v, rc)) = stub.verify(&[]) else {
        return;
    };
    assert_eq!(rc, FAIL);
    let c = check(&v, "torch_arch");
    assert_eq!(c["verdict"], "fail");
    let message = c["message"].as_str().unwrap();
    for said in ["sm_80", "cu128", "sm_37 sm_50 sm_70"] {
        assert!(message.contains(said), "{said}: {message}");
    }
}

#[test]
fn no_torch_warns_and_is_said_so() {
    let Some((v, rc)) = Stub::new(None).verify(&[]) else {
        return;
    };
    let c = check(&v, "torch");
    assert_eq!(c["verdict"], "warn", "{v:#}");
    assert!(c["message"].as_str().unwrap().contains("not installed"));
    assert_eq!(v["python"]["state"], "not_installed");
    assert_eq!(v["python"]["torch_version"], Value::Null);
    assert_ne!(rc, FAIL, "a missing package does not fail the machine");
}

#[test]
fn an_interpreter_missing_or_hanging_is_a_check_not_read() {
    let data = tempfile::tempdir().unwrap();
    let missing = data.path().join("no-such-python");
    let Some(out) = verify(&["--json", "--python", missing.to_str().unwrap()], &[]) else {
        return;
    };
    let v = json(&out);
    assert_eq!(check(&v, "torch")["read"], false);
    assert!(
        v["python"]["error"]
            .as_str()
            .unwrap()
            .contains("cannot run"),
        "{v:#}"
    );
    // An import that never ends is given up on at the limit.
    let stub = Stub::new(Some("import time\ntime.sleep(120)\n"));
    let started = Instant::now();
    let lib = stub.lib();
    let out = verify(
        &["--json", "--python", &stub.python()],
        &[
            ("PYTHONPATH", lib.as_path()),
            ("GPUMETER_PYTHON_TIMEOUT", Path::new("2")),
        ],
    )
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    let v = json(&out);
    let c = check(&v, "torch");
    assert_eq!(c["read"], false);
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("no answer within 2 s"),
        "{c:#}"
    );
}

#[test]
fn the_text_report_shows_torch_in_its_table() {
    let stub = Stub::torch("2.5.1+cpu", None, false, &[]);
    let lib = stub.lib();
    let Some(out) = verify(
        &["--python", &stub.python()],
        &[("PYTHONPATH", lib.as_path())],
    ) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .any(|l| l.contains("torch") && l.contains("2.5.1+cpu")),
        "{text}"
    );
    assert!(
        text.contains("machine torch: torch 2.5.1+cpu is a CPU-only build"),
        "{text}"
    );
}

/// A server on loopback that answers one GET with `seconds` of `piece`-byte pieces every
/// 50 ms, on a schedule, so the rate is known: `piece` × 20 bytes a second.
fn throttled(piece: usize, seconds: u32) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
            line.clear();
        }
        let pieces = seconds * 20;
        let mut stream = stream;
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            piece * pieces as usize
        );
        let _ = stream.write_all(head.as_bytes());
        let start = Instant::now();
        let body = vec![b'x'; piece];
        for k in 0..pieces {
            let due = start + Duration::from_millis(50) * k;
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
            if stream.write_all(&body).is_err() {
                return;
            }
        }
    });
    format!("http://{address}/file.bin?token=secret")
}

/// A config promising `mbps`.
fn promising(dir: &Path, mbps: &str) -> String {
    let path = dir.join("config.toml");
    std::fs::write(&path, format!("[instance]\nbandwidth_mbps = \"{mbps}\"\n")).unwrap();
    path.display().to_string()
}

#[test]
fn the_best_second_of_a_throttled_download_is_judged_against_the_promise() {
    let dir = tempfile::tempdir().unwrap();
    // 25 000 bytes every 50 ms: 500 000 bytes a second, 4 Mbit/s.
    for (promised, verdict) in [("4", "pass"), ("10", "fail")] {
        let url = throttled(25_000, 3);
        let config = promising(dir.path(), promised);
        let Some(out) = verify(&["--json", "--config", &config, "--bandwidth", &url], &[]) else {
            return;
        };
        let v = json(&out);
        let c = check(&v, "network_bandwidth");
        let peak = c["measured"]["value"].as_f64().unwrap();
        assert!((3.6..=4.4).contains(&peak), "{peak} Mbps: {c:#}");
        assert_eq!(c["verdict"], verdict, "{c:#}");
        assert_eq!(c["rated"]["value"].as_f64(), promised.parse().ok());
        assert_eq!(c["rated"]["unit"], "Mbps");
        let kept = v["bandwidth"]["download"]["url"].as_str().unwrap();
        assert!(
            kept.ends_with("/file.bin") && !kept.contains("secret"),
            "{kept}"
        );
        assert!(v["bandwidth"]["download"]["bytes"].as_u64().unwrap() >= 1_400_000);
    }
}

#[test]
fn a_download_with_nothing_promised_or_nothing_there_is_not_judged() {
    let url = throttled(25_000, 2);
    let Some(out) = verify(&["--json", "--bandwidth", &url], &[]) else {
        return;
    };
    let v = json(&out);
    let c = check(&v, "network_bandwidth");
    assert_eq!(c["read"], false, "{c:#}");
    assert!(c["measured"]["value"].as_f64().unwrap() > 3.0);
    assert_eq!(v["bandwidth"]["promised_mbps"], Value::Null);
    // A port nobody listens on.
    let closed = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let out = verify(
        &["--json", "--bandwidth", &format!("http://{closed}/f")],
        &[],
    )
    .unwrap();
    let v = json(&out);
    let c = check(&v, "network_bandwidth");
    assert_eq!(c["read"], false);
    assert!(v["bandwidth"]["download"]["error"].is_string(), "{v:#}");
    let bad = verify(&["--bandwidth", "ftp://example.com/f"], &[]).unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
