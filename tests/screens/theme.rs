//! Themes: the built-in presets are complete, user files patch only what they name, and a bad
//! file falls back with a warning instead of stopping the program.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use gpumeter::ui::theme::{Preset, Role, Theme, ThemeWarning, no_color_requested};
use ratatui::style::{Color, Modifier, Style};

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpumeter-theme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn user(src: &str) -> Theme {
    Theme::from_toml(src, Path::new("mine.toml")).unwrap()
}

#[test]
fn every_builtin_theme_sets_every_role_and_nothing_else() {
    let roles: BTreeSet<&str> = Role::ALL.iter().map(|r| r.key()).collect();
    assert_eq!(roles.len(), Role::ALL.len(), "two roles share a key");
    for preset in Preset::ALL {
        let table: toml::Table = toml::from_str(preset.source()).unwrap();
        let keys: BTreeSet<&str> = table.keys().map(String::as_str).collect();
        assert_eq!(keys, roles, "themes/{}.toml", preset.name());
        // Parsing as a user file proves every value is valid, which `builtin` cannot show
        // because it falls back to plain styles.
        let parsed = Theme::from_toml(preset.source(), Path::new(preset.name())).unwrap();
        for &role in Role::ALL {
            assert_eq!(parsed.style(role), Theme::builtin(preset).style(role));
        }
    }
}

#[test]
fn the_roles_the_screen_needs_exist() {
    let keys: BTreeSet<&str> = Role::ALL.iter().map(|r| r.key()).collect();
    for needed in [
        "text",
        "text_dim",
        "header",
        "border",
        "border_focused",
        "title",
        "selected",
        "gauge_low",
        "gauge_mid",
        "gauge_high",
        "gpu_hot",
        "gpu_ok",
        "cost_ok",
        "cost_total",
        "gpu_busy",
        "gpu_idle",
        "cost_warn",
        "cost_over",
        "leftover_warning",
        "countdown",
        "countdown_warn",
        "countdown_urgent",
        "alert_info",
        "alert_warn",
        "alert_error",
        "action_ok",
        "action_failed",
        "help_key",
        "dialog_border",
        "dialog_danger",
        "sparkline",
        "n_a",
    ] {
        assert!(keys.contains(needed), "missing role {needed}");
    }
}

#[test]
fn presets_differ_and_dark_is_the_default() {
    let dark = Theme::builtin(Preset::Dark);
    assert_eq!(Theme::default(), dark);
    assert_ne!(Theme::builtin(Preset::Light), dark);
    assert_ne!(Theme::builtin(Preset::HighContrast), dark);
    assert_eq!(dark.style(Role::CostOver).fg, Some(Color::LightRed));
    assert!(
        dark.style(Role::CostOver)
            .add_modifier
            .contains(Modifier::BOLD)
    );
}

#[test]
fn a_partial_user_theme_overrides_only_its_keys() {
    let theme =
        user("cost_warn = \"#ff8800\"\nheader = { fg = \"208\", bg = \"black\", bold = true }\n");
    let dark = Theme::builtin(Preset::Dark);
    assert_eq!(
        theme.style(Role::CostWarn),
        Style::new().fg(Color::Rgb(255, 136, 0))
    );
    assert_eq!(
        theme.style(Role::Header),
        Style::new()
            .fg(Color::Indexed(208))
            .bg(Color::Black)
            .add_modifier(Modifier::BOLD)
    );
    for &role in Role::ALL {
        if role != Role::CostWarn && role != Role::Header {
            assert_eq!(theme.style(role), dark.style(role), "{}", role.key());
        }
    }
    assert_eq!(theme.name(), "mine.toml");
}

#[test]
fn a_user_theme_can_extend_another_preset() {
    let theme = user("extends = \"light\"\ncost_ok = \"light blue\"\n");
    let light = Theme::builtin(Preset::Light);
    assert_eq!(theme.style(Role::CostOk), Style::new().fg(Color::LightBlue));
    assert_eq!(theme.style(Role::Text), light.style(Role::Text));
    assert_eq!(theme.style(Role::Selected), light.style(Role::Selected));
}

#[test]
fn resolve_picks_presets_by_name_and_files_by_path() {
    let (theme, warning) = Theme::resolve(Some("high-contrast"), false);
    assert!(warning.is_none());
    assert_eq!(theme, Theme::builtin(Preset::HighContrast));
    let (theme, warning) = Theme::resolve(None, false);
    assert!(warning.is_none());
    assert_eq!(theme, Theme::builtin(Preset::Dark));

    let path = temp_file("ok.toml", "gpu_hot = \"magenta\"\n");
    let (theme, warning) = Theme::resolve(path.to_str(), false);
    assert!(warning.is_none(), "{warning:?}");
    assert_eq!(theme.style(Role::GpuHot), Style::new().fg(Color::Magenta));
}

#[test]
fn a_bad_theme_file_is_a_warning_with_its_location_and_falls_back_to_dark() {
    let path = temp_file("bad.toml", "text = \"red\"\ncost_warn = \"purpl\"\n");
    let (theme, warning) = Theme::resolve(path.to_str(), false);
    assert_eq!(theme, Theme::builtin(Preset::Dark));
    let warning = warning.expect("a warning");
    assert!(
        matches!(
            warning,
            ThemeWarning::Invalid {
                line: 2,
                column: 13,
                ..
            }
        ),
        "{warning:?}"
    );
    let text = warning.to_string();
    assert!(text.contains("bad.toml:2:13"), "{text}");
    assert!(text.contains("`purpl` is not a colour"), "{text}");
}

#[test]
fn unknown_keys_and_presets_are_warnings() {
    let path = temp_file("typo.toml", "cost_wran = \"red\"\n");
    let (_, warning) = Theme::resolve(path.to_str(), false);
    let text = warning.expect("a warning").to_string();
    assert!(text.contains("unknown field `cost_wran`"), "{text}");

    let path = temp_file("base.toml", "extends = \"sepia\"\n");
    let (theme, warning) = Theme::resolve(path.to_str(), false);
    assert!(
        matches!(warning, Some(ThemeWarning::Invalid { line: 1, .. })),
        "{warning:?}"
    );
    assert_eq!(theme, Theme::default());

    let path = temp_file("modifier.toml", "title = { fg = \"red\", blink = true }\n");
    let (_, warning) = Theme::resolve(path.to_str(), false);
    assert!(warning.is_some());

    let (theme, warning) = Theme::resolve(Some("solarized"), false);
    assert!(matches!(warning, Some(ThemeWarning::Unknown(ref n)) if n == "solarized"));
    assert_eq!(theme, Theme::default());
}

#[test]
fn no_color_strips_colours_and_keeps_selection_visible() {
    for preset in Preset::ALL {
        let theme = Theme::builtin(preset).without_colors();
        for &role in Role::ALL {
            let style = theme.style(role);
            assert_eq!((style.fg, style.bg), (None, None), "{}", role.key());
        }
        assert!(
            theme
                .style(Role::Selected)
                .add_modifier
                .contains(Modifier::REVERSED)
        );
        assert!(theme.border(true).add_modifier.contains(Modifier::BOLD));
        assert_ne!(theme.border(true), theme.border(false));
    }
    let dark = Theme::builtin(Preset::Dark).without_colors();
    assert!(
        dark.style(Role::CostOver)
            .add_modifier
            .contains(Modifier::BOLD)
    );
    let (resolved, _) = Theme::resolve(Some("light"), true);
    assert_eq!(resolved, Theme::builtin(Preset::Light).without_colors());
}

#[test]
fn no_color_env_counts_only_when_non_empty() {
    assert!(!no_color_requested(false, None));
    assert!(!no_color_requested(false, Some(OsStr::new(""))));
    assert!(no_color_requested(false, Some(OsStr::new("1"))));
    assert!(no_color_requested(false, Some(OsStr::new("0"))));
    assert!(no_color_requested(true, None));
}

#[test]
fn gauges_and_borders_map_to_their_roles() {
    let theme = Theme::builtin(Preset::HighContrast);
    assert_eq!(theme.gauge(0.1), theme.style(Role::GaugeLow));
    assert_eq!(theme.gauge(0.5), theme.style(Role::GaugeMid));
    assert_eq!(theme.gauge(0.95), theme.style(Role::GaugeHigh));
    assert_eq!(theme.gauge(f64::NAN), theme.style(Role::GaugeLow));
    assert_eq!(theme.border(false), theme.style(Role::Border));
    assert_eq!(theme.border(true), theme.style(Role::BorderFocused));
}

#[test]
fn the_light_themes_labels_are_dark_enough_to_read_on_white() {
    use ratatui::style::Color;
    let light = Theme::builtin(Preset::Light);
    for role in [Role::TextDim, Role::NA, Role::Text, Role::Title] {
        let fg = light.style(role).fg;
        assert!(
            !matches!(fg, Some(Color::Gray | Color::White | Color::DarkGray)),
            "{role:?} is {fg:?}: near-white on a light background"
        );
        if let Some(Color::Rgb(r, g, b)) = fg {
            let luma = 299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b);
            assert!(luma < 128_000, "{role:?} is too light: {fg:?}");
        }
    }
}
