//! A command line clap refused, told in the project's two lines and in the user's language:
//! what is wrong (with clap's suggestion), then the usage. clap writes its errors in English
//! only, so each kind is rebuilt here from the error's context (the argument, the value, the
//! suggestions), which clap keeps as data beside its English text. A kind this file does not
//! know keeps clap's own sentence.

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The two lines (`gpumeter: …`) a refused command line prints on stderr.
pub fn lines(error: &clap::Error) -> Vec<String> {
    let mut what = what(error).unwrap_or_else(|| clap_sentence(error));
    let separator = crate::t!("cli-err-tip-sep");
    for tip in suggestions(error) {
        what = format!("{what}{separator}{tip}");
    }
    let second = match usage(error) {
        Some(usage) => crate::t!("err-usage", usage = usage),
        None => crate::t!("err-more-with-help").into_owned(),
    };
    vec![format!("gpumeter: {what}"), format!("gpumeter: {second}")]
}

fn text(error: &clap::Error, kind: ContextKind) -> Option<String> {
    match error.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::StyledStr(s) => Some(s.to_string()),
        ContextValue::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn texts(error: &clap::Error, kind: ContextKind) -> Vec<String> {
    match error.get(kind) {
        Some(ContextValue::Strings(all)) => all.clone(),
        Some(ContextValue::String(one)) => vec![one.clone()],
        _ => Vec::new(),
    }
}

fn number(error: &clap::Error, kind: ContextKind) -> Option<isize> {
    match error.get(kind)? {
        ContextValue::Number(n) => Some(*n),
        _ => None,
    }
}

fn quoted(all: &[String]) -> String {
    all.iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What is wrong, for the kinds whose context clap fills.
fn what(error: &clap::Error) -> Option<String> {
    use ContextKind as C;
    let arg = || text(error, C::InvalidArg);
    let value = || text(error, C::InvalidValue);
    let sentence = match error.kind() {
        ErrorKind::UnknownArgument => crate::t!("cli-err-unknown-arg", arg = arg()?),
        ErrorKind::InvalidSubcommand => {
            crate::t!(
                "cli-err-unknown-command",
                name = text(error, C::InvalidSubcommand)?
            )
        }
        ErrorKind::InvalidValue => return Some(invalid_value(error, arg()?, value()?)),
        ErrorKind::ValueValidation => {
            let why = why_invalid(error);
            crate::t!(
                "cli-err-invalid-why",
                arg = arg()?,
                value = value()?,
                why = why
            )
        }
        ErrorKind::MissingRequiredArgument => {
            let missing = texts(error, C::InvalidArg).join(", ");
            crate::t!("cli-err-missing", args = missing)
        }
        ErrorKind::MissingSubcommand => {
            let name = text(error, C::InvalidSubcommand)?;
            let names = texts(error, C::ValidSubcommand).join(", ");
            crate::t!("cli-err-missing-command", name = name, names = names)
        }
        ErrorKind::ArgumentConflict => return conflict(error),
        ErrorKind::NoEquals => crate::t!("cli-err-no-equals", arg = arg()?),
        ErrorKind::TooManyValues => {
            crate::t!("cli-err-too-many", arg = arg()?, value = value()?)
        }
        ErrorKind::TooFewValues => crate::t!(
            "cli-err-too-few",
            arg = arg()?,
            wanted = number(error, C::MinValues)?.to_string(),
            given = number(error, C::ActualNumValues)?
        ),
        ErrorKind::WrongNumberOfValues => crate::t!(
            "cli-err-wrong-count",
            arg = arg()?,
            wanted = number(error, C::ExpectedNumValues)?.to_string(),
            given = number(error, C::ActualNumValues)?
        ),
        ErrorKind::InvalidUtf8 => crate::t!("cli-err-utf8").into_owned(),
        _ => return None,
    };
    Some(sentence)
}

fn invalid_value(error: &clap::Error, arg: String, value: String) -> String {
    let sentence = if value.is_empty() {
        crate::t!("cli-err-no-value", arg = arg)
    } else {
        crate::t!("cli-err-invalid", arg = arg, value = value)
    };
    let possible = texts(error, ContextKind::ValidValue);
    if possible.is_empty() {
        return sentence;
    }
    let values = crate::t!("cli-err-possible", values = possible.join(", "));
    format!("{sentence} [{values}]")
}

fn conflict(error: &clap::Error) -> Option<String> {
    use ContextKind as C;
    let prior = match error.get(C::PriorArg) {
        Some(ContextValue::String(one)) => Some(vec![one.clone()]),
        Some(ContextValue::Strings(all)) => Some(all.clone()),
        _ => None,
    };
    let sentence = if let Some(arg) = text(error, C::InvalidArg) {
        match prior {
            Some(prior) if prior == [arg.clone()] => crate::t!("cli-err-twice", arg = arg),
            Some(prior) => crate::t!("cli-err-conflict", arg = arg, with = quoted(&prior)),
            None => crate::t!("cli-err-conflict-any", arg = arg),
        }
    } else {
        let name = text(error, C::InvalidSubcommand)?;
        let with = prior.map_or_else(
            || crate::t!("cli-err-conflict-others").into_owned(),
            |p| quoted(&p),
        );
        crate::t!("cli-err-conflict-command", name = name, with = with)
    };
    Some(sentence)
}

/// Why a value parser refused a value: the parsers' errors this program's flags can give, each
/// in the catalogue, else the parser's own words.
fn why_invalid(error: &clap::Error) -> String {
    use std::error::Error as _;
    use std::num::IntErrorKind;
    let Some(source) = error.source() else {
        return String::new();
    };
    if source.is::<rust_decimal::Error>() {
        return crate::t!("cli-err-why-decimal").into_owned();
    }
    if let Some(unknown) = source.downcast_ref::<gpumeter_core::cloud::UnknownProvider>() {
        let ids = crate::config::ProviderKind::ids(", ");
        return crate::t!(
            "cli-err-why-provider",
            given = unknown.given.clone(),
            ids = ids
        );
    }
    if let Some(int) = source.downcast_ref::<std::num::ParseIntError>() {
        return match int.kind() {
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                crate::t!("cli-err-why-too-large").into_owned()
            }
            _ => crate::t!("cli-err-why-whole").into_owned(),
        };
    }
    gpumeter_core::text::one_line(&source.to_string(), 300)
}

/// clap's suggestions: a similar flag, command or value, and its tips.
fn suggestions(error: &clap::Error) -> Vec<String> {
    use ContextKind as C;
    let mut out = Vec::new();
    for (kind, id) in [
        (C::SuggestedSubcommand, Similar::Command),
        (C::SuggestedArg, Similar::Arg),
        (C::SuggestedValue, Similar::Value),
    ] {
        let names = texts(error, kind);
        if !names.is_empty() {
            out.push(id.say(&names));
        }
    }
    if let Some(ContextValue::StyledStrs(tips)) = error.get(C::Suggested) {
        out.extend(tips.iter().map(|tip| tip_words(&tip.to_string())));
    }
    out
}

#[derive(Clone, Copy)]
enum Similar {
    Command,
    Arg,
    Value,
}

impl Similar {
    fn say(self, names: &[String]) -> String {
        let (count, names) = (names.len(), quoted(names));
        match self {
            Similar::Command => crate::t!("cli-err-similar-command", count = count, names = names),
            Similar::Arg => crate::t!("cli-err-similar-arg", count = count, names = names),
            Similar::Value => crate::t!("cli-err-similar-value", count = count, names = names),
        }
    }
}

/// clap's three tips, rebuilt from their parts; another keeps clap's words.
fn tip_words(tip: &str) -> String {
    let quoted_parts: Vec<&str> = tip.split('\'').skip(1).step_by(2).collect();
    match (tip.starts_with("to pass '"), quoted_parts.as_slice()) {
        (true, [what, with]) => {
            crate::t!("cli-err-tip-as-value", what = *what, with = *with)
        }
        (false, [name, dashes]) if tip.starts_with("subcommand '") && *dashes == "--" => {
            crate::t!("cli-err-tip-drop-dashes", name = *name)
        }
        (false, [flag]) if tip.ends_with("' exists") => {
            crate::t!("cli-err-tip-exists", flag = *flag)
        }
        _ => tip.to_string(),
    }
}

/// The usage clap shows, without its `Usage:` title (the catalogue's line has its own).
fn usage(error: &clap::Error) -> Option<String> {
    let usage = text(error, ContextKind::Usage)?;
    let usage = usage.trim();
    let title = crate::t!("cli-clap-usage");
    let body = usage
        .strip_prefix("Usage:")
        .or_else(|| usage.strip_prefix(title.as_ref()))
        .unwrap_or(usage);
    Some(body.lines().next().unwrap_or_default().trim().to_string())
}

/// clap's own sentence, for a kind this file does not rebuild.
fn clap_sentence(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    first.trim_start_matches("error: ").trim().to_string()
}

#[cfg(test)]
#[path = "parse_error_tests.rs"]
mod tests;
