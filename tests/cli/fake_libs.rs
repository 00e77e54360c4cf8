//! The fake NVIDIA library (`tests/fake_nvml`): its C file built once per test binary with the
//! system compiler into a folder named by the source's hash, and the real `gpumeter` run
//! against it through `LD_LIBRARY_PATH`, the loader's ordinary search.
//!
//! Without gcc these tests say so and skip; under `CI` they fail, as gcc is on the CI machine.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use sha2::{Digest as _, Sha256};

/// One fake library: its C source, relative to the crate, and the file name it is loaded by.
struct Fake {
    source: &'static str,
    soname: &'static str,
    built: OnceLock<Option<PathBuf>>,
}

static NVML: Fake = Fake {
    source: "tests/fake_nvml/fake_nvml.c",
    soname: "libnvidia-ml.so.1",
    built: OnceLock::new(),
};

impl Fake {
    /// The folder holding the built library, or `None` without a C compiler (outside CI).
    fn dir(&'static self) -> Option<&'static Path> {
        self.built.get_or_init(|| build(self)).as_deref()
    }
}

fn build(fake: &Fake) -> Option<PathBuf> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join(fake.source);
    let text = std::fs::read(&source).expect("the fake's source is in the repository");
    let hash = format!("{:x}", Sha256::digest(&text));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("fake-libs")
        .join(&hash[..16]);
    let lib = dir.join(fake.soname);
    if lib.is_file() {
        return Some(dir);
    }
    std::fs::create_dir_all(&dir).unwrap();
    // Built beside its final name and renamed into place, so another test binary building
    // the same source at once never loads half a file.
    let partial = dir.join(format!("{}.{}", fake.soname, std::process::id()));
    let out = match Command::new("gcc")
        .args(["-shared", "-fPIC", "-O1", "-o"])
        .arg(&partial)
        .arg(&source)
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "gcc is required in CI to build {}: {e}",
                fake.source
            );
            eprintln!(
                "skipping: gcc is not installed, so {} cannot be built",
                fake.source
            );
            return None;
        }
    };
    assert!(
        out.status.success(),
        "gcc {}: {}",
        fake.source,
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::rename(&partial, &lib).unwrap();
    Some(dir)
}

/// `gpumeter` as the fake NVML answers it in `scenario` ("" for its default, one healthy
/// A100), with a data directory of its own; `None` where the fake cannot be built.
pub(crate) fn gpumeter(scenario: &str, data: &Path) -> Option<Command> {
    let dirs = vec![NVML.dir()?];
    Some(command(&dirs, scenario, data))
}

fn command(dirs: &[&Path], scenario: &str, data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    command
        .env("LD_LIBRARY_PATH", std::env::join_paths(dirs).unwrap())
        .env("FAKE_NVML_SCENARIO", scenario)
        .env("GPUMETER_DATA_DIR", data)
        .env("NO_COLOR", "1");
    command
}

/// The shell words that set the same environment, for a `gpumeter` that tmux starts.
pub(crate) fn shell_env(scenario: &str) -> Option<String> {
    Some(format!(
        "LD_LIBRARY_PATH='{}' FAKE_NVML_SCENARIO='{scenario}'",
        NVML.dir()?.display()
    ))
}
