//! A name holding bidirectional controls (a right-to-left override makes `data-\u{202E}fdp.exe`
//! read as `data-exe.pdf` in a terminal that honours it) reaches neither the release
//! confirmation in the cockpit nor the command line's output: each control is a space there,
//! as a control character is.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use gpumeter::app::{Event, KeyCode, KeyPress, Mode, update};
use gpumeter::demo::demo_app;
use gpumeter::provider::Provider as _;
use gpumeter::provider::demo::DemoCloud;
use gpumeter::provider::one_line::OneLine;
use gpumeter::ui::theme::Theme;
use gpumeter_core::text::is_unsafe;
use jiff::Timestamp;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use serde_json::Value;

use super::actions_cli::{Cloud, stdout};

/// The data disk's name and the instance's, spoofed; and what each becomes.
const DISK: &str = "data-\u{202E}fdp.exe";
const DISK_SHOWN: &str = "data- fdp.exe";
const INSTANCE: &str = "\u{2067}llm\u{2069}-\u{200F}finetune\u{061C}";

/// Writes the demo cloud's state in `dir` with the spoofed names.
fn spoof(dir: &Path, mut state: Value) {
    let data = state["resources"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|r| r["id"] == "vol-0data")
        .unwrap();
    data["name"] = Value::from(DISK);
    state["instance"]["name"] = Value::from(INSTANCE);
    let text = serde_json::to_string(&state).unwrap();
    std::fs::write(dir.join("demo-cloud.json"), text).unwrap();
}

#[test]
fn a_spoofed_name_is_neutralised_in_the_release_confirmation() {
    let dir = tempfile::tempdir().unwrap();
    let clock: gpumeter::provider::demo::Clock = Arc::new(Timestamp::now);
    let cloud = DemoCloud::new(dir.path(), Arc::clone(&clock));
    let fresh = serde_json::to_value(cloud.reset().unwrap()).unwrap();
    spoof(dir.path(), fresh);
    // The cockpit's provider: the adapter behind the one-lining every answer passes through.
    let provider = OneLine(Arc::new(
        DemoCloud::new(dir.path(), clock).with_delay(Duration::ZERO),
    ));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let inventory = runtime.block_on(provider.inventory()).unwrap();
    let mut app = demo_app(Duration::from_secs(3600));
    update(&mut app, Event::Inventory(Ok(inventory)));
    update(&mut app, Event::Key(KeyPress::new(KeyCode::Char('R'))));
    assert!(matches!(app.mode, Mode::Confirm(_)), "R opened no dialog");
    let area = Rect::new(0, 0, 140, 45);
    let mut buf = Buffer::empty(area);
    gpumeter::ui::render(area, &mut buf, &app, &Theme::default());
    let mut screen = String::new();
    for y in 0..area.height {
        for x in 0..area.width {
            let symbol = buf[(x, y)].symbol();
            assert!(!symbol.contains(is_unsafe), "({x}, {y}) holds {symbol:?}");
            screen.push_str(symbol);
        }
        screen.push('\n');
    }
    assert!(screen.contains("Release the instance"), "{screen}");
    assert!(screen.contains(DISK_SHOWN), "{screen}");
}

#[test]
fn a_spoofed_name_is_neutralised_on_the_command_line() {
    let cloud = Cloud::new("bidi");
    let first = cloud.run(&["checklist", "--json"], &[]);
    assert_eq!(first.status.code(), Some(3), "{first:?}");
    spoof(cloud.path(), cloud.state());
    for args in [
        &["checklist"][..],
        &["checklist", "--json"],
        &["release", "--dry-run"],
        &["status"],
    ] {
        let out = cloud.run(args, &[]);
        for bytes in [&out.stdout, &out.stderr] {
            let text = String::from_utf8_lossy(bytes);
            assert!(
                !text.contains(|c| is_unsafe(c) && c != '\n'),
                "{args:?}: {text}"
            );
        }
    }
    let dry_run = stdout(&cloud.run(&["release", "--dry-run"], &[]));
    assert!(dry_run.contains(DISK_SHOWN), "{dry_run}");
}
