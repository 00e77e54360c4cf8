//! Every `gpumeter` command line in README.md's code blocks: each parses, and each that runs
//! without a cloud account (the demo, `estimate`, `pricing`, the self-descriptions) runs with
//! the exit status README promises (0, or 3 where something keeps billing), so an example
//! that fails is found here, not by a reader.

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

/// Every `gpumeter ...` line inside a fenced block, with its arguments.
fn examples() -> Vec<(String, Vec<String>)> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let mut fenced = false;
    let mut found = Vec::new();
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let command = line.trim_start().trim_start_matches("$ ");
        if fenced && let Some(rest) = command.strip_prefix("gpumeter ") {
            found.push((command.to_string(), words(rest)));
        }
    }
    found
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
fn every_readme_example_parses_and_the_offline_ones_run() {
    let bin = env!("CARGO_BIN_EXE_gpumeter");
    let examples = examples();
    assert!(examples.len() >= 15, "{} examples", examples.len());
    let mut ran = 0;
    let mut failures = Vec::new();
    for (line, args) in &examples {
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
                "`{line}` exits {:?}: {}",
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
