//! What gpumeter writes is its user's alone, whatever the umask: the ledger with its WAL and
//! shared-memory files, the demo cloud's state, and their directories. And what it is told
//! to read must be a regular file: a FIFO given as the config, the theme, a sheet or a
//! scenario is refused at once instead of waiting forever for a writer.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gpumeter::ledger::{EventRecord, Ledger};
use gpumeter::provider::Provider as _;
use gpumeter::provider::demo::DemoCloud;
use jiff::Timestamp;

/// The umask is the process's: the tests that change it take turns.
static UMASK: Mutex<()> = Mutex::new(());

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// Runs `f` with the most permissive umask there is, then puts the old one back.
fn with_open_umask<T>(f: impl FnOnce() -> T) -> T {
    let _turn = UMASK
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let old = rustix::process::umask(rustix::fs::Mode::empty());
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    rustix::process::umask(old);
    result.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

#[test]
fn a_new_ledger_its_journal_and_its_directories_are_private_under_umask_0() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("data/gpumeter");
    let path = dir.join("ledger.sqlite");
    let ledger = with_open_umask(|| {
        let mut ledger = Ledger::open(&path).unwrap();
        ledger
            .record_event(EventRecord::note(Timestamp::UNIX_EPOCH, "hello"))
            .unwrap();
        ledger
    });
    // While it is open the WAL and the shared memory are there beside it.
    for file in ["ledger.sqlite", "ledger.sqlite-wal", "ledger.sqlite-shm"] {
        assert_eq!(mode(&dir.join(file)), 0o600, "{file}");
    }
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&root.path().join("data")), 0o700);
    drop(ledger);
}

#[test]
fn a_ledger_left_open_to_others_is_closed_to_them_with_its_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    let first = Ledger::open(&path).unwrap();
    let files: Vec<PathBuf> = ["", "-wal", "-shm"]
        .iter()
        .map(|s| dir.path().join(format!("ledger.sqlite{s}")))
        .collect();
    for file in &files {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let second = Ledger::open(&path).unwrap();
    for file in &files {
        assert_eq!(mode(file), 0o600, "{}", file.display());
    }
    drop((first, second));
}

#[test]
fn a_ledger_that_is_not_one_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    std::fs::write(&path, "not a database at all, just some text").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert!(Ledger::open(&path).is_err());
    assert_eq!(
        mode(&path),
        0o644,
        "a file that is not a ledger is left as it was"
    );
}

#[test]
fn the_demo_clouds_state_is_private_under_umask_0() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("new");
    let cloud = DemoCloud::new(&dir, Arc::new(Timestamp::now));
    with_open_umask(|| cloud.reset().unwrap());
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(cloud.path()), 0o600);
    // An action writes it again, through a temporary file renamed over it.
    std::fs::set_permissions(cloud.path(), std::fs::Permissions::from_mode(0o644)).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    with_open_umask(|| {
        runtime
            .block_on(cloud.perform(&gpumeter::provider::Action::Stop))
            .unwrap()
    });
    assert_eq!(mode(cloud.path()), 0o600);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["demo-cloud.json"], "no temporary file is left");
}

/// A FIFO in a fresh directory.
fn fifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        &path,
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
    path
}

/// Runs `f` on a thread of its own and waits at most five seconds for it: a read that blocks
/// fails the test instead of hanging it.
fn within_seconds<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(5))
        .expect("still waiting after 5 s: the FIFO was opened for reading")
}

#[test]
fn a_fifo_is_refused_as_config_theme_sheet_and_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "config.toml");

    let p = path.clone();
    let err = within_seconds(move || gpumeter::config::Config::from_file(&p).unwrap_err());
    assert_eq!(
        err.to_string(),
        format!(
            "cannot read config file {}: it is a FIFO (named pipe), not a regular file",
            path.display()
        )
    );

    let p = path.display().to_string();
    let (theme, warning) =
        within_seconds(move || gpumeter::ui::theme::Theme::resolve(Some(&p), false));
    let warning = warning.expect("a warning, not a theme").to_string();
    assert!(
        warning.contains(&path.display().to_string()) && warning.contains("FIFO"),
        "{warning}"
    );
    assert_eq!(theme, gpumeter::ui::theme::Theme::default());

    let p = path.clone();
    let err = within_seconds(move || gpumeter::pricing::load_file(&p).unwrap_err());
    assert!(
        err.to_string()
            .contains("FIFO (named pipe), not a regular file"),
        "{err}"
    );

    let p = path.clone();
    let err = within_seconds(move || {
        gpumeter::telemetry::scenario_file::load(&p)
            .unwrap_err()
            .to_string()
    });
    assert!(err.contains("FIFO"), "{err}");

    let err = gpumeter::config::Config::from_file(dir.path()).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("it is a directory, not a regular file"),
        "{err}"
    );
}
