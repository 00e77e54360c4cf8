//! Detection against fixture DMI trees, fixture PID 1 environments and loopback metadata peers.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::*;
use crate::provider::metadata_stub::{Asked, Stub};

/// A DMI tree and a PID 1 environment under a fresh directory.
fn machine(name: &str, dmi: &[(&str, &str)], environ: &[u8]) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("gpumeter-detect-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let root = dir.join("dmi");
    std::fs::create_dir_all(&root).unwrap();
    for (file, value) in dmi {
        std::fs::write(root.join(file), format!("{value}\n")).unwrap();
    }
    let environ_path = dir.join("environ");
    std::fs::write(&environ_path, environ).unwrap();
    (root, environ_path)
}

fn seams(name: &str, dmi: &[(&str, &str)], environ: &[u8], peer: &str) -> Seams {
    let (dmi_root, pid1_environ) = machine(name, dmi, environ);
    Seams {
        enabled: true,
        dmi_root,
        pid1_environ,
        aws_metadata: Some(peer.to_string()),
        alibaba_metadata: peer.to_string(),
        tencent_metadata: peer.to_string(),
        bound: BOUND,
    }
}

/// IMDSv2 as the EC2 docs describe it: a token from `PUT /latest/api/token` with a TTL
/// header, then GETs that carry it; anything without the token is 401.
fn imds(a: &Asked) -> (u16, String) {
    if a.method == "PUT" && a.path == "/latest/api/token" {
        let ttl = a.header("x-aws-ec2-metadata-token-ttl-seconds");
        return if ttl.is_some() {
            (200, "tok-123".into())
        } else {
            (400, String::new())
        };
    }
    if a.header("x-aws-ec2-metadata-token") != Some("tok-123") {
        return (401, String::new());
    }
    match a.path.as_str() {
        "/latest/meta-data/instance-id" => (200, "i-0abc1234def567890".into()),
        "/latest/meta-data/placement/region" => (200, "us-east-1".into()),
        "/latest/meta-data/instance-type" => (200, "p4d.24xlarge".into()),
        _ => (404, String::new()),
    }
}

#[tokio::test]
async fn aws_by_dmi_then_imdsv2_with_a_token() {
    let peer = Stub::start(imds);
    let s = seams("aws", &[("sys_vendor", "Amazon EC2")], b"", &peer.url);
    let d = detect(&s).await;
    assert_eq!(d.provider.as_ref().unwrap().value, ProviderKind::Aws);
    assert_eq!(d.instance.unwrap().value, "i-0abc1234def567890");
    let region = d.region.unwrap();
    assert_eq!(region.value, "us-east-1");
    assert_eq!(region.from, format!("{} (IMDSv2)", peer.url));
    assert_eq!(d.instance_type.unwrap().value, "p4d.24xlarge");
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    let asked = peer.asked();
    assert_eq!(asked[0].method, "PUT");
    assert!(asked[1..].iter().all(|a| a.method == "GET"));
}

#[tokio::test]
async fn alibaba_by_dmi_then_its_metadata_paths() {
    let peer = Stub::start(|a: &Asked| match (a.method.as_str(), a.path.as_str()) {
        ("PUT", "/latest/api/token") => (200, "ali-token".into()),
        ("GET", "/latest/meta-data/instance-id") => (200, "i-bp1abcdef".into()),
        ("GET", "/latest/meta-data/region-id") => (200, "cn-hangzhou".into()),
        ("GET", "/latest/meta-data/instance/instance-type") => {
            (200, "ecs.gn7i-c8g1.2xlarge".into())
        }
        _ => (404, String::new()),
    });
    let dmi = [("product_name", "Alibaba Cloud ECS")];
    let d = detect(&seams("alibaba", &dmi, b"", &peer.url)).await;
    assert_eq!(d.provider.unwrap().value, ProviderKind::Alibaba);
    assert_eq!(d.instance.unwrap().value, "i-bp1abcdef");
    assert_eq!(d.region.unwrap().value, "cn-hangzhou");
    assert_eq!(d.instance_type.unwrap().value, "ecs.gn7i-c8g1.2xlarge");
    let gets = peer.asked().into_iter().filter(|a| a.method == "GET");
    assert!(
        gets.into_iter()
            .all(|a| a.header("x-aliyun-ecs-metadata-token") == Some("ali-token"))
    );
}

#[tokio::test]
async fn tencent_by_dmi_then_its_metadata_paths() {
    let peer = Stub::start(|a: &Asked| match a.path.as_str() {
        "/latest/meta-data/instance-id" => (200, "ins-a1b2c3d4".into()),
        "/latest/meta-data/placement/region" => (200, "ap-guangzhou".into()),
        "/latest/meta-data/instance/instance-type" => (200, "GN7.2XLARGE32".into()),
        _ => (404, String::new()),
    });
    let dmi = [("sys_vendor", "Tencent Cloud"), ("product_name", "CVM")];
    let d = detect(&seams("tencent", &dmi, b"", &peer.url)).await;
    assert_eq!(d.provider.unwrap().value, ProviderKind::Tencent);
    assert_eq!(d.instance.unwrap().value, "ins-a1b2c3d4");
    assert_eq!(d.region.unwrap().value, "ap-guangzhou");
    assert_eq!(d.instance_type.unwrap().value, "GN7.2XLARGE32");
}

#[tokio::test]
async fn the_gpu_clouds_from_pid_1_ask_nothing_on_the_network() {
    let peer = Stub::start(|_: &Asked| (500, String::new()));
    let runpod = seams("runpod", &[], b"RUNPOD_POD_ID=pod42xyz\0", &peer.url);
    let d = detect(&runpod).await;
    assert_eq!(d.provider.unwrap().value, ProviderKind::Runpod);
    let instance = d.instance.unwrap();
    assert_eq!(instance.value, "pod42xyz");
    assert_eq!(instance.from, "PID 1's RUNPOD_POD_ID");
    let vast = seams(
        "vast",
        &[],
        b"CONTAINER_ID=777\0VAST_CONTAINERLABEL=C.777\0",
        &peer.url,
    );
    assert_eq!(detect(&vast).await.instance.unwrap().value, "777");
    assert!(peer.asked().is_empty());
}

#[tokio::test]
async fn a_plain_machine_is_none_and_asks_nothing() {
    let peer = Stub::start(imds);
    let dmi = [
        ("sys_vendor", "QEMU"),
        ("product_name", "Standard PC (i440FX + PIIX, 1996)"),
    ];
    let d = detect(&seams("plain", &dmi, b"HOME=/root\0", &peer.url)).await;
    assert!(d.is_none());
    assert_eq!(d, Detected::default());
    assert!(peer.asked().is_empty());
}

#[tokio::test]
async fn nothing_readable_is_nothing_found() {
    let s = Seams {
        dmi_root: PathBuf::from("/nonexistent/dmi"),
        pid1_environ: PathBuf::from("/nonexistent/environ"),
        ..seams("unreadable", &[], b"", "http://127.0.0.1:9")
    };
    assert!(detect(&s).await.is_none());
}

#[tokio::test]
async fn the_switch_turns_detection_off() {
    let peer = Stub::start(imds);
    let mut s = seams("off", &[("sys_vendor", "Amazon EC2")], b"", &peer.url);
    s.enabled = false;
    assert!(detect(&s).await.is_none());
    assert!(peer.asked().is_empty());
    let from = Seams::from_lookup(|n| (n == SWITCH_ENV).then(|| "off".to_string()));
    assert!(!from.enabled);
    let aws_off = Seams::from_lookup(|n| (n == "AWS_EC2_METADATA_DISABLED").then(|| "TRUE".into()));
    assert!(aws_off.enabled);
    assert_eq!(aws_off.aws_metadata, None);
    assert_eq!(aws_off.dmi_root, PathBuf::from(DMI_ROOT));
}

#[tokio::test]
async fn a_service_that_never_answers_ends_within_the_bound() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    // Accepts every connection and keeps it open without a word.
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    let s = seams("silent", &[("sys_vendor", "Amazon EC2")], b"", &url);
    let started = Instant::now();
    let d = detect(&s).await;
    let took = started.elapsed();
    eprintln!("a silent metadata service took {took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert_eq!(d.provider.unwrap().value, ProviderKind::Aws);
    assert_eq!(d.region, None);
    assert_eq!(d.problems.len(), 1);
    assert!(d.problems[0].contains(&url), "{:?}", d.problems);
}

#[tokio::test]
async fn a_service_that_fails_says_so_and_keeps_what_dmi_said() {
    let peer = Stub::start(|_: &Asked| (503, String::new()));
    let dmi = [
        ("sys_vendor", "Amazon EC2"),
        ("board_asset_tag", "i-0123456789abcdef0"),
    ];
    let d = detect(&seams("failing", &dmi, b"", &peer.url)).await;
    assert_eq!(d.instance.unwrap().from, "DMI board_asset_tag");
    assert!(d.problems[0].contains("IMDSv2"), "{:?}", d.problems);
}
