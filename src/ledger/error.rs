//! What can go wrong with the ledger file, each case with a message that says what was found
//! and what to do. No case writes to the file: a ledger that cannot be used is left as it is.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::ErrorCode;

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error(
        "the ledger {path} is locked by another process (still busy after {} ms); is another \
         gpumeter writing to it? It was left as it is",
        waited.as_millis()
    )]
    Busy { path: PathBuf, waited: Duration },

    #[error(
        "the ledger {path} is read-only, so gpumeter will not write to it: make it writable, or \
         pass --data-dir DIR to keep the history elsewhere"
    )]
    ReadOnly { path: PathBuf },

    #[error(
        "the ledger {path} is damaged ({detail}); it was left untouched: move it aside to start a \
         new history, or restore a copy"
    )]
    Corrupt { path: PathBuf, detail: String },

    #[error(
        "the ledger {path} has schema version {found}, newer than this gpumeter knows ({known}); \
         it was left untouched: upgrade gpumeter, or pass --data-dir DIR"
    )]
    NewerSchema {
        path: PathBuf,
        found: i64,
        known: i64,
    },

    #[error("{path} is an SQLite database but not a gpumeter ledger; it was left untouched")]
    NotALedger { path: PathBuf },

    #[error("cannot use the ledger {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },

    #[error("the ledger {path} holds a value gpumeter cannot read: {detail}")]
    BadValue { path: PathBuf, detail: String },

    #[error("the ledger {path}: {source}")]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },

    #[error("the ledger writer has stopped; nothing more can be recorded")]
    WriterGone,
}

impl LedgerError {
    /// Sorts an SQLite error into the cases a user can act on.
    pub(crate) fn from_sqlite(path: &Path, waited: Duration, err: rusqlite::Error) -> Self {
        let path = path.to_path_buf();
        let code = err.sqlite_error_code();
        match code {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
                LedgerError::Busy { path, waited }
            }
            Some(ErrorCode::ReadOnly) => LedgerError::ReadOnly { path },
            Some(ErrorCode::NotADatabase) => LedgerError::Corrupt {
                path,
                detail: "the file is not a database".into(),
            },
            Some(ErrorCode::DatabaseCorrupt) => LedgerError::Corrupt {
                path,
                detail: "the database disk image is malformed".into(),
            },
            _ => LedgerError::Sqlite { path, source: err },
        }
    }
}
