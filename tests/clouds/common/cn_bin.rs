//! The `gpumeter` binary pointed at the Alibaba or Tencent peer, as a user runs it: the peer's
//! keys and region in the environment, `--provider` and `--instance` on the command line, a
//! data directory and an empty config of its own. Every run checks that the secret it was
//! given never reaches its output.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::{alibaba_peer, tencent_peer};

pub(crate) struct CnBin {
    dir: PathBuf,
    provider: &'static str,
    instance: &'static str,
    /// Given as `--region` too, unless the command sweeps every region (they conflict).
    region: &'static str,
    env: Vec<(&'static str, String)>,
    secret: &'static str,
}

impl CnBin {
    fn new(
        name: &str,
        (provider, instance, region): (&'static str, &'static str, &'static str),
        env: Vec<(&'static str, String)>,
        secret: &'static str,
    ) -> CnBin {
        let dir = std::env::temp_dir().join(format!(
            "gpumeter-cn-{provider}-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), "").unwrap();
        CnBin {
            dir,
            provider,
            instance,
            region,
            env,
            secret,
        }
    }

    pub(crate) fn alibaba(name: &str, peer: &alibaba_peer::Peer) -> CnBin {
        let region = alibaba_peer::cloud::REGION;
        CnBin::new(
            name,
            ("alibaba", alibaba_peer::INSTANCE, region),
            vec![
                ("ALIBABA_CLOUD_ACCESS_KEY_ID", alibaba_peer::KEY_ID.into()),
                (
                    "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
                    alibaba_peer::SECRET.into(),
                ),
                ("ALIBABA_CLOUD_REGION_ID", region.into()),
                ("GPUMETER_ALIBABA_ENDPOINT", peer.url()),
                ("GPUMETER_ALIBABA_METADATA", peer.url()),
            ],
            alibaba_peer::SECRET,
        )
    }

    pub(crate) fn tencent(name: &str, peer: &tencent_peer::Peer) -> CnBin {
        CnBin::new(
            name,
            ("tencent", tencent_peer::INSTANCE, tencent_peer::REGION),
            vec![
                ("TENCENTCLOUD_SECRET_ID", tencent_peer::KEY_ID.into()),
                ("TENCENTCLOUD_SECRET_KEY", tencent_peer::SECRET.into()),
                ("TENCENTCLOUD_REGION", tencent_peer::REGION.into()),
                ("GPUMETER_TENCENT_ENDPOINT", peer.url()),
                ("GPUMETER_TENCENT_METADATA", peer.url()),
            ],
            tencent_peer::SECRET,
        )
    }

    /// The data directory each run is given.
    pub(crate) fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    pub(crate) fn run(&self, args: &[&str]) -> Output {
        let mut cmd = crate::common::gpumeter();
        cmd.args(args)
            .args(["--provider", self.provider, "--instance", self.instance]);
        if !args.contains(&"--all-regions") {
            cmd.args(["--region", self.region]);
        }
        self.finish(cmd)
    }

    /// Like [`CnBin::run`], the provider, instance and region given before the command, as a
    /// command that takes no `--instance` of its own (`status`) needs them.
    pub(crate) fn run_flags_first(&self, args: &[&str]) -> Output {
        let mut cmd = crate::common::gpumeter();
        cmd.args(["--provider", self.provider, "--instance", self.instance])
            .args(["--region", self.region])
            .args(args);
        self.finish(cmd)
    }

    fn finish(&self, mut cmd: Command) -> Output {
        let out = cmd
            .arg("--config")
            .arg(self.dir.join("config.toml"))
            .env("GPUMETER_DATA_DIR", &self.dir)
            .env_remove("ALIBABA_CLOUD_SECURITY_TOKEN")
            .env_remove("TENCENTCLOUD_SESSION_TOKEN")
            .envs(self.env.iter().map(|(k, v)| (*k, v.as_str())))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!text(&out).contains(self.secret), "the secret leaked");
        out
    }

    /// `sweep --json` with `more` flags: its exit status and document.
    pub(crate) fn sweep_doc(&self, more: &[&str]) -> (Option<i32>, Value) {
        let args = [&["sweep", "--json"], more].concat();
        let out = self.run(&args);
        let doc: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{}: {e}: {}", args.join(" "), text(&out)));
        (out.status.code(), doc)
    }

    /// `sweep --json`: its exit status and items.
    pub(crate) fn sweep(&self) -> (Option<i32>, Vec<Value>) {
        let (code, doc) = self.sweep_doc(&[]);
        (code, doc["items"].as_array().cloned().unwrap_or_default())
    }
}

impl Drop for CnBin {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What a run printed, stdout then stderr.
pub(crate) fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
