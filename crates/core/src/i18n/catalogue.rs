//! The bundles, one a language, parsed once from the catalogue files built into the binary,
//! and the lookup. Fluent's isolation marks (FSI/PDI) around arguments are off: every outside
//! string is already cleared of bidirectional controls, and terminals draw the marks.

use std::borrow::Cow;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

use super::Lang;

/// One argument of a message: text or a number (numbers choose plural forms).
pub type Arg<'a> = FluentValue<'a>;

/// The catalogue's files, one an area of the program, each in every language.
macro_rules! files {
    ($($name:literal),+ $(,)?) => {
        /// Each language's catalogue: its files' names and texts.
        pub(super) const SOURCES: [(Lang, &[(&str, &str)]); 2] = [
            (Lang::En, &[$(($name, include_str!(concat!("../../../../i18n/en/", $name, ".ftl")))),+]),
            (Lang::ZhCn, &[$(($name, include_str!(concat!("../../../../i18n/zh-CN/", $name, ".ftl")))),+]),
        ];
    };
}

files![
    "account",
    "audit",
    "cli",
    "cockpit",
    "commands",
    "edges",
    "errors",
    "evidence",
    "findings",
    "plan",
    "provider_aws",
    "provider_china",
    "provider_markets",
    "screen",
    "setup",
    "stop_release",
    "subscription",
    "traffic",
    "verify",
    "watch"
];

type Bundle = FluentBundle<FluentResource>;

fn build(lang: Lang) -> Bundle {
    let files = SOURCES
        .iter()
        .find(|(l, _)| *l == lang)
        .map_or(&[][..], |(_, files)| files);
    let id = lang.tag().parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    bundle.set_use_isolating(false);
    for (_, source) in files {
        // A syntax error or an id in two files leaves the entries it could read; the catalogue
        // tests fail on either.
        let resource = FluentResource::try_new((*source).to_string()).unwrap_or_else(|(r, _)| r);
        let _ = bundle.add_resource(resource);
    }
    bundle
}

/// Each language's bundle, parsed the first time a message of it is asked for: a run reads
/// one language (English only where the other lacks a message), so the other is never built.
static BUNDLES: [LazyLock<Bundle>; 2] = [
    LazyLock::new(|| build(Lang::En)),
    LazyLock::new(|| build(Lang::ZhCn)),
];

pub(super) fn bundle(lang: Lang) -> &'static Bundle {
    &BUNDLES[lang as usize]
}

fn format(lang: Lang, id: &str, args: Option<&FluentArgs>) -> Option<Cow<'static, str>> {
    let bundle = bundle(lang);
    let pattern = bundle.get_message(id)?.value()?;
    let mut errors = Vec::new();
    Some(bundle.format_pattern(pattern, args, &mut errors))
}

/// Message `id` in the current language, else in English, else the id itself.
pub fn lookup(id: &'static str) -> Cow<'static, str> {
    let lang = super::current();
    format(lang, id, None)
        .or_else(|| format(Lang::En, id, None))
        .unwrap_or(Cow::Borrowed(id))
}

/// Message `id`, named at run time (the command line's, from its tree), in the current language,
/// else in English; `None` where neither holds it, for the caller to keep what it had.
pub fn lookup_named(id: &str) -> Option<String> {
    let lang = super::current();
    format(lang, id, None)
        .or_else(|| format(Lang::En, id, None))
        .map(Cow::into_owned)
}

/// Whether `lang`'s catalogue holds message `id`.
pub fn has(lang: Lang, id: &str) -> bool {
    bundle(lang)
        .get_message(id)
        .is_some_and(|m| m.value().is_some())
}

/// Message `id` with its arguments, as [`lookup`] finds it.
pub fn lookup_with(id: &'static str, args: &[(&'static str, Arg<'_>)]) -> String {
    let mut fluent = FluentArgs::with_capacity(args.len());
    for (name, value) in args {
        fluent.set(*name, value.clone());
    }
    let lang = super::current();
    format(lang, id, Some(&fluent))
        .or_else(|| format(Lang::En, id, Some(&fluent)))
        .map_or_else(|| id.to_string(), Cow::into_owned)
}
