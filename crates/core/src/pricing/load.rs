//! Loading a sheet from TOML text: parse, find the base sheet, resolve. Reading the file is
//! the caller's.

use super::bundled::bundled;
use super::error::{ErrorKind, SheetError, Source};
use super::raw::RawSheet;
use super::resolve::resolve;
use super::sheet::Sheet;
use super::values::Values;

/// Loads a sheet from its text; `source_name` names it in errors (usually its path). A sheet
/// may `extends` any bundled sheet.
pub fn load_str(source_name: &str, text: &str) -> Result<Sheet, SheetError> {
    load_with(source_name, text, bundled())
}

/// Loads a sheet whose `extends` may name any of `bases`.
pub(crate) fn load_with(
    source_name: &str,
    text: &str,
    bases: &[Sheet],
) -> Result<Sheet, SheetError> {
    let src = Source {
        name: source_name,
        text,
    };
    let raw: RawSheet = toml::from_str(text).map_err(|e| src.toml_error(&e))?;
    let values = Values { src };
    let base = match &raw.extends {
        None => None,
        Some(target) => {
            let found = bases.iter().find(|s| s.id == *target.get_ref());
            Some(found.ok_or_else(|| {
                let known: Vec<String> = bases.iter().map(|s| format!("`{}`", s.id)).collect();
                values.error(
                    target.span(),
                    ErrorKind::UnknownExtends,
                    crate::t!(
                        "sheet-unknown-extends",
                        id = target.get_ref().as_str(),
                        known = known.join(", ")
                    ),
                )
            })?)
        }
    };
    resolve(&values, &raw, base)
}
