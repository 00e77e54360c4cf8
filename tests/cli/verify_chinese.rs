//! `gpumeter verify --lang zh-CN` against the fake NVML: the headline and every check's sentence
//! read in Chinese on the terminal, no English sentence of a check is left, and `--json` (what
//! the ledger keeps too) is the same in both languages.

use std::process::Output;

use serde_json::Value;

use super::fake_libs;

/// `verify --seconds 1` in `scenario` with the fake CUDA driver as `cuda`, with `args`.
fn verify(scenario: &str, cuda: &str, args: &[&str]) -> Option<Output> {
    let data = tempfile::tempdir().unwrap();
    let out = fake_libs::gpumeter(scenario, data.path())?
        .env("FAKE_CUDA_SCENARIO", cuda)
        .env("HOME", data.path())
        .env("XDG_CONFIG_HOME", data.path())
        .args(["verify", "--seconds", "1"])
        .args(args)
        .output()
        .unwrap();
    Some(out)
}

fn is_chinese(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// The runs of three or more lowercase English words in `text`: what is left of a sentence
/// that was not translated. Model names, codes and units never make one.
fn english_runs(text: &str) -> Vec<String> {
    let mut runs = Vec::new();
    for piece in text.split(|c: char| !(c.is_ascii_lowercase() || c == ' ' || c == '\'')) {
        let words: Vec<&str> = piece.split(' ').filter(|w| !w.is_empty()).collect();
        if words.len() >= 3 {
            runs.push(words.join(" "));
        }
    }
    runs
}

/// What a check says in English, less what came from outside and stays as it was said (the
/// driver's own words, NVML's reason codes).
fn own_words(v: &Value, check: &Value) -> String {
    let mut message = check["message"].as_str().unwrap().to_string();
    if let Some(detail) = v["bench_error"]["detail"].as_str() {
        message = message.replace(detail, "");
    }
    message
}

#[test]
fn every_check_reads_in_chinese_and_no_english_sentence_is_left() {
    let scenarios = [
        ("", "working"),
        ("", "no_device"),
        ("mig", "no_device"),
        ("vgpu", "no_device"),
        ("foreign", "no_device"),
        ("throttle", "working"),
        ("ecc", "no_device"),
        ("pcie_trained_down", "working"),
        ("errors", "no_device"),
    ];
    let mut seen = 0;
    for (scenario, cuda) in scenarios {
        let Some(english) = verify(scenario, cuda, &["--json"]) else {
            return;
        };
        let v: Value = serde_json::from_slice(&english.stdout).unwrap();
        let Some(out) = verify(scenario, cuda, &["--lang", "zh-CN"]) else {
            return;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        let headline = text.lines().next().unwrap_or_default();
        assert!(headline.chars().any(is_chinese), "{scenario}: {headline}");
        for check in v["checks"].as_array().unwrap() {
            for run in english_runs(&own_words(&v, check)) {
                // The benchmark's figures differ between the runs; the words do not.
                assert!(
                    !text.contains(&run),
                    "{scenario}/{cuda}: `{run}` of {} left in English:\n{text}",
                    check["code"]
                );
                seen += 1;
            }
        }
        // Each line that says what a check means is in Chinese.
        let said: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("GPU 0 ") || l.starts_with("本机 "))
            .collect();
        for line in &said {
            assert!(line.chars().any(is_chinese), "{scenario}: {line}");
        }
    }
    assert!(seen > 100, "only {seen} English runs were looked for");
}

#[test]
fn the_json_is_the_same_in_both_languages() {
    for scenario in ["", "throttle", "mig", "ecc"] {
        let Some(english) = verify(scenario, "no_device", &["--json"]) else {
            return;
        };
        let chinese = verify(scenario, "no_device", &["--json", "--lang", "zh-CN"]).unwrap();
        let (en, zh): (Value, Value) = (
            serde_json::from_slice(&english.stdout).unwrap(),
            serde_json::from_slice(&chinese.stdout).unwrap(),
        );
        assert_eq!(en, zh, "{scenario}");
        assert!(
            !String::from_utf8_lossy(&chinese.stdout)
                .chars()
                .any(is_chinese)
        );
        assert_eq!(english.status.code(), chinese.status.code());
    }
}

#[test]
fn python_and_bandwidth_read_in_chinese_too() {
    let data = tempfile::tempdir().unwrap();
    let missing = data.path().join("no-such-python");
    let missing = missing.to_str().unwrap();
    let args = ["--python", missing, "--bandwidth", "http://127.0.0.1:9/f"];
    let Some(english) = verify("", "no_device", &[&["--json"][..], &args[..]].concat()) else {
        return;
    };
    let v: Value = serde_json::from_slice(&english.stdout).unwrap();
    let out = verify(
        "",
        "no_device",
        &[&["--lang", "zh-CN"][..], &args[..]].concat(),
    )
    .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("无法读取解释器中的 torch"), "{text}");
    assert!(text.contains("无法读取下载速率"), "{text}");
    for (code, english) in [
        ("torch", "torch in the interpreter could not be read"),
        ("network_bandwidth", "the download rate could not be read"),
    ] {
        let c = v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["code"] == code)
            .unwrap();
        let message = c["message"].as_str().unwrap();
        assert!(message.starts_with(english), "{message}");
        assert!(!text.contains(english), "{text}");
    }
}

/// Run in Chinese, the ledger keeps the English headline and the whole English report, with
/// what `--python` and `--bandwidth` found.
#[test]
fn the_ledger_keeps_english_and_the_new_checks_evidence() {
    let data = tempfile::tempdir().unwrap();
    let missing = data.path().join("no-such-python");
    let Some(command) = fake_libs::gpumeter("", data.path()) else {
        return;
    };
    let mut command = command;
    let out = command
        .env("FAKE_CUDA_SCENARIO", "no_device")
        .env("HOME", data.path())
        .env("XDG_CONFIG_HOME", data.path())
        .args(["--lang", "zh-CN", "verify", "--seconds", "1", "--python"])
        .arg(&missing)
        .args(["--bandwidth", "http://127.0.0.1:9/f"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).chars().any(is_chinese));
    let ledger = gpumeter::ledger::Ledger::open(data.path().join("ledger.sqlite")).unwrap();
    let kept = ledger
        .last_verification("any instance")
        .unwrap()
        .expect("the run was kept");
    assert!(!kept.headline.chars().any(is_chinese), "{}", kept.headline);
    assert!(!kept.summary.chars().any(is_chinese), "{}", kept.summary);
    let evidence: Value = serde_json::from_str(&kept.report).unwrap();
    assert_eq!(evidence["python"]["state"], "not_run");
    assert!(
        evidence["bandwidth"]["download"]["error"].is_string(),
        "{evidence:#}"
    );
    assert!(!kept.report.chars().any(is_chinese));
    let torch = evidence["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "torch")
        .unwrap();
    let message = torch["message"].as_str().unwrap();
    assert!(
        message.starts_with("torch in the interpreter could not be read"),
        "{message}"
    );
}

/// The table's readings that are words (`off`, `bare_metal or passthrough`) read in Chinese on
/// the terminal; the JSON keeps the words.
#[test]
fn the_tables_words_read_in_chinese_and_the_json_keeps_them() {
    let Some(out) = verify("", "no_device", &["--lang", "zh-CN"]) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let row = |code: &str| {
        text.lines()
            .find(|l| l.split_whitespace().nth(1) == Some(code))
            .unwrap_or_else(|| panic!("no {code} row:\n{text}"))
            .to_string()
    };
    assert!(row("vgpu").contains("裸金属或直通"), "{text}");
    assert!(row("compute_mode").contains("未禁止"), "{text}");
    assert!(row("mig").contains("关闭"), "{text}");
    assert!(row("ecc").contains("0 个错误"), "{text}");
    let json = verify("", "no_device", &["--json"]).unwrap();
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    let rated = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "vgpu")
        .map(|c| c["rated"].clone())
        .unwrap();
    assert!(
        rated.to_string().contains("bare_metal or passthrough"),
        "{rated}"
    );
}
