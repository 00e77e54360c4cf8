//! What the GPUs are found to lack, said in Simplified Chinese by `status`, as a user runs it:
//! the findings and their grades are Chinese, no English sentence of them is left, and
//! `--json` keeps the English messages, the same in both languages.

use std::process::{Command, Output};

use serde_json::Value;

fn gpumeter(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A demo whose GPUs are not what the SKU sells, with a driver too old and a job on the CPU.
const DEMO: [&str; 14] = [
    "status",
    "--demo",
    "--scenario",
    "cpu-bound",
    "--gpu-model",
    "NVIDIA A100-SXM4-40GB",
    "--sku",
    "p4de.24xlarge",
    "--provider",
    "aws-us-east-1",
    "--require-cuda",
    "12.8",
    "--seed",
    "9",
];

fn run(lang: &str, json: bool) -> Output {
    let mut args = vec!["--lang", lang];
    args.extend(DEMO);
    if json {
        args.push("--json");
    }
    gpumeter(&args)
}

#[test]
fn status_says_its_findings_in_chinese_and_keeps_the_json_english() {
    let zh = String::from_utf8(run("zh-CN", false).stdout).unwrap();
    let en = String::from_utf8(run("en", false).stdout).unwrap();
    assert!(en.contains("paying for 8 × A100 80GB"), "{en}");
    assert!(en.contains("critical"), "{en}");
    for said in [
        "付费购买 8 × A100 80GB",
        "驱动最高支持 CUDA",
        "任务可能在 CPU 上运行",
        "严重",
        "警告",
    ] {
        assert!(zh.contains(said), "{said} missing:\n{zh}");
    }
    for english in [
        "paying for",
        "NVML reports",
        "the driver supports",
        "may be running",
        "critical",
        "warning",
    ] {
        assert!(!zh.contains(english), "{english} left:\n{zh}");
    }
    let findings = |lang| {
        let v: Value = serde_json::from_slice(&run(lang, true).stdout).unwrap();
        v["findings"].clone()
    };
    let (zh, en) = (findings("zh-CN"), findings("en"));
    assert_eq!(zh, en);
    assert!(
        en[0]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("paying for")),
        "{en}"
    );
}
