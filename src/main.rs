use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _};

fn main() -> color_eyre::Result<ExitCode> {
    color_eyre::install()?;
    let matches = gpumeter::cli::Cli::command()
        .long_version(gpumeter::commands::meta::long_version())
        .get_matches();
    let cli = gpumeter::cli::Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    Ok(gpumeter::commands::run(&cli))
}
