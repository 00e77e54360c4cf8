//! Whether the ledger file a watchdog opened is still the one at its path. SQLite keeps
//! writing to a file that was deleted or replaced after it opened it, so a watchdog whose
//! ledger was removed (its data directory deleted, a test's scratch directory cleaned up)
//! would beat its heart into nothing for as long as it ran: nobody could see it or stop it
//! with `watchdog --stop`. It compares the device and inode it opened with the path's.

use std::os::unix::fs::MetadataExt as _;
use std::path::Path;

use super::error::{LedgerGone, WatchError};

/// The file at a path when the watchdog opened it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    dev: u64,
    ino: u64,
}

impl Identity {
    /// The file at `path` now (a symlink is itself, not what it points to).
    pub fn of(path: &Path) -> Result<Self, WatchError> {
        let meta = std::fs::symlink_metadata(path).map_err(|source| WatchError::LookAtLedger {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(Identity {
            dev: meta.dev(),
            ino: meta.ino(),
        })
    }

    /// `Ok` while `path` still names this file; why not, otherwise.
    pub fn still_at(&self, path: &Path) -> Result<(), LedgerGone> {
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.dev() == self.dev && meta.ino() == self.ino => Ok(()),
            Ok(_) => Err(LedgerGone::Replaced(path.to_path_buf())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(LedgerGone::Deleted(path.to_path_buf()))
            }
            // Anything else (a directory made unreadable for a moment) is not taken for gone.
            Err(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deleted_or_replaced_is_gone_and_the_same_file_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.sqlite");
        std::fs::write(&path, "a").unwrap();
        let id = Identity::of(&path).unwrap();
        std::fs::write(&path, "b").unwrap();
        assert_eq!(
            id.still_at(&path),
            Ok(()),
            "written in place: the same file"
        );
        let other = dir.path().join("other");
        std::fs::write(&other, "c").unwrap();
        std::fs::rename(&other, &path).unwrap();
        let e = id.still_at(&path).unwrap_err();
        assert!(e.to_string().contains("was replaced"), "{e}");
        std::fs::remove_file(&path).unwrap();
        let e = id.still_at(&path).unwrap_err();
        assert!(e.to_string().contains("was deleted"), "{e}");
    }
}
