//! The catalogue is complete in both languages, every message the code asks for is in it,
//! and the language is chosen as documented.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::catalogue::SOURCES;
use super::{Lang, choose, current, scoped};

/// Each message's id and the variables its text uses, read from a catalogue file: an entry
/// starts at the line's beginning with `id =`; its text runs on in indented lines.
fn messages(source: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut last: Option<String> = None;
    for line in source.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let text = if line.starts_with(char::is_whitespace) {
            line
        } else {
            let (id, text) = line.split_once('=').expect("an entry is `id = text`");
            let id = id.trim().to_string();
            assert!(
                out.insert(id.clone(), BTreeSet::new()).is_none(),
                "{id} twice"
            );
            last = Some(id);
            text
        };
        let vars = out
            .get_mut(last.as_ref().expect("text after an id"))
            .unwrap();
        for piece in text.split('$').skip(1) {
            let name: String = piece
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            vars.insert(name);
        }
    }
    out
}

/// Every message of a language's catalogue, across its files; an id in two files fails.
fn catalogue(files: &[(&str, &str)]) -> BTreeMap<String, BTreeSet<String>> {
    let mut all = BTreeMap::new();
    for (file, source) in files {
        for (id, vars) in messages(source) {
            let id_again = id.clone();
            assert!(all.insert(id, vars).is_none(), "{id_again} again in {file}");
        }
    }
    all
}

#[test]
fn both_languages_have_the_same_files_and_messages_with_the_same_arguments() {
    let [(_, en), (_, zh)] = SOURCES;
    assert_eq!(en.len(), zh.len());
    for ((en_file, en_text), (zh_file, zh_text)) in en.iter().zip(zh) {
        assert_eq!(en_file, zh_file);
        let (en, zh) = (messages(en_text), messages(zh_text));
        let only_en: Vec<_> = en.keys().filter(|k| !zh.contains_key(*k)).collect();
        let only_zh: Vec<_> = zh.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(
            only_en.is_empty(),
            "missing in zh-CN/{en_file}: {only_en:?}"
        );
        assert!(only_zh.is_empty(), "missing in en/{en_file}: {only_zh:?}");
        for (id, vars) in &en {
            assert_eq!(vars, &zh[id], "{id} takes other arguments in zh-CN");
        }
    }
    assert!(catalogue(en).len() > 50, "{} messages", catalogue(en).len());
    assert_eq!(catalogue(en).len(), catalogue(zh).len());
}

#[test]
fn the_catalogue_files_parse_without_an_error() {
    for (lang, files) in SOURCES {
        for (file, source) in files {
            if let Err((_, errors)) = fluent_bundle::FluentResource::try_new((*source).to_string())
            {
                panic!("{lang}/{file}: {errors:?}");
            }
        }
    }
}

/// Every `t!("id"` in the sources below `dir`.
fn ids_used(dir: &Path, out: &mut BTreeSet<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            ids_used(&path, out);
            continue;
        }
        // This file names the macro in its own scanning code.
        if path.extension().is_none_or(|e| e != "rs") || path.ends_with("i18n/tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("t!(") {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + 3..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let Some(quoted) = rest.trim_start().strip_prefix('"') else {
                continue;
            };
            let id = quoted.split('"').next().unwrap_or_default();
            assert!(
                id.starts_with(|c: char| c.is_ascii_lowercase())
                    && id
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{id:?} in {} is not a message id",
                path.display()
            );
            out.insert((id.to_string(), path.display().to_string()));
        }
    }
}

#[test]
fn every_message_the_code_asks_for_is_in_the_catalogue() {
    let mut used = BTreeSet::new();
    // This crate's sources and the program's, two levels up.
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    ids_used(&core.join("src"), &mut used);
    ids_used(&core.join("../../src"), &mut used);
    assert!(!used.is_empty(), "no t!(\"…\") found");
    for (lang, files) in SOURCES {
        let known = catalogue(files);
        let missing: Vec<_> = used
            .iter()
            .filter(|(id, _)| !known.contains_key(id))
            .collect();
        assert!(missing.is_empty(), "{lang} lacks {missing:?}");
    }
}

#[test]
fn arguments_are_not_wrapped_in_isolation_marks() {
    let shown = scoped(Lang::ZhCn, || crate::t!("help-more", count = 3));
    assert!(shown.contains('3'), "{shown}");
    assert!(!shown.contains(['\u{2068}', '\u{2069}']), "{shown:?}");
    assert_ne!(shown, crate::t!("help-more", count = 3));
}

#[test]
fn scoped_language_is_this_threads_alone() {
    let english = crate::t!("help-title").into_owned();
    let chinese = scoped(Lang::ZhCn, || {
        assert_eq!(current(), Lang::ZhCn);
        crate::t!("help-title").into_owned()
    });
    assert_ne!(english, chinese);
    assert_eq!(current(), Lang::En);
}

fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    |name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| (*v).to_string())
    }
}

#[test]
fn a_chinese_locale_in_any_spelling_picks_chinese() {
    for locale in [
        "zh_CN.UTF-8",
        "zh-CN",
        "zh_CN",
        "zh",
        "zh_SG",
        "zh_CN.utf8@pinyin",
    ] {
        assert_eq!(
            choose(None, None, env(&[("LANG", locale)])),
            Lang::ZhCn,
            "{locale}"
        );
    }
    for locale in [
        "C",
        "POSIX",
        "C.UTF-8",
        "en_US.UTF-8",
        "de_DE.UTF-8",
        "x",
        "@@",
    ] {
        assert_eq!(
            choose(None, None, env(&[("LANG", locale)])),
            Lang::En,
            "{locale}"
        );
    }
    assert_eq!(choose(None, None, env(&[])), Lang::En);
}

#[test]
fn the_flag_then_the_config_then_lc_all_lc_messages_lang() {
    let all = [
        ("LC_ALL", "C"),
        ("LC_MESSAGES", "zh_CN.UTF-8"),
        ("LANG", "zh_CN.UTF-8"),
    ];
    assert_eq!(choose(None, None, env(&all)), Lang::En, "LC_ALL first");
    assert_eq!(choose(None, Some(Lang::ZhCn), env(&all)), Lang::ZhCn);
    assert_eq!(
        choose(Some(Lang::En), Some(Lang::ZhCn), env(&all)),
        Lang::En
    );
    let messages = [
        ("LC_ALL", ""),
        ("LC_MESSAGES", "zh_SG"),
        ("LANG", "en_US.UTF-8"),
    ];
    assert_eq!(
        choose(None, None, env(&messages)),
        Lang::ZhCn,
        "empty is unset"
    );
    assert_eq!(
        choose(None, None, env(&[("LANG", "zh_TW.UTF-8")])),
        Lang::ZhCn
    );
}

#[test]
fn a_flag_or_config_value_outside_the_catalogue_is_an_error() {
    assert_eq!("zh-CN".parse(), Ok(Lang::ZhCn));
    assert_eq!("en".parse(), Ok(Lang::En));
    let e = "fr".parse::<Lang>().unwrap_err();
    assert!(e.to_string().contains("en or zh-CN"), "{e}");
}
