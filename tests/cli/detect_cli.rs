//! With no config, `status --json` on a machine whose DMI says AWS and whose metadata service
//! answers IMDSv2 (a loopback peer): the instance, region and SKU come from the machine, the
//! price from the region's bundled sheet, and what needs credentials says which. Flags and
//! config override what was detected; a plain machine is detected as none.

use std::io::{BufRead, BufReader, Write as _};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A machine: a DMI tree with `dmi`'s files and an empty PID 1 environment.
fn machine(name: &str, dmi: &[(&str, &str)]) -> Dir {
    let dir =
        std::env::temp_dir().join(format!("gpumeter-detect-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("dmi")).unwrap();
    for (file, value) in dmi {
        std::fs::write(dir.join("dmi").join(file), format!("{value}\n")).unwrap();
    }
    std::fs::write(dir.join("environ"), b"").unwrap();
    Dir(dir)
}

/// IMDSv2 on loopback, as the EC2 docs describe it: `PUT /latest/api/token` with a TTL header
/// gives a token; every GET must carry it. Keeps each request line it was sent.
fn imds() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            let mut token = None;
            let mut ttl = false;
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
                    break;
                }
                let (name, value) = h.split_once(':').unwrap_or((&h, ""));
                match name.trim().to_ascii_lowercase().as_str() {
                    "x-aws-ec2-metadata-token" => token = Some(value.trim().to_string()),
                    "x-aws-ec2-metadata-token-ttl-seconds" => ttl = true,
                    _ => {}
                }
            }
            let request = line.trim().to_string();
            log.lock().unwrap().push(request.clone());
            let mut parts = request.split_whitespace();
            let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            let (status, body) = match (method, path) {
                ("PUT", "/latest/api/token") if ttl => (200, "AQAEAtoken=="),
                (_, _) if token.as_deref() != Some("AQAEAtoken==") => (401, ""),
                ("GET", "/latest/meta-data/instance-id") => (200, "i-0p4dbox12345678a"),
                ("GET", "/latest/meta-data/placement/region") => (200, "us-east-1"),
                ("GET", "/latest/meta-data/instance-type") => (200, "p4d.24xlarge"),
                _ => (404, ""),
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (url, seen)
}

/// `gpumeter ARGS` on the machine in `dir`, with no credentials anywhere and `imds` as the
/// metadata service.
fn run(dir: &Path, imds: &str, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    cmd.args(args)
        .env("GPUMETER_DATA_DIR", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("HOME", dir)
        .env("GPUMETER_DETECT_DMI", dir.join("dmi"))
        .env("GPUMETER_DETECT_PID1_ENVIRON", dir.join("environ"))
        .env("AWS_EC2_METADATA_SERVICE_ENDPOINT", imds)
        .env("GPUMETER_ALIBABA_METADATA", "http://127.0.0.1:9")
        .env("GPUMETER_TENCENT_METADATA", "http://127.0.0.1:9")
        .stdin(Stdio::null());
    for name in [
        "GPUMETER_DETECT",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_PROFILE",
        "AWS_SHARED_CREDENTIALS_FILE",
        "AWS_CONFIG_FILE",
        "AWS_EC2_METADATA_DISABLED",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
    ] {
        cmd.env_remove(name);
    }
    cmd.output().unwrap()
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn an_aws_p4d_box_with_no_config_and_no_credentials_shows_its_price_and_meter() {
    let dir = machine(
        "aws",
        &[
            ("sys_vendor", "Amazon EC2"),
            ("product_name", "p4d.24xlarge"),
        ],
    );
    let (url, seen) = imds();
    let started = Instant::now();
    let v = json(&run(&dir.0, &url, &["status", "--json"]));
    eprintln!("status with detection took {:?}", started.elapsed());
    assert_eq!(v["instance"]["id"], "i-0p4dbox12345678a");
    assert_eq!(v["instance"]["provider"], "aws");
    assert_eq!(v["instance"]["sku"], "p4d.24xlarge");
    assert_eq!(v["instance"]["state"], "running");
    assert_eq!(v["price_source"]["kind"], "sheet");
    assert_eq!(v["price_source"]["instance_region"], "us-east-1");
    let cost = &v["cost"];
    assert_eq!(cost["price_source"], "sheet:aws-us-east-1");
    // pricing/aws-us-east-1.toml: p4d.24xlarge on demand at 21.957642 per hour.
    assert_eq!(cost["burn_per_hour"], "21.96");
    assert!(v["cloud_error"].is_null(), "{}", v["cloud_error"]);
    let needs = v["unknown_resources"][0].as_str().unwrap();
    assert!(needs.contains("need aws credentials"), "{needs}");
    assert!(needs.contains("AWS_ACCESS_KEY_ID"), "{needs}");
    let seen = seen.lock().unwrap().clone();
    assert!(seen[0].starts_with("PUT /latest/api/token"), "{seen:?}");
    assert!(
        seen.iter()
            .any(|l| l.starts_with("GET /latest/meta-data/instance-type")),
        "{seen:?}"
    );
}

#[test]
fn flags_and_config_override_what_was_detected() {
    let dir = machine("override", &[("sys_vendor", "Amazon EC2")]);
    let (url, seen) = imds();
    let v = json(&run(
        &dir.0,
        &url,
        &[
            "--instance",
            "i-0other00000000000",
            "--region",
            "us-west-2",
            "status",
            "--json",
        ],
    ));
    // The flags' instance, in the flags' region; the machine's own type does not price another.
    assert_eq!(v["instance"]["id"], "i-0other00000000000");
    assert_eq!(v["instance"]["sku"], "");
    assert!(v["cost"].is_null());

    // A config naming a provider: nothing is detected, nothing asked.
    let before = seen.lock().unwrap().len();
    let config = dir.0.join("demo.toml");
    std::fs::write(&config, "[instance]\nprovider = \"demo\"\n").unwrap();
    let v = json(&run(
        &dir.0,
        &url,
        &["status", "--json", "--config", config.to_str().unwrap()],
    ));
    assert_eq!(v["instance"]["id"], "i-0demo4a100f00d");
    assert_eq!(seen.lock().unwrap().len(), before);

    // The switch: detection off, no provider.
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["status", "--json"])
        .env("GPUMETER_DATA_DIR", dir.0.join("data"))
        .env("XDG_CONFIG_HOME", dir.0.join("config"))
        .env("GPUMETER_DETECT", "off")
        .env("GPUMETER_DETECT_DMI", dir.0.join("dmi"))
        .env("AWS_EC2_METADATA_SERVICE_ENDPOINT", &url)
        .output()
        .unwrap();
    let v = json(&out);
    assert!(v["instance"].is_null());
    assert!(
        v["cloud_error"]
            .as_str()
            .unwrap()
            .contains("no provider configured")
    );
}

#[test]
fn a_plain_machine_is_detected_as_none_and_asks_nothing() {
    let dir = machine(
        "plain",
        &[
            ("sys_vendor", "QEMU"),
            ("product_name", "Standard PC (Q35 + ICH9, 2009)"),
        ],
    );
    let (url, seen) = imds();
    let v = json(&run(&dir.0, &url, &["status", "--json"]));
    assert!(v["instance"].is_null());
    assert!(
        v["cloud_error"]
            .as_str()
            .unwrap()
            .contains("no provider configured")
    );
    assert!(seen.lock().unwrap().is_empty());
}

#[test]
fn a_metadata_service_that_never_answers_does_not_hang_status() {
    let dir = machine("silent", &[("sys_vendor", "Amazon EC2")]);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    let started = Instant::now();
    let out = run(&dir.0, &url, &["status", "--json"]);
    let took = started.elapsed();
    eprintln!("status against a silent metadata service took {took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    // AWS by DMI, but no instance and no credentials: the adapter's own error names them,
    // without waiting on the silent service again for an instance role.
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("AWS_ACCESS_KEY_ID"), "{stderr}");
    assert!(stderr.contains("AWS_EC2_METADATA_DISABLED"), "{stderr}");
}

#[test]
fn doctor_and_init_take_what_the_machine_says_and_say_where_from() {
    let dir = machine("doctor", &[("sys_vendor", "Amazon EC2")]);
    let (url, _) = imds();
    let v = json(&run(&dir.0, &url, &["doctor", "--json"]));
    let check = |key: &str| {
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["key"] == key)
            .unwrap_or_else(|| panic!("no {key} in {v}"))
            .clone()
    };
    let provider = check("provider");
    assert_eq!(provider["status"], "pass", "{provider}");
    let said = provider["detail"].as_str().unwrap();
    assert!(
        said.contains("aws") && said.contains("DMI sys_vendor"),
        "{said}"
    );
    let sku = check("sku");
    let said = sku["detail"].as_str().unwrap();
    assert!(
        said.contains("p4d.24xlarge") && said.contains("IMDSv2"),
        "{said}"
    );
    assert_eq!(check("credentials")["status"], "fail");

    let config = dir.0.join("written.toml");
    let out = run(
        &dir.0,
        &url,
        &["init", "--yes", "--config", config.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(&config).unwrap();
    for line in [
        "provider = \"aws\"",
        "id = \"i-0p4dbox12345678a\"",
        "region = \"us-east-1\"",
        "sku = \"p4d.24xlarge\"",
    ] {
        assert!(written.contains(line), "{line} missing from:\n{written}");
    }
}
