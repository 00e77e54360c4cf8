//! The one place gpumeter creates files and directories, and reads the files a person names.
//!
//! What gpumeter keeps (spend history, instance ids and addresses, the watchdog's log) is its
//! user's alone: every directory it creates is 0700 and every file 0600, whatever the umask
//! (a umask can only take bits away, so a new file or directory gets its exact mode set right
//! after it is made). A file of its own that an older version left open to others has the
//! group and other bits cleared when gpumeter next writes it. A directory that already exists
//! is left as it is, since `--data-dir` may name one that is not gpumeter's alone
//! ([`open_to_others`] says when to warn).
//!
//! A file named on the command line or in the config is read only when it is a regular file:
//! opening a FIFO for reading waits for a writer, forever.
//!
//! A file gpumeter keeps that another program opens by name (the ledger, which SQLite opens)
//! is never a symbolic link ([`refuse_symlink`]): a link, dangling or not, would put the file
//! wherever it points, outside the data directory.

use std::ffi::OsString;
use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, Read as _, Write as _};
use std::os::unix::fs::{
    DirBuilderExt as _, FileTypeExt as _, OpenOptionsExt as _, PermissionsExt,
};
use std::path::{Path, PathBuf};

/// The mode of every directory gpumeter creates.
pub const PRIVATE_DIR: u32 = 0o700;
/// The mode of every file gpumeter creates.
pub const PRIVATE_FILE: u32 = 0o600;
/// The bits that let anyone but the owner in.
const OTHERS: u32 = 0o077;

/// Creates `dir` and the parents it lacks, each new one 0700. A directory that exists keeps
/// its mode.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        create_private_dir(parent)?;
    }
    match std::fs::DirBuilder::new().mode(PRIVATE_DIR).create(dir) {
        Ok(()) => std::fs::set_permissions(dir, Permissions::from_mode(PRIVATE_DIR)),
        // Another process made it in the meantime.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(e) => Err(e),
    }
}

/// Opens `path` with `options` (which must write or append), creating it 0600 if it is not
/// there, in a directory made with [`create_private_dir`]. An existing file is tightened.
pub fn open_private(path: &Path, options: &OpenOptions) -> io::Result<File> {
    if let Some(dir) = path.parent() {
        create_private_dir(dir)?;
    }
    let mut new = options.clone();
    new.create_new(true).mode(PRIVATE_FILE);
    match new.open(path) {
        Ok(file) => {
            file.set_permissions(Permissions::from_mode(PRIVATE_FILE))?;
            Ok(file)
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            let file = options.open(path)?;
            tighten_file(&file);
            Ok(file)
        }
        Err(e) => Err(e),
    }
}

/// Creates an empty file at `path` (0600, in a directory made with [`create_private_dir`])
/// when there is none, for another program to open and fill (SQLite, which gives the files it
/// adds beside it the same mode). A file that is there is left as it is: [`tighten`] it once it
/// is known to be the right one.
pub fn create_private_file(path: &Path) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        create_private_dir(dir)?;
    }
    let mut options = OpenOptions::new();
    match options
        .write(true)
        .create_new(true)
        .mode(PRIVATE_FILE)
        .open(path)
    {
        Ok(file) => file.set_permissions(Permissions::from_mode(PRIVATE_FILE)),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Replaces the file at `path` with `contents` through a private temporary file renamed over
/// it: a reader sees the old file or the new one, never half of one, and never a moment when
/// the contents are readable by others.
pub fn write_private(path: &Path, contents: &[u8]) -> io::Result<()> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    // A temporary file left by a crash of a process with the same id: made anew, not reused.
    let _ = std::fs::remove_file(&tmp);
    let mut options = OpenOptions::new();
    options.write(true);
    let written = open_private(&tmp, &options).and_then(|mut file| file.write_all(contents));
    if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, path)) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(())
}

/// Clears the group and other bits of the file at `path`, if it is there and they are set.
/// Best effort: a file that another user owns is theirs to change.
pub fn tighten(path: &Path) {
    if let Ok(meta) = std::fs::metadata(path) {
        let mode = meta.permissions().mode();
        if mode & OTHERS != 0 {
            let _ = std::fs::set_permissions(path, Permissions::from_mode(mode & !OTHERS));
        }
    }
}

fn tighten_file(file: &File) {
    if let Ok(meta) = file.metadata() {
        let mode = meta.permissions().mode();
        if mode & OTHERS != 0 {
            let _ = file.set_permissions(Permissions::from_mode(mode & !OTHERS));
        }
    }
}

/// `text` cut down to what is safe in a file name (ASCII letters, digits, `-` and `_`): an id
/// from a provider never names a path.
pub fn safe_name(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

/// `path` with `suffix` appended to its last component (`ledger.sqlite` and `-wal`).
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(suffix);
    PathBuf::from(name)
}

/// A warning when the directory `dir` exists and lets other users in: the files in it are
/// private, but their names (and so that gpumeter runs here) are not.
pub fn open_to_others(dir: &Path) -> Option<String> {
    let mode = std::fs::metadata(dir).ok()?.permissions().mode() & 0o777;
    (mode & OTHERS != 0).then(|| {
        crate::t!(
            "files-dir-open",
            dir = dir.display().to_string(),
            mode = format!("{mode:o}")
        )
    })
}

/// An error when `path` is a symbolic link (dangling or not), saying where it points; `Ok`
/// when it is anything else or nothing.
pub fn refuse_symlink(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let to = std::fs::read_link(path).map_or_else(
                |_| crate::t!("files-link-unreadable").into_owned(),
                |t| gpumeter_core::text::printable(&t.display().to_string()).into_owned(),
            );
            Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                crate::t!("files-is-link", to = to),
            ))
        }
        _ => Ok(()),
    }
}

/// Reads the whole of the file a person named, refusing anything but a regular file before
/// opening it for reading: a FIFO would wait for a writer forever, a device may never end.
pub fn read_regular(path: &Path) -> io::Result<String> {
    refuse_irregular(std::fs::metadata(path)?.file_type())?;
    // Opened without waiting, and checked again: the path may have changed since the look.
    let fd = rustix::fs::open(
        path,
        rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?;
    let mut file = File::from(fd);
    refuse_irregular(file.metadata()?.file_type())?;
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    Ok(text)
}

fn refuse_irregular(kind: std::fs::FileType) -> io::Result<()> {
    let what = if kind.is_file() {
        return Ok(());
    } else if kind.is_dir() {
        crate::t!("files-is-dir")
    } else if kind.is_fifo() {
        crate::t!("files-is-fifo")
    } else if kind.is_socket() {
        crate::t!("files-is-socket")
    } else if kind.is_char_device() {
        crate::t!("files-is-char-device")
    } else if kind.is_block_device() {
        crate::t!("files-is-block-device")
    } else {
        crate::t!("files-is-other")
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        what.into_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn new_directories_and_files_are_the_owners_alone() {
        let root = scratch("new");
        let file = root.join("a/b/state.json");
        write_private(&file, b"{}").unwrap();
        for dir in [&root, &root.join("a"), &root.join("a/b")] {
            assert_eq!(mode(dir), PRIVATE_DIR, "{}", dir.display());
        }
        assert_eq!(mode(&file), PRIVATE_FILE);
        assert_eq!(std::fs::read(&file).unwrap(), b"{}");
        let left: Vec<_> = std::fs::read_dir(root.join("a/b")).unwrap().collect();
        assert_eq!(left.len(), 1, "the temporary file is gone: {left:?}");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn an_existing_file_loses_group_and_other_bits_and_keeps_the_owners() {
        let root = scratch("old");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::set_permissions(&root, Permissions::from_mode(0o755)).unwrap();
        let log = root.join("watchdog.log");
        std::fs::write(&log, "old\n").unwrap();
        std::fs::set_permissions(&log, Permissions::from_mode(0o644)).unwrap();
        let mut options = OpenOptions::new();
        options.append(true).create(true);
        open_private(&log, &options).unwrap();
        assert_eq!(mode(&log), 0o600);
        let ro = root.join("read-only");
        std::fs::write(&ro, "").unwrap();
        std::fs::set_permissions(&ro, Permissions::from_mode(0o444)).unwrap();
        create_private_file(&ro).unwrap();
        assert_eq!(mode(&ro), 0o444, "an existing file is left for `tighten`");
        tighten(&ro);
        assert_eq!(mode(&ro), 0o400, "read-only stays read-only");
        // The directory is not gpumeter's to change, only to warn about.
        assert_eq!(mode(&root), 0o755);
        let warning = open_to_others(&root).unwrap();
        assert!(warning.contains("mode 755"), "{warning}");
        let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || open_to_others(&root));
        let chinese = chinese.unwrap();
        assert!(
            chinese.contains("755") && chinese.contains("chmod 700"),
            "{chinese}"
        );
        assert!(!chinese.contains("open to other users"), "{chinese}");
        std::fs::set_permissions(&root, Permissions::from_mode(0o700)).unwrap();
        assert_eq!(open_to_others(&root), None);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn only_regular_files_are_read() {
        let root = scratch("read");
        std::fs::create_dir_all(&root).unwrap();
        let err = read_regular(&root).unwrap_err();
        assert_eq!(err.to_string(), "it is a directory, not a regular file");
        let err = read_regular(Path::new("/dev/null")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "it is a character device, not a regular file"
        );
        let file = root.join("config.toml");
        std::fs::write(&file, "a = 1\n").unwrap();
        assert_eq!(read_regular(&file).unwrap(), "a = 1\n");
        assert_eq!(
            read_regular(&root.join("missing")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
