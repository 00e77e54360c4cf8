//! What the program says about itself: shell completions, the manual pages and the long
//! version, all generated from the same definitions as `--help`.

use gpumeter_core::cell::Cell;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use clap::CommandFactory as _;

use super::{CommandResult, Failure, emit};
use crate::cli::Cli;

/// Completions for `shell`, on stdout.
pub fn completions(shell: clap_complete::Shell) -> CommandResult {
    let mut command = crate::cli::localized(Cli::command());
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "gpumeter", &mut out);
    write_stdout(&out)
}

/// `gpumeter.1` on stdout; with `dir`, it and a `gpumeter-<subcommand>.1` for each
/// subcommand, written there.
pub fn man(dir: Option<&Path>) -> CommandResult {
    let command = crate::cli::localized(Cli::command().version(env!("CARGO_PKG_VERSION")));
    let Some(dir) = dir else {
        return write_stdout(&render(command)?);
    };
    crate::files::create_private_dir(dir)
        .map_err(|e| Failure::failed(format!("{}: {e}", dir.display())))?;
    let mut pages = vec![("gpumeter".to_string(), command.clone())];
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("gpumeter-{}", sub.get_name());
        pages.push((name.clone(), sub.clone().name(name)));
    }
    for (name, page) in pages {
        let path = dir.join(format!("{name}.1"));
        crate::files::write_private(&path, &render(page)?)
            .map_err(|e| Failure::failed(format!("{}: {e}", path.display())))?;
        emit(&path.display().to_string());
    }
    Ok(ExitCode::SUCCESS)
}

fn render(command: clap::Command) -> Result<Vec<u8>, Failure> {
    let mut out = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut out)
        .map_err(|e| Failure::failed(format!("the manual page: {e}")))?;
    Ok(section_names(out))
}

/// The page's section headings in the current language: clap_mangen writes its own in
/// English (`.SH NAME`); those of the options and subcommands are the help's headings already.
fn section_names(page: Vec<u8>) -> Vec<u8> {
    if crate::i18n::current() == crate::i18n::Lang::En {
        return page;
    }
    let text = String::from_utf8_lossy(&page);
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let heading = line.strip_prefix(".SH ").map(str::trim_end);
        let name = match heading {
            Some("NAME") => Some(crate::t!("cli-man-name")),
            Some("SYNOPSIS") => Some(crate::t!("cli-man-synopsis")),
            Some("DESCRIPTION") => Some(crate::t!("cli-man-description")),
            Some("EXTRA") => Some(crate::t!("cli-man-extra")),
            Some("VERSION") => Some(crate::t!("cli-man-version")),
            Some("AUTHORS") => Some(crate::t!("cli-man-authors")),
            _ => None,
        };
        match name {
            Some(name) => {
                out.push_str(".SH ");
                out.push_str(&name);
                out.push('\n');
            }
            None => out.push_str(line),
        }
    }
    out.into_bytes()
}

fn write_stdout(bytes: &[u8]) -> CommandResult {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(Failure::failed(format!("stdout: {e}"))),
    }
}

/// `--version`'s long form: what a bug report needs. The version, the platform, how the GPUs
/// are read, and each bundled price sheet with the date its prices are from.
pub fn long_version() -> String {
    let mut lines = vec![
        format!(
            "{} ({} {})",
            env!("CARGO_PKG_VERSION"),
            std::env::consts::ARCH,
            std::env::consts::OS
        ),
        "GPUs: NVML, loaded at run time from the NVIDIA driver (libnvidia-ml.so.1)".to_string(),
        "bundled price sheets:".to_string(),
    ];
    for sheet in crate::pricing::bundled() {
        lines.push(format!(
            "  {:<22} {} as of {}",
            Cell(&sheet.id),
            sheet.currency,
            sheet.as_of
        ));
    }
    lines.join("\n")
}

/// clap's parse error as gpumeter's errors read: one line of what is wrong (with clap's tip),
/// then one of the usage, both starting `gpumeter:`, instead of clap's block of several. What
/// is wrong stays in clap's words, which it has in English only; the usage line is in the
/// user's language.
pub fn parse_error_lines(rendered: &str) -> Vec<String> {
    let mut lines = rendered.lines();
    let mut what = lines
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .trim()
        .to_string();
    let (mut more, mut tips, mut usage) = (Vec::new(), Vec::new(), None);
    let mut in_block = true;
    for line in lines {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            in_block = false;
        } else if let Some(tip) = trimmed.strip_prefix("tip: ") {
            tips.push(tip.to_string());
        } else if let Some(u) = trimmed.strip_prefix("Usage: ") {
            usage = Some(u.to_string());
        } else if in_block {
            more.push(trimmed.to_string());
        }
    }
    if !more.is_empty() {
        what = format!("{what} {}", more.join(", "));
    }
    for tip in tips {
        what = format!("{what}; {tip}");
    }
    let second = match usage {
        Some(usage) => crate::t!("err-usage", usage = usage),
        None => crate::t!("err-more-with-help").into_owned(),
    };
    let second = format!("gpumeter: {second}");
    vec![format!("gpumeter: {what}"), second]
}

#[cfg(test)]
mod tests {
    use super::parse_error_lines;

    #[test]
    fn a_parse_error_is_two_lines_with_the_tip_and_the_usage() {
        let clap = "error: unexpected argument '--jsn' found\n\n  tip: a similar argument exists: \
                    '--json'\n\nUsage: gpumeter checklist --json\n\nFor more information, try \
                    '--help'.\n";
        assert_eq!(
            parse_error_lines(clap),
            [
                "gpumeter: unexpected argument '--jsn' found; a similar argument exists: '--json'",
                "gpumeter: usage: gpumeter checklist --json (more with --help)",
            ]
        );
        let missing = "error: the following required arguments were not provided:\n  \
                       --hours-per-day <HOURS_PER_DAY>\n  --days <DAYS>\n\nUsage: gpumeter \
                       estimate --hours-per-day <HOURS_PER_DAY> --days <DAYS>\n";
        let lines = parse_error_lines(missing);
        assert_eq!(
            lines[0],
            "gpumeter: the following required arguments were not provided: \
             --hours-per-day <HOURS_PER_DAY>, --days <DAYS>"
        );
        assert_eq!(lines.len(), 2);
    }
}
