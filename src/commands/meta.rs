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
        .map_err(|e| {
            let e = e.to_string();
            Failure::failed(crate::t!("meta-man-failed", error = e))
        })?;
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
        crate::t!("meta-version-gpus").into_owned(),
        crate::t!("meta-version-sheets").into_owned(),
    ];
    for sheet in crate::pricing::bundled() {
        let as_of = crate::t!("meta-version-as-of", date = sheet.as_of.to_string());
        lines.push(format!(
            "  {:<22} {} {as_of}",
            Cell(&sheet.id),
            sheet.currency,
        ));
    }
    lines.join("\n")
}
