//! The cockpit in Simplified Chinese at 60×16, 80×24 and 120×40: recorded as snapshots, and
//! checked against the same screen in English: every key hint and every amount (the totals,
//! the burn, what keeps billing) that English shows, Chinese shows too, as often; and no
//! English word of the screen's own text is left on the Chinese one.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use gpumeter::app::{App, Confirm, Details, Event, IdleWatch, Mode, update};
use gpumeter::demo::demo_app;
use gpumeter::guard::{IdleRule, OnExpiry, StartError, Supervisor};
use gpumeter::i18n::{Lang, scoped};
use gpumeter::meter::InstanceState;
use gpumeter::money::{Balance, Currency, Money};
use gpumeter::provider::Action;
use gpumeter::ui::theme::{Role, Theme};
use jiff::SignedDuration;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use rust_decimal::Decimal;
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
    let mut fleet = main.clone();
    fleet.show_fleet = true;
    let mut details = main.clone();
    // The data disk: it survives a release, and what it costs a month is priced.
    let disk = Details::of(&details, 1).expect("the demo's data disk");
    details.mode = Mode::Details(disk);
    let mut processes = main.clone();
    processes.show_processes = true;
    vec![
        ("main", main),
        ("help", help),
        ("release", release),
        ("extend", extend),
        ("fleet", fleet),
        ("details", details),
        ("processes", processes),
        ("stop_autodl", stop_on_autodl()),
        ("balance", with_balance()),
        ("banners", banners()),
        ("grace", stop_in_grace()),
        ("no_watchdog", no_watchdog()),
        ("idle", idle_for_12_minutes()),
        ("stopped", stopped()),
    ]
}

/// An idle stop after 30 minutes, idle for the last 12, and a budget: the guard lines.
fn idle_for_12_minutes() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    let rule = IdleRule {
        window: Duration::from_secs(30 * 60),
        ..IdleRule::default()
    };
    let mut watch = IdleWatch::new(rule, OnExpiry::Stop);
    watch
        .tracker
        .observe(app.now - SignedDuration::from_mins(12), true);
    watch.tracker.observe(app.now, true);
    app.idle = Some(watch);
    app
}

/// The instance stopped: the header says what still bills, the GPUs that they do no work.
fn stopped() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    if let Some(i) = app
        .cloud
        .inventory
        .as_mut()
        .and_then(|i| i.instance.as_mut())
    {
        i.state = InstanceState::Stopped;
    }
    app
}

/// The stop dialog on a platform that releases what stays stopped, with its notes.
fn stop_on_autodl() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    if let Some(i) = app
        .cloud
        .inventory
        .as_mut()
        .and_then(|i| i.instance.as_mut())
    {
        i.provider = "autodl".into();
    }
    app.mode = Mode::Confirm(Confirm::for_action(&app, Action::Stop));
    app
}

/// A prepaid balance read ten minutes ago: the cost panel says how long it lasts.
fn with_balance() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    let balance = Balance {
        available: Money::new(Decimal::from(90), Currency::USD),
        vouchers: None,
    };
    let read_at = app.now - SignedDuration::from_mins(10);
    let _ = update(&mut app, Event::Balance(balance, read_at));
    app
}

/// A spot reclaim announced in the header, the cockpit read-only.
fn banners() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    app.interruption = Some(app.now + SignedDuration::from_secs(105));
    app.settings.read_only = true;
    app
}

/// 92 s past a deadline that stops after its grace: the banner over the top.
fn stop_in_grace() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    if let Some(d) = app.deadline.as_mut() {
        d.at = app.now - SignedDuration::from_secs(92);
        d.on_expiry = OnExpiry::Stop;
    }
    app
}

/// The watchdog could not be started: the header's banner and the events say so.
fn no_watchdog() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    app.guard.supervisor = Some(Supervisor::new(Duration::from_secs(5)));
    let now = app.now;
    let _ = update(&mut app, Event::Tick(now));
    let _ = update(
        &mut app,
        Event::WatchdogStarted(Err(StartError::Os("permission denied".into()))),
    );
    app
}

fn draw(app: &App, (w, h): (u16, u16), lang: Lang) -> Buffer {
    scoped(lang, || {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
        terminal
            .draw(|frame| render(frame, app, &theme()))
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

/// The default theme, its key hints in a colour of their own (the default draws the header in
/// the same style as the keys).
fn theme() -> Theme {
    let keys = r##"help_key = { fg = "#fe01fe", bold = true }"##;
    Theme::from_toml(keys, std::path::Path::new("keys.toml")).expect("a theme")
}

/// Each run of cells in the key hints' style, counted: `?`, `q`, `Esc`, `y`.
fn keys(buf: &Buffer) -> BTreeMap<String, usize> {
    let style = theme().style(Role::HelpKey);
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

/// Each screen made in English and in Chinese: what the cockpit logs is said in the language
/// it runs in, when it happens.
fn both() -> Vec<(&'static str, App, App)> {
    let english = scoped(Lang::En, screens);
    let chinese = scoped(Lang::ZhCn, screens);
    english
        .into_iter()
        .zip(chinese)
        .map(|((name, en), (_, zh))| (name, en, zh))
        .collect()
}

#[test]
fn chinese_screens_keep_every_key_hint_and_amount() {
    for (name, en_app, app) in both() {
        for size in SIZES {
            let english = draw(&en_app, size, Lang::En);
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

/// Every lowercase English word of four letters or more on a screen: words of ids (with a
/// digit), flags (`--provider`), keys and files (`a.b`, `a_b`) are not words of the text.
fn english_words(rows: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for row in rows {
        // A command in backquotes is typed as it is, in either language.
        let row: String = row.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let tokens = row.split(|c: char| !(c.is_ascii_alphanumeric() || "-_.".contains(c)));
        for token in tokens {
            let token = token.trim_matches(|c| c == '.' || c == '-');
            if token.is_empty()
                || token.contains(|c: char| c.is_ascii_digit() || c == '_' || c == '.')
                || row.contains(&format!("-{token}"))
                || row.contains(&format!("[{token}]"))
            {
                continue;
            }
            for word in token.split('-') {
                if word.len() >= 4 && word.chars().all(|c| c.is_ascii_lowercase()) {
                    out.insert(word.to_string());
                }
            }
        }
    }
    out
}

/// What the demo's cloud, sheet and GPUs name (ids, names, states, commands, the sheet's
/// unpriced keys): data, shown as the provider and the sheet say it in either language.
fn data_words(app: &App) -> BTreeSet<String> {
    let mut said: Vec<String> = vec!["gpumeter".into(), app.cloud.provider.clone()];
    if let Some(inventory) = &app.cloud.inventory {
        if let Some(i) = &inventory.instance {
            said.extend([
                i.id.clone(),
                i.name.clone(),
                i.sku.clone(),
                i.provider.clone(),
            ]);
        }
        for r in &inventory.resources {
            said.extend([r.id.clone(), r.name.clone(), r.state.clone()]);
        }
    }
    if let Some(Ok(reading)) = &app.telemetry.gpus {
        for g in &reading.gpus {
            if let gpumeter::telemetry::Metric::Value(list) = &g.processes {
                for p in list {
                    said.extend(p.cmdline.clone());
                    said.extend(p.name.clone());
                    said.extend(p.user.clone());
                }
            }
        }
    }
    // What the operating system said when the watchdog could not start.
    said.extend(
        app.guard
            .supervisor
            .as_ref()
            .and_then(Supervisor::down)
            .map(str::to_string),
    );
    if let Some(reading) = &app.spend.reading {
        // The meter's unpriced lines are data too: `report --json` carries them as they are.
        said.extend(reading.accrual.unpriced.iter().cloned());
    }
    english_words(&said)
}

#[test]
fn chinese_screens_leave_no_english_word_of_the_interface() {
    let mut found = Vec::new();
    for (name, en_app, app) in both() {
        let data = data_words(&app);
        for size in SIZES {
            let english = english_words(&rows(&draw(&en_app, size, Lang::En)));
            let zh_rows = rows(&draw(&app, size, Lang::ZhCn));
            let left: Vec<String> = english_words(&zh_rows)
                .intersection(&english)
                .filter(|w| !data.contains(*w))
                .cloned()
                .collect();
            if !left.is_empty() {
                let at = format!("{name} {}x{}", size.0, size.1);
                found.push(format!("{at}: {left:?}\n{}", zh_rows.join("\n")));
            }
        }
    }
    assert!(found.is_empty(), "left in English:\n{}", found.join("\n\n"));
}

#[test]
fn a_date_within_the_week_and_a_far_one_read_in_chinese() {
    use gpumeter::ui::text::local_time;
    let now = gpumeter::demo::fixture_now();
    let utc = jiff::tz::TimeZone::UTC;
    let soon = now + SignedDuration::from_hours(24 * 2);
    let far = now + SignedDuration::from_hours(24 * 400);
    let en = scoped(Lang::En, || {
        (local_time(soon, now, &utc), local_time(far, now, &utc))
    });
    let zh = scoped(Lang::ZhCn, || {
        (local_time(soon, now, &utc), local_time(far, now, &utc))
    });
    assert_eq!(
        en.0,
        soon.to_zoned_datetime(utc.clone())
            .strftime("%a %H:%M UTC")
            .to_string()
    );
    assert_eq!(
        en.1,
        far.to_zoned_datetime(utc.clone())
            .strftime("%-d %b %Y %H:%M UTC")
            .to_string()
    );
    let (s, f) = (
        soon.to_zoned_datetime(utc.clone()),
        far.to_zoned_datetime(utc.clone()),
    );
    let weekdays = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"];
    let weekday = weekdays[usize::try_from(s.weekday().to_monday_zero_offset()).unwrap()];
    assert_eq!(
        zh.0,
        format!(
            "{}月{}日 {weekday} {} UTC",
            s.month(),
            s.day(),
            s.strftime("%H:%M")
        )
    );
    assert_eq!(
        zh.1,
        format!(
            "{}年{}月{}日 {} UTC",
            f.year(),
            f.month(),
            f.day(),
            f.strftime("%H:%M")
        )
    );
}
