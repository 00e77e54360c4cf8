//! `gpumeter init`: writes a commented, minimal config at the path `Config::load` reads, from
//! what was detected and what the user picks, by flag or, on a terminal, by prompt. An existing
//! config is replaced only after a yes, or with `--force`.

mod template;

use std::io::{BufRead as _, IsTerminal as _};
use std::path::Path;
use std::process::ExitCode;

use self::template::{Deadline, Picks};
use super::{CommandResult, Failure, emit, emit_part};
use crate::cli::{Cli, InitArgs};
use crate::config::{Config, OnExpiry, WebhookUrl, parse_duration};

pub fn run(cli: &Cli, args: &InitArgs) -> CommandResult {
    let path = match &cli.config {
        Some(path) => path.clone(),
        None => Config::default_path()
            .ok_or_else(|| Failure::bad_input(crate::t!("err-no-config-dir")))?,
    };
    let interactive = !args.yes && std::io::stdin().is_terminal();
    if path.exists() && !args.force && !(interactive && ask_yes(&path)?) {
        return Err(Failure::bad_input(crate::t!(
            "err-config-exists",
            path = path.display().to_string()
        )));
    }
    // What the existing file (if it loads) and the flags say about the instance.
    let current = Config::from_file_if_exists(&path)
        .ok()
        .flatten()
        .unwrap_or_default();
    let detected = super::detected::detected_here(cli, &current);
    let picks = picks(args, interactive)?;
    let text = template::render(&detected, &picks);
    Config::parse(&text, &path).map_err(|e| Failure::bad_input(e.to_string()))?;
    write(&path, &text)?;
    emit(&crate::t!("init-wrote", path = path.display().to_string()));
    Ok(ExitCode::SUCCESS)
}

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    let failed = |e: std::io::Error| {
        Failure::failed(crate::t!(
            "init-cannot-write",
            path = path.display().to_string(),
            error = e.to_string()
        ))
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::files::create_private_dir(dir).map_err(failed)?;
    }
    crate::files::write_private(path, text.as_bytes()).map_err(failed)
}

fn ask_yes(path: &Path) -> Result<bool, Failure> {
    let answer = prompt(&crate::t!(
        "init-replace",
        path = path.display().to_string()
    ))?;
    Ok(matches!(answer.to_ascii_lowercase().as_str(), "y" | "yes"))
}

/// One line from the terminal, trimmed; an empty answer takes the default. The question is
/// followed by a space to type after.
fn prompt(question: &str) -> Result<String, Failure> {
    emit_part(&format!("{question} "));
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| Failure::failed(crate::t!("init-cannot-read", error = e.to_string())))?;
    Ok(line.trim().to_string())
}

/// A flag's value, else on a terminal the answer to `question`, else nothing.
fn given(flag: Option<&str>, interactive: bool, question: &str) -> Result<Option<String>, Failure> {
    match flag {
        Some(v) => Ok(Some(v.to_string())),
        None if interactive => Ok(Some(prompt(question)?).filter(|a| !a.is_empty())),
        None => Ok(None),
    }
}

fn picks(args: &InitArgs, interactive: bool) -> Result<Picks, Failure> {
    let deadline = given(
        args.deadline.as_deref(),
        interactive,
        &crate::t!("init-ask-deadline"),
    )?
    .map(|d| deadline(&d))
    .transpose()?;
    let at_zero = match args.at_zero {
        Some(p) => p.into(),
        None => policy(interactive, &crate::t!("init-ask-at-zero"), "--at-zero")?,
    };
    let idle_after = given(
        args.idle.as_deref(),
        interactive,
        &crate::t!("init-ask-idle"),
    )?;
    if let Some(idle) = &idle_after {
        let d = parse_duration(idle).map_err(|e| Failure::bad_input(format!("--idle: {e}")))?;
        if d.is_zero() {
            return Err(Failure::bad_input(crate::t!(
                "err-more-than-zero",
                flag = "--idle"
            )));
        }
    }
    let on_idle = match args.on_idle {
        Some(p) => p.into(),
        None => policy(interactive, &crate::t!("init-ask-on-idle"), "--on-idle")?,
    };
    let webhook = given(
        args.webhook.as_deref(),
        interactive,
        &crate::t!("init-ask-webhook"),
    )?
    .map(|u| WebhookUrl::parse(&u).map_err(|e| Failure::bad_input(format!("--webhook: {e}"))))
    .transpose()?;
    Ok(Picks {
        deadline,
        at_zero,
        idle_after,
        on_idle,
        webhook,
    })
}

fn policy(interactive: bool, question: &str, flag: &str) -> Result<OnExpiry, Failure> {
    let answer = given(None, interactive, question)?;
    match answer.as_deref() {
        None | Some("alert") => Ok(OnExpiry::Alert),
        Some("stop") => Ok(OnExpiry::Stop),
        Some("release") => Ok(OnExpiry::Release),
        Some(other) => Err(Failure::bad_input(crate::t!(
            "err-not-a-policy",
            flag = flag,
            text = gpumeter_core::text::one_line(other, 40)
        ))),
    }
}

/// `18:30` is a clock time, anything else a duration.
fn deadline(text: &str) -> Result<Deadline, Failure> {
    if text.contains(':') {
        text.parse::<jiff::civil::Time>()
            .map(|_| Deadline::At(text.to_string()))
            .map_err(|_| {
                Failure::bad_input(crate::t!(
                    "err-deadline-clock",
                    text = gpumeter_core::text::one_line(text, 40)
                ))
            })
    } else {
        match parse_duration(text) {
            Ok(d) if !d.is_zero() => Ok(Deadline::In(text.to_string())),
            Ok(_) => Err(Failure::bad_input(crate::t!(
                "err-more-than-zero",
                flag = "--deadline"
            ))),
            Err(e) => Err(Failure::bad_input(format!("--deadline: {e}"))),
        }
    }
}
