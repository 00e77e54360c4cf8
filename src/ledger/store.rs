//! Opening the ledger file: WAL mode, a busy timeout, migrations forward, and a clear error
//! (never an overwrite) for a file that is locked, read-only, damaged, foreign or newer.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use super::error::LedgerError;
use super::schema::{APPLICATION_ID, current_version, migrate};

/// How long a write waits for another process's transaction before giving up as busy.
pub const DEFAULT_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How long an open waits before trying again a file another connection is setting up.
const RETRY_BUSY_OPEN: Duration = Duration::from_millis(5);

/// The page cache of a connection that writes, in KiB.
const WRITER_CACHE_KIB: i64 = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenOptions {
    pub busy_timeout: Duration,
    /// Open for reading only: no file is created, nothing is migrated or written.
    pub read_only: bool,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            busy_timeout: DEFAULT_BUSY_TIMEOUT,
            read_only: false,
        }
    }
}

/// An open ledger: one SQLite connection. `Send`, not `Sync`: keep it on one thread (the
/// [`LedgerWriter`](super::LedgerWriter) thread, or a blocking task), never on the render path.
pub struct Ledger {
    pub(crate) conn: Connection,
    pub(crate) path: PathBuf,
    pub(crate) busy_timeout: Duration,
}

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ledger")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl Ledger {
    /// Opens (or creates) the ledger at `path` for writing, migrating it to this build's schema.
    pub fn open(path: impl AsRef<Path>) -> Result<Ledger, LedgerError> {
        Ledger::open_with(path, OpenOptions::default())
    }

    /// Opens an existing ledger for reading only (`gpumeter report`).
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Ledger, LedgerError> {
        Ledger::open_with(
            path,
            OpenOptions {
                read_only: true,
                ..OpenOptions::default()
            },
        )
    }

    pub fn open_with(path: impl AsRef<Path>, options: OpenOptions) -> Result<Ledger, LedgerError> {
        let path = path.as_ref().to_path_buf();
        let io = |source| LedgerError::Io {
            path: path.clone(),
            source,
        };
        // Any link at the ledger's name, or its journal's, is refused: SQLite would follow it
        // and keep the history wherever it points. SQLite refuses one that appears later too.
        for suffix in ["", "-wal", "-shm", "-journal"] {
            crate::files::refuse_symlink(&crate::files::with_suffix(&path, suffix)).map_err(
                |source| LedgerError::Io {
                    path: crate::files::with_suffix(&path, suffix),
                    source,
                },
            )?;
        }
        if options.read_only {
            std::fs::metadata(&path).map_err(io)?;
        } else {
            refuse_read_only_file(&path)?;
            // Made private before SQLite opens it: SQLite gives the -wal and -shm files it adds
            // the main file's mode.
            crate::files::create_private_file(&path).map_err(io)?;
        }
        let flags = if options.read_only {
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
        } else {
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
        } | OpenFlags::SQLITE_OPEN_NOFOLLOW;
        let sql = |e| LedgerError::from_sqlite(&path, options.busy_timeout, e);
        let conn = Connection::open_with_flags(&path, flags).map_err(sql)?;
        conn.busy_timeout(options.busy_timeout).map_err(sql)?;
        let mut ledger = Ledger {
            conn,
            path: path.clone(),
            busy_timeout: options.busy_timeout,
        };
        // SQLite answers busy at once, without its busy handler, while another connection
        // turns a new file to WAL or recovers its WAL: the cockpit and the watchdog it starts
        // open a new ledger together. Tried again until the busy timeout is spent, as a lock
        // held by a writer waits.
        let started = std::time::Instant::now();
        loop {
            match ledger.check_and_prepare(options.read_only) {
                Err(LedgerError::Busy { .. }) if started.elapsed() < options.busy_timeout => {
                    std::thread::sleep(RETRY_BUSY_OPEN);
                }
                done => return done.map(|()| ledger),
            }
        }
    }

    fn check_and_prepare(&mut self, read_only: bool) -> Result<(), LedgerError> {
        let version = self.check_file()?;
        if read_only {
            return Ok(());
        }
        if self.conn.is_readonly("main").map_err(|e| self.err(e))? {
            return Err(LedgerError::ReadOnly {
                path: self.path.clone(),
            });
        }
        // A ledger an older version left open to others, now known to be one: closed to
        // them, with its journal.
        for suffix in ["", "-wal", "-shm", "-journal"] {
            crate::files::tighten(&crate::files::with_suffix(&self.path, suffix));
        }
        self.prepare_for_writing(version)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version in the file (0 for a new, empty file).
    pub fn schema_version(&self) -> Result<i64, LedgerError> {
        self.conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    /// SQLite's own check of every page: `"ok"` when the file is sound.
    pub fn integrity_check(&self) -> Result<String, LedgerError> {
        self.conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    pub(crate) fn err(&self, e: rusqlite::Error) -> LedgerError {
        LedgerError::from_sqlite(&self.path, self.busy_timeout, e)
    }

    /// Reads the header and the schema: damaged, foreign and newer files stop here, before
    /// anything is written. Returns the schema version.
    ///
    /// The header and the tables are read in one read transaction: read one by one, a
    /// process creating the schema in between (the watchdog, started with the cockpit) made
    /// a new ledger look like a foreign file, tables without the application id.
    fn check_file(&self) -> Result<i64, LedgerError> {
        let snapshot = self.conn.unchecked_transaction().map_err(|e| self.err(e))?;
        let (app_id, version, tables) = read_header(&snapshot).map_err(|e| self.err(e))?;
        snapshot.commit().map_err(|e| self.err(e))?;
        if is_foreign(app_id, version, tables) {
            return Err(LedgerError::NotALedger {
                path: self.path.clone(),
            });
        }
        if version > current_version() {
            return Err(LedgerError::NewerSchema {
                path: self.path.clone(),
                found: version,
                known: current_version(),
            });
        }
        Ok(version)
    }

    fn prepare_for_writing(&mut self, version: i64) -> Result<(), LedgerError> {
        if version == 0 {
            // Small pages for a new file: the cockpit commits a row or two a minute, and every
            // commit appends each page it touched to the WAL. 1 KiB pages write a quarter of
            // what the default 4 KiB do. Only an empty file takes it; WAL mode fixes the size.
            self.conn
                .pragma_update(None, "page_size", 1024)
                .map_err(|e| self.err(e))?;
        }
        let mode: String = self
            .conn
            .pragma_update_and_check(None, "journal_mode", "wal", |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(LedgerError::BadValue {
                path: self.path.clone(),
                detail: format!("SQLite refused WAL mode (journal mode is {mode})"),
            });
        }
        // WAL with NORMAL sync: a killed process never loses a committed transaction and never
        // corrupts the file; only a power cut may undo the last commits.
        // The cockpit and the watchdog hold this connection for days. SQLite's default cache
        // (2 MiB) would fill with old pages that compaction reads once; what they write fits
        // in far less.
        self.conn
            .execute_batch(&format!(
                "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -{WRITER_CACHE_KIB};"
            ))
            .map_err(|e| self.err(e))?;
        if version == current_version() {
            return Ok(());
        }
        let path = self.path.clone();
        let timeout = self.busy_timeout;
        let sql = |e| LedgerError::from_sqlite(&path, timeout, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        // Another process may have created or migrated the schema while this one waited for
        // the lock: what the file holds now is what counts.
        let (app_id, now, tables) = read_header(&tx).map_err(sql)?;
        if is_foreign(app_id, now, tables) {
            return Err(LedgerError::NotALedger { path });
        }
        if now > current_version() {
            return Err(LedgerError::NewerSchema {
                path,
                found: now,
                known: current_version(),
            });
        }
        if now < current_version() {
            migrate(&tx, now).map_err(sql)?;
        }
        tx.commit().map_err(sql)
    }
}

/// The application id, the schema version and how many schema objects the file holds, as
/// one transaction sees them.
fn read_header(conn: &Connection) -> rusqlite::Result<(i64, i64, i64)> {
    let app_id = conn.pragma_query_value(None, "application_id", |r| r.get(0))?;
    let version = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let tables = conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
    Ok((app_id, version, tables))
}

/// Another program's database: it names another application, or it has tables (or a
/// version) without naming any. An empty file, or one still being created, is not.
fn is_foreign(app_id: i64, version: i64, tables: i64) -> bool {
    if app_id == 0 {
        tables > 0 || version != 0
    } else {
        app_id != APPLICATION_ID
    }
}

/// A file the user made read-only is not written, even by a process that could (root).
fn refuse_read_only_file(path: &Path) -> Result<(), LedgerError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.permissions().readonly() => Err(LedgerError::ReadOnly {
            path: path.to_path_buf(),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writing_connection_keeps_a_small_page_cache_and_a_reader_the_default() {
        let dir = std::env::temp_dir().join(format!("gpumeter-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ledger.sqlite");
        let cache = |l: &Ledger| -> i64 {
            l.conn
                .pragma_query_value(None, "cache_size", |r| r.get(0))
                .unwrap()
        };
        let writer = Ledger::open(&path).unwrap();
        assert_eq!(cache(&writer), -WRITER_CACHE_KIB);
        let reader = Ledger::open_read_only(&path).unwrap();
        assert_eq!(
            cache(&reader),
            -2000,
            "SQLite's default, for one-off reports"
        );
        drop((writer, reader));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
