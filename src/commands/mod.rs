//! The edge between the command line and the core: each subcommand reads its inputs, calls the
//! pure core and prints. Errors become a one-line message and an exit status.

use std::fmt;
use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::provider::{Action, ProviderError};

pub mod actions;
pub mod audit;
pub mod checklist;
pub mod cleanup;
pub mod cockpit;
pub mod context;
mod detected;
pub mod doctor;
pub mod estimate;
pub mod extend;
pub mod fleet;
pub mod init;
pub mod language;
pub mod meta;
mod misplaced;
pub mod pricing;
pub mod printable_out;
mod progress;
pub mod report;
pub mod serve;
pub mod status;
pub mod sweep;
pub mod verify;
pub mod watchdog;

/// Exit status for bad input: a malformed sheet, a bad flag, an unknown SKU, a refusal.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status when the provider did not do (or did not confirm) what was asked.
pub const EXIT_FAILED: u8 = 1;

/// Prints a line to stdout. Every command's output goes through here or [`emit_part`] and
/// [`emit_err`], and each writes text as it may reach a terminal (`text::printable`): whatever
/// a provider, a sheet or a config put in it, no escape sequence, cursor move or line erase gets
/// through. A reader that went away (`| head`) ends the output quietly, not in a panic.
pub fn emit(text: &str) {
    write_printable(&mut std::io::stdout().lock(), text, "\n");
}

/// Prints to stdout without a line break after it.
pub fn emit_part(text: &str) {
    write_printable(&mut std::io::stdout().lock(), text, "");
}

/// Prints a line to stderr.
pub fn emit_err(text: &str) {
    write_printable(&mut std::io::stderr().lock(), text, "\n");
}

fn write_printable(out: &mut impl std::io::Write, text: &str, end: &str) {
    let text = gpumeter_core::text::printable(text);
    let _ = write!(out, "{text}{end}").and_then(|()| out.flush());
}

/// Runs one provider call to completion on a small runtime of its own.
pub fn block_on<F: std::future::Future>(future: F) -> Result<F::Output, Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            let error = e.to_string();
            Failure::failed(crate::t!("err-runtime", error = error))
        })?;
    Ok(runtime.block_on(future))
}

/// A command that could not do its work: the message is printed on one line to stderr, and
/// what to fix, when it is known, on the next.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
    /// One line of what the user should fix, with the kind of failure.
    pub fix: Option<String>,
}

impl Failure {
    pub fn bad_input(message: impl Into<String>) -> Self {
        Failure {
            code: EXIT_BAD_INPUT,
            message: message.into(),
            fix: None,
        }
    }

    /// The provider or the system did not do what was asked.
    pub fn failed(message: impl Into<String>) -> Self {
        Failure {
            code: EXIT_FAILED,
            message: message.into(),
            fix: None,
        }
    }

    /// A provider's error, after `context` (`aws`, `release failed`), exiting with `code`; its
    /// fix line is the one the cockpit shows, in the language the user reads. Its kind word
    /// (`fix (permission): ...`) stays English in every language: it names the kind as
    /// docs/errors.md lists it, and scripts match it as they match the exit status.
    pub fn provider(code: u8, context: &str, e: &ProviderError) -> Self {
        Failure {
            code,
            message: format!("{context}: {}", e.shown()),
            fix: Some(crate::t!(
                "err-fix-line",
                kind = e.kind_label(),
                fix = e.shown_fix()
            )),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

pub type CommandResult = Result<ExitCode, Failure>;

/// The sheet named by `--provider ID` (bundled) or `--sheet FILE`, if either was given.
/// A sheet older than [`crate::pricing::sheet::STALE_AFTER_DAYS`] prints a warning.
pub fn load_sheet_for(
    provider: Option<&str>,
    file: Option<&std::path::Path>,
) -> Result<Option<crate::pricing::Sheet>, Failure> {
    let sheet = read_sheet_for(provider, file)?;
    if let Some(warning) = sheet
        .as_ref()
        .and_then(|s| crate::pricing::stale_warning(s, today()))
    {
        emit_err(&format!("gpumeter: {warning}"));
    }
    Ok(sheet)
}

/// [`load_sheet_for`] without the warning: for readers that must not write to the terminal
/// (the cockpit's fleet screen).
pub fn read_sheet_for(
    provider: Option<&str>,
    file: Option<&std::path::Path>,
) -> Result<Option<crate::pricing::Sheet>, Failure> {
    let sheet = match (provider, file) {
        (None, None) => return Ok(None),
        (_, Some(path)) => {
            crate::pricing::load_file(path).map_err(|e| Failure::bad_input(e.to_string()))?
        }
        (Some(id), None) => crate::pricing::bundled_sheet(id).cloned().ok_or_else(|| {
            let ids: Vec<&str> = crate::pricing::bundled()
                .iter()
                .map(|s| s.id.as_str())
                .collect();
            Failure::bad_input(crate::t!(
                "err-no-bundled-sheet",
                id = id,
                ids = ids.join(", ")
            ))
        })?,
    };
    Ok(Some(sheet))
}

/// Today's date in the local time zone: the edge is the only place that reads the clock.
pub fn today() -> jiff::civil::Date {
    jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::system())
        .date()
}

/// `--gpus` sets how many GPUs the demo's simulator shows; anywhere else it would do nothing,
/// and a flag that silently does nothing reads as one that worked.
pub fn refuse_gpus_without_demo(gpus: Option<u32>, demo: bool) -> Result<(), Failure> {
    if gpus.is_some() && !demo {
        return Err(Failure::bad_input(crate::t!("err-gpus-without-demo")));
    }
    Ok(())
}

/// Runs a parsed command line and turns its outcome into an exit status.
pub fn run(cli: &Cli) -> ExitCode {
    language::choose(cli);
    let result = misplaced::refuse(cli).and_then(|()| match &cli.command {
        Some(Command::Estimate(args)) => estimate::run(args, cli),
        Some(Command::Pricing(cmd)) => pricing::run(cmd),
        Some(Command::Status(args)) => status::run(args, cli),
        Some(Command::Doctor(args)) => doctor::run(cli, args),
        Some(Command::Init(args)) => init::run(cli, args),
        Some(Command::Verify(args)) => verify::run(args, cli),
        Some(Command::Watchdog(args)) => watchdog::run(cli, args),
        Some(Command::Checklist { json, .. }) => checklist::run(cli, *json),
        Some(Command::Sweep {
            json,
            all_regions,
            kind,
            older_than,
            tags,
            ..
        }) => sweep::run(
            cli,
            *json,
            *all_regions,
            &cleanup::narrow(kind, older_than.as_deref(), tags)?,
        ),
        Some(Command::Cleanup(args)) => cleanup::run(cli, args),
        Some(Command::Release(args)) => actions::run(cli, &Action::Release, args),
        Some(Command::Stop(args)) => actions::run(cli, &Action::Stop, args),
        Some(Command::Start(args)) => actions::run(cli, &Action::Start, args),
        Some(Command::SnapshotClean { ids, common, .. }) if !ids.is_empty() => {
            cleanup::picked_snapshots(cli, ids, common)
        }
        Some(Command::SnapshotClean {
            keep,
            final_snapshot,
            common,
            ..
        }) => actions::run(
            cli,
            &Action::SnapshotClean {
                keep: *keep,
                final_snapshot: *final_snapshot,
                delete: None,
            },
            common,
        ),
        Some(Command::Extend { duration, common }) => extend::run(cli, duration, common),
        Some(Command::Report(args)) => report::run(cli, args),
        Some(Command::Audit(args)) => audit::run(cli, args),
        Some(Command::Serve(args)) => serve::run(cli, args),
        Some(Command::Fleet(args)) => fleet::run(cli, args),
        Some(Command::Completions { shell }) => meta::completions(*shell),
        Some(Command::Man { dir }) => meta::man(dir.as_deref()),
        None => cockpit::run_cockpit(cli),
    });
    match result {
        Ok(code) => code,
        Err(failure) => {
            emit_err(&format!("gpumeter: {failure}"));
            if let Some(fix) = &failure.fix {
                emit_err(&format!("gpumeter: {fix}"));
            }
            ExitCode::from(failure.code)
        }
    }
}
