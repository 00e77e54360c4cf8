//! An AWS instance is priced from the bundled sheet for its region: `checklist --json` against
//! a loopback EC2 endpoint that lists one p4d.24xlarge in the region asked.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

const INSTANCE: &str = "i-0regional";

/// The EC2 Query API answer to `action`: the instance for DescribeInstances, nothing else.
fn answer(action: &str) -> String {
    let body = if action == "DescribeInstances" {
        format!(
            "<reservationSet><item><instancesSet><item><instanceId>{INSTANCE}</instanceId>\
             <instanceType>p4d.24xlarge</instanceType><instanceState><name>running</name>\
             </instanceState><launchTime>2026-01-01T00:00:00.000Z</launchTime></item>\
             </instancesSet></item></reservationSet>"
        )
    } else {
        String::new()
    };
    format!(
        "<{action}Response xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">{body}</{action}Response>"
    )
}

fn serve(stream: &TcpStream) {
    let mut reader = BufReader::new(stream);
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let body = String::from_utf8_lossy(&body);
    let action = body
        .split('&')
        .find_map(|kv| kv.strip_prefix("Action="))
        .unwrap_or_default();
    let xml = answer(action);
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{xml}",
        xml.len()
    );
}

/// A loopback EC2 endpoint, answering until the test process ends.
fn ec2() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || serve(&stream));
        }
    });
    url
}

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn checklist(region: &str) -> Value {
    let dir = Dir(
        std::env::temp_dir().join(format!("gpumeter-regional-{region}-{}", std::process::id()))
    );
    let _ = std::fs::remove_dir_all(&dir.0);
    std::fs::create_dir_all(&dir.0).unwrap();
    std::fs::write(dir.0.join("config.toml"), "").unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    cmd.args(["checklist", "--json", "--provider", "aws"])
        .args(["--instance", INSTANCE, "--region", region])
        .arg("--config")
        .arg(dir.0.join("config.toml"))
        .env("GPUMETER_DATA_DIR", &dir.0)
        .env("HOME", &dir.0)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ACCESS_KEY_ID", "AKIDREGIONAL")
        .env("AWS_SECRET_ACCESS_KEY", "regional-secret")
        .env("AWS_ENDPOINT_URL_EC2", ec2())
        .stdin(Stdio::null());
    for name in [
        "AWS_SESSION_TOKEN",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_ENDPOINT_URL",
        "AWS_PROFILE",
        "AWS_SHARED_CREDENTIALS_FILE",
        "AWS_CONFIG_FILE",
    ] {
        cmd.env_remove(name);
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn an_aws_instance_in_us_west_2_is_priced_from_the_us_west_2_sheet() {
    let v = checklist("us-west-2");
    assert_eq!(v["instance"], INSTANCE, "{v}");
    let source = &v["price_source"];
    assert_eq!(source["sheet"], "aws-us-west-2", "{v}");
    assert_eq!(source["kind"], "sheet", "{v}");
    assert_eq!(source["sheet_region"], "us-west-2", "{v}");
    assert_eq!(source["instance_region"], "us-west-2", "{v}");
}

#[test]
fn a_region_without_a_sheet_is_priced_from_us_east_1_as_an_estimate() {
    let v = checklist("sa-east-1");
    let source = &v["price_source"];
    assert_eq!(source["sheet"], "aws-us-east-1", "{v}");
    assert_eq!(source["kind"], "other_region", "{v}");
    assert_eq!(source["instance_region"], "sa-east-1", "{v}");
}
