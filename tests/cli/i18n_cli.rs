//! `--help`, the manual and the errors with their fixes in the chosen language, as a user
//! runs them: the language is known before the command line is read, and English reads as
//! before.

use std::process::Output;

use super::actions_cli::{Cloud, stderr, stdout};

const CHINESE: &[(&str, &str)] = &[("LANG", "zh_CN.UTF-8"), ("LC_ALL", ""), ("LC_MESSAGES", "")];
const C: &[(&str, &str)] = &[("LANG", "C"), ("LC_ALL", ""), ("LC_MESSAGES", "")];

fn is_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", stderr(out));
    stdout(out)
}

#[test]
fn help_follows_the_flag_and_the_locale_and_english_reads_as_before() {
    let cloud = Cloud::new("i18n-help");
    let flag = ok(&cloud.run(&["--lang", "zh-CN", "status", "--help"], C));
    assert!(flag.contains("用法:") && flag.contains("选项:"), "{flag}");
    assert!(flag.contains("与 --demo 一起使用"), "{flag}");
    assert!(
        !flag.contains("Usage:") && !flag.contains("Print help"),
        "{flag}"
    );
    let locale = ok(&cloud.run(&["status", "--help"], CHINESE));
    assert_eq!(locale, flag);
    let english = ok(&cloud.run(&["status", "--help"], C));
    assert!(english.starts_with("One snapshot of the GPUs"), "{english}");
    assert!(
        english.contains("\nUsage: gpumeter status [OPTIONS]\n"),
        "{english}"
    );
    assert!(english.contains("  -h, --help "), "{english}");
    assert!(!is_chinese(&english), "{english}");
    let over_the_locale = ok(&cloud.run(&["status", "--help", "--lang=en"], CHINESE));
    assert_eq!(over_the_locale, english);
    let top = ok(&cloud.run(&["--help"], CHINESE));
    assert!(top.contains("命令:") && top.contains("示例："), "{top}");
}

#[test]
fn the_manual_follows_the_language() {
    let cloud = Cloud::new("i18n-man");
    let chinese = ok(&cloud.run(&["man", "--lang", "zh-CN"], C));
    assert!(
        chinese.contains(".SH 名称\n") && chinese.contains(".SH 选项\n"),
        "{chinese}"
    );
    assert!(!chinese.contains(".SH NAME"), "{chinese}");
    let english = ok(&cloud.run(&["man"], C));
    assert!(english.contains(".SH NAME\n") && !is_chinese(&english));
}

#[test]
fn a_refusal_and_a_bad_flag_are_in_chinese_and_read_as_before_in_english() {
    let cloud = Cloud::new("i18n-refusals");
    let refused = cloud.run(&["release", "--lang", "zh-CN"], C);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert_eq!(
        stderr(&refused),
        "gpumeter: 未经确认拒绝释放：没有可供询问的终端；请加上 --yes\n"
    );
    let english = cloud.run(&["release"], C);
    assert_eq!(
        stderr(&english),
        "gpumeter: refusing to release without confirmation: no terminal to ask on; pass --yes\n"
    );
    let read_only = cloud.run(&["stop", "--read-only"], CHINESE);
    assert_eq!(read_only.status.code(), Some(2));
    assert!(
        stderr(&read_only).starts_with("gpumeter: 拒绝关机：只读模式"),
        "{read_only:?}"
    );
    let too_long = cloud.run(&["--release-in", "99999h"], CHINESE);
    assert_eq!(too_long.status.code(), Some(2));
    let said = stderr(&too_long);
    assert!(
        said.starts_with("gpumeter: --release-in: `99999h` 太长"),
        "{said}"
    );
    let english = stderr(&cloud.run(&["--release-at", "7pm"], C));
    assert_eq!(
        english,
        "gpumeter: --release-at: `7pm` is not a clock time such as 18:30\n"
    );
    let usage = stderr(&cloud.run(&["stats"], CHINESE));
    assert!(usage.contains("\ngpumeter: 用法：gpumeter "), "{usage}");
}

#[test]
fn a_provider_error_keeps_its_own_words_and_its_fix_is_in_chinese() {
    let cloud = Cloud::new("i18n-provider");
    let fail = [("GPUMETER_DEMO_FAIL", "release")];
    let env = |lang: &[(&'static str, &'static str)]| -> Vec<(&'static str, &'static str)> {
        lang.iter().chain(&fail).copied().collect()
    };
    let chinese = cloud.run(&["release", "--yes"], &env(CHINESE));
    assert_eq!(chinese.status.code(), Some(1), "{chinese:?}");
    let said = stderr(&chinese);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 2, "{said}");
    // The provider's code and message come as they came; the kind word stays for scripts.
    assert!(lines[0].starts_with("gpumeter: 释放失败: "), "{said}");
    assert!(lines[0].contains("(injected failure)"), "{said}");
    assert!(
        lines[1].starts_with("gpumeter: 修复 (unreachable)："),
        "{said}"
    );
    assert!(
        is_chinese(lines[1].trim_start_matches("gpumeter: 修复")),
        "{said}"
    );
    let english = stderr(&cloud.run(&["release", "--yes"], &env(C)));
    assert!(
        english.starts_with("gpumeter: release failed: "),
        "{english}"
    );
    assert!(
        english.contains("\ngpumeter: fix (unreachable): "),
        "{english}"
    );
    assert!(!is_chinese(&english), "{english}");
}

#[test]
fn nothing_to_do_says_why_in_chinese() {
    let cloud = Cloud::new("i18n-nothing");
    ok(&cloud.run(&["release", "--yes"], C));
    let again = ok(&cloud.run(&["stop", "--yes"], CHINESE));
    assert!(again.starts_with("关机：无需操作；"), "{again}");
    assert!(again.contains("实例已释放：没有可关机的对象"), "{again}");
    let english = ok(&cloud.run(&["stop", "--yes"], C));
    assert!(
        english
            .starts_with("stop: nothing to do; the instance is released: there is nothing to stop"),
        "{english}"
    );
}

#[test]
fn the_config_s_language_reaches_help_and_its_own_errors_are_in_it() {
    let cloud = Cloud::new("i18n-config");
    let config = cloud.path().join("config.toml");
    std::fs::write(&config, "[ui]\nlanguage = \"zh-CN\"\n").unwrap();
    let path = config.to_str().unwrap();
    let help = ok(&cloud.run(&["--config", path, "status", "--help"], C));
    assert!(help.contains("用法:"), "{help}");
    std::fs::write(&config, "[deadline]\nrelease_in = \"soon\"\n").unwrap();
    let bad = cloud.run(&["--config", path, "checklist"], CHINESE);
    assert_eq!(bad.status.code(), Some(2));
    let said = stderr(&bad);
    // file:line:column and the key stay; the words after them are Chinese.
    let place = format!("gpumeter: {path}:2:14: deadline.release_in: `soon` ");
    assert!(said.starts_with(&place), "{said}");
    assert!(is_chinese(&said), "{said}");
    let english = stderr(&cloud.run(&["--config", path, "checklist"], C));
    assert_eq!(
        english,
        format!(
            "gpumeter: {path}:2:14: deadline.release_in: `soon` is not a duration: write it like 8h, 45m, 90s or 1h30m\n"
        )
    );
}

#[test]
fn a_sheet_error_keeps_its_place_and_says_the_rest_in_chinese() {
    let cloud = Cloud::new("i18n-sheet");
    let sheet = cloud.path().join("mine.toml");
    let text = "provider = \"x\"\ncurrency = \"USD\"\nas_of = \"2026-01-01\"\nsource = \"me\"\n\
                [billing]\nstep_seconds = 0\n";
    std::fs::write(&sheet, text).unwrap();
    let path = sheet.to_str().unwrap();
    let chinese = cloud.run(&["pricing", "validate", path], CHINESE);
    assert_eq!(chinese.status.code(), Some(2));
    assert_eq!(
        stderr(&chinese),
        format!("gpumeter: {path}:6:16: `billing.step_seconds` 为 0，应为至少 1 的整数\n")
    );
    let english = stderr(&cloud.run(&["pricing", "validate", path], C));
    assert_eq!(
        english,
        format!(
            "gpumeter: {path}:6:16: `billing.step_seconds` is 0, expected a whole number of at least 1\n"
        )
    );
    std::fs::write(&sheet, "").unwrap();
    let missing = stderr(&cloud.run(&["pricing", "validate", path], CHINESE));
    assert!(
        missing.ends_with(":1:1: 缺少键 `provider`，应为云服务商名称，例如 \"aws\"\n"),
        "{missing}"
    );
}

#[test]
fn a_damaged_ledger_is_said_in_chinese_and_left_as_it_is() {
    let cloud = Cloud::new("i18n-ledger");
    let ledger = cloud.path().join("demo-ledger.sqlite");
    let garbage = vec![0x5a_u8; 4096];
    std::fs::write(&ledger, &garbage).unwrap();
    let out = cloud.run(&["extend", "1h"], CHINESE);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = stderr(&out);
    assert!(
        said.starts_with("gpumeter: 账本 ") && said.contains("已损坏"),
        "{said}"
    );
    assert_eq!(std::fs::read(&ledger).unwrap(), garbage);
}

#[test]
fn a_command_s_bad_input_is_in_chinese() {
    let cloud = Cloud::new("i18n-bad-input");
    let days = [
        "estimate",
        "--rate",
        "1",
        "--currency",
        "USD",
        "--hours-per-day",
        "8",
        "--days",
        "0",
    ];
    let chinese = cloud.run(&days, CHINESE);
    assert_eq!(chinese.status.code(), Some(2));
    assert_eq!(stderr(&chinese), "gpumeter: --days 必须大于 0，实际为 0\n");
    let english = cloud.run(&days, C);
    assert_eq!(
        stderr(&english),
        "gpumeter: --days must be more than 0, got 0\n"
    );
    let cleanup = stderr(&cloud.run(&["cleanup"], CHINESE));
    assert!(
        cleanup.starts_with("gpumeter: cleanup：请说明要删除什么："),
        "{cleanup}"
    );
}
