//! The signals that end the cockpit, sent as `kill`, `timeout` or `systemctl stop` send them:
//! each leaves the terminal as it was (the normal screen, the cursor shown, the tty's modes
//! sane), the cockpit exits with 128 + the signal's number, and the watchdog it started keeps
//! guarding.

use std::time::{Duration, Instant};

use super::e2e_tmux::Tmux;

/// The signals, their numbers, and the name `kill -s` takes.
const ENDINGS: [(&str, u8); 4] = [("TERM", 15), ("INT", 2), ("HUP", 1), ("QUIT", 3)];

/// The tty modes raw mode turns off, each of which a shell needs back.
const SANE: [&str; 4] = ["icanon", "echo", "opost", "isig"];

#[test]
fn each_ending_signal_restores_the_terminal_and_leaves_the_watchdog_guarding() {
    let mut wrong = Vec::new();
    for (name, number) in ENDINGS {
        // A deadline to enforce: the watchdog has a duty that outlives its cockpit.
        let flags = "--release-in 2h --on-expiry stop";
        let Some(t) = Tmux::start_with(&format!("signal-{name}"), "", flags) else {
            return;
        };
        if let Err(e) = one_signal(&t, name, number) {
            wrong.push(format!("SIG{name}: {e}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} signals went wrong:\n{}",
        wrong.len(),
        ENDINGS.len(),
        wrong.join("\n")
    );
}

fn one_signal(t: &Tmux, name: &str, number: u8) -> Result<(), String> {
    t.wait_for("i-0demo4a100f00d");
    t.wait_for("watchdog ✓");
    let pane = t.cmd(&["display", "-p", "#{pane_pid}"]);
    let cockpit = child_named(pane.trim(), "gpumeter").ok_or("no cockpit process")?;
    let watchdog = t.watchdog_pid().ok_or("no watchdog before the signal")?;
    if group_of(watchdog) == group_of(cockpit) {
        return Err(format!(
            "the watchdog {watchdog} shares the cockpit's process group {:?}",
            group_of(cockpit)
        ));
    }
    let kill = std::process::Command::new("kill")
        .args(["-s", name, &cockpit.to_string()])
        .status()
        .map_err(|e| e.to_string())?;
    if !kill.success() {
        return Err(format!("kill -s {name} {cockpit} failed"));
    }
    let end = t.wait_for("EXITED ");
    // Every check is made, so that one case says all that went wrong.
    let mut problems = Vec::new();
    let display = |format: &str| t.cmd(&["display", "-p", format]).trim().to_string();
    if display("#{alternate_on}") != "0" {
        problems.push("still in the alternate screen".to_string());
    }
    if display("#{cursor_flag}") != "1" {
        problems.push("the cursor is hidden".into());
    }
    let tty = display("#{pane_tty}");
    let modes = std::process::Command::new("stty")
        .args(["-a", "-F", &tty])
        .output()
        .map_err(|e| e.to_string())?;
    let modes = String::from_utf8_lossy(&modes.stdout);
    let set: Vec<&str> = modes.split([' ', ';', '\n']).collect();
    let off: Vec<_> = SANE.iter().filter(|m| !set.contains(m)).collect();
    if !off.is_empty() {
        problems.push(format!("tty modes left off: {off:?}"));
    }
    let status = format!("EXITED {}", 128 + u16::from(number));
    if !end.contains(&status) {
        problems.push(format!("not {status}"));
    }
    if !end.contains(&format!("ended by SIG{name}")) {
        problems.push("the normal screen does not say which signal ended it".into());
    }
    // Three of its intervals after the cockpit ended, the same watchdog still beats.
    std::thread::sleep(Duration::from_secs(3));
    match t.watchdog_pid() {
        Some(pid) if pid == watchdog => {}
        other => problems.push(format!(
            "the watchdog {watchdog} stopped guarding (now {other:?}); its log:\n{}",
            std::fs::read_to_string(t.data_dir.join("watchdog.log")).unwrap_or_default()
        )),
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{end}", problems.join("; ")))
    }
}

/// The pid of `parent`'s child whose command is `name`, waiting a few seconds for it.
fn child_named(parent: &str, name: &str) -> Option<u32> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        for entry in std::fs::read_dir("/proc").ok()?.flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Some(fields) = stat_fields(pid) else {
                continue;
            };
            if fields.comm == name && fields.parent == parent {
                return Some(pid);
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    None
}

fn group_of(pid: u32) -> Option<String> {
    stat_fields(pid).map(|f| f.group)
}

struct Stat {
    comm: String,
    parent: String,
    group: String,
}

/// The command, parent and process group of `pid`, from `/proc/<pid>/stat`.
fn stat_fields(pid: u32) -> Option<Stat> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command is in parentheses and may hold spaces; the fields after it are plain.
    let (head, tail) = stat.rsplit_once(')')?;
    let comm = head.split_once('(')?.1.to_string();
    let mut rest = tail.split_whitespace().skip(1);
    let parent = rest.next()?.to_string();
    let group = rest.next()?.to_string();
    Some(Stat {
        comm,
        parent,
        group,
    })
}
