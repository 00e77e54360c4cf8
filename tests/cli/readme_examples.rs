//! Every `gpumeter` command line in the code blocks of README.md and of every page under docs/:
//! each parses, and each that runs without a cloud account (the demo, `estimate`, `pricing`,
//! the self-descriptions) runs with the exit status the page promises (0, or 3 where something
//! keeps billing), so an example that fails is found here, not by a reader.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The arguments of a shell line: quotes kept together, cut at a pipe, a redirect, `&&`, `;`
/// or a `#` comment.
fn words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quote, mut any) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (None, '|' | '>' | '&' | ';' | '#') => break,
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (_, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

/// README.md, then every Markdown page under docs/, in a stable order.
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = vec![root.join("README.md")];
    walk(&root.join("docs"), &mut found);
    found
}

/// One command line from a page: where it is, the line as written, and its arguments.
struct Example {
    at: String,
    line: String,
    args: Vec<String>,
}

/// Every `gpumeter ...` line inside a fenced block of `text`, which is the page `name`.
fn examples_in(name: &str, text: &str) -> Vec<Example> {
    let mut fenced = false;
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let command = line.trim_start().trim_start_matches("$ ");
        if fenced && let Some(rest) = command.strip_prefix("gpumeter ") {
            found.push(Example {
                at: format!("{name}:{}", number + 1),
                line: command.to_string(),
                args: words(rest),
            });
        }
    }
    found
}

/// Every example of every page.
fn examples() -> Vec<Example> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    pages()
        .iter()
        .flat_map(|page| {
            let text =
                std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
            let name = page
                .strip_prefix(root)
                .unwrap_or(page)
                .display()
                .to_string();
            examples_in(&name, &text)
        })
        .collect()
}

/// Runs without an account, and ends on its own: the demo (not the cockpit, `serve` or a
/// foreground watchdog), and the commands that need no provider.
fn runs_offline(args: &[String]) -> bool {
    let has = |flag: &str| args.iter().any(|a| a == flag);
    let sub = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .map(String::as_str);
    let offline = matches!(sub, Some("estimate" | "pricing" | "completions" | "man"))
        || has("--version")
        || has("--demo");
    let endless = sub.is_none() || sub == Some("serve") || has("--foreground") || has("watchdog");
    let outside = args
        .iter()
        .any(|a| a.starts_with('~') || a.to_ascii_lowercase().ends_with(".toml"))
        || args.iter().any(|a| a.contains('<') || a.contains("..."));
    offline && !endless && !outside
}

#[test]
fn every_example_in_readme_and_docs_parses_and_the_offline_ones_run() {
    let bin = env!("CARGO_BIN_EXE_gpumeter");
    let examples = examples();
    assert!(examples.len() >= 15, "{} examples", examples.len());
    for page in ["README.md", "docs/"] {
        assert!(
            examples.iter().any(|e| e.at.starts_with(page)),
            "no example read from {page}"
        );
    }
    let mut ran = 0;
    let mut failures = Vec::new();
    for Example { at, line, args } in &examples {
        if args
            .iter()
            .any(|a| a.contains('<') || a.contains("...") || a == "\\")
        {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let run = |extra: &[&str]| {
            Command::new(bin)
                .args(args)
                .args(extra)
                .env("GPUMETER_DATA_DIR", dir.path())
                .env("GPUMETER_DEMO_DELAY_MS", "0")
                .env("HOME", dir.path())
                .env("XDG_CONFIG_HOME", dir.path())
                .env("NO_COLOR", "1")
                .stdin(Stdio::null())
                .output()
                .unwrap()
        };
        let out = if runs_offline(args) {
            ran += 1;
            run(&[])
        } else {
            // Parsed only: clap stops at the first argument it does not know, before --help.
            run(&["--help"])
        };
        if !matches!(out.status.code(), Some(0 | 3)) {
            failures.push(format!(
                "{at}: `{line}` exits {:?}: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    assert!(ran >= 8, "only {ran} examples ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_shell_words_are_split_as_a_shell_would() {
    assert_eq!(
        words(r#"status --gpu-model "NVIDIA H100 80GB" --at 3600   # a comment"#),
        ["status", "--gpu-model", "NVIDIA H100 80GB", "--at", "3600"]
    );
    assert_eq!(words("completions bash > out"), ["completions", "bash"]);
    assert_eq!(
        words("--demo report --csv | head"),
        ["--demo", "report", "--csv"]
    );
}

#[test]
fn examples_are_the_gpumeter_lines_inside_fences_with_where_they_are() {
    let page = "Run `gpumeter status` here.\n\n```sh\n$ gpumeter --demo sweep   # note\nls\n```\ngpumeter man\n";
    let found = examples_in("docs/x.md", page);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].at, "docs/x.md:4");
    assert_eq!(found[0].line, "gpumeter --demo sweep   # note");
    assert_eq!(found[0].args, ["--demo", "sweep"]);
}

#[test]
fn the_pages_are_the_readme_and_every_page_under_docs() {
    let pages = pages();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(pages[0], root.join("README.md"));
    for page in [
        "docs/verify.md",
        "docs/providers/aws.md",
        "docs/providers/command.md",
    ] {
        assert!(pages.contains(&root.join(page)), "{page} is not read");
    }
}
