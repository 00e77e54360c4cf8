//! Each bad ledger file gives its own clear error and is left byte for byte as it was:
//! locked, read-only, not a database, damaged, foreign, and from a newer schema.

use std::path::{Path, PathBuf};
use std::time::Duration;

use gpumeter::ledger::{EventRecord, Ledger, LedgerError, OpenOptions};
use jiff::Timestamp;

fn fresh(dir: &Path) -> PathBuf {
    let path = dir.join("ledger.sqlite");
    let mut ledger = Ledger::open(&path).unwrap();
    ledger
        .record_event(EventRecord::note(Timestamp::UNIX_EPOCH, "hello"))
        .unwrap();
    drop(ledger);
    path
}

fn quick(path: &Path) -> Result<Ledger, LedgerError> {
    Ledger::open_with(
        path,
        OpenOptions {
            busy_timeout: Duration::from_millis(50),
            read_only: false,
        },
    )
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn a_file_locked_by_another_process_is_busy() {
    let dir = tempfile::tempdir().unwrap();
    let path = fresh(dir.path());
    let other = rusqlite::Connection::open(&path).unwrap();
    other
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        .unwrap();
    let err = quick(&path).unwrap_err();
    assert!(matches!(err, LedgerError::Busy { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("is locked by another process"), "{text}");
    assert!(text.contains("still busy after 50 ms"), "{text}");
}

#[test]
fn a_write_while_another_writer_holds_the_lock_is_busy() {
    let dir = tempfile::tempdir().unwrap();
    let path = fresh(dir.path());
    let mut ledger = quick(&path).unwrap();
    let other = rusqlite::Connection::open(&path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE;").unwrap();
    let err = ledger
        .record_event(EventRecord::note(Timestamp::UNIX_EPOCH, "blocked"))
        .unwrap_err();
    assert!(matches!(err, LedgerError::Busy { .. }), "{err}");
    other.execute_batch("ROLLBACK;").unwrap();
    ledger
        .record_event(EventRecord::note(Timestamp::UNIX_EPOCH, "later"))
        .unwrap();
}

#[test]
fn a_read_only_file_is_refused_for_writing_but_still_reads() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let path = fresh(dir.path());
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = bytes(&path);
    let err = quick(&path).unwrap_err();
    assert!(matches!(err, LedgerError::ReadOnly { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("is read-only, so gpumeter will not write to it"),
        "{text}"
    );
    assert!(text.contains("--data-dir"), "{text}");
    assert_eq!(bytes(&path), before);
    let reader = Ledger::open_read_only(&path).unwrap();
    assert_eq!(
        reader.schema_version().unwrap(),
        gpumeter::ledger::schema::current_version()
    );
}

#[test]
fn a_file_that_is_not_a_database_is_damaged_and_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    let junk: Vec<u8> = (0..8192_u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&path, &junk).unwrap();
    let err = quick(&path).unwrap_err();
    assert!(matches!(err, LedgerError::Corrupt { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("is damaged (the file is not a database)"),
        "{text}"
    );
    assert!(text.contains("left untouched"), "{text}");
    assert_eq!(bytes(&path), junk);
    assert!(!dir.path().join("ledger.sqlite-wal").exists());
}

#[test]
fn a_malformed_database_is_damaged_and_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = fresh(dir.path());
    // Checkpointed and closed: the whole ledger is in the main file. Scribble over the schema
    // table's page (page 1, after the 100-byte header).
    let mut data = bytes(&path);
    for b in &mut data[100..600] {
        *b = 0xA5;
    }
    std::fs::write(&path, &data).unwrap();
    let err = quick(&path).unwrap_err();
    assert!(matches!(err, LedgerError::Corrupt { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("the database disk image is malformed"),
        "{err}"
    );
    assert_eq!(bytes(&path), data);
}

#[test]
fn a_newer_schema_is_refused_and_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = fresh(dir.path());
    let other = rusqlite::Connection::open(&path).unwrap();
    other.pragma_update(None, "user_version", 99).unwrap();
    drop(other);
    let before = bytes(&path);
    for err in [
        quick(&path).unwrap_err(),
        Ledger::open_read_only(&path).unwrap_err(),
    ] {
        assert!(
            matches!(err, LedgerError::NewerSchema { found: 99, .. }),
            "{err:?}"
        );
        let text = err.to_string();
        assert!(
            text.contains(&format!(
                "has schema version 99, newer than this gpumeter knows ({})",
                gpumeter::ledger::schema::current_version()
            )),
            "{text}"
        );
        assert!(text.contains("upgrade gpumeter"), "{text}");
    }
    assert_eq!(bytes(&path), before);
}

#[test]
fn another_programs_database_is_not_a_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    let other = rusqlite::Connection::open(&path).unwrap();
    other.execute_batch("CREATE TABLE notes (x);").unwrap();
    drop(other);
    let before = bytes(&path);
    let err = quick(&path).unwrap_err();
    assert!(matches!(err, LedgerError::NotALedger { .. }), "{err:?}");
    assert!(err.to_string().contains("not a gpumeter ledger"), "{err}");
    assert_eq!(bytes(&path), before);
}

#[test]
fn a_new_ledger_is_created_with_its_directory_in_wal_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep/er/ledger.sqlite");
    let ledger = Ledger::open(&path).unwrap();
    assert_eq!(
        ledger.schema_version().unwrap(),
        gpumeter::ledger::schema::current_version()
    );
    let mode: String = rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    // Opening again migrates nothing and keeps what was there.
    drop(ledger);
    let again = Ledger::open(&path).unwrap();
    assert_eq!(again.integrity_check().unwrap(), "ok");
}

#[test]
fn the_report_command_prints_the_error_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ledger.sqlite"),
        b"not sqlite at all, not even close....",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["report"])
        .env("GPUMETER_DATA_DIR", dir.path())
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is damaged"), "{err}");
}

#[test]
fn a_new_ledger_has_small_pages_and_an_old_one_keeps_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let path = fresh(dir.path());
    let page_size = |p: &Path| -> i64 {
        let conn = rusqlite::Connection::open(p).unwrap();
        conn.pragma_query_value(None, "page_size", |r| r.get(0))
            .unwrap()
    };
    assert_eq!(page_size(&path), 1024);

    // A ledger made with SQLite's default pages still opens, and keeps them.
    let old = dir.path().join("old.sqlite");
    rusqlite::Connection::open(&old)
        .unwrap()
        .execute_batch("PRAGMA page_size = 4096; PRAGMA journal_mode = WAL;")
        .unwrap();
    let mut ledger = Ledger::open(&old).unwrap();
    ledger
        .record_event(EventRecord::note(Timestamp::UNIX_EPOCH, "hello"))
        .unwrap();
    drop(ledger);
    assert_eq!(page_size(&old), 4096);
}

/// The cockpit and the watchdog it starts open the same new ledger at once: every open
/// succeeds, whoever creates the schema, and the file is one intact ledger afterwards.
#[test]
fn many_processes_opening_one_new_ledger_at_once_all_succeed() {
    const OPENERS: usize = 6;
    const ROUNDS: usize = 40;
    let dir = tempfile::tempdir().unwrap();
    for round in 0..ROUNDS {
        let path = dir.path().join(format!("ledger-{round}.sqlite"));
        let start = std::sync::Arc::new(std::sync::Barrier::new(OPENERS));
        let openers: Vec<_> = (0..OPENERS)
            .map(|_| {
                let (path, start) = (path.clone(), std::sync::Arc::clone(&start));
                std::thread::spawn(move || {
                    start.wait();
                    Ledger::open(&path).map(|l| l.schema_version().unwrap())
                })
            })
            .collect();
        for opener in openers {
            let version = opener.join().unwrap();
            assert!(
                matches!(version, Ok(v) if v == gpumeter::ledger::schema::current_version()),
                "round {round}: {version:?}"
            );
        }
        let ledger = Ledger::open(&path).unwrap();
        assert_eq!(ledger.integrity_check().unwrap(), "ok", "round {round}");
        assert_eq!(ledger.guard("i-1").unwrap(), None, "round {round}");
    }
}

#[test]
fn a_symlink_at_the_ledgers_name_is_refused_and_nothing_is_made_where_it_points() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let path = data.join("ledger.sqlite");
    // Dangling, pointing out of the data directory.
    let target = outside.path().join("stolen.sqlite");
    std::os::unix::fs::symlink(&target, &path).unwrap();
    let err = Ledger::open(&path).unwrap_err().to_string();
    assert!(err.contains(&path.display().to_string()), "{err}");
    assert!(err.contains("symbolic link"), "{err}");
    assert!(!target.exists(), "nothing is made where the link points");
    assert!(Ledger::open_read_only(&path).is_err());
    // A link to a ledger inside the data directory is refused as well: the rule is any link.
    std::fs::remove_file(&path).unwrap();
    let inside = fresh(&dir.path().join("other"));
    std::os::unix::fs::symlink(&inside, &path).unwrap();
    assert!(
        Ledger::open(&path)
            .unwrap_err()
            .to_string()
            .contains("symbolic link")
    );
    // So is one at its journal's name.
    std::fs::remove_file(&path).unwrap();
    let wal = data.join("ledger.sqlite-wal");
    std::os::unix::fs::symlink(outside.path().join("wal"), &wal).unwrap();
    let err = Ledger::open(&path).unwrap_err().to_string();
    assert!(err.contains("ledger.sqlite-wal"), "{err}");
    assert!(!outside.path().join("wal").exists());
}
