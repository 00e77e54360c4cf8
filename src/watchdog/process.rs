//! Whether a watchdog's process still runs, for the cockpit that supervises it and for a
//! watchdog that finds the guard row claimed by another.

/// Whether process `pid` exists and has not ended. A process that exists but is not ours to
/// signal counts as running; one that has ended and waits to be reaped (a zombie) does not.
pub fn running(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    match rustix::process::test_kill_process(pid) {
        Ok(()) | Err(rustix::io::Errno::PERM) => !ended(pid.as_raw_nonzero().get()),
        Err(_) => false,
    }
}

/// Whether /proc says `pid` has ended (state Z or X). Without /proc, it has not.
fn ended(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // The state follows the command name, which is in parentheses and may hold anything.
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .is_some_and(|state| matches!(state, "Z" | "X"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_runs_and_an_ended_one_does_not() {
        assert!(running(std::process::id()));
        assert!(!running(0));
        assert!(!running(u32::MAX));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        // Ended but not reaped yet: a zombie.
        let zombie = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z"))
        };
        let start = std::time::Instant::now();
        while !zombie() && start.elapsed() < std::time::Duration::from_secs(10) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(zombie(), "`true` did not end within 10s");
        assert!(!running(pid));
        child.wait().unwrap();
        assert!(!running(pid));
    }
}
