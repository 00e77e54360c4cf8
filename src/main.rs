use std::process::ExitCode;

use clap::Parser;

fn main() -> color_eyre::Result<ExitCode> {
    color_eyre::install()?;
    let cli = gpumeter::cli::Cli::parse();
    Ok(gpumeter::commands::run(&cli))
}
