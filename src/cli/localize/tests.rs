//! English `--help` reads as the doc comments wrote it, and every text of the command tree has
//! a message in each language.

use clap::{Command, CommandFactory as _};

use super::{CLAP_TEXTS, ROOT, arg_ids, command_id, localized, sub_path};
use crate::cli::Cli;
use crate::i18n::{self, Lang, scoped};

/// Every command of the tree with its path in message ids, the root first.
fn commands(command: &Command, path: &str, out: &mut Vec<(String, Command)>) {
    out.push((path.to_string(), command.clone()));
    for sub in command.get_subcommands() {
        commands(sub, &sub_path(path, sub), out);
    }
}

fn tree(command: &Command) -> Vec<(String, Command)> {
    let mut out = Vec::new();
    commands(command, ROOT, &mut out);
    out
}

fn helps(command: &Command) -> Vec<String> {
    let mut command = command.clone();
    command.build();
    tree(&command)
        .into_iter()
        .flat_map(|(_, mut c)| {
            [
                c.render_help().to_string(),
                c.render_long_help().to_string(),
            ]
        })
        .collect()
}

#[test]
fn english_help_is_the_doc_comments_byte_for_byte() {
    let english = scoped(Lang::En, || helps(&localized(Cli::command())));
    let doc_comments = helps(&Cli::command());
    assert!(english.len() > 40, "{}", english.len());
    assert_eq!(english, doc_comments);
}

/// The message an English text of the tree comes from, checked to read the same.
fn message_for(ids: &[String], english: &str, what: &str) -> String {
    let id = ids
        .iter()
        .find(|id| i18n::has(Lang::En, id))
        .unwrap_or_else(|| panic!("no message for {what}: tried {ids:?}"));
    let shown = scoped(Lang::En, || i18n::lookup_named(id)).unwrap_or_default();
    assert_eq!(
        shown, english,
        "{id} reads otherwise than {what}'s doc comment"
    );
    assert!(i18n::has(Lang::ZhCn, id), "{id} is not in zh-CN");
    id.clone()
}

#[test]
fn every_command_and_argument_has_a_message_in_both_languages() {
    let mut used = 0;
    for (path, command) in tree(&Cli::command()) {
        let texts = [
            ("about", command.get_about()),
            ("long-about", command.get_long_about()),
            ("after-help", command.get_after_help()),
        ];
        for (what, text) in texts {
            if let Some(text) = text {
                message_for(&[command_id(&path, what)], &text.to_string(), &path);
                used += 1;
            }
        }
        assert!(command.get_about().is_some(), "{path} has no about");
        for arg in command.get_arguments() {
            let name = format!("{path} {}", arg.get_id());
            for (long, text) in [(false, arg.get_help()), (true, arg.get_long_help())] {
                if let Some(text) = text {
                    message_for(&arg_ids(&path, arg, long), &text.to_string(), &name);
                    used += 1;
                }
            }
        }
    }
    assert!(used > 150, "{used} texts");
}

/// Every about and help of the built tree, clap's own included.
fn shown_texts(command: &Command) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, command) in tree(command) {
        if let Some(about) = command.get_about() {
            out.push((path.clone(), about.to_string()));
        }
        for arg in command.get_arguments() {
            if let Some(help) = arg.get_help() {
                out.push((format!("{path} {}", arg.get_id()), help.to_string()));
            }
        }
    }
    out
}

fn is_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn in_chinese_every_text_and_clap_s_own_words_are_chinese() {
    let chinese = scoped(Lang::ZhCn, || localized(Cli::command()));
    let texts = shown_texts(&chinese);
    assert!(texts.len() > 150, "{}", texts.len());
    for (what, text) in &texts {
        assert!(is_chinese(text), "{what}: {text}");
        assert!(
            CLAP_TEXTS
                .iter()
                .all(|(english, _)| !text.starts_with(english)),
            "{what}: {text}"
        );
    }
    let mut status = chinese.find_subcommand("status").unwrap().clone();
    let help = status.render_help().to_string();
    for word in ["用法:", "选项:", "显示帮助", "[默认：1]"] {
        assert!(help.contains(word), "{word} in {help}");
    }
    for word in ["Usage:", "Options:", "Print help", "[default:"] {
        assert!(!help.contains(word), "{word} in {help}");
    }
}

#[test]
fn clap_s_own_words_are_what_this_clap_writes() {
    // A newer clap that words its help flag otherwise would leave it in English unnoticed.
    // A long help makes clap word its help flag's two forms apart.
    let with_long = Command::new("x")
        .arg(clap::Arg::new("a").long("a").help("a").long_help("more"))
        .subcommand(Command::new("y"));
    let mut english = Vec::new();
    for mut command in [Cli::command(), with_long] {
        command.build();
        for (_, text) in shown_texts(&command) {
            english.push(text);
        }
        for (_, command) in tree(&command) {
            let long = command.get_arguments().filter_map(clap::Arg::get_long_help);
            english.extend(long.map(ToString::to_string));
        }
    }
    for (text, id) in CLAP_TEXTS {
        assert!(
            english.iter().any(|t| t == text),
            "clap no longer writes {text:?}"
        );
        assert!(i18n::has(Lang::ZhCn, id), "{id}");
    }
}
