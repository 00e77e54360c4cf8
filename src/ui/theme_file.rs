//! A theme named on the command line or in the config: a preset, or a file read from disk. The
//! rest of `ui` draws from what it is given and reads nothing.

use std::path::Path;

use super::theme::{Preset, Theme, ThemeWarning};

impl Theme {
    /// The theme for `--theme`/config `spec` (a preset name, else a file path; `None` is dark),
    /// with colours stripped when `no_color`. A theme that cannot be used yields the dark
    /// theme and a warning to show.
    pub fn resolve(spec: Option<&str>, no_color: bool) -> (Theme, Option<ThemeWarning>) {
        let (theme, warning) = match spec {
            None => (Theme::default(), None),
            Some(name) => match Preset::from_name(name) {
                Some(preset) => (Theme::builtin(preset), None),
                None => match Theme::load_file(Path::new(name)) {
                    Ok(theme) => (theme, None),
                    Err(warning) => (Theme::default(), Some(warning)),
                },
            },
        };
        let theme = if no_color {
            theme.without_colors()
        } else {
            theme
        };
        (theme, warning)
    }

    fn load_file(path: &Path) -> Result<Theme, ThemeWarning> {
        match crate::files::read_regular(path) {
            Ok(src) => Theme::from_toml(&src, path),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                Err(ThemeWarning::Unknown(path.display().to_string()))
            }
            Err(source) => Err(ThemeWarning::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }
}
