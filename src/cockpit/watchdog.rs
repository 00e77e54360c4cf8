//! Starting the cockpit's watchdog, and hearing when it ends. The cockpit is the watchdog's
//! parent: a thread waits for each one it starts, so an ended watchdog is reaped at once (a
//! zombie would pass for alive) and `update` learns how it ended, as
//! [`Event::WatchdogEnded`]. Whether to start it again is the core's supervisor's call.

use std::process::Child;
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::app::Event;

/// Starts `gpumeter watchdog` detached, with the flags the cockpit was given, and hands back
/// the child to reap.
pub type StartWatchdog = Arc<dyn Fn() -> std::io::Result<Child> + Send + Sync>;

/// Starts the watchdog and the thread that waits for it; the watchdog's pid, or why it did
/// not start.
pub fn start(spawn: &StartWatchdog, events: mpsc::Sender<Event>) -> std::io::Result<u32> {
    let mut child = spawn()?;
    let pid = child.id();
    // Without the thread the watchdog still runs; only its end goes unheard (the guard link
    // still sees its process gone, once it is reaped by whoever inherits it).
    let _ = std::thread::Builder::new()
        .name("gpumeter-reaper".into())
        .spawn(move || {
            let failure = match child.wait() {
                Ok(status) if status.success() => None,
                Ok(status) => Some(crate::t!("watchdog-ended", status = status.to_string())),
                Err(e) => Some(crate::t!("watchdog-not-waited", error = e.to_string())),
            };
            let _ = events.blocking_send(Event::WatchdogEnded { pid, failure });
        });
    Ok(pid)
}
