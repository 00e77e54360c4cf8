//! `gpumeter watchdog --install-service | --uninstall-service [--dry-run]`: a systemd user unit
//! that starts the watchdog at boot and again when it fails, so a reboot or a crash does not
//! leave the instance unguarded.
//!
//! The unit runs this binary with the flags given here (the data directory and the config file
//! made absolute) and nothing else: no environment is copied into it, so it names no secret.
//! systemd is not needed to write it; enabling it is left to the user, with the commands to
//! do so.

use std::io::Write as _;
use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{Cli, WatchdogArgs};
use crate::commands::context::Context;
use crate::commands::{CommandResult, Failure, emit};

/// The unit's file name.
pub const UNIT: &str = "gpumeter-watchdog.service";

pub fn run(cli: &Cli, ctx: &Context, args: &WatchdogArgs) -> CommandResult {
    let path = unit_path()?;
    if args.uninstall_service {
        return uninstall(&path, args.dry_run);
    }
    let exe = std::env::current_exe()
        .map_err(|e| Failure::failed(crate::t!("wd-service-no-exe", error = e.to_string())))?;
    let text =
        unit(&exe, &unit_args(cli, ctx, args)?).map_err(|e| Failure::bad_input(e.to_string()))?;
    if args.dry_run {
        let path = path.display().to_string();
        emit(&format!(
            "{}\n\n{text}",
            crate::t!("wd-service-would-write", path = path)
        ));
        return Ok(ExitCode::SUCCESS);
    }
    write_private(&path, &text).map_err(|e| {
        Failure::failed(crate::t!(
            "wd-service-cannot-write",
            path = path.display().to_string(),
            error = e.to_string()
        ))
    })?;
    emit(&crate::t!(
        "wd-service-wrote",
        path = path.display().to_string(),
        unit = UNIT
    ));
    Ok(ExitCode::SUCCESS)
}

/// `$XDG_CONFIG_HOME/systemd/user/gpumeter-watchdog.service`, by default under `~/.config`.
fn unit_path() -> Result<PathBuf, Failure> {
    let base = directories::BaseDirs::new()
        .ok_or_else(|| Failure::failed(crate::t!("wd-service-no-home")))?;
    Ok(base.config_dir().join("systemd").join("user").join(UNIT))
}

/// What the unit runs `gpumeter` with: this command's own flags, with the paths made absolute
/// so the unit does not depend on where it was installed from.
fn unit_args(cli: &Cli, ctx: &Context, args: &WatchdogArgs) -> Result<Vec<String>, Failure> {
    let absolute = |p: &Path| {
        std::path::absolute(p)
            .map(|p| p.display().to_string())
            .map_err(|e| Failure::failed(format!("{}: {e}", p.display())))
    };
    let mut out = vec![
        "watchdog".to_string(),
        "--foreground".into(),
        "--data-dir".into(),
        absolute(&ctx.data_dir)?,
    ];
    if let Some(config) = &cli.config {
        out.extend(["--config".into(), absolute(config)?]);
    }
    if ctx.demo {
        out.extend([
            "--demo".into(),
            "--scenario".into(),
            args.scenario.clone(),
            "--gpus".into(),
            args.gpus.unwrap_or(crate::cli::DEMO_GPUS).to_string(),
        ]);
    }
    out.extend(super::target_args(cli));
    out.extend(["--interval".into(), args.interval.clone()]);
    out.extend([
        "--inventory-interval".into(),
        args.inventory_interval.clone(),
    ]);
    if let Some(after) = &args.idle_after {
        out.extend(["--idle-after".into(), after.clone()]);
    }
    if let Some(policy) = &args.on_idle {
        out.extend(["--on-idle".into(), policy.clone()]);
    }
    if let Some(after) = &args.stopped_release_after {
        out.extend(["--stopped-release-after".into(), after.clone()]);
    }
    Ok(out)
}

/// What a unit file cannot say.
#[derive(Debug, thiserror::Error)]
pub enum Unwritable {
    #[error("{} is not UTF-8", .0.display())]
    NotUtf8(std::path::PathBuf),
    #[error("`{}` holds a control character, which a unit file cannot carry", .0.escape_debug())]
    ControlCharacter(String),
}

/// The unit's text: `exe` with `args`, restarted when it fails (a clean exit, such as after a
/// confirmed release or `gpumeter watchdog --stop`, is left alone).
pub fn unit(exe: &Path, args: &[String]) -> Result<String, Unwritable> {
    let exe = exe
        .to_str()
        .ok_or_else(|| Unwritable::NotUtf8(exe.to_path_buf()))?;
    let mut exec = quote(exe)?;
    for arg in args {
        exec.push(' ');
        exec.push_str(&quote(arg)?);
    }
    Ok(format!(
        "# Written by `gpumeter watchdog --install-service`; `--uninstall-service` removes it.\n\
         [Unit]\n\
         Description=gpumeter watchdog: enforces the deadline and the idle rule\n\
         # Never give up restarting: a network that is slow to come up after boot must not\n\
         # leave the instance unguarded.\n\
         StartLimitIntervalSec=0\n\
         \n\
         [Service]\n\
         Type=simple\n\
         ExecStart={exec}\n\
         Restart=on-failure\n\
         RestartSec=10s\n\
         \n\
         [Install]\n\
         WantedBy=default.target\n"
    ))
}

/// One argument of `ExecStart=`, quoted so that systemd passes it through unchanged:
/// backslashes and quotes escaped, `%` and `$` doubled (specifiers and variables).
fn quote(arg: &str) -> Result<String, Unwritable> {
    if arg.chars().any(char::is_control) {
        return Err(Unwritable::ControlCharacter(arg.to_owned()));
    }
    let mut out = String::from("\"");
    for c in arg.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '%' => out.push_str("%%"),
            '$' => out.push_str("$$"),
            c => out.push(c),
        }
    }
    out.push('"');
    Ok(out)
}

/// Writes `text` to `path`, readable by its owner only, through a file renamed into place.
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut file| {
            file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
            file.write_all(text.as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

fn uninstall(path: &Path, dry_run: bool) -> CommandResult {
    // What `systemctl --user enable` made, so a unit removed here is not left half enabled.
    let wants = path
        .parent()
        .map(|dir| dir.join("default.target.wants").join(UNIT));
    let present: Vec<&Path> = std::iter::once(path)
        .chain(wants.as_deref())
        .filter(|p| p.symlink_metadata().is_ok())
        .collect();
    if present.is_empty() {
        emit(&crate::t!(
            "wd-service-none",
            path = path.display().to_string()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let names: Vec<String> = present.iter().map(|p| p.display().to_string()).collect();
    if dry_run {
        emit(&crate::t!(
            "wd-service-would-remove",
            paths = names.join(&*crate::t!("wd-service-and"))
        ));
        return Ok(ExitCode::SUCCESS);
    }
    for p in &present {
        std::fs::remove_file(p).map_err(|e| {
            Failure::failed(crate::t!(
                "wd-service-cannot-remove",
                path = p.display().to_string(),
                error = e.to_string()
            ))
        })?;
    }
    emit(&crate::t!(
        "wd-service-removed",
        paths = names.join(&*crate::t!("wd-service-and")),
        unit = UNIT
    ));
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unit_runs_the_watchdog_with_its_flags_and_restarts_it_on_failure() {
        let args: Vec<String> = ["watchdog", "--foreground", "--data-dir", "/home/u/data"]
            .map(String::from)
            .into();
        let text = unit(Path::new("/usr/local/bin/gpumeter"), &args).unwrap();
        assert!(
            text.contains(
                "\nExecStart=\"/usr/local/bin/gpumeter\" \"watchdog\" \"--foreground\" \
                 \"--data-dir\" \"/home/u/data\"\n"
            ),
            "{text}"
        );
        assert!(text.contains("\nRestart=on-failure\n"), "{text}");
        assert!(text.contains("\nWantedBy=default.target\n"), "{text}");
        assert!(!text.contains("Environment"), "{text}");
    }

    #[test]
    fn arguments_pass_through_systemd_unchanged_or_are_refused() {
        assert_eq!(quote("a b").unwrap(), "\"a b\"");
        assert_eq!(
            quote(r#"50% of $HOME "x" \y"#).unwrap(),
            r#""50%% of $$HOME \"x\" \\y""#
        );
        assert!(quote("two\nlines").is_err());
    }
}
