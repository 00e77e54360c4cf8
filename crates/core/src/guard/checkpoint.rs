//! Checkpoint freshness: how old the newest checkpoint is, whether that is too old (60 minutes,
//! 30 on spot), and whether it lives on a disk that goes away with the instance.

use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::Timestamp;

/// Older than this, a checkpoint warns (on-demand).
pub const STALE_AFTER: Duration = Duration::from_secs(60 * 60);
/// On spot, where the instance can vanish with two minutes' notice.
pub const STALE_AFTER_SPOT: Duration = Duration::from_secs(30 * 60);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    pub path: PathBuf,
    pub modified: Timestamp,
    /// The mount point the file lives under.
    pub mount: PathBuf,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointAlert {
    /// No file matches the configured pattern.
    Missing { pattern: String },
    /// The newest checkpoint is older than the threshold.
    Stale { path: PathBuf, age: Duration },
    /// The newest checkpoint is on a disk that is deleted with the instance.
    OnEphemeralDisk { path: PathBuf, mount: PathBuf },
}

/// Judges the newest checkpoint. `ephemeral_mounts` are the mount points whose disk goes away
/// with the instance (the root disk when the provider deletes it on release, instance stores).
pub fn assess(
    pattern: &str,
    newest: Option<&Checkpoint>,
    now: Timestamp,
    stale_after: Option<Duration>,
    spot: bool,
    ephemeral_mounts: &[PathBuf],
) -> Vec<CheckpointAlert> {
    let Some(c) = newest else {
        return vec![CheckpointAlert::Missing {
            pattern: pattern.to_string(),
        }];
    };
    let mut out = Vec::new();
    let age = now.duration_since(c.modified).unsigned_abs();
    let limit = stale_after.unwrap_or(if spot { STALE_AFTER_SPOT } else { STALE_AFTER });
    if age > limit {
        out.push(CheckpointAlert::Stale {
            path: c.path.clone(),
            age,
        });
    }
    if ephemeral_mounts.iter().any(|m| m == &c.mount) {
        out.push(CheckpointAlert::OnEphemeralDisk {
            path: c.path.clone(),
            mount: c.mount.clone(),
        });
    }
    out
}

/// The mount point `path` lives under: the longest mount that is a prefix of it.
pub fn mount_of<'a>(path: &Path, mounts: &'a [PathBuf]) -> Option<&'a PathBuf> {
    mounts
        .iter()
        .filter(|m| path.starts_with(m))
        .max_by_key(|m| m.components().count())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    fn ckpt(modified: i64, mount: &str) -> Checkpoint {
        Checkpoint {
            path: PathBuf::from(format!("{mount}/ckpt/step.pt")),
            modified: ts(modified),
            mount: PathBuf::from(mount),
        }
    }

    #[test]
    fn stale_after_an_hour_or_half_an_hour_on_spot() {
        let c = ckpt(0, "/data");
        assert!(assess("*", Some(&c), ts(3600), None, false, &[]).is_empty());
        assert!(matches!(
            assess("*", Some(&c), ts(3601), None, false, &[])[..],
            [CheckpointAlert::Stale { .. }]
        ));
        assert!(matches!(
            assess("*", Some(&c), ts(1801), None, true, &[])[..],
            [CheckpointAlert::Stale { .. }]
        ));
        assert!(matches!(
            assess("ck/*.pt", None, ts(0), None, false, &[])[..],
            [CheckpointAlert::Missing { .. }]
        ));
    }

    #[test]
    fn a_checkpoint_on_a_disk_deleted_with_the_instance_warns() {
        let c = ckpt(0, "/");
        let a = assess("*", Some(&c), ts(10), None, false, &[PathBuf::from("/")]);
        assert!(matches!(a[..], [CheckpointAlert::OnEphemeralDisk { .. }]));
        let mounts = [
            PathBuf::from("/"),
            PathBuf::from("/data"),
            PathBuf::from("/data/x"),
        ];
        assert_eq!(
            mount_of(Path::new("/data/ckpt/a.pt"), &mounts),
            Some(&mounts[1])
        );
        assert_eq!(
            mount_of(Path::new("/home/u/a.pt"), &mounts),
            Some(&mounts[0])
        );
    }
}
