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
                detail: crate::t!("ledger-not-a-database").into_owned(),
            },
            Some(ErrorCode::DatabaseCorrupt) => LedgerError::Corrupt {
                path,
                detail: crate::t!("ledger-malformed").into_owned(),
            },
            _ => LedgerError::Sqlite { path, source: err },
        }
    }
}

impl LedgerError {
    /// The error in the language the user reads; `Display` is English, for the logs. The
    /// database's own words (an I/O or SQLite error) stay as they came.
    pub fn shown(&self) -> String {
        let at = |path: &Path| path.display().to_string();
        match self {
            LedgerError::Busy { path, waited } => crate::t!(
                "err-ledger-busy",
                path = at(path),
                ms = waited.as_millis().to_string()
            ),
            LedgerError::ReadOnly { path } => crate::t!("err-ledger-read-only", path = at(path)),
            LedgerError::Corrupt { path, detail } => crate::t!(
                "err-ledger-corrupt",
                path = at(path),
                detail = detail.as_str()
            ),
            LedgerError::NewerSchema { path, found, known } => crate::t!(
                "err-ledger-newer",
                path = at(path),
                found = found.to_string(),
                known = known.to_string()
            ),
            LedgerError::NotALedger { path } => {
                crate::t!("err-ledger-not-a-ledger", path = at(path))
            }
            LedgerError::Io { path, source } => {
                crate::t!("err-ledger-io", path = at(path), error = source.to_string())
            }
            LedgerError::BadValue { path, detail } => crate::t!(
                "err-ledger-bad-value",
                path = at(path),
                detail = detail.as_str()
            ),
            LedgerError::Sqlite { path, source } => crate::t!(
                "err-ledger-sqlite",
                path = at(path),
                error = source.to_string()
            ),
            LedgerError::WriterGone => crate::t!("err-ledger-writer-gone").into_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use super::LedgerError;
    use crate::i18n::{Lang, scoped};

    #[test]
    fn each_error_reads_as_display_in_english_and_otherwise_in_chinese() {
        let path = || PathBuf::from("/data/ledger.sqlite");
        let io = || std::io::Error::other("disk gone");
        let all = [
            LedgerError::Busy {
                path: path(),
                waited: Duration::from_millis(250),
            },
            LedgerError::ReadOnly { path: path() },
            LedgerError::Corrupt {
                path: path(),
                detail: "bad page".into(),
            },
            LedgerError::NewerSchema {
                path: path(),
                found: 9,
                known: 3,
            },
            LedgerError::NotALedger { path: path() },
            LedgerError::Io {
                path: path(),
                source: io(),
            },
            LedgerError::BadValue {
                path: path(),
                detail: "x".into(),
            },
            LedgerError::Sqlite {
                path: path(),
                source: rusqlite::Error::InvalidQuery,
            },
            LedgerError::WriterGone,
        ];
        for e in &all {
            assert_eq!(scoped(Lang::En, || e.shown()), e.to_string());
            let chinese = scoped(Lang::ZhCn, || e.shown());
            assert_ne!(chinese, e.to_string());
            assert!(chinese.contains("账本"), "{chinese}");
        }
    }
}
