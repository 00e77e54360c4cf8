//! The real host: CPU, load, memory, network and disks.
//!
//! Read straight from /proc (stat, loadavg, meminfo, net/dev, self/mounts) into one reused
//! buffer, plus `statvfs` per mount through rustix (the Bytecode Alliance's safe syscall crate,
//! already in the tree through crossterm; the crate forbids `unsafe`). This was chosen over
//! sysinfo because sysinfo's refresh paths walk /proc/PID for every process, and the cockpit must
//! cost the same with 500 processes as with 5: these five files are all it needs, and reading
//! them takes microseconds. Linux only; elsewhere every metric reads as failed.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::metric::{Metric, Unavailable, u64_to_f64};
use super::procfs::{self, CpuStat};
use super::sample::{DiskUsage, HostSample, NetInterface};
use super::source::HostSource;
use gpumeter_core::traffic::{Attributor, EgressSplit};

/// Interfaces whose traffic is not billed as egress by default: loopback, container and VM
/// bridges, overlay and VPN tunnels (their traffic leaves through the real interface too, so
/// counting both would double it), and the kernel's mirror devices.
pub const EXCLUDED_INTERFACE_PREFIXES: [&str; 22] = [
    "lo",
    "docker",
    "br-",
    "veth",
    "cni",
    "flannel",
    "cali",
    "cilium",
    "vxlan",
    "virbr",
    "lxc",
    "lxd",
    "podman",
    "kube-",
    "weave",
    "tun",
    "tap",
    "wg",
    "tailscale",
    "zt",
    "ifb",
    "dummy",
];

/// The bytes the metered interfaces send between two dumps of the sockets by destination.
pub const SPLIT_AFTER_BYTES: u64 = 1 << 20;

/// Filesystems that hold no user data.
const PSEUDO_FS: [&str; 22] = [
    "proc",
    "sysfs",
    "devtmpfs",
    "devpts",
    "tmpfs",
    "cgroup",
    "cgroup2",
    "securityfs",
    "pstore",
    "debugfs",
    "tracefs",
    "configfs",
    "fusectl",
    "mqueue",
    "hugetlbfs",
    "bpf",
    "autofs",
    "binfmt_misc",
    "nsfs",
    "rpc_pipefs",
    "efivarfs",
    "squashfs",
];

/// Mount points below these are runtime plumbing (container layers, snaps), not disks.
const PLUMBING_MOUNTS: [&str; 6] = ["/proc", "/sys", "/dev", "/run", "/snap", "/var/lib/docker"];

#[derive(Debug, Clone)]
pub struct HostConfig {
    /// Interfaces to meter by exact name; `None` meters all but the excluded prefixes.
    pub metered_interfaces: Option<Vec<String>>,
    /// Where procfs is mounted; tests point this at a directory of fixture files.
    pub proc_root: PathBuf,
    /// Classes what the machine's sockets send by destination; `None` prices all egress as
    /// internet, as before it was known where the instance runs.
    pub traffic: Option<gpumeter_core::traffic::Classifier>,
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            metered_interfaces: None,
            proc_root: PathBuf::from("/proc"),
            traffic: None,
        }
    }
}

impl HostConfig {
    pub fn is_metered(&self, interface: &str) -> bool {
        match &self.metered_interfaces {
            Some(names) => names.iter().any(|n| n == interface),
            None => !EXCLUDED_INTERFACE_PREFIXES
                .iter()
                .any(|p| interface.starts_with(p)),
        }
    }
}

struct Paths {
    stat: PathBuf,
    loadavg: PathBuf,
    meminfo: PathBuf,
    net_dev: PathBuf,
    mounts: PathBuf,
}

/// Reads the host. Keeps the previous CPU and network counters to turn them into rates.
pub struct HostReader {
    config: HostConfig,
    paths: Paths,
    buf: String,
    cpu: CpuStat,
    prev_cpu: Option<CpuStat>,
    /// Per interface: time and (rx, tx) at the previous read.
    prev_net: HashMap<String, (Duration, u64, u64)>,
    /// Sockets' bytes by destination class, when `config.traffic` is set, read through one
    /// netlink socket kept open (opened at the first read) and one reused list.
    attributor: Option<Attributor>,
    diag: Option<super::sockets::SocketDiag>,
    /// What the metered interfaces had sent at the last socket dump.
    sent_at_dump: Option<u64>,
    sockets: Vec<gpumeter_core::traffic::attribute::SocketReading>,
    /// What the sockets sent to the intranet and other regions since the reader started.
    split_total: EgressSplit,
}

impl HostReader {
    pub fn new(config: HostConfig) -> Self {
        let root = &config.proc_root;
        let paths = Paths {
            stat: root.join("stat"),
            loadavg: root.join("loadavg"),
            meminfo: root.join("meminfo"),
            net_dev: root.join("net/dev"),
            mounts: root.join("self/mounts"),
        };
        let attributor = config.traffic.clone().map(Attributor::new);
        HostReader {
            config,
            paths,
            buf: String::with_capacity(16 * 1024),
            cpu: CpuStat::default(),
            prev_cpu: None,
            prev_net: HashMap::new(),
            attributor,
            diag: None,
            sent_at_dump: None,
            sockets: Vec::new(),
            split_total: EgressSplit::default(),
        }
    }

    pub fn config(&self) -> &HostConfig {
        &self.config
    }

    fn read_cpu(&mut self) -> (Metric<f64>, Metric<Vec<f64>>) {
        let parsed = load(&mut self.buf, &self.paths.stat).and_then(|()| {
            procfs::parse_stat(&self.buf, &mut self.cpu)
                .then_some(())
                .ok_or(Unavailable::Failed("parse"))
        });
        if let Err(why) = parsed {
            return (Metric::Unavailable(why), Metric::Unavailable(why));
        }
        let pending = Unavailable::Pending;
        let result = match &self.prev_cpu {
            None => (Metric::Unavailable(pending), Metric::Unavailable(pending)),
            Some(prev) => {
                let cpu = &self.cpu;
                let total = cpu.all.pct_since(prev.all);
                let cores = (prev.cores.len() == cpu.cores.len())
                    .then(|| {
                        cpu.cores
                            .iter()
                            .zip(&prev.cores)
                            .map(|(now, before)| now.pct_since(*before))
                            .collect::<Option<Vec<f64>>>()
                    })
                    .flatten();
                (
                    total.map_or(Metric::Unavailable(pending), Metric::Value),
                    cores.map_or(Metric::Unavailable(pending), Metric::Value),
                )
            }
        };
        // Swap rather than clone: the old previous reading becomes the next read's scratch space.
        let current = std::mem::take(&mut self.cpu);
        self.cpu = self.prev_cpu.replace(current).unwrap_or_default();
        result
    }

    fn read_net(&mut self, at: Duration) -> Vec<NetInterface> {
        if load(&mut self.buf, &self.paths.net_dev).is_err() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for c in procfs::parse_net_dev(&self.buf) {
            if !self.config.is_metered(c.name) {
                continue;
            }
            let prev = self.prev_net.get(c.name).copied();
            let rate = |now: u64, before: Option<u64>| match (prev, before) {
                (Some((then, ..)), Some(before)) if at > then && now >= before => {
                    Metric::Value(u64_to_f64(now - before) / at.saturating_sub(then).as_secs_f64())
                }
                _ => Metric::Unavailable(Unavailable::Pending),
            };
            out.push(NetInterface {
                name: c.name.to_owned(),
                rx_bytes: c.rx_bytes,
                tx_bytes: c.tx_bytes,
                rx_bytes_per_s: rate(c.rx_bytes, prev.map(|p| p.1)),
                tx_bytes_per_s: rate(c.tx_bytes, prev.map(|p| p.2)),
            });
        }
        self.prev_net
            .retain(|name, _| out.iter().any(|n| &n.name == name));
        for n in &out {
            if let Some(p) = self.prev_net.get_mut(&n.name) {
                *p = (at, n.rx_bytes, n.tx_bytes);
            } else {
                self.prev_net
                    .insert(n.name.clone(), (at, n.rx_bytes, n.tx_bytes));
            }
        }
        out
    }

    fn read_disks(&mut self) -> Vec<DiskUsage> {
        if load(&mut self.buf, &self.paths.mounts).is_err() {
            return Vec::new();
        }
        let mut disks: Vec<DiskUsage> = Vec::new();
        for m in procfs::parse_mounts(&self.buf) {
            let plumbing = PLUMBING_MOUNTS.iter().any(|p| {
                m.mount == *p || m.mount.strip_prefix(p).is_some_and(|r| r.starts_with('/'))
            });
            if plumbing
                || PSEUDO_FS.contains(&m.fs_type.as_str())
                || disks.iter().any(|d| d.device == m.device)
            {
                continue;
            }
            if let Some((total_bytes, used_bytes, avail_bytes)) = statvfs(&m.mount) {
                disks.push(DiskUsage {
                    mount: m.mount,
                    device: m.device,
                    fs_type: m.fs_type,
                    total_bytes,
                    used_bytes,
                    avail_bytes,
                });
            }
        }
        disks
    }
}

impl HostSource for HostReader {
    fn read(&mut self, at: Duration) -> HostSample {
        let (cpu_pct, cpu_per_core_pct) = self.read_cpu();
        let load_avg = load(&mut self.buf, &self.paths.loadavg)
            .and_then(|()| procfs::parse_loadavg(&self.buf).ok_or(Unavailable::Failed("parse")))
            .into();
        let mem = load(&mut self.buf, &self.paths.meminfo)
            .and_then(|()| procfs::parse_meminfo(&self.buf).ok_or(Unavailable::Failed("parse")))
            .into();
        let net = self.read_net(at);
        let sent = net.iter().map(|n| n.tx_bytes).sum();
        HostSample {
            cpu_pct,
            cpu_per_core_pct,
            load_avg,
            mem,
            net,
            disks: self.read_disks(),
            egress_split_total: self.read_split(sent),
        }
    }
}

impl HostReader {
    /// Adds what the sockets sent by class since the last dump, once the metered interfaces
    /// sent [`SPLIT_AFTER_BYTES`] more (`sent` is their total now). The kernel's dump walks its
    /// whole socket table, a millisecond or two however few sockets there are, so a quiet
    /// machine is not dumped every second; the sockets' counters are cumulative, so a later
    /// dump misses only sockets opened and closed in between, counted as internet. A failed
    /// dump (a kernel without socket diagnostics, a sandbox without netlink) adds nothing:
    /// those bytes stay internet, the dearest class, never hidden.
    fn read_split(&mut self, sent: u64) -> EgressSplit {
        let Some(a) = self.attributor.as_mut() else {
            return self.split_total;
        };
        let due = self
            .sent_at_dump
            .is_none_or(|at| sent < at || sent - at >= SPLIT_AFTER_BYTES);
        if !due {
            return self.split_total;
        }
        self.sent_at_dump = Some(sent);
        if self.diag.is_none() {
            self.diag = super::sockets::SocketDiag::open().ok();
        }
        if let Some(diag) = self.diag.as_mut() {
            match diag.read(&mut self.sockets) {
                Ok(()) => self.split_total.merge(a.observe(&self.sockets)),
                // Opened again at the next read.
                Err(_) => self.diag = None,
            }
        }
        self.split_total
    }
}

/// Reads a whole file into the reused buffer.
fn load(buf: &mut String, path: &Path) -> Result<(), Unavailable> {
    buf.clear();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_string(buf))
        .map(drop)
        .map_err(|e| io_kind(&e))
}

/// (total, used, available) bytes, or `None` for an empty or unreadable filesystem.
fn statvfs(mount: &str) -> Option<(u64, u64, u64)> {
    let s = rustix::fs::statvfs(mount).ok()?;
    let total = s.f_blocks.checked_mul(s.f_frsize)?;
    if total == 0 {
        return None;
    }
    let used = s
        .f_blocks
        .saturating_sub(s.f_bfree)
        .saturating_mul(s.f_frsize);
    let avail = s.f_bavail.saturating_mul(s.f_frsize);
    Some((total, used, avail))
}

fn io_kind(e: &std::io::Error) -> Unavailable {
    use std::io::ErrorKind;
    Unavailable::Failed(match e.kind() {
        ErrorKind::NotFound => "not_found",
        ErrorKind::PermissionDenied => "no_permission",
        ErrorKind::InvalidData => "parse",
        _ => "io",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sockets_are_dumped_once_the_interfaces_sent_a_mebibyte_more_not_every_read() {
        let mut r = HostReader::new(HostConfig {
            traffic: Some(gpumeter_core::traffic::Classifier::new(
                "alibaba",
                "cn-hangzhou",
                &[],
            )),
            ..HostConfig::default()
        });
        r.read_split(5_000);
        assert_eq!(
            r.sent_at_dump,
            Some(5_000),
            "the first read dumps, for the baseline"
        );
        r.read_split(5_000 + SPLIT_AFTER_BYTES - 1);
        assert_eq!(r.sent_at_dump, Some(5_000), "a quiet machine is not dumped");
        r.read_split(5_000 + SPLIT_AFTER_BYTES);
        assert_eq!(r.sent_at_dump, Some(5_000 + SPLIT_AFTER_BYTES));
        // Counters that went back (an interface gone) dump at once.
        r.read_split(10);
        assert_eq!(r.sent_at_dump, Some(10));
        // Without a classifier nothing is ever dumped.
        let mut plain = HostReader::new(HostConfig::default());
        plain.read_split(1 << 40);
        assert_eq!(plain.sent_at_dump, None);
    }
}
