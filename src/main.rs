use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _};

fn main() -> color_eyre::Result<ExitCode> {
    color_eyre::install()?;
    let parsed = gpumeter::cli::Cli::command()
        .long_version(gpumeter::commands::meta::long_version())
        .try_get_matches()
        .and_then(|matches| gpumeter::cli::Cli::from_arg_matches(&matches));
    match parsed {
        Ok(cli) => Ok(gpumeter::commands::run(&cli)),
        // --help and --version are clap's "errors" too, printed as clap prints them.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            let rendered = e.render().to_string();
            for line in gpumeter::commands::meta::parse_error_lines(&rendered) {
                gpumeter::commands::emit_err(&line);
            }
            Ok(ExitCode::from(2))
        }
    }
}
