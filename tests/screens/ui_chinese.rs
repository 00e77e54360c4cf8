//! The cockpit in Simplified Chinese at 60×16, 80×24 and 120×40: recorded as snapshots, and
//! checked against the same screen in English: every key hint and every amount (the totals,
//! the burn, what keeps billing) that English shows, Chinese shows too, as often.

use std::collections::BTreeMap;
use std::time::Duration;

use gpumeter::app::{App, Confirm, Mode};
use gpumeter::demo::demo_app;
use gpumeter::i18n::{Lang, scoped};
use gpumeter::provider::Action;
use gpumeter::ui::theme::{Role, Theme};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use unicode_width::UnicodeWidthStr as _;

use crate::common::ui_frame::render;

const SIZES: [(u16, u16); 3] = [(60, 16), (80, 24), (120, 40)];

fn screens() -> Vec<(&'static str, App)> {
    let main = demo_app(Duration::from_secs(200 * 60));
    let mut help = main.clone();
    help.mode = Mode::Help;
    let mut release = main.clone();
    release.mode = Mode::Confirm(Confirm::for_action(&release, Action::Release));
    let mut extend = main.clone();
    extend.mode = Mode::Prompt {
        input: "2h".into(),
        error: None,
        asking: None,
    };
    vec![
        ("main", main),
        ("help", help),
        ("release", release),
        ("extend", extend),
    ]
}

fn draw(app: &App, (w, h): (u16, u16), lang: Lang) -> Buffer {
    scoped(lang, || {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
        terminal
            .draw(|frame| render(frame, app, &Theme::default()))
            .expect("drawing never fails on a test backend");
        terminal.backend().buffer().clone()
    })
}

/// The rows as a terminal shows them: a wide character's second cell is not a column of its
/// own.
fn rows(buf: &Buffer) -> Vec<String> {
    (0..buf.area.height)
        .map(|y| {
            let mut row = String::new();
            let mut skip = 0;
            for x in 0..buf.area.width {
                let symbol = buf[(x, y)].symbol();
                if skip == 0 {
                    row.push_str(symbol);
                    skip = symbol.width().saturating_sub(1);
                } else {
                    skip -= 1;
                }
            }
            row
        })
        .collect()
}

/// Each run of cells in the key hints' style, counted: `?`, `q`, `Esc`, `y`.
fn keys(buf: &Buffer) -> BTreeMap<String, usize> {
    let style = Theme::default().style(Role::HelpKey);
    let fg = style.fg.unwrap_or_default();
    let is_key = |c: &ratatui::buffer::Cell| c.fg == fg && c.modifier.contains(style.add_modifier);
    let mut out = BTreeMap::new();
    for y in 0..buf.area.height {
        let mut run = String::new();
        for x in 0..=buf.area.width {
            let cell = (x < buf.area.width).then(|| &buf[(x, y)]);
            match cell {
                Some(c) if is_key(c) && !c.symbol().trim().is_empty() => {
                    run.push_str(c.symbol());
                }
                Some(c) if is_key(c) && !run.is_empty() => run.push(' '),
                _ => {
                    let key = run.trim().to_string();
                    if !key.is_empty() {
                        *out.entry(key).or_insert(0) += 1;
                    }
                    run.clear();
                }
            }
        }
    }
    out
}

/// Every amount on the screen, `94.55`, `1,234.56`, in the order read.
fn amounts(rows: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for row in rows {
        let chars: Vec<char> = row.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_digit()) {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_ascii_digit() || chars[i] == ',' || chars[i] == '.')
                {
                    i += 1;
                }
                let n: String = chars[start..i].iter().collect();
                let n = n.trim_end_matches([',', '.']);
                if n.split('.').nth(1).is_some_and(|cents| cents.len() == 2) {
                    out.push(n.to_string());
                }
            } else {
                i += 1;
            }
        }
    }
    out.sort();
    out
}

#[test]
fn chinese_screens_keep_every_key_hint_and_amount() {
    for (name, app) in screens() {
        for size in SIZES {
            let english = draw(&app, size, Lang::En);
            let chinese = draw(&app, size, Lang::ZhCn);
            let zh_rows = rows(&chinese);
            let screen = zh_rows.join("\n");
            let at = format!("{name} {}x{}", size.0, size.1);
            for row in &zh_rows {
                assert_eq!(
                    row.width(),
                    usize::from(size.0),
                    "{at}: a row's width\n{screen}"
                );
            }
            assert!(
                screen.contains(|c: char| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{at} has no Chinese:\n{screen}"
            );
            // Chinese may show more (a narrower dialog hides less), never less.
            let zh_keys = keys(&chinese);
            for (key, n) in keys(&english) {
                let shown = zh_keys.get(&key).copied().unwrap_or(0);
                assert!(
                    shown >= n,
                    "{at}: {key} {n}x in English, {shown}x\n{screen}"
                );
            }
            let mut zh_amounts = amounts(&zh_rows);
            for amount in amounts(&rows(&english)) {
                let Some(i) = zh_amounts.iter().position(|a| *a == amount) else {
                    panic!("{at}: {amount} is not shown\n{screen}");
                };
                zh_amounts.remove(i);
            }
            insta::assert_snapshot!(format!("zh_{name}_{}x{}", size.0, size.1), screen);
        }
    }
}

#[test]
fn english_is_drawn_when_no_language_is_chosen() {
    let app = demo_app(Duration::from_secs(200 * 60));
    let default = rows(&draw(&app, (80, 24), Lang::En)).join("\n");
    assert!(default.contains("Cost"), "{default}");
    assert!(!default.contains("费用"), "{default}");
}
