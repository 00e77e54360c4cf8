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
