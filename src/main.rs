use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _};

fn main() -> color_eyre::Result<ExitCode> {
    // Before anything is read: a config may hold keys.
    let dumps = no_core_dumps();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    gpumeter::commands::language::choose_from_args(&args);
    if let Err(e) = dumps {
        let e = e.to_string();
        let warning = gpumeter::t!("err-core-dumps-on", error = e);
        gpumeter::commands::emit_err(&format!("gpumeter: {warning}"));
    }
    color_eyre::install()?;
    let command =
        gpumeter::cli::Cli::command().long_version(gpumeter::commands::meta::long_version());
    let parsed = gpumeter::cli::localized(command)
        .try_get_matches_from(args)
        .and_then(|matches| gpumeter::cli::Cli::from_arg_matches(&matches));
    match parsed {
        Ok(cli) => Ok(gpumeter::commands::run(&cli)),
        // --help and --version are clap's "errors" too, printed as clap prints them.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            for line in gpumeter::cli::parse_error_lines(&e) {
                gpumeter::commands::emit_err(&line);
            }
            Ok(ExitCode::from(2))
        }
    }
}

/// Keeps this process's memory out of core dumps, as ssh-agent and gpg-agent do: it holds the
/// provider's keys and tokens, which a dump would write to disk for anyone who can read it. No
/// core file (a limit of 0, which the processes it starts inherit), and on Linux not dumpable
/// at all, which also keeps other processes of the same user from reading its memory.
fn no_core_dumps() -> std::io::Result<()> {
    use rustix::process::{Resource, Rlimit, setrlimit};
    let none = Rlimit {
        current: Some(0),
        maximum: Some(0),
    };
    setrlimit(Resource::Core, none)?;
    #[cfg(target_os = "linux")]
    rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable)?;
    Ok(())
}
