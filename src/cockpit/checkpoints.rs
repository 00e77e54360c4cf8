//! Finds the newest checkpoint matching the configured pattern and the mount it lives on,
//! once a minute, off the render path.

use std::path::PathBuf;
use std::time::Duration;

use jiff::Timestamp;
use tokio::sync::mpsc;
use tokio::time::MissedTickBehavior;

use crate::app::Event;
use crate::guard::Checkpoint;
use crate::guard::checkpoint::mount_of;

/// How often the checkpoint directory is looked at.
pub const SCAN_EVERY: Duration = Duration::from_secs(60);

/// The newest file matching `pattern`, with its modification time and mount point.
// A `String` error: it crosses into the core's `Event::Checkpoint`, which shows it as it is.
pub fn newest(pattern: &str, mounts: &[PathBuf]) -> Result<Option<Checkpoint>, String> {
    let paths = glob::glob(pattern).map_err(|e| format!("checkpoint pattern `{pattern}`: {e}"))?;
    let mut best: Option<(PathBuf, std::time::SystemTime)> = None;
    for path in paths.flatten() {
        let Ok(modified) = std::fs::metadata(&path).and_then(|m| m.modified()) else {
            continue;
        };
        if best.as_ref().is_none_or(|(_, t)| modified > *t) {
            best = Some((path, modified));
        }
    }
    Ok(best.and_then(|(path, modified)| {
        let modified = Timestamp::try_from(modified).ok()?;
        let mount = mount_of(&path, mounts)
            .cloned()
            .unwrap_or_else(|| PathBuf::from("/"));
        Some(Checkpoint {
            path,
            modified,
            mount,
        })
    }))
}

/// The mount points of this machine, from /proc/self/mounts.
pub fn mounts() -> Vec<PathBuf> {
    std::fs::read_to_string("/proc/self/mounts")
        .map(|text| crate::telemetry::mount_points(&text))
        .unwrap_or_default()
}

/// Scans every [`SCAN_EVERY`] and sends what it finds.
pub fn spawn(pattern: String, tx: mpsc::Sender<Event>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(SCAN_EVERY);
        every.set_missed_tick_behavior(MissedTickBehavior::Skip);
        loop {
            every.tick().await;
            let pattern = pattern.clone();
            let found = tokio::task::spawn_blocking(move || newest(&pattern, &mounts()))
                .await
                .unwrap_or_else(|e| Err(e.to_string()));
            if tx.send(Event::Checkpoint(found)).await.is_err() {
                break;
            }
        }
    })
}
