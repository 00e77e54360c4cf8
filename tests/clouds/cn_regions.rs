//! `gpumeter sweep --all-regions` on Alibaba Cloud and Tencent Cloud, through the binary against
//! their peers: the regions come from DescribeRegions (asked once), each is swept by an adapter
//! built for it, the leftovers are listed with their region, and a region whose calls are
//! refused is listed as not checked, with the provider's code, and the exit is 3.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::{alibaba_peer, tencent_peer};

/// The binary pointed at one provider's peer, with a data directory of its own and no
/// `--region`: the region comes from the environment, as `--all-regions` requires.
struct Bin {
    dir: PathBuf,
    provider: &'static str,
    instance: &'static str,
    env: Vec<(&'static str, String)>,
    secret: &'static str,
}

impl Bin {
    fn new(
        name: &str,
        (provider, instance): (&'static str, &'static str),
        env: Vec<(&'static str, String)>,
        secret: &'static str,
    ) -> Bin {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-cn-regions-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), "").unwrap();
        Bin {
            dir,
            provider,
            instance,
            env,
            secret,
        }
    }

    fn alibaba(name: &str, peer: &alibaba_peer::Peer) -> Bin {
        Bin::new(
            name,
            ("alibaba", alibaba_peer::INSTANCE),
            vec![
                ("ALIBABA_CLOUD_ACCESS_KEY_ID", alibaba_peer::KEY_ID.into()),
                (
                    "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
                    alibaba_peer::SECRET.into(),
                ),
                (
                    "ALIBABA_CLOUD_REGION_ID",
                    alibaba_peer::cloud::REGION.into(),
                ),
                ("GPUMETER_ALIBABA_ENDPOINT", peer.url()),
                ("GPUMETER_ALIBABA_METADATA", peer.url()),
            ],
            alibaba_peer::SECRET,
        )
    }

    fn tencent(name: &str, peer: &tencent_peer::Peer) -> Bin {
        Bin::new(
            name,
            ("tencent", tencent_peer::INSTANCE),
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

    fn run(&self, args: &[&str]) -> Output {
        let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
            .args(args)
            .args(["--provider", self.provider, "--instance", self.instance])
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

    /// `sweep --all-regions --json`: its exit status and document.
    fn sweep_all(&self) -> (Option<i32>, Value) {
        let out = self.run(&["sweep", "--all-regions", "--json"]);
        let doc: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("sweep --all-regions --json: {e}: {}", text(&out)));
        (out.status.code(), doc)
    }
}

impl Drop for Bin {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Each item's id and region.
fn rows(doc: &Value) -> Vec<(String, String)> {
    doc["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items: {doc}"))
        .iter()
        .map(|i| {
            (
                i["id"].as_str().unwrap_or_default().to_string(),
                i["region"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// The regions swept, in the document's order.
fn swept(doc: &Value) -> Vec<String> {
    let mut out: Vec<String> = doc["regions"]
        .as_array()
        .unwrap_or_else(|| panic!("not swept by region: {doc}"))
        .iter()
        .map(|r| r["region"].as_str().unwrap_or_default().to_string())
        .collect();
    out.sort();
    out
}

fn sorted(regions: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = regions.iter().map(ToString::to_string).collect();
    out.sort();
    out
}

/// `(region, why)` of each region not checked.
fn not_checked(doc: &Value) -> Vec<(String, String)> {
    doc["not_checked"]
        .as_array()
        .unwrap_or_else(|| panic!("no not_checked: {doc}"))
        .iter()
        .map(|r| {
            (
                r["region"].as_str().unwrap_or_default().to_string(),
                r["why"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn alibaba_every_region_is_swept_and_a_refused_one_is_not_checked() {
    use alibaba_peer::cloud::{IMAGE, REGION, REGIONS, SNAPSHOTS};
    let peer = alibaba_peer::Peer::start();
    let bin = Bin::alibaba("alibaba", &peer);
    let (code, doc) = bin.sweep_all();
    assert_eq!(code, Some(3), "the snapshots and the image bill: {doc:#}");
    let mut want: Vec<(String, String)> = SNAPSHOTS
        .iter()
        .chain([&IMAGE])
        .map(|id| ((*id).to_string(), REGION.to_string()))
        .collect();
    want.sort();
    let mut got = rows(&doc);
    got.sort();
    assert_eq!(got, want, "the leftovers, each with its region: {doc:#}");
    assert_eq!(swept(&doc), sorted(&REGIONS), "{doc:#}");
    assert_eq!(not_checked(&doc), [], "{doc:#}");
    assert_eq!(peer.count("DescribeRegions"), 1, "the regions asked once");
    // Each region's own adapter asked in its own region.
    let asked: Vec<String> = peer
        .calls()
        .iter()
        .filter(|c| c.action == "DescribeSnapshots")
        .filter_map(|c| c.params.get("RegionId").cloned())
        .collect();
    for region in REGIONS {
        assert!(asked.iter().any(|r| r == region), "{region}: {asked:?}");
    }

    peer.cloud(|c| c.refused_region = Some(REGIONS[2].into()));
    let (code, doc) = bin.sweep_all();
    assert_eq!(code, Some(3), "{doc:#}");
    let refused = not_checked(&doc);
    assert_eq!(refused.len(), 1, "{doc:#}");
    assert_eq!(refused[0].0, REGIONS[2], "{doc:#}");
    assert!(refused[0].1.contains("Forbidden.RAM"), "{refused:?}");
    let mut got = rows(&doc);
    got.sort();
    assert_eq!(got, want, "the other regions still swept: {doc:#}");
}

#[test]
fn tencent_every_region_is_swept_and_a_refused_one_is_not_checked() {
    use tencent_peer::{REGION, REGIONS};
    let peer = tencent_peer::Peer::start();
    peer.cloud(|c| {
        c.snapshots.push(tencent_peer::cloud::Snapshot {
            id: "snap-keep".into(),
            disk: "disk-keep".into(),
            size: 500,
        });
    });
    let bin = Bin::tencent("tencent", &peer);
    let (code, doc) = bin.sweep_all();
    assert_eq!(code, Some(3), "the snapshot bills: {doc:#}");
    assert_eq!(
        rows(&doc),
        [("snap-keep".to_string(), REGION.to_string())],
        "{doc:#}"
    );
    assert_eq!(swept(&doc), sorted(&REGIONS), "{doc:#}");
    assert_eq!(not_checked(&doc), [], "{doc:#}");
    assert_eq!(peer.count("DescribeRegions"), 1, "the regions asked once");

    peer.cloud(|c| c.refused_region = Some(REGIONS[1].into()));
    let (code, doc) = bin.sweep_all();
    assert_eq!(code, Some(3), "{doc:#}");
    let refused = not_checked(&doc);
    assert_eq!(refused.len(), 1, "{doc:#}");
    assert_eq!(refused[0].0, REGIONS[1], "{doc:#}");
    assert!(refused[0].1.contains("UnsupportedRegion"), "{refused:?}");
    assert_eq!(
        rows(&doc).len(),
        1,
        "the other regions still swept: {doc:#}"
    );
}
