//! Every word the user reads comes from the message catalogue: the files under `i18n/en/` and
//! `i18n/zh-CN/` (Project Fluent), one an area of the program, built into the binary.
//!
//! The language is chosen once at start ([`choose`]: `--lang`, then `[ui] language`, then
//! `LC_ALL`, `LC_MESSAGES`, `LANG`, else English) and [`set`] for the process; [`t!`] looks a
//! message up in it. JSON, CSV, FOCUS and metric names never go through here.
//!
//! - `lang`: the languages and how a locale name picks one.
//! - `catalogue`: the bundles and the lookup.

mod catalogue;
mod lang;
#[cfg(test)]
mod tests;

use std::cell::Cell;
use std::sync::OnceLock;

pub use catalogue::{Arg, has, lookup, lookup_named, lookup_with};
pub use lang::{Lang, UnknownLang, choose};

static CHOSEN: OnceLock<Lang> = OnceLock::new();

thread_local! {
    /// A language for this thread alone, for tests that draw both languages side by side.
    static SCOPED: Cell<Option<Lang>> = const { Cell::new(None) };
}

/// Sets the process's language; the first call wins, as it is chosen once at start.
pub fn set(lang: Lang) {
    let _ = CHOSEN.set(lang);
}

/// The language messages are shown in now: this thread's [`scoped`] one, else the process's,
/// else English.
pub fn current() -> Lang {
    SCOPED
        .with(Cell::get)
        .or_else(|| CHOSEN.get().copied())
        .unwrap_or_default()
}

/// Runs `f` with `lang` as this thread's language, as the screen tests draw in each.
pub fn scoped<R>(lang: Lang, f: impl FnOnce() -> R) -> R {
    let before = SCOPED.with(|s| s.replace(Some(lang)));
    let out = f();
    SCOPED.with(|s| s.set(before));
    out
}

/// A message in the current language: `t!("help-title")`, or with arguments
/// `t!("help-more", count = 3)`. A message missing from the catalogue shows as its id; the
/// catalogue tests fail first.
#[macro_export]
macro_rules! t {
    ($id:literal) => {
        $crate::i18n::lookup($id)
    };
    ($id:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::lookup_with(
            $id,
            &[$((stringify!($name), $crate::i18n::Arg::from($value))),+],
        )
    };
}
