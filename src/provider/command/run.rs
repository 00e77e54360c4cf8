//! Running one configured argument vector: no shell, no stdin, stdout and stderr captured, and
//! a time limit after which the command (and everything it started in its process group) is
//! killed.

use std::fmt::Write as _;
use std::process::Stdio;
use std::time::Duration;

use jiff::Timestamp;

/// What the command printed, when it exited 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub stdout: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("{}", crate::t!("cmdp-run-spawn", program = .program.as_str(), reason = .reason.as_str()))]
    Spawn { program: String, reason: String },
    #[error("{}", crate::t!("cmdp-run-timeout", program = .program.as_str(), after = format!("{:?}", .after)))]
    Timeout { program: String, after: Duration },
    #[error("{}", failed(.program, .status, .stderr))]
    Failed {
        program: String,
        status: String,
        stderr: String,
    },
}

fn failed(program: &str, status: &str, stderr: &str) -> String {
    if stderr.is_empty() {
        crate::t!("cmdp-run-failed", program = program, status = status)
    } else {
        crate::t!(
            "cmdp-run-failed-said",
            program = program,
            status = status,
            stderr = stderr
        )
    }
}

/// The last `max` characters of the command's stderr, trimmed: the end says what went wrong.
fn tail(text: &str, max: usize) -> String {
    let text = text.trim();
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    let skipped: String = text.chars().skip(count - max).collect();
    format!("...{skipped}")
}

/// The values the placeholders take.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Values {
    pub instance: Option<String>,
    pub keep: Option<usize>,
    pub final_snapshot: Option<bool>,
    pub deadline: Option<Timestamp>,
    /// Whole seconds from now to the deadline.
    pub duration: Option<i64>,
    /// The resource a delete is for, and its kind (`network_volume`).
    pub resource: Option<(String, String)>,
}

/// A placeholder the command line holds and nothing gives a value for; what to set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unfilled(pub String);

/// What to set for placeholder `name`, which has no value.
fn missing(name: &str) -> Unfilled {
    Unfilled(if name == "{instance}" {
        crate::t!("cmdp-unfilled-instance").into_owned()
    } else {
        crate::t!("cmdp-unfilled", slot = name)
    })
}

/// `argv` with `{instance}`, `{keep}`, `{final}`, `{deadline}` and `{duration}` filled in. A
/// placeholder without a value is an error that says which. `{id}` and `{kind}` are filled only
/// where a resource is given (the delete command); elsewhere they stay as written, since an
/// inventory's filter may well hold `{id}` of its own (jq's `{id}`).
pub fn fill(argv: &[String], values: &Values) -> Result<Vec<String>, Unfilled> {
    let slots: [(&str, Option<String>); 5] = [
        ("{instance}", values.instance.clone()),
        ("{keep}", values.keep.map(|k| k.to_string())),
        ("{final}", values.final_snapshot.map(|f| f.to_string())),
        (
            "{deadline}",
            values
                .deadline
                .map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()),
        ),
        ("{duration}", values.duration.map(|d| d.to_string())),
    ];
    argv.iter()
        .map(|arg| {
            let mut arg = arg.clone();
            for (name, value) in &slots {
                if arg.contains(name) {
                    let value = value.as_ref().ok_or_else(|| missing(name))?;
                    arg = arg.replace(name, value);
                }
            }
            if let Some((id, kind)) = &values.resource {
                // Last and in one pass, so the id goes in as it is: never filled again.
                arg = arg
                    .split("{id}")
                    .map(|part| part.replace("{kind}", kind))
                    .collect::<Vec<_>>()
                    .join(id);
            }
            Ok(arg)
        })
        .collect()
}

/// One line showing the command, each argument quoted when it needs it.
pub fn display(argv: &[String]) -> String {
    let mut line = String::new();
    for (i, arg) in argv.iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        if !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,{}".contains(c))
        {
            line.push_str(arg);
        } else {
            let _ = write!(line, "'{}'", arg.replace('\'', r"'\''"));
        }
    }
    line
}

/// Runs `argv` (already filled in), killing it after `timeout`.
pub async fn run(argv: &[String], timeout: Duration) -> Result<Output, RunError> {
    run_with_env(argv, timeout, &[]).await
}

/// [`run`] with `env` added to the environment the command inherits.
pub async fn run_with_env(
    argv: &[String],
    timeout: Duration,
    env: &[(&str, String)],
) -> Result<Output, RunError> {
    let Some((program, rest)) = argv.split_first() else {
        return Err(RunError::Spawn {
            program: String::new(),
            reason: crate::t!("cmdp-run-empty").into_owned(),
        });
    };
    let mut command = tokio::process::Command::new(program);
    command
        .args(rest)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    command.process_group(0);
    let child = command.spawn().map_err(|e| RunError::Spawn {
        program: program.clone(),
        reason: e.to_string(),
    })?;
    let pid = child.id();
    match tokio::time::timeout(timeout, child.wait_with_output()).await {
        Err(_) => {
            // Dropping the future kills the child; its own children go with the group.
            kill_group(pid);
            Err(RunError::Timeout {
                program: program.clone(),
                after: timeout,
            })
        }
        Ok(Err(e)) => Err(RunError::Spawn {
            program: program.clone(),
            reason: e.to_string(),
        }),
        Ok(Ok(out)) if out.status.success() => Ok(Output {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        }),
        Ok(Ok(out)) => Err(RunError::Failed {
            program: program.clone(),
            status: out.status.code().map_or_else(
                || crate::t!("cmdp-run-signal").into_owned(),
                |c| crate::t!("cmdp-run-exit-status", code = c.to_string()),
            ),
            stderr: tail(&String::from_utf8_lossy(&out.stderr), 2000),
        }),
    }
}

#[cfg(unix)]
fn kill_group(pid: Option<u32>) {
    let pid = pid
        .and_then(|p| i32::try_from(p).ok())
        .and_then(rustix::process::Pid::from_raw);
    if let Some(pid) = pid {
        // The group may be gone already; nothing to do then.
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_pid: Option<u32>) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn a_failure_and_a_missing_placeholder_are_said_in_chinese() {
        use crate::i18n::{self, Lang};
        let failed = RunError::Failed {
            program: "cli".into(),
            status: "exit status 3".into(),
            stderr: "boom".into(),
        };
        let (failed, missing) = i18n::scoped(Lang::ZhCn, || {
            let missing = fill(&argv(&["x", "--keep={keep}"]), &Values::default());
            (failed.to_string(), missing.unwrap_err().0)
        });
        assert_eq!(failed, "`cli` 失败（exit status 3）：boom");
        assert_eq!(missing, "{keep} 没有值");
    }

    #[test]
    fn placeholders_are_filled_or_named_when_missing() {
        let values = Values {
            instance: Some("i-1".into()),
            keep: Some(2),
            deadline: Some("2026-01-02T03:04:05Z".parse().unwrap()),
            duration: Some(5400),
            final_snapshot: Some(true),
            resource: None,
        };
        let filled = fill(
            &argv(&[
                "cli",
                "--id={instance}",
                "{keep}",
                "{final}",
                "{deadline}",
                "{duration}s",
            ]),
            &values,
        )
        .unwrap();
        assert_eq!(
            filled,
            argv(&[
                "cli",
                "--id=i-1",
                "2",
                "true",
                "2026-01-02T03:04:05Z",
                "5400s"
            ])
        );
        let err = fill(&argv(&["cli", "{instance}"]), &Values::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("[instance] id"), "{err}");
        assert_eq!(
            fill(&argv(&["cli", "{other}"]), &Values::default()).unwrap(),
            argv(&["cli", "{other}"])
        );
    }

    #[test]
    fn a_delete_gets_its_resource_and_other_commands_keep_the_text() {
        let argv = argv(&["cli", "{kind}", "rm", "--id={id}", "{instance}"]);
        let values = Values {
            instance: Some("i-1".into()),
            resource: Some(("vol-{kind}-{instance}".into(), "network_volume".into())),
            ..Values::default()
        };
        assert_eq!(
            fill(&argv, &values).unwrap(),
            [
                "cli",
                "network_volume",
                "rm",
                "--id=vol-{kind}-{instance}",
                "i-1"
            ]
        );
        let plain = Values {
            instance: Some("i-1".into()),
            ..Values::default()
        };
        assert_eq!(
            fill(&argv, &plain).unwrap(),
            ["cli", "{kind}", "rm", "--id={id}", "i-1"]
        );
    }

    #[test]
    fn display_quotes_what_a_shell_would_split() {
        assert_eq!(
            display(&argv(&["sh", "-c", "echo 'hi' there", "--x=1"])),
            r"sh -c 'echo '\''hi'\'' there' --x=1"
        );
        assert_eq!(display(&argv(&["a", ""])), "a ''");
    }

    #[test]
    fn stderr_keeps_its_end() {
        assert_eq!(tail("  short \n", 10), "short");
        assert_eq!(tail("abcdefghij", 4), "...ghij");
    }
}
