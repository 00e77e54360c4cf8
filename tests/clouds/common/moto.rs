//! moto, the EC2 peer: moto's server from scripts/test's `.venv`, started through
//! `tests/clouds/peers/moto_checked.py`, which checks every Query request against botocore's
//! model of the service and answers listings in pages, on a free loopback port. Each server is
//! a fork of one launcher per test binary that loaded moto once ([`Zygote`]). Without moto a
//! test is skipped, except under CI, where it fails.
//!
//! A request the model does not allow is a violation: dropping a [`Moto`] that recorded one fails
//! the test, unless the test took them with [`Moto::take_violations`].

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A moto server on a free loopback port, stopped when dropped.
pub struct Moto {
    pid: u32,
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
        if let Some(zygote) = ZYGOTE.get().and_then(Option::as_ref) {
            zygote.stop(self.pid);
        }
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

/// The launcher loaded once per test binary, forking each server ([`Zygote`]); `None` without
/// moto in `.venv`.
static ZYGOTE: OnceLock<Option<Zygote>> = OnceLock::new();

/// `moto_checked.py --zygote`: moto and botocore's models are loaded once (about 1.6 s of CPU
/// a server otherwise, for a binary that starts dozens), and each server is a fork of it. It
/// exits with this process.
struct Zygote {
    socket: PathBuf,
    _process: Child,
}

impl Zygote {
    fn start() -> Option<Zygote> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        if !root.join(".venv/bin/moto_server").exists() {
            return None;
        }
        let socket =
            std::env::temp_dir().join(format!("gpumeter-moto-{}.sock", std::process::id()));
        let _ = std::fs::remove_file(&socket);
        let process = Command::new(root.join(".venv/bin/python"))
            .arg(root.join("tests/clouds/peers/moto_checked.py"))
            .arg("--zygote")
            .arg(&socket)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto's launcher starts");
        let start = Instant::now();
        while !socket.exists() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "moto's launcher did not load"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(Zygote {
            socket,
            _process: process,
        })
    }

    /// One request line, its one answer line.
    fn ask(&self, request: &serde_json::Value) -> serde_json::Value {
        let mut stream = UnixStream::connect(&self.socket).expect("moto's launcher listens");
        writeln!(stream, "{request}").unwrap();
        let mut answer = String::new();
        BufReader::new(stream).read_line(&mut answer).unwrap();
        serde_json::from_str(&answer).expect("moto's launcher answers JSON")
    }

    fn serve(&self, port: u16, env: &[(&str, String)]) -> u32 {
        let env: serde_json::Map<String, serde_json::Value> = env
            .iter()
            .map(|(k, v)| ((*k).to_string(), v.clone().into()))
            .collect();
        let request = serde_json::json!({"start": {"host": "127.0.0.1", "port": port, "env": env}});
        let answer = self.ask(&request);
        let pid = answer["pid"].as_u64().expect("a pid");
        u32::try_from(pid).expect("a pid")
    }

    /// Kills server `pid` and waits until it is gone.
    fn stop(&self, pid: u32) {
        self.ask(&serde_json::json!({ "stop": pid }));
    }
}

/// A moto server with `vars` in its environment.
pub fn moto_with(vars: &[(&str, &str)]) -> Option<Moto> {
    let Some(zygote) = ZYGOTE.get_or_init(Zygote::start) else {
        crate::peer::missing("moto in .venv");
        return None;
    };
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = std::env::temp_dir().join(format!("gpumeter-moto-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).display().to_string();
    let mut env = vec![
        ("MOTO_EC2_LOAD_DEFAULT_AMIS", "false".to_string()),
        ("MOTO_CHECKED_VIOLATIONS", file("violations")),
        ("MOTO_CHECKED_PAGES", file("pages")),
        ("MOTO_CHECKED_CALLS", file("calls")),
    ];
    env.extend(vars.iter().map(|(k, v)| (*k, (*v).to_string())));
    let pid = zygote.serve(port, &env);
    let moto = Moto {
        pid,
        url: format!("http://127.0.0.1:{port}"),
        dir,
    };
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "moto did not answer"
        );
        std::thread::sleep(Duration::from_millis(20));
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
