//! `--help` and the manual in the chosen language. The flags' English texts are their doc
//! comments; here each about, help text and example block of the command tree is replaced by
//! its catalogue message (`i18n/*/cli.ftl`), whose id is the command's path and what it is:
//! `cli-status-about`, `cli-release-arg-yes`, `cli-estimate-after-help`. A flag that reads the
//! same in every command that has it (`--instance`, `--yes`) has one message, `cli-common-arg-yes`.
//!
//! In a language other than English, clap's own words go too: `Usage:`, `Options:`,
//! `Commands:`, `Print help`, `[default: …]`, `[possible values: …]`, `[env: …]`. English keeps
//! clap's, byte for byte as before.

use clap::{Arg, Command};

use crate::i18n::{self, Lang};

/// The root's path in message ids.
const ROOT: &str = "cli";

/// clap's texts for the flags and the subcommand it adds itself, with their messages. (The
/// help subcommand's own argument is added only in a tree that parsing builds; the tree here is
/// built beforehand, and its help subcommand lists the commands instead.)
const CLAP_TEXTS: [(&str, &str); 5] = [
    ("Print help", "cli-clap-help"),
    ("Print help (see more with '--help')", "cli-clap-help-more"),
    (
        "Print help (see a summary with '-h')",
        "cli-clap-help-summary",
    ),
    ("Print version", "cli-clap-version"),
    (
        "Print this message or the help of the given subcommand(s)",
        "cli-clap-help-command",
    ),
];

/// `command` (gpumeter's whole tree, as `Cli::command()` makes it) with its texts in the
/// current language. Outside English the tree comes back built, as clap adds its own flags
/// only then.
pub fn localized(command: Command) -> Command {
    let command = texts(command, ROOT);
    if i18n::current() == Lang::En {
        return command;
    }
    let mut command = command;
    command.build();
    clap_words(command)
}

/// The message id of a command's text: `cli-about`, `cli-pricing-show-about`.
pub fn command_id(path: &str, what: &str) -> String {
    format!("{path}-{what}")
}

/// The ids an argument's help may have, the command's own first, then the one shared by
/// every command whose flag of that id reads the same.
pub fn arg_ids(path: &str, arg: &Arg, long: bool) -> [String; 2] {
    let id = arg.get_id().as_str().replace('_', "-");
    let tail = if long { "-long" } else { "" };
    [
        format!("{path}-arg-{id}{tail}"),
        format!("{ROOT}-common-arg-{id}{tail}"),
    ]
}

/// The subcommand's path: `cli-pricing` below `cli`.
pub fn sub_path(path: &str, sub: &Command) -> String {
    format!("{path}-{}", sub.get_name())
}

fn message(ids: &[String]) -> Option<String> {
    ids.iter().find_map(|id| i18n::lookup_named(id))
}

fn texts(mut command: Command, path: &str) -> Command {
    let text = |what| message(&[command_id(path, what)]);
    if command.get_about().is_some()
        && let Some(about) = text("about")
    {
        command = command.about(about);
    }
    if command.get_long_about().is_some()
        && let Some(long) = text("long-about")
    {
        command = command.long_about(long);
    }
    if command.get_after_help().is_some()
        && let Some(after) = text("after-help")
    {
        command = command.after_help(after);
    }
    command
        .mut_args(|arg| arg_texts(arg, path))
        .mut_subcommands(|sub| {
            let path = sub_path(path, &sub);
            texts(sub, &path)
        })
}

fn arg_texts(mut arg: Arg, path: &str) -> Arg {
    if arg.get_help().is_some()
        && let Some(help) = message(&arg_ids(path, &arg, false))
    {
        arg = arg.help(help);
    }
    if arg.get_long_help().is_some()
        && let Some(long) = message(&arg_ids(path, &arg, true))
    {
        arg = arg.long_help(long);
    }
    arg
}

/// clap's own words in the current language, on a built tree.
fn clap_words(command: Command) -> Command {
    let usage = crate::t!("cli-clap-usage");
    let template = format!(
        "{{before-help}}{{about-with-newline}}\n{usage} {{usage}}\n\n{{all-args}}{{after-help}}"
    );
    let mut command = command
        .help_template(template)
        .subcommand_help_heading(crate::t!("cli-clap-commands").into_owned())
        .mut_args(clap_arg_words);
    if let Some(about) = command.get_about().and_then(|a| clap_text(&a.to_string())) {
        command = command.about(about);
    }
    command.mut_subcommands(clap_words)
}

fn clap_text(english: &str) -> Option<String> {
    CLAP_TEXTS
        .iter()
        .find(|(text, _)| *text == english)
        .and_then(|(_, id)| i18n::lookup_named(id))
}

fn clap_arg_words(mut arg: Arg) -> Arg {
    if let Some(help) = arg.get_help().and_then(|h| clap_text(&h.to_string())) {
        arg = arg.help(help);
    }
    if let Some(long) = arg.get_long_help().and_then(|h| clap_text(&h.to_string())) {
        arg = arg.long_help(long);
    }
    if arg.get_help_heading().is_none() {
        let heading = if arg.is_positional() {
            crate::t!("cli-clap-arguments")
        } else {
            crate::t!("cli-clap-options")
        };
        arg = arg.help_heading(heading.into_owned());
    }
    let specs = specs(&arg);
    if specs.is_empty() {
        return arg;
    }
    let joined = specs.join(" ");
    let help = arg.get_help().map(|h| format!("{h} {joined}"));
    let long = arg.get_long_help().map(|h| format!("{h}\n\n{joined}"));
    arg = arg
        .hide_default_value(true)
        .hide_possible_values(true)
        .hide_env(true)
        .help(help.unwrap_or(joined));
    match long {
        Some(long) => arg.long_help(long),
        None => arg,
    }
}

/// `[default: …]`, `[possible values: …]` and `[env: …]` as clap would show them, in the
/// current language.
fn specs(arg: &Arg) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(env) = arg.get_env().filter(|_| !arg.is_hide_env_set()) {
        let name = env.to_string_lossy().into_owned();
        out.push(crate::t!("cli-clap-env", name = name));
    }
    if !arg.get_action().takes_values() {
        return out;
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if !defaults.is_empty() && !arg.is_hide_default_value_set() {
        out.push(crate::t!("cli-clap-default", value = defaults.join(" ")));
    }
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_string())
        .collect();
    if !values.is_empty() && !arg.is_hide_possible_values_set() {
        out.push(crate::t!("cli-clap-values", values = values.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests;
