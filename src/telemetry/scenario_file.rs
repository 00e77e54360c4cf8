//! Scenario files: a bundled scenario by name, or one read from a `.toml` file. The parsing
//! is the core's ([`Scenario::from_toml`]); reading the file is done here.

use std::path::Path;

use super::{Scenario, ScenarioError};

/// A bundled name, or a path to a scenario file when the argument ends in `.toml`.
pub fn resolve(name_or_path: &str) -> Result<Scenario, ScenarioError> {
    if Path::new(name_or_path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
    {
        load(Path::new(name_or_path))
    } else {
        Scenario::bundled(name_or_path)
    }
}

pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    let origin = path.display().to_string();
    let text = crate::files::read_regular(path).map_err(|source| ScenarioError::Read {
        path: origin.clone(),
        source,
    })?;
    Scenario::from_toml(&text, &origin)
}
