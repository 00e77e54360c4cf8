//! moto, the EC2 peer: a `moto_server` from scripts/test's `.venv` on a free loopback port. Without
//! it a test is skipped, except under CI, where it fails.

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A moto server on a free loopback port, stopped when dropped.
pub struct Moto {
    child: Child,
    pub url: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn moto() -> Option<Moto> {
    moto_with(&[])
}

/// A moto server with `vars` in its environment.
pub fn moto_with(vars: &[(&str, &str)]) -> Option<Moto> {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/moto_server");
    if !bin.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "moto is not installed at .venv/bin/moto_server: run scripts/test, which installs it"
        );
        eprintln!("skipping: moto is not installed (scripts/test installs it into .venv)");
        return None;
    }
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(bin)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .env("MOTO_EC2_LOAD_DEFAULT_AMIS", "false")
        .envs(vars.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("moto_server starts");
    let moto = Moto {
        child,
        url: format!("http://127.0.0.1:{port}"),
    };
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "moto did not answer"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(moto)
}
