//! The cockpit's own flags (`--scenario`, `--gpus`, `--release-in`, ...) given before a
//! subcommand that would ignore them: refused, naming the subcommand's own flag where it has
//! one. A flag that silently does nothing reads as one that worked.

use crate::cli::{Cli, Command};

use super::Failure;

/// The subcommand's name and the cockpit flags it takes as they are given (`serve` samples the
/// cockpit's simulator), or has a flag of its own for, given after its name.
fn takes(
    command: &Command,
) -> (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
) {
    match command {
        Command::Serve(_) => ("serve", &["--scenario", "--gpus"], &[]),
        Command::Status(_) => ("status", &[], &["--scenario", "--gpus"]),
        Command::Verify(_) => ("verify", &[], &["--scenario", "--gpus"]),
        Command::Watchdog(_) => (
            "watchdog",
            &[],
            &[
                "--scenario",
                "--gpus",
                "--idle-after",
                "--on-idle",
                "--stopped-release-after",
            ],
        ),
        Command::Estimate(_) => ("estimate", &[], &["--gpus"]),
        Command::Pricing(_) => ("pricing", &[], &[]),
        Command::Checklist { .. } => ("checklist", &[], &[]),
        Command::Sweep { .. } => ("sweep", &[], &[]),
        Command::Cleanup(_) => ("cleanup", &[], &[]),
        Command::Release(_) => ("release", &[], &[]),
        Command::Stop(_) => ("stop", &[], &[]),
        Command::Start(_) => ("start", &[], &[]),
        Command::SnapshotClean { .. } => ("snapshot-clean", &[], &[]),
        Command::Extend { .. } => ("extend", &[], &[]),
        Command::Report(_) => ("report", &[], &[]),
        Command::Audit(_) => ("audit", &[], &[]),
        Command::Fleet { .. } => ("fleet", &[], &[]),
        Command::Completions { .. } => ("completions", &[], &[]),
        Command::Man { .. } => ("man", &[], &[]),
        Command::Doctor(_) => ("doctor", &[], &[]),
        Command::Init(_) => ("init", &[], &[]),
    }
}

/// The first cockpit flag given with a subcommand that does not take it, as an error.
pub fn refuse(cli: &Cli) -> Result<(), Failure> {
    let Some(command) = &cli.command else {
        return Ok(());
    };
    let c = &cli.cockpit;
    let given = [
        ("--theme", cli.theme.is_some()),
        ("--no-color", cli.no_color),
        ("--reset", c.reset),
        ("--scenario", c.scenario.is_some()),
        ("--gpus", c.gpus.is_some()),
        ("--release-in", c.release_in.is_some()),
        ("--release-at", c.release_at.is_some()),
        ("--on-expiry", c.on_expiry.is_some()),
        ("--grace", c.grace.is_some()),
        ("--idle-after", c.idle_after.is_some()),
        ("--on-idle", c.on_idle.is_some()),
        ("--stopped-release-after", c.stopped_release_after.is_some()),
    ];
    let (name, as_given, own) = takes(command);
    let Some(flag) = given
        .iter()
        .find(|(flag, set)| *set && !as_given.contains(flag))
        .map(|(flag, _)| *flag)
    else {
        return Ok(());
    };
    Err(Failure::bad_input(if own.contains(&flag) {
        crate::t!("err-flag-before-command", flag = flag, name = name)
    } else {
        crate::t!("err-flag-of-the-cockpit", flag = flag, name = name)
    }))
}

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    use super::*;

    fn refused(args: &[&str]) -> Option<String> {
        let cli = Cli::try_parse_from(std::iter::once("gpumeter").chain(args.iter().copied()))
            .expect("parses");
        refuse(&cli).err().map(|f| f.to_string())
    }

    #[test]
    fn a_cockpit_flag_before_a_subcommand_is_refused_by_name() {
        let said = refused(&["--demo", "--scenario", "idle", "status"]).unwrap();
        assert!(said.contains("--scenario before `status`"), "{said}");
        assert!(said.contains("gpumeter status --scenario"), "{said}");
        let said = refused(&["--release-in", "2h", "checklist"]).unwrap();
        assert!(
            said.contains("--release-in is a flag of the cockpit"),
            "{said}"
        );
        assert!(said.contains("`checklist` does not take it"), "{said}");
        let said = refused(&["--on-idle", "stop", "watchdog"]).unwrap();
        assert!(said.contains("--on-idle before `watchdog`"), "{said}");
        assert!(said.contains("gpumeter watchdog --on-idle"), "{said}");
        let said = refused(&["--idle-after", "20m", "report"]).unwrap();
        assert!(
            said.contains("--idle-after is a flag of the cockpit"),
            "{said}"
        );
        let said = refused(&["--demo", "--reset", "report"]).unwrap();
        assert!(said.contains("--reset"), "{said}");
    }

    #[test]
    fn flags_where_they_apply_pass() {
        assert_eq!(refused(&["--demo", "--scenario", "idle"]), None);
        assert_eq!(refused(&["--demo", "--gpus", "2", "serve"]), None);
        assert_eq!(refused(&["--demo", "status", "--scenario", "idle"]), None);
        assert_eq!(refused(&["--demo", "status"]), None);
        assert_eq!(
            refused(&["--demo", "--on-idle", "stop", "--idle-after", "20s"]),
            None
        );
        assert_eq!(refused(&["watchdog", "--on-idle", "stop"]), None);
    }
}
