//! moto, the EC2 peer: moto's server from scripts/test's `.venv`, started through
//! `tests/clouds/peers/moto_checked.py`, which checks every Query request against botocore's
//! model of the service and answers listings in pages, on a free loopback port. Without moto a
//! test is skipped, except under CI, where it fails.
//!
//! A request the model does not allow is a violation: dropping a [`Moto`] that recorded one fails
//! the test, unless the test took them with [`Moto::take_violations`].

use std::collections::BTreeMap;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A moto server on a free loopback port, stopped when dropped.
pub struct Moto {
    child: Child,
    pub url: String,
    dir: PathBuf,
}

impl Moto {
    fn violations_file(&self) -> PathBuf {
        self.dir.join("violations")
    }

    /// Each request moto's launcher refused for breaking the service's model, one line each.
    pub fn violations(&self) -> Vec<String> {
        std::fs::read_to_string(self.violations_file())
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The violations so far, forgotten: for a test that makes them on purpose.
    pub fn take_violations(&self) -> Vec<String> {
        let seen = self.violations();
        let _ = std::fs::remove_file(self.violations_file());
        seen
    }

    /// Every request moto was sent, `ec2 Action k=v ...` in the order sent.
    pub fn calls(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.join("calls"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// For each paged action, the most pages one listing took (its last page's number).
    pub fn pages(&self) -> BTreeMap<String, u32> {
        let text = std::fs::read_to_string(self.dir.join("pages")).unwrap_or_default();
        let mut most = BTreeMap::new();
        for (action, page) in text.lines().filter_map(|l| l.split_once(' ')) {
            let page: u32 = page.parse().expect("the launcher writes page numbers");
            let seen = most.entry(action.to_string()).or_insert(0);
            *seen = page.max(*seen);
        }
        most
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let violations = self.violations();
        let _ = std::fs::remove_dir_all(&self.dir);
        if violations.is_empty() {
            return;
        }
        let report = format!("requests that AWS would refuse:\n{}", violations.join("\n"));
        if std::thread::panicking() {
            eprintln!("{report}");
        } else {
            panic!("{report}");
        }
    }
}

pub fn moto() -> Option<Moto> {
    moto_with(&[])
}

/// A moto server with `vars` in its environment.
pub fn moto_with(vars: &[(&str, &str)]) -> Option<Moto> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv/bin/python");
    if !root.join(".venv/bin/moto_server").exists() {
        crate::peer::missing("moto in .venv");
        return None;
    }
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = std::env::temp_dir().join(format!("gpumeter-moto-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let child = Command::new(python)
        .arg(root.join("tests/clouds/peers/moto_checked.py"))
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .env("MOTO_EC2_LOAD_DEFAULT_AMIS", "false")
        .env("MOTO_CHECKED_VIOLATIONS", dir.join("violations"))
        .env("MOTO_CHECKED_PAGES", dir.join("pages"))
        .env("MOTO_CHECKED_CALLS", dir.join("calls"))
        .envs(vars.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("moto's launcher starts");
    let moto = Moto {
        child,
        url: format!("http://127.0.0.1:{port}"),
        dir,
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

/// Every page of a listing asked of moto directly, the pages' bodies joined: the launcher answers
/// listings a page at a time, as AWS may.
pub async fn all_pages(
    ec2: &gpumeter::provider::aws::query::Ec2,
    action: &str,
    params: &[(&str, &str)],
) -> String {
    use gpumeter::provider::http::Repeat;
    let first: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    let mut asked = first.clone();
    let mut pages = String::new();
    for _ in 0..100 {
        let body = ec2
            .call(action, &asked, Repeat::Once)
            .await
            .unwrap_or_else(|e| panic!("{action}: {e}"));
        pages.push_str(&body);
        let Some(token) = body
            .split_once("<nextToken>")
            .and_then(|(_, rest)| rest.split_once("</nextToken>"))
            .map(|(token, _)| token.to_string())
        else {
            return pages;
        };
        asked = first.clone();
        asked.push(("NextToken".into(), token));
    }
    panic!("{action}: more than 100 pages");
}
