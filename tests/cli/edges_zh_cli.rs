//! A fleet account that cannot be read, said in Simplified Chinese, as a user runs it: the
//! table's and stderr's reason are Chinese, and `fleet --json` keeps the English one.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn fleet(dir: &Path, lang: &str, json: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    cmd.args(["--lang", lang, "--config"])
        .arg(dir.join("config.toml"))
        .arg("fleet")
        .env("NO_COLOR", "1")
        .env("HOME", dir)
        .env("GPUMETER_DATA_DIR", dir)
        .env("AUTODL_TOKEN", "token-for-the-test")
        .env_remove("AUTODL_CREDENTIALS_FILE")
        .env_remove("XDG_CONFIG_HOME");
    if json {
        cmd.arg("--json");
    }
    cmd.output().expect("the binary runs")
}

#[test]
fn an_account_that_cannot_be_listed_is_said_in_chinese_and_kept_english_in_json() {
    let dir = tempfile::tempdir().unwrap();
    // Nothing listens on the discard port: the listing cannot connect.
    std::fs::write(
        dir.path().join("config.toml"),
        "[[fleet]]\nprovider = \"autodl\"\naccount = \"lab\"\n\
         env = { GPUMETER_AUTODL_ENDPOINT = \"http://127.0.0.1:9\" }\n",
    )
    .unwrap();
    let zh = fleet(dir.path(), "zh-CN", false);
    let (out, err) = (
        String::from_utf8_lossy(&zh.stdout),
        String::from_utf8_lossy(&zh.stderr),
    );
    for said in [&out, &err] {
        assert!(said.contains("无法列出实例："), "{said}");
        assert!(!said.contains("could not list"), "{said}");
    }
    let en = fleet(dir.path(), "en", false);
    let english = String::from_utf8_lossy(&en.stdout);
    assert!(
        english.contains("! could not list the instances: "),
        "{english}"
    );
    let error = |lang| {
        let out = fleet(dir.path(), lang, true);
        let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
        rows[0]["error"].clone()
    };
    let (zh, en) = (error("zh-CN"), error("en"));
    assert_eq!(zh, en);
    assert!(
        en.as_str()
            .is_some_and(|e| e.starts_with("could not list the instances: ")),
        "{en}"
    );
}
