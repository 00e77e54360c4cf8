//! The edge between the command line and the core: each subcommand reads its inputs, calls the
//! pure core and prints. Errors become a one-line message and an exit status.

use std::fmt;
use std::process::ExitCode;

use crate::cli::{Cli, Command};

pub mod estimate;
pub mod pricing;
pub mod status;

/// Exit status for bad input: a malformed sheet, a bad flag, an unknown SKU.
pub const EXIT_BAD_INPUT: u8 = 2;

/// A command that could not do its work: the message is printed on one line to stderr.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    pub fn bad_input(message: impl Into<String>) -> Self {
        Failure {
            code: EXIT_BAD_INPUT,
            message: message.into(),
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
            Failure::bad_input(format!(
                "--provider: no bundled sheet `{id}`; the bundled sheets are {}",
                ids.join(", ")
            ))
        })?,
    };
    if let Some(warning) = crate::pricing::stale_warning(&sheet, today()) {
        eprintln!("gpumeter: {warning}");
    }
    Ok(Some(sheet))
}

/// Today's date in the local time zone: the edge is the only place that reads the clock.
pub fn today() -> jiff::civil::Date {
    jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::system())
        .date()
}

/// Runs a parsed command line and turns its outcome into an exit status.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Estimate(args)) => estimate::run(&args),
        Some(Command::Pricing(cmd)) => pricing::run(&cmd),
        Some(Command::Status(args)) => status::run(&args, cli.demo),
        None => Err(Failure::bad_input(
            "the cockpit is not built yet; try `gpumeter estimate --help`",
        )),
    };
    match result {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("gpumeter: {failure}");
            ExitCode::from(failure.code)
        }
    }
}
