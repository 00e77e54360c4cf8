//! `estimate`, `estimate --compare`, `pricing` and `report` in Simplified Chinese, as a user
//! runs them: the Chinese words are there, the tables line up by the columns a terminal
//! gives each character, no English word of the commands' own text is left, English reads as
//! before and `--json` is the same in both languages.

use std::collections::BTreeSet;
use std::process::Output;

use unicode_width::UnicodeWidthStr as _;

use super::actions_cli::{Cloud, stderr, stdout};

pub(super) const C: &[(&str, &str)] = &[("LANG", "C"), ("LC_ALL", ""), ("LC_MESSAGES", "")];
pub(super) const CHINESE: &[(&str, &str)] =
    &[("LANG", "zh_CN.UTF-8"), ("LC_ALL", ""), ("LC_MESSAGES", "")];

/// Names, units and flags the Chinese text keeps as they are.
const KEPT: &[&str] = &[
    "gpu",
    "sku",
    "gib",
    "ip",
    "kwh",
    "usd",
    "cny",
    "from",
    "rate",
    "fx",
    "rates",
    "gpumeter",
    "pricing",
    "list",
    "status",
    "demo",
    "aws",
    "timedatectl",
    "nvidia",
];

pub(super) fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", stderr(out));
    stdout(out)
}

fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "-_.".contains(c)))
        .map(|t| {
            t.trim_matches(|c: char| "-_.".contains(c))
                .to_ascii_lowercase()
        })
        .filter(|t| t.len() > 1 && t.chars().all(|c| c.is_ascii_alphabetic() || c == '-'))
}

/// The English words of the messages of catalogue file `file` whose ids start with one of
/// `prefixes`, their arguments left out.
fn vocabulary(file: &str, prefixes: &[&str]) -> BTreeSet<String> {
    let path = format!("{}/i18n/en/{file}.ftl", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).unwrap();
    let mut words = BTreeSet::new();
    let mut taking = false;
    for line in source.lines() {
        if line.starts_with('#') {
            continue;
        }
        let text = if line.starts_with(char::is_whitespace) {
            line
        } else {
            let Some((id, text)) = line.split_once('=') else {
                continue;
            };
            taking = prefixes.iter().any(|p| id.trim().starts_with(p));
            text
        };
        if taking {
            let mut plain = String::new();
            let mut depth = 0;
            for c in text.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ if depth == 0 => plain.push(c),
                    _ => plain.push(' '),
                }
            }
            // A flag (`--checkpoint-every`) is named as it is in every language.
            let plain: Vec<&str> = plain
                .split_whitespace()
                .filter(|w| !w.trim_start_matches(['(', '`']).starts_with("--"))
                .collect();
            let plain = plain.join(" ");
            words.extend(tokens(&plain).filter(|w| !KEPT.contains(&w.as_str())));
        }
    }
    words
}

/// Every English word of the commands' own text (the messages of `file` whose ids start with
/// one of `prefixes`) that the Chinese output still shows.
pub(super) fn english_left(chinese: &str, file: &str, prefixes: &[&str]) -> Vec<String> {
    let vocabulary = vocabulary(file, prefixes);
    tokens(chinese).filter(|t| vocabulary.contains(t)).collect()
}

/// The display column where `needle` starts on `line`.
pub(super) fn column_of(line: &str, needle: &str) -> usize {
    let at = line
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} in {line:?}"));
    line[..at].width()
}

const PLAN: &[&str] = &[
    "estimate",
    "--rate",
    "25",
    "--monthly",
    "5000",
    "--spot-rate",
    "9",
    "--hours-per-day",
    "8",
    "--days",
    "40",
    "--currency",
    "CNY",
    "--runs-per-day",
    "2",
];

#[test]
fn estimate_in_chinese_lines_up_and_keeps_its_json() {
    let cloud = Cloud::new("plan-estimate");
    let chinese = ok(&cloud.run(PLAN, CHINESE));
    for words in [
        "方式",
        "按量",
        "包月",
        "竞价",
        "混合",
        "合计",
        "最便宜",
        "盈亏平衡",
        "注意",
    ] {
        assert!(chinese.contains(words), "{words} in {chinese}");
    }
    assert_eq!(
        english_left(&chinese, "plan", &["estimate-"]),
        Vec::<String>::new(),
        "{chinese}"
    );
    let english = ok(&cloud.run(PLAN, C));
    assert!(english.starts_with("1 GPU, 8 h/day in 2 runs for 40 days = 320 h, in CNY\n"));
    assert!(english.contains("\nmixed           7000.00"), "{english}");
    // Every row of the table ends its total at the same column as the heading.
    let table: Vec<&str> = chinese.lines().skip(2).take(5).collect();
    for line in &table {
        let line = line.split("  <-").next().unwrap();
        assert_eq!(line.width(), 71, "{table:#?}");
    }
    let mut json = PLAN.to_vec();
    json.push("--json");
    assert_eq!(ok(&cloud.run(&json, CHINESE)), ok(&cloud.run(&json, C)));
}

const COMPARE: &[&str] = &[
    "estimate",
    "--compare",
    "--gpu",
    "A100",
    "--hours-per-day",
    "8",
    "--days",
    "10",
    "--fx",
    "USD:CNY=7.2",
];

#[test]
fn compare_in_chinese_lines_up_and_keeps_its_json() {
    let cloud = Cloud::new("plan-compare");
    let chinese = ok(&cloud.run(COMPARE, CHINESE));
    for words in [
        "至少 1 块 GPU",
        "汇率",
        "价格表",
        "价格日期",
        "按量",
        "排名",
    ] {
        assert!(chinese.contains(words), "{words} in {chinese}");
    }
    assert_eq!(
        english_left(
            &chinese,
            "plan",
            &["compare-", "estimate-mode", "estimate-col"]
        ),
        Vec::<String>::new(),
        "{chinese}"
    );
    let english = ok(&cloud.run(COMPARE, C));
    assert!(
        english.starts_with("A100, at least 1 GPU(s), 8 h/day for 10 days = 80 h; totals in CNY\n")
    );
    let heading = chinese.lines().find(|l| l.contains("价格日期")).unwrap();
    let dates = column_of(heading, "价格日期");
    let sheet = column_of(heading, "价格表");
    let rows: Vec<&str> = chinese.lines().filter(|l| l.contains("  按量  ")).collect();
    assert!(rows.len() > 3, "{chinese}");
    for row in rows {
        let date = row.rsplit("  ").next().unwrap().trim();
        let date = date.split(' ').next().unwrap();
        assert_eq!(column_of(row, date), dates, "{heading}\n{row}");
        assert_eq!(row.chars().nth(sheet - 1), Some(' '), "{heading}\n{row}");
    }
    let mut json = COMPARE.to_vec();
    json.push("--json");
    assert_eq!(ok(&cloud.run(&json, CHINESE)), ok(&cloud.run(&json, C)));
}

#[test]
fn pricing_in_chinese_lines_up_and_reads_as_before_in_english() {
    let cloud = Cloud::new("plan-pricing");
    let show = [
        "pricing",
        "show",
        "p4de.24xlarge",
        "--provider",
        "aws-us-east-1",
    ];
    let out = cloud.run(&show, CHINESE);
    let chinese = ok(&out);
    assert!(
        stderr(&out).contains("警告：价格表 `aws-us-east-1` 的日期为"),
        "{out:?}"
    );
    for words in [
        "价格表",
        "来源",
        "按量",
        "每 GPU 小时",
        "此价格表中没有",
        "计费",
        "快照",
        "公网 IP",
    ] {
        assert!(chinese.contains(words), "{words} in {chinese}");
    }
    // The sheet's source is the sheet's own words.
    let own: String = chinese
        .lines()
        .filter(|l| !l.starts_with("  来源"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        english_left(&own, "plan", &["pricing-"]),
        Vec::<String>::new(),
        "{own}"
    );
    // The values start at one column, whatever the labels' characters.
    for line in chinese.lines().skip(1) {
        let (mut used, mut at) = (0, None);
        for (i, c) in line.char_indices() {
            if used == 18 {
                at = Some(i);
                break;
            }
            used += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        }
        let at = at.unwrap_or_else(|| panic!("{line:?}"));
        assert!(
            line[..at].ends_with(' ') && !line[at..].starts_with(' '),
            "{line:?}"
        );
    }
    let english = ok(&cloud.run(&show, C));
    assert!(
        english.contains("\n  spot            not in this sheet\n"),
        "{english}"
    );
    assert!(
        english.contains("\n  monthly         not in this sheet\n"),
        "{english}"
    );
    let list = ok(&cloud.run(&["pricing", "list"], CHINESE));
    assert!(
        list.contains("：USD，价格日期 2026-01-21，15 个 SKU"),
        "{list}"
    );
    assert_eq!(
        english_left(&list, "plan", &["pricing-"]),
        Vec::<String>::new(),
        "{list}"
    );
}

#[test]
fn report_in_chinese_lines_up_and_keeps_its_json() {
    let cloud = Cloud::new("plan-report");
    let first: serde_json::Value =
        serde_json::from_str(&ok(&cloud.run(&["report", "--json"], C))).unwrap();
    let window = [
        "--since",
        first["since"].as_str().unwrap(),
        "--until",
        first["until"].as_str().unwrap(),
    ];
    let run = |extra: &[&str], env| {
        let mut args = vec!["report"];
        args.extend(window);
        args.extend(extra);
        ok(&cloud.run(&args, env))
    };
    let chinese = run(&[], CHINESE);
    for words in [
        "的花费",
        "日期（USD）",
        "空闲花费",
        "每日花费",
        "能耗",
        "实例释放后仍在计费",
        "快照",
        "重叠",
    ] {
        assert!(chinese.contains(words), "{words} in {chinese}");
    }
    // Left out: the actions' rows (what the provider answered, as recorded) and the unknown
    // prices' keys, which the JSON carries too.
    let own: String = chinese
        .lines()
        .filter(|l| !l.starts_with("  20") && !l.contains("未计入"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        english_left(&own, "plan", &["report-"]),
        Vec::<String>::new(),
        "{own}"
    );
    let english = run(&[], C);
    assert!(english.contains("\nStill billing after their instance was released\n"));
    assert!(english.contains(" ran together for "), "{english}");
    let heading = chinese.lines().find(|l| l.starts_with("日期（")).unwrap();
    let days: Vec<&str> = chinese
        .lines()
        .filter(|l| l.starts_with("20") && !l.contains('█'))
        .collect();
    assert!(!days.is_empty(), "{chinese}");
    for day in days {
        assert_eq!(day.width(), heading.width(), "{heading}\n{day}");
    }
    assert_eq!(run(&["--json"], CHINESE), run(&["--json"], C));
    assert_eq!(run(&["--csv"], CHINESE), run(&["--csv"], C));
    let refused = cloud.run(&["report", "--since", "last week"], CHINESE);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(
        stderr(&refused).starts_with("gpumeter: --since: `last week` 不是时间："),
        "{refused:?}"
    );
}
