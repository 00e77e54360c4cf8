//! A price sheet a test writes, and the binary run on it in one language: what the planning
//! tests (spot's restarts, every plan, a sheet's own extras) share.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `body` written as `name.toml` in a directory of this test process's own.
pub(super) fn sheet(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpumeter-sheet-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, body).unwrap();
    path
}

/// `gpumeter --lang LANG ARGS --sheet SHEET`, which must succeed.
pub(super) fn on_sheet(sheet: &Path, lang: &str, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["--lang", lang])
        .args(args)
        .arg("--sheet")
        .arg(sheet)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What [`on_sheet`] printed.
pub(super) fn text_on_sheet(sheet: &Path, lang: &str, args: &[&str]) -> String {
    String::from_utf8(on_sheet(sheet, lang, args).stdout).unwrap()
}
