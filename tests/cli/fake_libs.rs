//! The fake NVIDIA libraries (`tests/fake_nvml`, `tests/fake_cuda`): each C file built once per
//! test binary with the system compiler into a folder named by the source's hash, and the real
//! `gpumeter` run against them through `LD_LIBRARY_PATH`, the loader's ordinary search. The
//! fake CUDA driver is always there (answering "no device" unless `FAKE_CUDA_SCENARIO` says
//! otherwise), so a machine's own driver never benchmarks real cards beside a fake NVML.
//!
//! Without gcc these tests say so and skip; under `CI` they fail, as gcc is on the CI machine.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use sha2::{Digest as _, Sha256};

/// One fake library: its C source, relative to the crate, and the file names it is loaded by.
struct Fake {
    source: &'static str,
    soname: &'static str,
    /// Other names that lead to it: cudarc tries `libcuda.so` before `libcuda.so.1`, and a
    /// name found here comes before the machine's own.
    aliases: &'static [&'static str],
    built: OnceLock<Option<PathBuf>>,
}

static NVML: Fake = Fake {
    source: "tests/fake_nvml/fake_nvml.c",
    soname: "libnvidia-ml.so.1",
    aliases: &[],
    built: OnceLock::new(),
};

static CUDA: Fake = Fake {
    source: "tests/fake_cuda/fake_cuda.c",
    soname: "libcuda.so.1",
    aliases: &["libcuda.so", "libcublas.so"],
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
            crate::peer::missing(&format!("gcc, to build {} ({e}),", fake.source));
            return None;
        }
    };
    assert!(
        out.status.success(),
        "gcc {}: {}",
        fake.source,
        String::from_utf8_lossy(&out.stderr)
    );
    for alias in fake.aliases {
        // Another test binary may have made it already: either way it names the library.
        let _ = std::os::unix::fs::symlink(fake.soname, dir.join(alias));
    }
    std::fs::rename(&partial, &lib).unwrap();
    Some(dir)
}

/// `gpumeter` as the fake NVML answers it in `scenario` ("" for its default, one healthy
/// A100) and the fake CUDA driver as `FAKE_CUDA_SCENARIO` names (by default, no device), with
/// a data directory of its own; `None` where the fakes cannot be built.
pub(crate) fn gpumeter(scenario: &str, data: &Path) -> Option<Command> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    command
        .env("LD_LIBRARY_PATH", library_path()?)
        .env("FAKE_NVML_SCENARIO", scenario)
        .env("GPUMETER_DATA_DIR", data)
        .env("NO_COLOR", "1");
    Some(command)
}

fn library_path() -> Option<std::ffi::OsString> {
    Some(std::env::join_paths([NVML.dir()?, CUDA.dir()?]).unwrap())
}

/// The shell words that set the same environment, for a `gpumeter` that tmux starts.
pub(crate) fn shell_env(scenario: &str) -> Option<String> {
    Some(format!(
        "LD_LIBRARY_PATH='{}' FAKE_NVML_SCENARIO='{scenario}'",
        library_path()?.display()
    ))
}
