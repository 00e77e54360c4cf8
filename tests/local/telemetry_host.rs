//! The host reader over a fixture /proc (exact figures) and over the real one (shape only).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use gpumeter::telemetry::{HostConfig, HostReader, HostSource, Metric, Unavailable};

struct FakeProc {
    root: PathBuf,
}

impl FakeProc {
    fn new(name: &str) -> Self {
        let root =
            std::env::temp_dir().join(format!("gpumeter-proc-{name}-{}", std::process::id()));
        std::fs::create_dir_all(root.join("net")).unwrap();
        std::fs::create_dir_all(root.join("self")).unwrap();
        std::fs::write(root.join("loadavg"), "1.50 0.75 0.25 2/300 999\n").unwrap();
        std::fs::write(
            root.join("meminfo"),
            "MemTotal: 8388608 kB\nMemFree: 1 kB\nMemAvailable: 4194304 kB\n",
        )
        .unwrap();
        let disk = root.display().to_string().replace(' ', "\\040");
        std::fs::write(
            root.join("self/mounts"),
            format!(
                "proc /proc proc rw 0 0\ntmpfs /dev/shm tmpfs rw 0 0\n/dev/fake {disk} ext4 rw 0 0\n\
                 /dev/fake {disk}/again ext4 rw 0 0\noverlay /var/lib/docker/overlay2/x/merged overlay rw 0 0\n"
            ),
        )
        .unwrap();
        FakeProc { root }
    }

    fn set(&self, stat: &str, net: &[(&str, u64, u64)]) {
        std::fs::write(self.root.join("stat"), stat).unwrap();
        let mut text =
            String::from("Inter-| Receive | Transmit\n face |bytes packets|bytes packets\n");
        for (name, rx, tx) in net {
            let _ = writeln!(text, "{name:>6}: {rx} 1 0 0 0 0 0 0 {tx} 1 0 0 0 0 0 0");
        }
        std::fs::write(self.root.join("net/dev"), text).unwrap();
    }

    fn reader(&self, metered: Option<Vec<String>>) -> HostReader {
        HostReader::new(HostConfig {
            metered_interfaces: metered,
            proc_root: self.root.clone(),
            traffic: None,
        })
    }
}

impl Drop for FakeProc {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

const STAT_0: &str = "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\ncpu1 50 0 50 400 0 0 0 0 0 0\nintr 1\n";
// 1000 more jiffies: core 0 fully busy (500), core 1 busy 100 of 500.
const STAT_1: &str = "cpu  500 0 300 1200 0 0 0 0 0 0\ncpu0 350 0 250 400 0 0 0 0 0 0\ncpu1 150 0 50 800 0 0 0 0 0 0\nintr 1\n";

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[test]
fn cpu_is_pending_first_then_a_share_of_the_elapsed_jiffies() {
    let p = FakeProc::new("cpu");
    p.set(STAT_0, &[]);
    let mut r = p.reader(None);
    let first = r.read(secs(0));
    assert_eq!(first.cpu_pct, Metric::Unavailable(Unavailable::Pending));
    p.set(STAT_1, &[]);
    let second = r.read(secs(1));
    assert_eq!(second.cpu_pct, Metric::Value(60.0));
    assert_eq!(second.cpu_per_core_pct, Metric::Value(vec![100.0, 20.0]));
    let load = second.load_avg.get().unwrap();
    assert!((load.one - 1.5).abs() < 1e-9);
    let mem = second.mem.get().unwrap();
    assert_eq!((mem.total_mib, mem.available_mib), (8192, 4096));
}

#[test]
fn network_rates_come_from_the_given_times_and_skip_bridges() {
    let p = FakeProc::new("net");
    let before = [
        ("lo", 5, 5),
        ("docker0", 9, 9),
        ("veth12ab", 1, 1),
        ("eth0", 1_000, 10_000),
        ("ens5", 0, 0),
    ];
    p.set(STAT_0, &before);
    let mut r = p.reader(None);
    let first = r.read(secs(10));
    let names: Vec<&str> = first.net.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["eth0", "ens5"]);
    assert_eq!(
        first.tx_bytes_per_s(),
        Metric::Unavailable(Unavailable::Pending)
    );
    p.set(STAT_1, &[("eth0", 3_000, 30_000), ("ens5", 0, 4_000)]);
    let second = r.read(secs(12));
    assert_eq!(second.net[0].tx_bytes_per_s, Metric::Value(10_000.0));
    assert_eq!(second.net[0].rx_bytes_per_s, Metric::Value(1_000.0));
    assert_eq!(second.tx_bytes_per_s(), Metric::Value(12_000.0));
    assert_eq!(second.tx_bytes_total(), 34_000);
    // A counter that goes back (interface re-created) gives no rate rather than a huge one.
    p.set(STAT_1, &[("eth0", 10, 10), ("ens5", 0, 4_000)]);
    let third = r.read(secs(13));
    assert_eq!(
        third.net[0].tx_bytes_per_s,
        Metric::Unavailable(Unavailable::Pending)
    );
}

#[test]
fn metered_interfaces_can_be_named() {
    let p = FakeProc::new("metered");
    p.set(STAT_0, &[("eth0", 1, 1), ("wg0", 2, 2)]);
    let only_wg = p.reader(Some(vec!["wg0".into()])).read(secs(0));
    let names: Vec<&str> = only_wg.net.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["wg0"]);
}

#[test]
fn disks_are_real_filesystems_once_each() {
    let p = FakeProc::new("disks");
    p.set(STAT_0, &[]);
    let disks = p.reader(None).read(secs(0)).disks;
    assert_eq!(disks.len(), 1, "{disks:?}");
    assert_eq!(Path::new(&disks[0].mount), p.root);
    assert!(disks[0].total_bytes > 0 && disks[0].used_bytes <= disks[0].total_bytes);
}

#[test]
fn a_missing_proc_gives_failed_readings_not_zeros() {
    let mut r = HostReader::new(HostConfig {
        metered_interfaces: None,
        proc_root: PathBuf::from("/nonexistent/proc"),
        traffic: None,
    });
    let s = r.read(secs(0));
    assert_eq!(
        s.cpu_pct,
        Metric::Unavailable(Unavailable::Failed("not_found"))
    );
    assert_eq!(s.mem.reason(), Some(Unavailable::Failed("not_found")));
    assert!(s.net.is_empty() && s.disks.is_empty());
}

#[test]
#[cfg(target_os = "linux")]
fn the_real_proc_reads_on_linux() {
    assert!(
        Path::new("/proc/stat").exists(),
        "Linux without /proc: the host reader has nothing to read"
    );
    let mut r = HostReader::new(HostConfig::default());
    let first = r.read(secs(0));
    assert!(first.mem.is_value() && first.load_avg.is_value());
    assert!(
        !first.disks.is_empty(),
        "no disk found in /proc/self/mounts"
    );
    assert!(first.net.iter().all(|n| n.name != "lo"));
}
