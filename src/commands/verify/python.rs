//! `verify --python`: the core's probe run by the interpreter the user names, with a time
//! limit (importing torch from a cold disk takes seconds; an interpreter that hangs must not
//! hold the verdict up), its answer read by the core.

use std::process::Stdio;
use std::time::Duration;

use gpumeter_core::verify::TorchProbe;
use gpumeter_core::verify::torch::PROBE;

/// How long the interpreter may take: a cold `import torch` with CUDA takes 5 to 20 s.
const LIMIT: Duration = Duration::from_secs(60);

/// The variable that changes [`LIMIT`], in whole seconds.
pub const LIMIT_VAR: &str = "GPUMETER_PYTHON_TIMEOUT";

/// The limit: [`LIMIT_VAR`] where it is a whole number of seconds above zero, else [`LIMIT`].
pub fn limit(var: Option<&str>) -> Duration {
    var.and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|s| *s > 0)
        .map_or(LIMIT, Duration::from_secs)
}

/// What `interpreter`'s torch says, or why it said nothing.
pub fn probe(interpreter: &str, limit: Duration) -> TorchProbe {
    match crate::commands::block_on(run(interpreter, limit)) {
        Ok(probe) => probe,
        Err(f) => TorchProbe::not_run(interpreter, &f.message),
    }
}

async fn run(interpreter: &str, limit: Duration) -> TorchProbe {
    let child = tokio::process::Command::new(interpreter)
        .arg("-c")
        .arg(PROBE)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Dropped on the time limit, the interpreter is killed with it.
        .kill_on_drop(true)
        .spawn();
    let child = match child {
        Ok(c) => c,
        Err(e) => {
            return TorchProbe::not_run(interpreter, &format!("cannot run {interpreter}: {e}"));
        }
    };
    let out = match tokio::time::timeout(limit, child.wait_with_output()).await {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => return TorchProbe::not_run(interpreter, &e.to_string()),
        Err(_) => {
            let why = format!("{interpreter} gave no answer within {} s", limit.as_secs());
            return TorchProbe::not_run(interpreter, &why);
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let probe = TorchProbe::parse(interpreter, &stdout);
    if probe.state == gpumeter_core::verify::torch::ProbeState::NotRun && !out.status.success() {
        // The interpreter's own last words say more than "no answer".
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        let why = format!("{interpreter} exited with {}: {last}", out.status);
        return TorchProbe::not_run(interpreter, &why);
    }
    probe
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_sixty_seconds_unless_the_variable_says_otherwise() {
        assert_eq!(limit(None), LIMIT);
        assert_eq!(limit(Some("3")), Duration::from_secs(3));
        for bad in ["0", "-1", "soon", ""] {
            assert_eq!(limit(Some(bad)), LIMIT, "{bad}");
        }
    }
}
