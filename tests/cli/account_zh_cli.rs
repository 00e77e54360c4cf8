//! The account commands' own text in Simplified Chinese, run as a user runs them: the words
//! are Chinese, no English word of the text is left in it, tables stay in line by display
//! width, and `--json` is the same in both languages.

use std::process::Output;

use serde_json::Value;
use unicode_width::UnicodeWidthStr as _;

use super::actions_cli::{Cloud, stderr, stdout};

const CHINESE: &[(&str, &str)] = &[("LANG", "zh_CN.UTF-8"), ("LC_ALL", ""), ("LC_MESSAGES", "")];
const C: &[(&str, &str)] = &[("LANG", "C"), ("LC_ALL", ""), ("LC_MESSAGES", "")];

/// Runs `args` in Chinese and in English on the same cloud.
fn both(cloud: &Cloud, args: &[&str]) -> (Output, Output) {
    (cloud.run(args, CHINESE), cloud.run(args, C))
}

/// Fails naming each English word of `words` left in `text`, which should be Chinese.
fn no_english(text: &str, words: &[&str]) {
    let left: Vec<&&str> = words.iter().filter(|w| text.contains(**w)).collect();
    assert!(left.is_empty(), "English left in: {left:?}\n{text}");
}

/// What the demo cloud moves between two runs a moment apart: the clock, what has accrued
/// and the simulated readings. Everything else must be the same in both languages.
const MOVING: &[&str] = &[
    "time",
    "cost",
    "remaining_s",
    "deadline_remaining_s",
    "uptime_s",
    "gpus",
    "host",
];

fn steady(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|k, _| !MOVING.contains(&k.as_str()));
            map.values_mut().for_each(steady);
        }
        Value::Array(items) => items.iter_mut().for_each(steady),
        _ => {}
    }
}

/// The JSON of `args` is the same whatever the language, and its keys are the English ones.
fn same_json(cloud: &Cloud, args: &[&str]) {
    let (zh, en) = both(cloud, args);
    assert!(!stdout(&en).is_empty(), "{args:?}: {}", stderr(&en));
    assert!(
        !stdout(&zh)
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    );
    let mut zh: Value = serde_json::from_slice(&zh.stdout).unwrap();
    let mut en: Value = serde_json::from_slice(&en.stdout).unwrap();
    steady(&mut zh);
    steady(&mut en);
    assert_eq!(zh, en, "{args:?}");
}

/// The display column where `column` starts on the line holding `key`.
fn column_at(text: &str, key: &str, column: &str) -> usize {
    let line = text
        .lines()
        .find(|l| l.contains(key))
        .unwrap_or_else(|| panic!("no line with {key}:\n{text}"));
    let at = line
        .find(column)
        .unwrap_or_else(|| panic!("no {column} in {line}"));
    line[..at].width()
}

#[test]
fn sweep_speaks_chinese_in_a_table_that_lines_up() {
    let cloud = Cloud::new("zh-sweep");
    let (zh, en) = both(&cloud, &["sweep"]);
    let zh = stdout(&zh);
    assert!(zh.contains("类型") && zh.contains("每月计费"), "{zh}");
    assert!(zh.contains("数据盘") || zh.contains("快照"), "{zh}");
    assert!(zh.contains("严重 快照 snap-0public：公开"), "{zh}");
    no_english(
        &zh,
        &[
            "kind ",
            "a month",
            " from ",
            "state",
            "bills",
            "unpriced",
            "data_disk",
            "snapshot ",
            "CRITICAL",
            "public:",
            "unencrypted",
        ],
    );
    let en = stdout(&en);
    assert!(en.contains("a month") && en.contains("bills "), "{en}");
    // The id column starts at the same display column in the header and every row.
    let header = column_at(&zh, "类型", "ID");
    for id in ["snap-", "vol-"] {
        if zh.contains(id) {
            assert_eq!(column_at(&zh, id, id), header, "{zh}");
        }
    }
    same_json(&cloud, &["sweep", "--json"]);
}

#[test]
fn checklist_and_status_say_their_lines_in_chinese() {
    let cloud = Cloud::new("zh-status");
    let (zh, _) = both(&cloud, &["checklist"]);
    let zh = stdout(&zh);
    assert!(zh.contains("仍会继续计费"), "{zh}");
    no_english(&zh, &["keep billing", "a month", "days old"]);
    same_json(&cloud, &["checklist", "--json"]);
    assert!(cloud.run(&["extend", "2h", "--yes"], C).status.success());
    let (zh, en) = both(&cloud, &["status"]);
    let (zh, en) = (stdout(&zh), stdout(&en));
    assert!(zh.contains("执行") && zh.contains("截止"), "{zh}");
    no_english(
        &zh,
        &[
            "enforced",
            "NOT ENFORCED",
            " then ",
            "driver ",
            "deadline",
            "host ",
            "cores",
            "memory",
            " free",
            "running",
            "data_disk",
        ],
    );
    assert!(en.contains("\nenforced  "), "{en}");
    same_json(&cloud, &["status", "--json"]);
    let mut prepaid = CHINESE.to_vec();
    prepaid.push(("GPUMETER_DEMO_BALANCE", "300"));
    let balance = stdout(&cloud.run(&["status"], &prepaid));
    assert!(balance.contains("\n余额"), "{balance}");
}

#[test]
fn the_actions_frame_the_confirmation_in_chinese() {
    let cloud = Cloud::new("zh-actions");
    let (zh, en) = both(&cloud, &["release", "--dry-run"]);
    let zh = stdout(&zh);
    assert!(zh.starts_with("演练：不做任何改动。将会调用："), "{zh}");
    no_english(&zh, &["dry run", "It would call"]);
    assert!(
        stdout(&en).starts_with("dry run: nothing is changed. It would call:"),
        "{}",
        stdout(&en)
    );
    let stop = cloud.run(&["stop", "--yes"], CHINESE);
    assert!(stop.status.success(), "{}", stderr(&stop));
    let said = stdout(&stop);
    assert!(said.starts_with("关机：已完成；云服务商报告"), "{said}");
    no_english(&said, &["done", "the provider reports"]);
}

#[test]
fn extend_says_where_the_deadline_went_in_chinese() {
    let cloud = Cloud::new("zh-extend");
    let dry = stdout(&cloud.run(&["extend", "2h", "--dry-run"], CHINESE));
    assert!(
        dry.contains("截止时间将改为") && dry.contains("守护记录"),
        "{dry}"
    );
    no_english(
        &dry,
        &["dry run", "ledger", "guard row", "NOT ENFORCED", "holds"],
    );
    let done = cloud.run(&["extend", "2h", "--yes"], CHINESE);
    assert!(done.status.success(), "{}", stderr(&done));
    let said = stdout(&done);
    assert!(said.starts_with("截止时间已改为"), "{said}");
    no_english(
        &said,
        &["deadline moved", "the watchdog", "holds", "enforced"],
    );
}

#[test]
fn cleanup_lists_and_deletes_in_chinese() {
    let cloud = Cloud::new("zh-cleanup");
    let dry = stdout(&cloud.run(&["cleanup", "--all", "--dry-run"], CHINESE));
    assert!(dry.starts_with("演练："), "{dry}");
    let done = cloud.run(&["cleanup", "--all", "--yes"], CHINESE);
    let said = stdout(&done);
    assert!(
        said.contains("已删除") && said.contains("回读确认"),
        "{said}"
    );
    no_english(
        &said,
        &["deleted", "read back", "NOT ", "snapshot ", "data disk"],
    );
    let again = stdout(&cloud.run(&["cleanup", "--all", "--yes"], CHINESE));
    assert!(again.contains("没有可删除的"), "{again}");
    let english = stdout(&cloud.run(&["cleanup", "--all", "--yes"], C));
    assert!(
        english.contains("nothing to delete among what"),
        "{english}"
    );
    let unknown = cloud.run(&["cleanup", "--id", "vol-0typo", "--yes"], CHINESE);
    assert_eq!(unknown.status.code(), Some(2), "{unknown:?}");
    assert!(
        stderr(&unknown).contains("`gpumeter sweep` 会列出它们"),
        "{}",
        stderr(&unknown)
    );
}

#[test]
fn fleet_is_a_chinese_table_that_lines_up_with_the_same_json() {
    let cloud = Cloud::new("zh-fleet");
    let (zh, en) = both(&cloud, &["fleet"]);
    assert!(zh.status.success(), "{}", stderr(&zh));
    let zh = stdout(&zh);
    assert!(zh.contains("账号") && zh.contains("云服务商"), "{zh}");
    no_english(
        &zh,
        &[
            "ACCOUNT",
            "STATE",
            "running",
            "leftovers",
            "/mo",
            "flagged",
            "unknown",
        ],
    );
    assert!(stdout(&en).starts_with("ACCOUNT"), "{}", stdout(&en));
    let header = column_at(&zh, "账号", "云服务商");
    assert_eq!(column_at(&zh, "demo", "demo"), header, "{zh}");
    same_json(&cloud, &["fleet", "--json"]);
}

#[test]
fn the_watchdog_status_is_in_chinese() {
    let cloud = Cloud::new("zh-watchdog");
    assert!(cloud.run(&["extend", "2h", "--yes"], C).status.success());
    let out = cloud.run(&["watchdog", "--status"], CHINESE);
    let said = stdout(&out);
    assert!(said.contains("看门狗") && said.contains("预算"), "{said}");
    no_english(
        &said,
        &[
            "watchdog for",
            "NOT running",
            "deadline:",
            "idle rule",
            "budget",
        ],
    );
    let english = stdout(&cloud.run(&["watchdog", "--status"], C));
    assert!(english.contains("idle rule: "), "{english}");
}

#[test]
fn installing_the_watchdog_service_says_what_it_wrote_in_chinese() {
    let cloud = Cloud::new("zh-service");
    let home = cloud.path().to_str().unwrap().to_string();
    let config = cloud.path().join("config");
    let mut env = CHINESE.to_vec();
    env.extend([
        ("HOME", home.as_str()),
        ("XDG_CONFIG_HOME", config.to_str().unwrap()),
    ]);
    let dry = stdout(&cloud.run(&["watchdog", "--install-service", "--dry-run"], &env));
    assert!(
        dry.starts_with("将写入 ") && dry.contains("[Unit]"),
        "{dry}"
    );
    let wrote = cloud.run(&["watchdog", "--install-service"], &env);
    assert!(wrote.status.success(), "{}", stderr(&wrote));
    let wrote = stdout(&wrote);
    assert!(
        wrote.starts_with("已写入 ") && wrote.contains("\n  systemctl --user daemon-reload\n"),
        "{wrote}"
    );
    no_english(
        &wrote,
        &["wrote", "Start it", "Keep it", "journal:", "environment"],
    );
    let removed = stdout(&cloud.run(&["watchdog", "--uninstall-service"], &env));
    assert!(removed.starts_with("已删除 "), "{removed}");
    let none = stdout(&cloud.run(&["watchdog", "--uninstall-service"], &env));
    assert!(none.contains("无需删除"), "{none}");
}
