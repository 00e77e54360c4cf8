//! What the program says about itself: completions, the manual pages, the long version and
//! the examples in `--help`, run as a user runs them.

use std::process::{Command, Output};

fn gpumeter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(args)
        .env(
            "GPUMETER_DATA_DIR",
            std::env::temp_dir().join("gpumeter-meta-cli"),
        )
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The subcommands `--help` lists, by name.
fn subcommands() -> Vec<String> {
    let help = stdout(&gpumeter(&["--help"]));
    help.split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("Options:").next())
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn completions_for_every_shell_name_every_subcommand() {
    let subs = subcommands();
    assert!(subs.len() >= 12, "{subs:?}");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = gpumeter(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = stdout(&out);
        for sub in &subs {
            assert!(
                script.contains(sub.as_str()),
                "{shell} completions lack {sub}"
            );
        }
    }
    let out = gpumeter(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2), "an unknown shell is bad input");
}

#[test]
fn the_manual_has_a_page_for_each_subcommand() {
    // roff writes a hyphen as `\-`.
    let page = stdout(&gpumeter(&["man"])).replace("\\-", "-");
    assert!(page.contains(".TH gpumeter 1"), "{page}");
    for sub in subcommands() {
        assert!(page.contains(&sub), "the page does not name {sub}");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = gpumeter(&["man", "--dir", dir.path().to_str().unwrap()]);
    assert!(out.status.success());
    for sub in subcommands() {
        let path = dir.path().join(format!("gpumeter-{sub}.1"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        assert!(text.contains(&format!(".TH gpumeter-{sub} 1")), "{text}");
    }
}

#[test]
fn the_long_version_names_every_bundled_sheet_and_its_date() {
    let long = stdout(&gpumeter(&["--version"]));
    let short = stdout(&gpumeter(&["-V"]));
    assert_eq!(
        short.trim(),
        format!("gpumeter {}", env!("CARGO_PKG_VERSION"))
    );
    let list = stdout(&gpumeter(&["pricing", "list"]));
    let ids: Vec<&str> = list
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(!ids.is_empty(), "{list}");
    for id in ids {
        assert!(long.contains(id), "--version does not name {id}: {long}");
    }
    assert!(long.contains(" as of 20"), "{long}");
}

#[test]
fn every_estimate_example_in_help_runs() {
    let help = stdout(&gpumeter(&["estimate", "--help"]));
    let examples: Vec<Vec<&str>> = help
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("gpumeter "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(examples.len() >= 3, "{help}");
    for args in examples {
        let out = gpumeter(&args);
        assert!(
            out.status.success(),
            "gpumeter {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_bad_command_line_is_two_lines_on_stderr_as_every_error_is() {
    for args in [
        &["--bogus"][..],
        &["checklist", "--jsn"],
        &["completions", "tcsh"],
        &["estimate"],
        &["\u{1b}[2Jwipe"],
    ] {
        let out = gpumeter(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {err}");
        assert!(lines.iter().all(|l| l.starts_with("gpumeter: ")), "{err}");
        assert!(
            !err.contains('\u{1b}'),
            "no escape reaches the terminal: {err:?}"
        );
    }
    let err = String::from_utf8_lossy(&gpumeter(&["checklist", "--jsn"]).stderr).into_owned();
    assert!(
        err.contains("'--jsn'") && err.contains("'--json'"),
        "clap's tip is kept: {err}"
    );
    // Help and the version are not errors.
    for args in [&["--help"][..], &["-V"], &["estimate", "--help"]] {
        let out = gpumeter(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}");
    }
}
