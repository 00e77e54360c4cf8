//! The language changes what people read and nothing a program reads: JSON, CSV and the
//! field names in them are the same byte for byte under a Chinese and a C locale, and the
//! text does change with `LANG`, `--lang` and `LC_ALL`.

use serde_json::Value;

use super::actions_cli::{Cloud, stdout};

const CHINESE: &[(&str, &str)] = &[("LANG", "zh_CN.UTF-8"), ("LC_ALL", ""), ("LC_MESSAGES", "")];
const C: &[(&str, &str)] = &[("LANG", "C"), ("LC_ALL", ""), ("LC_MESSAGES", "")];

/// Every object key in `v`, with its path.
fn keys(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                let here = format!("{path}.{k}");
                out.push(here.clone());
                keys(v, &here, out);
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|v| keys(v, &format!("{path}[]"), out)),
        _ => {}
    }
}

#[test]
fn json_and_csv_are_the_same_in_every_language() {
    let cloud = Cloud::new("lang-json");
    let estimate = [
        "estimate",
        "--rate",
        "25",
        "--monthly",
        "5000",
        "--hours-per-day",
        "8",
        "--days",
        "10",
        "--currency",
        "CNY",
        "--json",
    ];
    for args in [
        &["checklist", "--json"][..],
        &["sweep", "--json"],
        &estimate,
        &[
            "report",
            "--csv",
            "--since",
            "2026-01-01",
            "--until",
            "2026-01-02",
        ],
    ] {
        let c = stdout(&cloud.run(args, C));
        let zh = stdout(&cloud.run(args, CHINESE));
        assert!(!c.is_empty(), "{args:?} printed nothing");
        assert_eq!(c, zh, "{args:?}");
    }
    // status reads the clock: its field names, not its instant, are compared.
    let status = |env| -> Value {
        serde_json::from_str(&stdout(&cloud.run(&["status", "--json"], env))).unwrap()
    };
    let (mut c, mut zh) = (Vec::new(), Vec::new());
    keys(&status(C), "", &mut c);
    keys(&status(CHINESE), "", &mut zh);
    assert!(c.len() > 20, "{c:?}");
    assert_eq!(c, zh);
}

#[test]
fn the_text_follows_lang_then_lc_all_then_the_flag() {
    let cloud = Cloud::new("lang-text");
    let english = stdout(&cloud.run(&["checklist"], C));
    let chinese = stdout(&cloud.run(&["checklist"], CHINESE));
    assert!(english.contains("keep billing"), "{english}");
    assert!(chinese.contains("计费"), "{chinese}");
    let all_c = [("LANG", "zh_CN.UTF-8"), ("LC_ALL", "C")];
    assert_eq!(stdout(&cloud.run(&["checklist"], &all_c)), english);
    let flag = stdout(&cloud.run(&["checklist", "--lang", "en"], CHINESE));
    assert_eq!(flag, english);
    let bad = cloud.run(&["checklist", "--lang", "fr"], C);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
}
