//! The watchdog's lock: a private file beside the ledger, one per instance, that a watchdog
//! holds an exclusive advisory lock (flock) on for its whole life and that holds its pid. The
//! kernel lets go of it when the process ends, however it ends, so "the lock is held" is
//! whether a watchdog lives: no heartbeat's age (a wall clock that stepped, a ledger another
//! process kept locked) and no reused pid can say otherwise. `watchdog --status`, `serve` and
//! the cockpit's supervisor look at it; a second watchdog cannot take it.

use std::fs::{File, OpenOptions};
use std::io::{self, Read as _, Seek as _, Write as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::fs::{FlockOperation, OFlags, flock};

/// How long a watchdog starting tries for the lock: one that `--status` or the cockpit holds
/// shared for a moment, while it looks, is let go of at once.
const TRY_FOR: Duration = Duration::from_secs(2);

/// The lock file for `instance`'s watchdog beside the ledger at `ledger`.
pub fn path_for(ledger: &Path, instance: &str) -> PathBuf {
    let name = ledger
        .file_name()
        .map_or_else(|| "ledger".into(), |n| n.to_string_lossy().into_owned());
    let safe = crate::files::safe_name(instance);
    // An id that is not already a safe, short name is named by its hash: two ids never share
    // a lock by being cut down to the same name.
    let id = if safe == instance && !safe.is_empty() && safe.len() <= 64 {
        safe
    } else {
        format!("{:016x}", fnv1a(instance.as_bytes()))
    };
    ledger.with_file_name(format!("{name}.watchdog-{id}.lock"))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The lock, held until dropped (or the process ends).
#[derive(Debug)]
pub struct Held {
    _file: File,
}

/// What a look at the lock found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// A watchdog holds it: the pid it wrote, when it could be read.
    Held(Option<u32>),
    /// Nothing holds it (or there is no lock file: no watchdog of this build ever ran).
    Free,
    /// It could not be looked at (no permission, a symlink in its place).
    Unknown,
}

impl Probe {
    /// Whether a watchdog lives, as the guard row's `lock_held` says it.
    pub fn held(self) -> Option<bool> {
        match self {
            Probe::Held(_) => Some(true),
            Probe::Free => Some(false),
            Probe::Unknown => None,
        }
    }
}

/// Takes the lock at `path` for process `pid`: the lock, or what holds it (its pid, when it
/// wrote one). A symlink at `path` is refused.
pub fn acquire(path: &Path, pid: u32) -> io::Result<Result<Held, Option<u32>>> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).custom_flags(nofollow());
    let mut file = crate::files::open_private(path, &options)?;
    let started = Instant::now();
    loop {
        match flock(&file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => break,
            Err(rustix::io::Errno::WOULDBLOCK) if started.elapsed() < TRY_FOR => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(rustix::io::Errno::WOULDBLOCK) => return Ok(Err(read_pid(&mut file))),
            Err(e) => return Err(e.into()),
        }
    }
    file.set_len(0)?;
    file.rewind()?;
    file.write_all(format!("{pid}\n").as_bytes())?;
    Ok(Ok(Held { _file: file }))
}

/// Looks at the lock at `path` without waiting: a shared lock taken and let go at once.
pub fn probe(path: &Path) -> Probe {
    let mut options = OpenOptions::new();
    options.read(true).custom_flags(nofollow());
    let mut file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Probe::Free,
        Err(_) => return Probe::Unknown,
    };
    match flock(&file, FlockOperation::NonBlockingLockShared) {
        Ok(()) => Probe::Free,
        Err(rustix::io::Errno::WOULDBLOCK) => Probe::Held(read_pid(&mut file)),
        Err(_) => Probe::Unknown,
    }
}

/// The pid `instance`'s watchdog beside `ledger` wrote into its lock, while it holds it.
pub fn holder(ledger: &Path, instance: &str) -> Probe {
    probe(&path_for(ledger, instance))
}

fn read_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.take(32).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

fn nofollow() -> i32 {
    i32::try_from(OFlags::NOFOLLOW.bits()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    #[test]
    fn one_holder_at_a_time_and_a_look_says_who() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_for(&dir.path().join("ledger.sqlite"), "i-0abc");
        assert_eq!(
            path.file_name().unwrap(),
            "ledger.sqlite.watchdog-i-0abc.lock"
        );
        assert_eq!(probe(&path), Probe::Free, "no file yet");
        let held = acquire(&path, 4242).unwrap().unwrap();
        assert_eq!(probe(&path), Probe::Held(Some(4242)));
        // flock locks belong to the open file: a second open in this process is refused too.
        assert_eq!(acquire(&path, 4343).unwrap().unwrap_err(), Some(4242));
        drop(held);
        assert_eq!(probe(&path), Probe::Free);
        let again = acquire(&path, 4343).unwrap().unwrap();
        assert_eq!(probe(&path), Probe::Held(Some(4343)));
        drop(again);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn a_look_does_not_keep_a_watchdog_from_starting() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_for(&dir.path().join("ledger.sqlite"), "i-1");
        std::fs::write(&path, "").unwrap();
        let mut options = OpenOptions::new();
        options.read(true);
        let looker = options.open(&path).unwrap();
        flock(&looker, FlockOperation::NonBlockingLockShared).unwrap();
        let release = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            drop(looker);
        });
        assert!(acquire(&path, 1).unwrap().is_ok());
        release.join().unwrap();
    }

    #[test]
    fn odd_ids_get_a_name_of_their_own_and_a_symlink_is_refused() {
        let ledger = Path::new("/data/ledger.sqlite");
        let a = path_for(ledger, "../x");
        let b = path_for(ledger, "..x");
        assert_ne!(a, b);
        assert_eq!(a.parent(), Some(Path::new("/data")));
        let dir = tempfile::tempdir().unwrap();
        let path = path_for(&dir.path().join("ledger.sqlite"), "i-1");
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), &path).unwrap();
        assert!(acquire(&path, 1).is_err());
        assert_eq!(probe(&path), Probe::Unknown);
        assert!(!dir.path().join("elsewhere").exists());
    }
}
