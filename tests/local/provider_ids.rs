//! A cloud's id and display name are written once, in the core's `ProviderKind`: everywhere
//! else asks the kind, so that a new cloud is a new variant the compiler walks through, not a
//! hunt for strings. Test code (test files and in-file test modules) may spell them as fixture
//! data.

use std::path::{Path, PathBuf};

use gpumeter_core::cloud::ProviderKind;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The one file that spells every id and name.
const KIND_FILE: &str = "crates/core/src/cloud/kind.rs";

/// Where a quoted id or name may stay, and why: (path or folder, id or name, reason).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "src/detect/signs.rs",
        "Alibaba Cloud",
        "the DMI sys_vendor Alibaba's firmware reports, matched as it is",
    ),
    (
        "src/detect/signs.rs",
        "Tencent Cloud",
        "the DMI sys_vendor Tencent's firmware reports, matched as it is",
    ),
    (
        "src/ledger/record.rs",
        "command",
        "the origin of an action run from the command line, not the command provider",
    ),
    (
        "src/commands/status.rs",
        "demo",
        "the telemetry source of `status --demo`, not the demo cloud",
    ),
    (
        "src/commands/verify/",
        "demo",
        "the telemetry source (simulated GPUs, beside nvml), not the demo cloud",
    ),
    (
        "src/provider/alibaba/",
        "alibaba",
        "the adapter is being rebuilt on a shared skeleton; its ids go with that rewrite",
    ),
    (
        "src/provider/tencent/",
        "tencent",
        "the adapter is being rebuilt on a shared skeleton; its ids go with that rewrite",
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "tests") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_file(path: &str) -> bool {
    path.ends_with("/tests.rs") || path.ends_with("_tests.rs")
}

/// The lines before the file's in-file test module, numbered from 1. A `#[cfg(test)]` that
/// declares a module in another file (`mod tests;`) does not end the scan.
fn production_lines(text: &str) -> Vec<(usize, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim() == "#[cfg(test)]" {
            let next = lines[i + 1..]
                .iter()
                .map(|l| l.trim())
                .find(|l| !l.starts_with("#["))
                .unwrap_or("");
            if next.contains("mod ") && next.ends_with('{') {
                break;
            }
        }
        out.push((i + 1, *line));
    }
    out
}

fn allowed(path: &str, word: &str) -> bool {
    ALLOWED
        .iter()
        .any(|(place, spelt, _)| path.starts_with(place) && *spelt == word)
}

/// Every quoted provider id or display name outside the kind, its tests and the allowed
/// places, as `path:line: text`.
fn stray_ids() -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["src", "crates"] {
        rust_files(&Path::new(ROOT).join(dir), &mut files);
    }
    let mut found = Vec::new();
    for file in files {
        let path = file
            .strip_prefix(ROOT)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        if path == KIND_FILE || is_test_file(&path) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        for (number, line) in production_lines(&text) {
            let spelt = ProviderKind::ALL
                .into_iter()
                .flat_map(|kind| [kind.id(), kind.display_name()])
                .filter(|word| line.contains(&format!("\"{word}\"")));
            for word in spelt {
                if !allowed(&path, word) {
                    found.push(format!("{path}:{number}: {}", line.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn provider_ids_and_names_are_spelt_only_by_the_kind() {
    let stray = stray_ids();
    assert!(
        stray.is_empty(),
        "ask ProviderKind (id(), display_name(), ...) instead of spelling its id:\n{}",
        stray.join("\n")
    );
}

#[test]
fn the_scan_sees_a_stray_id_and_skips_test_modules() {
    let text = "const A: &str = \"aws\";\n#[cfg(test)]\nmod tests;\nfn b() {}\n\
                #[cfg(test)]\nmod tests {\n    const C: &str = \"aws\";\n}\n";
    let lines = production_lines(text);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].1.contains("\"aws\""));
    assert!(allowed("src/provider/alibaba/rpc.rs", "alibaba"));
    assert!(!allowed("src/provider/alibaba/rpc.rs", "aws"));
    assert!(!allowed("src/ui/cost.rs", "RunPod"));
}

#[test]
fn every_allowance_still_covers_something() {
    for (place, id, why) in ALLOWED {
        let path = Path::new(ROOT).join(place);
        assert!(path.exists(), "{place} ({why}) no longer exists");
        let mut files = Vec::new();
        if path.is_dir() {
            rust_files(&path, &mut files);
        } else {
            files.push(path);
        }
        let quoted = format!("\"{id}\"");
        let used = files.iter().any(|f| {
            let text = std::fs::read_to_string(f).expect("a readable source file");
            production_lines(&text)
                .iter()
                .any(|(_, l)| l.contains(&quoted))
        });
        assert!(
            used,
            "{place} no longer spells {quoted}: drop its allowance ({why})"
        );
    }
}
