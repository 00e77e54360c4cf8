//! A real Prometheus server on loopback scraping several `gpumeter serve --demo` processes,
//! each with its own data directory, demo cloud and instance id, all killed when the [`Lab`]
//! is dropped (on every path, a failed assertion included).

pub mod dashboard;
pub mod http;
pub mod reference;

use std::cell::RefCell;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use gpumeter::provider::demo::{DemoCloud, DemoState};
use gpumeter::provider::{Action, Provider as _};
use jiff::{SignedDuration, Timestamp};

use self::http::Api;

/// The longest any wait in these tests lasts before it fails.
pub const WAIT: Duration = Duration::from_secs(60);

/// One `gpumeter serve --demo` to start: what its demo cloud holds and how it runs.
pub struct Spec {
    pub instance_id: &'static str,
    /// The scrape target's `account` label (gpumeter's series carry none of their own).
    pub account: &'static str,
    pub scenario: &'static str,
    /// A release deadline this far in the past, held by the demo cloud.
    pub deadline_ago: Option<SignedDuration>,
    /// The instance is released before serve starts: only its leftovers bill.
    pub released: bool,
}

/// A started `gpumeter serve` and where it answers.
pub struct Member {
    pub spec: Spec,
    pub addr: String,
}

/// Every process the test started, killed and reaped on drop.
#[derive(Default)]
struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The running Prometheus and the serves it scrapes.
pub struct Lab {
    pub members: Vec<Member>,
    pub prometheus: Api,
    dir: tempfile::TempDir,
    children: RefCell<Children>,
}

/// Whether `prometheus` can be run; `false` (said as every missing peer is) when it is missing,
/// in which case the test skips.
pub fn prometheus_available() -> bool {
    match Command::new("prometheus").arg("--version").output() {
        Ok(out) if out.status.success() => true,
        Ok(out) => panic!("prometheus --version failed: {}", out.status),
        Err(e) => {
            crate::peer::missing(&format!("prometheus ({e})"));
            false
        }
    }
}

impl Lab {
    /// Starts a serve per spec, then Prometheus scraping them every second with `rules` (the
    /// text of a rules file) loaded, evaluated every second.
    pub fn start(specs: Vec<Spec>, rules: &str) -> Lab {
        let dir = tempfile::tempdir().unwrap();
        let mut children = Children::default();
        let mut members = Vec::new();
        for spec in specs {
            let data = dir.path().join(spec.instance_id);
            std::fs::create_dir(&data).unwrap();
            prepare_cloud(&data, &spec);
            let log = data.join("serve.log");
            let child = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
                .env("NO_COLOR", "1")
                .args(["--demo", "--gpus", "2", "--scenario", spec.scenario])
                .arg("--data-dir")
                .arg(&data)
                .arg("--config")
                .arg(empty_config(&data))
                .args(["serve", "--listen", "127.0.0.1:0"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(&log).unwrap())
                .spawn()
                .unwrap();
            children.0.push(child);
            let addr = wait_for_line(&log, "serving Prometheus metrics on http://")
                .split_once("http://")
                .and_then(|(_, rest)| rest.split('/').next())
                .map(str::to_string)
                .unwrap();
            members.push(Member { spec, addr });
        }
        let port = free_port();
        std::fs::write(dir.path().join("rules.yml"), rules).unwrap();
        std::fs::write(dir.path().join("prometheus.yml"), config(&members)).unwrap();
        let log = dir.path().join("prometheus.log");
        let child = Command::new("prometheus")
            .arg(format!(
                "--config.file={}",
                dir.path().join("prometheus.yml").display()
            ))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.path().join("tsdb").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        children.0.push(child);
        let lab = Lab {
            members,
            prometheus: Api {
                addr: format!("127.0.0.1:{port}"),
            },
            dir,
            children: RefCell::new(children),
        };
        lab.wait("Prometheus to be ready", || {
            let (status, body) = http::get(&lab.prometheus.addr, "/-/ready")?;
            (status == 200).then_some(()).ok_or(body)
        });
        lab
    }

    /// Polls `check` every 250 ms until it gives a value, failing after [`WAIT`] with its last
    /// complaint and the Prometheus log's tail; also fails at once if a child has exited.
    pub fn wait<T>(&self, what: &str, mut check: impl FnMut() -> Result<T, String>) -> T {
        let until = Instant::now() + WAIT;
        loop {
            let last = match check() {
                Ok(value) => return value,
                Err(last) => last,
            };
            let exited = self.exited();
            assert!(
                exited.is_none() && Instant::now() < until,
                "waited {WAIT:?} for {what}: {}\nlast: {last}\n{}",
                exited.unwrap_or_else(|| "every process still runs".into()),
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// Which started process has exited, if one has.
    fn exited(&self) -> Option<String> {
        self.children
            .borrow_mut()
            .0
            .iter_mut()
            .find_map(|c| match c.try_wait() {
                Ok(Some(status)) => Some(format!("process {} has exited ({status})", c.id())),
                Ok(None) | Err(_) => None,
            })
    }

    /// The tail of every log, for a failure message.
    pub fn logs(&self) -> String {
        let mut out = String::new();
        let mut logs: Vec<PathBuf> = vec![self.dir.path().join("prometheus.log")];
        logs.extend(
            self.members
                .iter()
                .map(|m| self.dir.path().join(m.spec.instance_id).join("serve.log")),
        );
        for log in logs {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(15).collect();
            let name = log.file_name().unwrap_or_default().to_string_lossy();
            let _ = writeln!(out, "--- {name}:");
            for line in tail.iter().rev() {
                let _ = writeln!(out, "{line}");
            }
        }
        out
    }
}

/// Writes the demo cloud's state file before serve reads it: the spec's instance id, its
/// deadline held by the cloud, released if asked (through the demo cloud's own actions).
fn prepare_cloud(data: &Path, spec: &Spec) {
    let mut state = DemoState::fresh(Timestamp::now());
    state.instance.id = spec.instance_id.to_string();
    let cloud = DemoCloud::new(data, Arc::new(Timestamp::now)).with_delay(Duration::ZERO);
    std::fs::write(cloud.path(), serde_json::to_string(&state).unwrap()).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let mut actions = Vec::new();
    if let Some(ago) = spec.deadline_ago {
        actions.push(Action::SetDeadline {
            at: Some(Timestamp::now() - ago),
        });
    }
    if spec.released {
        actions.push(Action::Release);
    }
    for action in actions {
        runtime.block_on(cloud.perform(&action)).unwrap();
    }
}

/// An empty config file, so that no user config on this machine changes what serve does.
fn empty_config(data: &Path) -> PathBuf {
    let path = data.join("config.toml");
    std::fs::write(&path, "").unwrap();
    path
}

/// A loopback port nothing listens on now.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The first line of `log` containing `needle`, waiting for it up to [`WAIT`].
fn wait_for_line(log: &Path, needle: &str) -> String {
    let until = Instant::now() + WAIT;
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if let Some(line) = text.lines().find(|l| l.contains(needle)) {
            return line.to_string();
        }
        assert!(
            Instant::now() < until,
            "waited {WAIT:?} for {needle:?} in {}:\n{text}",
            log.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The Prometheus config: one job scraping every member each second, its `account` as a
/// target label, the rules file beside it evaluated each second.
fn config(members: &[Member]) -> String {
    let mut out = String::from(
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n\
         rule_files:\n  - rules.yml\nscrape_configs:\n  - job_name: gpumeter\n    static_configs:\n",
    );
    for m in members {
        let _ = write!(
            out,
            "      - targets: [\"{}\"]\n        labels:\n          account: {}\n",
            m.addr, m.spec.account
        );
    }
    out
}
