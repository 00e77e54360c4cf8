//! README.md is the way in, not the reference: it stays under 300 lines, and every relative
//! link in it and in the pages under docs/ leads to a file that exists and, where it names
//! one, to a heading that page has.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

const README_MAX_LINES: usize = 300;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown page under docs/.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                found.push(path);
            }
        }
    }
    let mut found = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut found);
    found
}

/// The lines of a page outside fenced code blocks, with their 1-based numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push((number + 1, line));
        }
    }
    lines
}

/// A line without its inline code spans, which hold text, never links.
fn without_code(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join("")
}

/// The targets of the inline links (`[text](target)`) on a line.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code(line);
    let mut targets = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        targets.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    targets
}

/// The anchor GitHub gives a heading (github-slugger): lower case; letters, digits, `_` and
/// `-` kept; each space a `-`; every other character dropped.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor of a page: each heading's slug, a repeated one numbered `-1`, `-2`, ... as
/// GitHub numbers them.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    for (_, line) in prose(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..].trim().replace('`', ""));
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// What is wrong with one relative link of `page`, if anything.
fn broken(page: &Path, text: &str, target: &str) -> Option<String> {
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let file = if path.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().expect("a page's folder").join(path)
    };
    if !file.exists() {
        return Some(format!("{} does not exist", file.display()));
    }
    if anchor.is_empty() || file.is_dir() || file.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let linked = if path.is_empty() {
        text.to_string()
    } else {
        std::fs::read_to_string(&file).ok()?
    };
    (!anchors(&linked).contains(anchor))
        .then(|| format!("{} has no heading #{anchor}", file.display()))
}

#[test]
fn the_readme_is_a_path_not_the_reference() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines < README_MAX_LINES,
        "README.md has {lines} lines; the reference goes in docs/"
    );
    for section in ["## Install", "## First run", "## The demo", "## Commands"] {
        assert!(readme.contains(section), "README.md lacks {section}");
    }
    assert!(
        readme.contains("scripts/test"),
        "README.md lacks the test command"
    );
}

#[test]
fn every_relative_link_in_readme_and_docs_leads_somewhere() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let name = page.strip_prefix(root()).unwrap_or(&page).display();
        for (number, line) in prose(&text) {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                if let Some(why) = broken(&page, &text, &target) {
                    failures.push(format!("{name}:{number}: ({target}): {why}"));
                }
            }
        }
    }
    assert!(checked >= 40, "only {checked} links checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_docs_page_is_reached_from_the_readme_or_another_page() {
    let mut linked = HashSet::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        for (_, line) in prose(&text) {
            for target in link_targets(line) {
                let path = target.split('#').next().unwrap_or_default();
                if !path.is_empty() && !path.contains("://") {
                    let file = page.parent().expect("a folder").join(path);
                    if let Ok(file) = file.canonicalize() {
                        linked.insert(file);
                    }
                }
            }
        }
    }
    for page in pages().iter().skip(1) {
        let page = page.canonicalize().expect("a page");
        assert!(
            linked.contains(&page),
            "nothing links to {}",
            page.display()
        );
    }
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    assert_eq!(
        slug("Spend history (gpumeter report)"),
        "spend-history-gpumeter-report"
    );
    assert_eq!(
        slug("The meter's record as FOCUS (gpumeter report --focus)"),
        "the-meters-record-as-focus-gpumeter-report---focus"
    );
    assert_eq!(slug("账单明细 Bills"), "账单明细-bills");
    let page = "# A\n## Setup\n```sh\n# Setup\n```\n## Setup\n### `x` and y\n";
    let found = anchors(page);
    for anchor in ["a", "setup", "setup-1", "x-and-y"] {
        assert!(found.contains(anchor), "{anchor} missing from {found:?}");
    }
    assert_eq!(found.len(), 4, "{found:?}");
}

#[test]
fn links_are_read_from_prose_not_from_code() {
    assert_eq!(
        link_targets("see [a](docs/a.md#x), `[b](nowhere.md)` and [`c`](c.md)"),
        ["docs/a.md#x", "c.md"]
    );
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("p.md");
    let text = "# Here\n";
    std::fs::write(&page, text).unwrap();
    assert_eq!(broken(&page, text, "#here"), None);
    assert!(broken(&page, text, "#there").is_some());
    assert!(broken(&page, text, "missing.md").is_some());
}
