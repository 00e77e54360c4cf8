//! Price sheets: the schema, parsing and the bundled sheets live in the core
//! ([`gpumeter_core::pricing`]); this adds reading a sheet from a file.

use std::path::Path;

pub use gpumeter_core::pricing::*;

/// Loads a sheet from a file; errors name the file as given.
pub fn load_file(path: &Path) -> Result<Sheet, SheetError> {
    let name = path.display().to_string();
    let text = crate::files::read_regular(path).map_err(|e| SheetError {
        source_name: name.clone(),
        location: None,
        kind: ErrorKind::Io,
        message: crate::t!("sheet-cannot-read", error = e.to_string()),
    })?;
    load_str(&name, &text)
}
