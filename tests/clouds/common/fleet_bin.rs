//! `gpumeter fleet --json` over several loopback accounts, as a team lead runs it: one
//! `[[fleet]]` table per account naming no instance, each account's endpoint in its table's
//! `env`, the keys in the process environment. Shared by the test that it finds everything
//! and the benchmark that times it.

use std::path::PathBuf;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::{alibaba_peer, tencent_peer};

/// One account: its label and the peer that answers for it.
pub(crate) enum Account<'a> {
    Alibaba(&'static str, &'a alibaba_peer::Peer),
    Tencent(&'static str, &'a tencent_peer::Peer),
    /// An AWS account answered by moto at this URL.
    Aws(&'static str, String),
    /// An Alibaba account whose endpoint answers nothing.
    Unreachable(&'static str),
}

impl Account<'_> {
    fn table(&self) -> String {
        let (provider, label, region, var, url) = match self {
            Account::Alibaba(label, peer) => (
                "alibaba",
                label,
                alibaba_peer::cloud::REGION,
                "GPUMETER_ALIBABA_ENDPOINT",
                peer.url(),
            ),
            Account::Tencent(label, peer) => (
                "tencent",
                label,
                tencent_peer::REGION,
                "GPUMETER_TENCENT_ENDPOINT",
                peer.url(),
            ),
            Account::Aws(label, url) => {
                ("aws", label, "us-east-1", "AWS_ENDPOINT_URL", url.clone())
            }
            // Port 9 (discard) on loopback: nothing listens there.
            Account::Unreachable(label) => (
                "alibaba",
                label,
                alibaba_peer::cloud::REGION,
                "GPUMETER_ALIBABA_ENDPOINT",
                "http://127.0.0.1:9".to_string(),
            ),
        };
        format!(
            "[[fleet]]\nprovider = \"{provider}\"\naccount = \"{label}\"\nregion = \"{region}\"\n\
             env = {{ {var} = \"{url}\" }}\n\n"
        )
    }
}

/// A run: what it printed, its rows, how long it took and the most memory it held.
pub(crate) struct FleetRun {
    pub output: Output,
    pub rows: Vec<Value>,
    pub wall: Duration,
    /// The process's peak resident set (VmHWM), in KiB, read while it ran.
    pub peak_kib: u64,
}

pub(crate) struct FleetBin {
    dir: PathBuf,
}

impl FleetBin {
    /// A data directory and a config with one table per account.
    pub(crate) fn new(name: &str, accounts: &[Account<'_>]) -> FleetBin {
        let config: String = accounts.iter().map(Account::table).collect();
        FleetBin::with_config(name, &config)
    }

    /// A data directory and this config.
    pub(crate) fn with_config(name: &str, config: &str) -> FleetBin {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-fleet-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), config).unwrap();
        FleetBin { dir }
    }

    /// `gpumeter fleet --json` with `more` flags, timed, its peak memory watched.
    pub(crate) fn run(&self, more: &[&str]) -> FleetRun {
        let started = Instant::now();
        let child = crate::common::gpumeter()
            .args(["fleet", "--json"])
            .args(more)
            .arg("--config")
            .arg(self.dir.join("config.toml"))
            .env("GPUMETER_DATA_DIR", &self.dir)
            .env("ALIBABA_CLOUD_ACCESS_KEY_ID", alibaba_peer::KEY_ID)
            .env("ALIBABA_CLOUD_ACCESS_KEY_SECRET", alibaba_peer::SECRET)
            .env("TENCENTCLOUD_SECRET_ID", tencent_peer::KEY_ID)
            .env("TENCENTCLOUD_SECRET_KEY", tencent_peer::SECRET)
            .env("AWS_ACCESS_KEY_ID", "AKIDMOTOTEST")
            .env("AWS_SECRET_ACCESS_KEY", crate::aws_moto::SECRET)
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .env_remove("AWS_PROFILE")
            .env_remove("AWS_SESSION_TOKEN")
            .env_remove("ALIBABA_CLOUD_SECURITY_TOKEN")
            .env_remove("TENCENTCLOUD_SESSION_TOKEN")
            .env_remove("ALIBABA_CLOUD_REGION_ID")
            .env_remove("TENCENTCLOUD_REGION")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let status = format!("/proc/{}/status", child.id());
        // Read the peak while it runs: the kernel forgets it when the process is reaped.
        let watcher = std::thread::spawn(move || {
            let mut peak = 0;
            while let Ok(text) = std::fs::read_to_string(&status) {
                if text.contains("State:\tZ") {
                    break;
                }
                if let Some(kib) = text
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                {
                    peak = kib;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        });
        let output = child.wait_with_output().unwrap();
        let wall = started.elapsed();
        let peak_kib = watcher.join().unwrap();
        let text = crate::common::cn_bin::text(&output);
        assert!(!text.contains(alibaba_peer::SECRET), "the secret leaked");
        assert!(!text.contains(tencent_peer::SECRET), "the secret leaked");
        assert!(!text.contains(crate::aws_moto::SECRET), "the secret leaked");
        let rows: Vec<Value> = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("fleet --json {more:?}: {e}: {text}"));
        FleetRun {
            output,
            rows,
            wall,
            peak_kib,
        }
    }
}

impl Drop for FleetBin {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The instance ids of `account`'s rows, sorted.
pub(crate) fn instance_ids(rows: &[Value], account: &str) -> Vec<String> {
    let mut ids: Vec<String> = rows
        .iter()
        .filter(|r| r["account"] == account)
        .filter_map(|r| r["instance_id"].as_str())
        .filter(|id| !id.is_empty())
        .map(str::to_string)
        .collect();
    ids.sort();
    ids
}

/// The ids of what `account`'s row of orphans lists, sorted.
pub(crate) fn orphan_ids(rows: &[Value], account: &str) -> Vec<String> {
    let mut ids: Vec<String> = rows
        .iter()
        .filter(|r| r["account"] == account && r["instance_id"] == "" && r["error"].is_null())
        .flat_map(|r| r["leftovers"].as_array().cloned().unwrap_or_default())
        .filter_map(|l| l["id"].as_str().map(str::to_string))
        .collect();
    ids.sort();
    ids
}
