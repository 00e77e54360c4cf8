//! A check's sentence said from the catalogue and kept to be said again: the report keeps it in
//! English (JSON, the ledger), the terminal shows it in the user's language.

/// What could not be read, as the catalogue says it: `|| crate::t!("verify-what-mig")`.
pub type What = fn() -> std::borrow::Cow<'static, str>;

/// A message said from the catalogue, kept to be said again in another language: the report
/// keeps it in English and the terminal shows it in the user's.
#[derive(Clone)]
pub struct Said(std::sync::Arc<dyn Fn() -> String + Send + Sync>);

impl Said {
    pub fn new(say: impl Fn() -> String + Send + Sync + 'static) -> Self {
        Said(std::sync::Arc::new(say))
    }

    /// In the current language.
    pub fn shown(&self) -> String {
        (self.0)()
    }

    /// In English, as what is kept.
    pub fn english(&self) -> String {
        crate::i18n::scoped(crate::i18n::Lang::En, || self.shown())
    }
}

impl std::fmt::Debug for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Said(..)")
    }
}

/// Two checks are alike by what they keep: the English message, not how it is said again.
impl PartialEq for Said {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
