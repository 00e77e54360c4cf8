//! ARCHITECTURE.md against the code: every core module is in its table, and every file, folder,
//! type, function and module it names in backticks still exists. A rename that forgets the page
//! fails here, naming the line.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn doc() -> String {
    std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap()
}

/// Every `.rs` and `.c` file under the project's code folders.
fn sources() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo: Vec<PathBuf> = ["src", "crates", "tests", "benches"]
        .iter()
        .map(|d| root().join(d))
        .collect();
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if !path.ends_with("target") && !path.ends_with("snapshots") {
                    todo.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs" || e == "c") {
                found.push(path);
            }
        }
    }
    found
}

/// What the code defines, by file: item names after a keyword (and the types an `impl` is
/// for), fields and enum variants at the start of a line.
struct Defined {
    files: Vec<(PathBuf, BTreeSet<String>)>,
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

fn names_in(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            if matches!(
                pair[0],
                "fn" | "mod"
                    | "struct"
                    | "enum"
                    | "trait"
                    | "type"
                    | "const"
                    | "static"
                    | "impl"
                    | "for"
            ) {
                // `impl super::Config` is an impl of `Config`.
                let item = pair[1].rsplit("::").next().unwrap_or(pair[1]);
                names.insert(ident(item.trim_start_matches('<')));
            }
        }
        // A field (`pub guard: ...`) or a variant (`Release,`, `Key(KeyPress)`).
        let bare = line
            .trim_start()
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ");
        let name = ident(bare);
        let rest = bare[name.len()..].trim_start();
        if !name.is_empty()
            && (rest.is_empty() || rest.starts_with([':', '(', '{', ',']))
            && !rest.starts_with("::")
        {
            names.insert(name);
        }
    }
    names
}

impl Defined {
    fn read() -> Defined {
        let files = sources()
            .into_iter()
            .map(|p| {
                let names = names_in(&std::fs::read_to_string(&p).unwrap_or_default());
                (p, names)
            })
            .collect();
        Defined { files }
    }

    /// Whether `path` (`spend::account`, `Context::load`, `Guardian`) names something the code
    /// defines where the path says: an item in a file of its module, or one of its type.
    fn has(&self, path: &[&str]) -> bool {
        let (last, parent) = match path {
            [] => return true,
            [only] => (*only, None),
            [.., parent, last] => (*last, Some(*parent)),
        };
        let crates = ["gpumeter", "gpumeter_core", "gpumeter_driver"];
        let defines = |names: &BTreeSet<String>| names.contains(last);
        let module = |file: &Path, m: &str| {
            file.components().any(|c| c.as_os_str() == m)
                || file.file_stem().is_some_and(|s| s == m)
        };
        self.files.iter().any(|(file, names)| match parent {
            None => defines(names) || module(file, last),
            Some(p) if crates.contains(&p) => module(file, last),
            Some(p) if p.starts_with(|c: char| c.is_ascii_uppercase()) => {
                defines(names) && names.contains(p)
            }
            Some(p) => {
                (defines(names) || file.file_stem().is_some_and(|s| s == last)) && module(file, p)
            }
        })
    }
}

/// The backticked spans of one line.
fn spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// Whether `span` names a file or folder of the project, and where it should be.
fn as_path(span: &str) -> Option<&str> {
    let file = [".rs", ".md", ".toml", ".json", ".c", ".py", ".sh"]
        .iter()
        .any(|e| span.ends_with(e));
    let plain = !span.contains([' ', '<', '*', '{', '$']);
    (plain && (file || span.contains('/'))).then_some(span)
}

/// A file or folder named relative to the root, `src/`, the core's `src/` or `crates/`, or
/// (a bare file name) anywhere in the code.
fn path_exists(span: &str, all: &[PathBuf]) -> bool {
    let span = span.trim_end_matches('/');
    let bases = [
        "",
        "src",
        "src/commands",
        "src/provider",
        "crates/core/src",
        "crates",
        "tests",
        "tests/clouds",
    ];
    bases
        .iter()
        .any(|base| root().join(base).join(span).exists())
        || (!span.contains('/') && all.iter().any(|p| p.file_name().is_some_and(|n| n == span)))
}

/// Types the page names from the crates the project draws with.
const OUTSIDE: [&str; 3] = ["Buffer", "Paragraph", "Block"];

/// Whether `span` is a Rust path (`spend::account`, `Effect::Perform(Release)`) or a type
/// (`Guardian`), and its names.
fn as_rust(span: &str) -> Option<Vec<&str>> {
    let head = span
        .split('(')
        .next()
        .unwrap_or(span)
        .trim_end_matches("()");
    let ok = !head.is_empty()
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        && !head.starts_with(':');
    let path = head.contains("::");
    let type_name = head.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && head.chars().any(|c| c.is_ascii_lowercase());
    (ok && (path || type_name)).then(|| head.split("::").filter(|s| !s.is_empty()).collect())
}

#[test]
fn every_core_module_is_in_the_architecture_page() {
    let lib = std::fs::read_to_string(root().join("crates/core/src/lib.rs")).unwrap();
    let doc = doc();
    let missing: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';'))
        .filter(|m| !doc.contains(&format!("| `{m}` |")))
        .collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md lacks {missing:?}");
}

#[test]
fn every_name_the_architecture_page_gives_exists() {
    let all = sources();
    let defined = Defined::read();
    let mut gone = Vec::new();
    for (n, line) in doc().lines().enumerate() {
        for span in spans(line) {
            let (file, item) = match span.split_once(".rs::") {
                Some((file, item)) => (Some(format!("{file}.rs")), Some(item)),
                None => (as_path(span).map(str::to_string), None),
            };
            if let Some(file) = file
                && !path_exists(&file, &all)
            {
                gone.push(format!("line {}: `{span}`: no such file", n + 1));
                continue;
            }
            let rust = item
                .map(|i| vec![i])
                .or_else(|| (as_path(span).is_none()).then(|| as_rust(span)).flatten());
            let rust = rust.unwrap_or_default();
            let outside = rust.len() == 1 && OUTSIDE.contains(&rust[0]);
            if !rust.is_empty() && !outside && !defined.has(&rust) {
                gone.push(format!(
                    "line {}: `{span}`: nothing defines it there",
                    n + 1
                ));
            }
        }
    }
    assert!(
        gone.is_empty(),
        "ARCHITECTURE.md names what is gone:\n{}",
        gone.join("\n")
    );
}

#[test]
fn the_check_finds_a_name_that_is_gone() {
    let defined = Defined::read();
    assert!(defined.has(&["Guardian"]) && defined.has(&["spend", "recorded_account"]));
    assert!(defined.has(&["app", "Intent"]) && defined.has(&["Context", "load"]));
    assert!(!defined.has(&["NoSuchTypeAnywhere"]));
    // A name defined elsewhere is not the one the path names.
    assert!(!defined.has(&["app", "Command"]));
    assert!(!defined.has(&["Guardian", "load"]));
    assert_eq!(
        as_rust("Effect::Perform(Release)"),
        Some(vec!["Effect", "Perform"])
    );
    assert!(!path_exists("src/provider/aws/nosuch.rs", &sources()));
    assert!(path_exists("provider/readback.rs", &sources()));
}
