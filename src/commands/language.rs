//! The language, chosen once for the whole process: `--lang`, `[ui] language`, then the locale
//! (`LC_ALL`, `LC_MESSAGES`, `LANG`). It is chosen from the raw arguments before clap reads
//! them, so that `--help`, the manual and clap's own errors are in it too; a parsed command
//! line chooses it again the same way, for callers that start from one.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::cli::Cli;
use crate::i18n::Lang;

/// Sets the language from the raw arguments (the program's name first), before they are
/// parsed. A `--lang` that names no language is left for clap to refuse.
///
/// A `--json` run is English whatever the language: its output is for programs and must not
/// change with the language, and the providers' adapters write their sentences (a read-back,
/// a gap, an error's detail) once, in the language of the run.
pub fn choose_from_args(args: &[OsString]) {
    if has_flag(args, "--json") {
        crate::i18n::set(Lang::En);
        return;
    }
    let lang = flag_value(args, "--lang").and_then(|l| l.to_str()?.parse().ok());
    let config = flag_value(args, "--config").map(PathBuf::from);
    set(lang, config.as_deref());
}

/// Sets the language from a parsed command line; a no-op once [`choose_from_args`] has run.
pub fn choose(cli: &Cli) {
    set(cli.lang, cli.config.as_deref());
}

/// A config that does not load gives no language here; the command itself then says what is
/// wrong with it.
fn set(flag: Option<Lang>, config_path: Option<&Path>) {
    let config = || {
        crate::config::Config::load(config_path)
            .ok()
            .and_then(|(c, _)| c.ui.language)
    };
    let config = if flag.is_some() { None } else { config() };
    crate::i18n::set(crate::i18n::choose(flag, config, |var| {
        std::env::var(var).ok()
    }));
}

/// Whether `--name` is given before a `--`.
fn has_flag(args: &[OsString], name: &str) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == name)
}

/// The value of `--name VALUE` or `--name=VALUE`, the first given before a `--`.
fn flag_value(args: &[OsString], name: &str) -> Option<OsString> {
    let mut rest = args.iter().skip(1).take_while(|a| *a != "--");
    while let Some(arg) = rest.next() {
        let Some(text) = arg.to_str() else { continue };
        if text == name {
            return rest.next().cloned();
        }
        if let Some(value) = text.strip_prefix(name).and_then(|t| t.strip_prefix('=')) {
            return Some(value.into());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{flag_value, has_flag};

    #[test]
    fn json_is_found_before_a_double_dash_only() {
        let given = |list: &[&str]| has_flag(&args(list), "--json");
        assert!(given(&["gpumeter", "--lang", "zh-CN", "status", "--json"]));
        assert!(!given(&["gpumeter", "status"]));
        assert!(!given(&["gpumeter", "status", "--", "--json"]));
        assert!(!given(&["--json"]), "the program's name is skipped");
    }

    fn args(list: &[&str]) -> Vec<std::ffi::OsString> {
        list.iter().map(Into::into).collect()
    }

    #[test]
    fn a_flag_is_found_spaced_or_with_an_equals_sign_before_a_double_dash() {
        let value = |list: &[&str]| flag_value(&args(list), "--lang");
        assert_eq!(
            value(&["gpumeter", "status", "--lang", "zh-CN"]),
            Some("zh-CN".into())
        );
        assert_eq!(
            value(&["gpumeter", "--lang=en", "status"]),
            Some("en".into())
        );
        assert_eq!(value(&["gpumeter", "--language", "zh-CN"]), None);
        assert_eq!(value(&["gpumeter", "--", "--lang", "zh-CN"]), None);
        assert_eq!(value(&["gpumeter", "--lang"]), None);
        assert_eq!(
            value(&["--lang", "zh-CN"]),
            None,
            "the program's name is skipped"
        );
    }
}
