//! Colour themes: semantic roles mapped to ratatui [`Style`]s.
//!
//! Built-in presets are TOML files under `themes/`, compiled in. A user theme file names only
//! the roles it changes and is laid over a preset (`extends = "light"`, default `dark`); each
//! key it sets replaces that role's whole style. Values are a colour string (anything ratatui's
//! `Color::from_str` accepts: `"red"`, `"light blue"`, `"#ff8800"`, `"208"` for an index) or an
//! inline table `{ fg = "...", bg = "...", bold = true, ... }`.
//!
//! Panels ask for a role ([`Theme::style`]) and never build colours themselves, so `--no-color`
//! and `NO_COLOR` reach every corner of the screen through [`Theme::without_colors`].

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

/// Declares the roles once and derives from that list the enum, the key names and the
/// all-optional file struct, so a role cannot exist in one and be missing from another.
macro_rules! roles {
    ($($variant:ident => $key:ident: $doc:literal,)*) => {
        /// What a piece of the screen means; the theme decides how it looks.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Role {
            $(#[doc = $doc] $variant,)*
        }

        impl Role {
            /// Every role, in the order of the theme files.
            pub const ALL: &[Role] = &[$(Role::$variant,)*];

            /// The key that sets this role in a theme file.
            pub fn key(self) -> &'static str {
                match self {
                    $(Role::$variant => stringify!($key),)*
                }
            }
        }

        /// A theme file as written: every role optional, laid over a preset.
        #[derive(Debug, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct ThemeFile {
            extends: Option<Preset>,
            $($key: Option<StyleSpec>,)*
        }

        impl ThemeFile {
            fn get(&self, role: Role) -> Option<Style> {
                match role {
                    $(Role::$variant => self.$key.map(|spec| spec.0),)*
                }
            }
        }
    };
}

roles! {
    Text => text: "Ordinary text.",
    TextDim => text_dim: "Secondary text: units, hints, timestamps.",
    Header => header: "The header line: provider, instance, SKU.",
    Border => border: "Panel borders.",
    BorderFocused => border_focused: "The border of the panel that has focus.",
    Title => title: "Panel titles.",
    Selected => selected: "The selected row in a list or table.",
    GaugeLow => gauge_low: "A gauge below half.",
    GaugeMid => gauge_mid: "A gauge between half and four fifths.",
    GaugeHigh => gauge_high: "A gauge above four fifths.",
    GpuHot => gpu_hot: "A GPU that is hot or throttling.",
    GpuOk => gpu_ok: "A GPU in normal condition.",
    CostOk => cost_ok: "Spend within budget.",
    CostTotal => cost_total: "The total spent, the screen's most prominent number, within budget.",
    GpuBusy => gpu_busy: "A GPU's utilisation bar when it is working: the calm, good state.",
    GpuIdle => gpu_idle: "A GPU that bills but does nothing: its utilisation bar, the alarm.",
    CostWarn => cost_warn: "Spend nearing the budget.",
    CostOver => cost_over: "Spend over the budget.",
    LeftoverWarning => leftover_warning: "What keeps billing after release.",
    Countdown => countdown: "The release countdown with time to spare.",
    CountdownWarn => countdown_warn: "The countdown nearing zero.",
    CountdownUrgent => countdown_urgent: "The countdown in its last minutes.",
    AlertInfo => alert_info: "Informational log lines.",
    AlertWarn => alert_warn: "Warnings.",
    AlertError => alert_error: "Errors.",
    ActionOk => action_ok: "An action that succeeded.",
    ActionFailed => action_failed: "An action that failed.",
    HelpKey => help_key: "Key names in the help overlay and hints.",
    DialogBorder => dialog_border: "The border of a dialog.",
    DialogDanger => dialog_danger: "The destructive part of a confirmation dialog.",
    Sparkline => sparkline: "Sparklines of recent samples.",
    NA => n_a: "\"n/a\" where a metric is unsupported.",
}

const ROLE_COUNT: usize = Role::ALL.len();

/// A gauge fraction below this uses [`Role::GaugeLow`].
pub const GAUGE_MID_FROM: f64 = 0.5;
/// A gauge fraction from this up uses [`Role::GaugeHigh`].
pub const GAUGE_HIGH_FROM: f64 = 0.8;

/// A GPU below this utilisation is idle: it bills for nothing.
pub const IDLE_BELOW: f64 = 0.1;

/// The built-in themes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    Dark,
    Light,
    HighContrast,
}

impl Preset {
    pub const ALL: [Preset; 3] = [Preset::Dark, Preset::Light, Preset::HighContrast];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Dark => "dark",
            Preset::Light => "light",
            Preset::HighContrast => "high-contrast",
        }
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The preset's TOML source, as shipped in `themes/`.
    pub fn source(self) -> &'static str {
        match self {
            Preset::Dark => include_str!("../../themes/dark.toml"),
            Preset::Light => include_str!("../../themes/light.toml"),
            Preset::HighContrast => include_str!("../../themes/high-contrast.toml"),
        }
    }
}

/// One role's style as written in a file.
#[derive(Debug, Clone, Copy)]
struct StyleSpec(Style);

fn parse_color(s: &str) -> Result<Color, NotAColour> {
    s.parse().map_err(|_| NotAColour(s.to_owned()))
}

#[derive(Debug, thiserror::Error)]
#[error(
    "`{0}` is not a colour: use a name (red, light blue, dark gray), #rrggbb, or an index 0-255 \
     as a string (\"208\")"
)]
struct NotAColour(String);

fn de_color<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
    let s = String::deserialize(d)?;
    parse_color(&s).map(Some).map_err(de::Error::custom)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "one flag per modifier, as users write them"
)]
struct StyleTable {
    #[serde(default, deserialize_with = "de_color")]
    fg: Option<Color>,
    #[serde(default, deserialize_with = "de_color")]
    bg: Option<Color>,
    #[serde(default)]
    bold: bool,
    #[serde(default)]
    dim: bool,
    #[serde(default)]
    italic: bool,
    #[serde(default)]
    underlined: bool,
    #[serde(default)]
    reversed: bool,
}

impl StyleTable {
    fn into_style(self) -> Style {
        let flags = [
            (self.bold, Modifier::BOLD),
            (self.dim, Modifier::DIM),
            (self.italic, Modifier::ITALIC),
            (self.underlined, Modifier::UNDERLINED),
            (self.reversed, Modifier::REVERSED),
        ];
        let modifiers = flags
            .into_iter()
            .filter(|(on, _)| *on)
            .fold(Modifier::empty(), |acc, (_, m)| acc | m);
        let mut style = Style::new().add_modifier(modifiers);
        style.fg = self.fg;
        style.bg = self.bg;
        style
    }
}

impl<'de> Deserialize<'de> for StyleSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct SpecVisitor;
        impl<'de> Visitor<'de> for SpecVisitor {
            type Value = StyleSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a colour such as \"red\" or a table such as { fg = \"red\", bold = true }",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<StyleSpec, E> {
                let color = parse_color(s).map_err(E::custom)?;
                Ok(StyleSpec(Style::new().fg(color)))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<StyleSpec, A::Error> {
                let table = StyleTable::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(StyleSpec(table.into_style()))
            }
        }
        d.deserialize_any(SpecVisitor)
    }
}

/// Why a requested theme was not used. Never fatal: the caller shows it and carries on with
/// the built-in dark theme.
#[derive(Debug, thiserror::Error)]
pub enum ThemeWarning {
    #[error(
        "no built-in theme `{0}` and no file by that name (built-in: dark, light, \
         high-contrast); using the dark theme"
    )]
    Unknown(String),
    #[error("cannot read theme file {path}: {source}; using the dark theme")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("theme file {path}:{line}:{column}: {message}; using the dark theme")]
    Invalid {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

/// A complete set of styles, one per [`Role`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    name: String,
    styles: [Style; ROLE_COUNT],
}

impl Default for Theme {
    fn default() -> Self {
        Theme::builtin(Preset::Dark)
    }
}

/// True when colour is turned off: by the flag, or by a non-empty `NO_COLOR` (no-color.org).
/// The caller passes `std::env::var_os("NO_COLOR").as_deref()`, so tests need no env.
pub fn no_color_requested(flag: bool, no_color_env: Option<&OsStr>) -> bool {
    flag || no_color_env.is_some_and(|v| !v.is_empty())
}

impl Theme {
    /// A built-in preset.
    pub fn builtin(preset: Preset) -> Theme {
        let base = Theme {
            name: preset.name().to_string(),
            styles: [Style::new(); ROLE_COUNT],
        };
        // The presets are ours and a test proves they parse and set every role; should one
        // ever fail, plain styles still draw a usable screen.
        match toml::from_str::<ThemeFile>(preset.source()) {
            Ok(file) => base.patched(&file),
            Err(_) => base,
        }
    }

    /// Parses a user theme file's text and lays it over the preset it extends.
    pub fn from_toml(src: &str, path: &Path) -> Result<Theme, ThemeWarning> {
        let file: ThemeFile = toml::from_str(src).map_err(|err| {
            let (line, column) = err
                .span()
                .map_or((1, 1), |span| crate::config::line_col(src, span.start));
            ThemeWarning::Invalid {
                path: path.to_path_buf(),
                line,
                column,
                message: err.message().to_string(),
            }
        })?;
        let mut theme = Theme::builtin(file.extends.unwrap_or(Preset::Dark)).patched(&file);
        theme.name = path.display().to_string();
        Ok(theme)
    }

    fn patched(mut self, file: &ThemeFile) -> Theme {
        for &role in Role::ALL {
            if let Some(style) = file.get(role) {
                self.styles[role as usize] = style;
            }
        }
        self
    }

    /// The same theme with every colour removed. Modifiers stay, and the selection and the
    /// focused border gain one each so they remain visible in monochrome.
    #[must_use]
    pub fn without_colors(&self) -> Theme {
        let mut styles = self
            .styles
            .map(|s| Style::new().add_modifier(s.add_modifier));
        styles[Role::Selected as usize] =
            styles[Role::Selected as usize].add_modifier(Modifier::REVERSED);
        styles[Role::BorderFocused as usize] =
            styles[Role::BorderFocused as usize].add_modifier(Modifier::BOLD);
        Theme {
            name: format!("{} (no colour)", self.name),
            styles,
        }
    }

    /// The theme's name: a preset name or the file it came from.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn style(&self, role: Role) -> Style {
        self.styles[role as usize]
    }

    /// A panel border, highlighted when the panel has focus.
    pub fn border(&self, focused: bool) -> Style {
        self.style(if focused {
            Role::BorderFocused
        } else {
            Role::Border
        })
    }

    /// A GPU's utilisation bar: calm when it works (the good state), the alarm when it is
    /// idle while billing, in between when it is only partly used.
    pub fn utilisation(&self, fraction: f64) -> Style {
        self.style(if fraction >= GAUGE_MID_FROM {
            Role::GpuBusy
        } else if fraction >= IDLE_BELOW {
            Role::GaugeMid
        } else {
            Role::GpuIdle
        })
    }

    /// A gauge filled to `fraction` (0 to 1): low, mid or high by [`GAUGE_MID_FROM`] and
    /// [`GAUGE_HIGH_FROM`]. NaN counts as low.
    pub fn gauge(&self, fraction: f64) -> Style {
        self.style(if fraction >= GAUGE_HIGH_FROM {
            Role::GaugeHigh
        } else if fraction >= GAUGE_MID_FROM {
            Role::GaugeMid
        } else {
            Role::GaugeLow
        })
    }
}
