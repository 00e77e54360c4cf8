//! The plain data every telemetry source produces. Units are in the field names; every reading
//! that can fail is a [`Metric`]. These types serialise to the `status --json` shape.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::metric::{Metric, Unavailability, Unavailable, reasons};

/// One round of reading every GPU, or why no GPU could be read at all.
pub type GpuRound = Result<GpuReading, GpuUnavailable>;

/// What NVML (or the simulator) reported in one round.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GpuReading {
    pub driver: DriverInfo,
    pub gpus: Vec<GpuSample>,
}

/// Driver-wide facts, the same for every GPU.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DriverInfo {
    pub driver_version: Metric<String>,
    /// The highest CUDA version this driver supports.
    pub cuda_version: Metric<CudaVersion>,
}

/// A CUDA version such as 12.4. Ordered, so `driver < required` reads naturally.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CudaVersion {
    pub major: u32,
    pub minor: u32,
}

impl CudaVersion {
    /// From NVML's integer form, 1000 × major + 10 × minor (12040 is 12.4).
    pub fn from_nvml(v: i32) -> Option<Self> {
        let v = u32::try_from(v).ok()?;
        Some(CudaVersion {
            major: v / 1000,
            minor: (v % 1000) / 10,
        })
    }
}

impl fmt::Display for CudaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl FromStr for CudaVersion {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("`{s}` is not a CUDA version such as 12.4");
        let (major, minor) = s.trim().split_once('.').unwrap_or((s.trim(), "0"));
        Ok(CudaVersion {
            major: major.parse().map_err(|_| bad())?,
            minor: minor.parse().map_err(|_| bad())?,
        })
    }
}

impl Serialize for CudaVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Written "12.4" in the config.
impl<'de> Deserialize<'de> for CudaVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// Why no GPU could be read. Sent every round until a retry succeeds, so the UI can show it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}: {detail}")]
pub struct GpuUnavailable {
    pub kind: GpuUnavailableKind,
    /// The underlying error as the library stated it.
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GpuUnavailableKind {
    /// libnvidia-ml.so.1 is not installed: no NVIDIA driver on this machine.
    LibraryNotFound,
    /// The library is there but the kernel module is not loaded.
    DriverNotLoaded,
    /// The device nodes exist but this user may not open them.
    NoPermission,
    /// The user-space library and the kernel module are different versions (reboot pending).
    VersionMismatch,
    Other,
}

impl fmt::Display for GpuUnavailableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GpuUnavailableKind::LibraryNotFound => "NVIDIA library (libnvidia-ml.so.1) not found",
            GpuUnavailableKind::DriverNotLoaded => "NVIDIA driver not loaded",
            GpuUnavailableKind::NoPermission => "no permission to use the NVIDIA devices",
            GpuUnavailableKind::VersionMismatch => "NVIDIA driver and library versions differ",
            GpuUnavailableKind::Other => "NVML failed to start",
        })
    }
}

/// How the GPU reaches this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Virtualization {
    BareMetal,
    Passthrough,
    /// A vGPU inside a virtual machine: a time- or memory-sliced share of a card.
    Vgpu,
    HostVgpu,
    HostVsga,
}

/// Multi-Instance GPU state of one card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MigInfo {
    pub enabled: bool,
    /// Memory of each MIG instance visible here; empty when MIG is off.
    pub instance_mem_total_mib: Vec<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcessKind {
    Compute,
    Graphics,
    Both,
}

/// A process holding a GPU.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GpuProcess {
    pub pid: u32,
    pub kind: ProcessKind,
    pub used_mem_mib: Metric<u64>,
    /// From /proc/PID/comm; `None` when the process is in another PID namespace or gone.
    pub name: Option<String>,
    /// From /proc/PID/cmdline, arguments joined by spaces.
    pub cmdline: Option<String>,
    pub user: Option<String>,
}

/// One GPU at one moment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GpuSample {
    pub index: u32,
    pub name: Metric<String>,
    pub uuid: Metric<String>,
    pub pci_bus_id: Metric<String>,
    pub util_pct: Metric<u32>,
    pub mem_util_pct: Metric<u32>,
    /// Utilisation × power ÷ power limit: a stalled loop shows 100 % utilisation at idle power.
    pub power_weighted_load_pct: Metric<f64>,
    pub mem_used_mib: Metric<u64>,
    pub mem_total_mib: Metric<u64>,
    pub power_w: Metric<f64>,
    pub power_limit_w: Metric<f64>,
    /// Energy counter since the driver loaded.
    pub energy_j: Metric<f64>,
    pub temp_c: Metric<u32>,
    pub sm_clock_mhz: Metric<u32>,
    pub mem_clock_mhz: Metric<u32>,
    pub fan_pct: Metric<u32>,
    pub pcie_tx_kib_s: Metric<u32>,
    pub pcie_rx_kib_s: Metric<u32>,
    pub mig: Metric<MigInfo>,
    pub virtualization: Metric<Virtualization>,
    /// Such as "8.0".
    pub compute_capability: Metric<String>,
    pub processes: Metric<Vec<GpuProcess>>,
}

/// Utilisation × power ÷ power limit, in percent. It may pass 100 while the card briefly draws
/// more than its limit.
pub fn power_weighted_load(
    util_pct: &Metric<u32>,
    power_w: &Metric<f64>,
    limit_w: &Metric<f64>,
) -> Metric<f64> {
    match (util_pct, power_w, limit_w) {
        (Metric::Value(u), Metric::Value(p), Metric::Value(l)) if *l > 0.0 => {
            Metric::Value(f64::from(*u) * p / l)
        }
        (Metric::Value(_), Metric::Value(_), Metric::Value(_)) => {
            Metric::Unavailable(Unavailable::Unsupported)
        }
        (Metric::Unavailable(why), _, _)
        | (_, Metric::Unavailable(why), _)
        | (_, _, Metric::Unavailable(why)) => Metric::Unavailable(*why),
    }
}

/// NVML's word for a card that has fallen off the bus (`NVML_ERROR_GPU_IS_LOST`).
pub const GPU_LOST: Unavailable = Unavailable::Failed("gpu_lost");

impl GpuSample {
    /// The card has fallen off the bus: NVML answers it, but only with "GPU is lost".
    pub fn lost(&self) -> bool {
        [
            self.name.reason(),
            self.util_pct.reason(),
            self.mem_total_mib.reason(),
        ]
        .contains(&Some(GPU_LOST))
    }

    /// A GPU of which nothing could be read, every metric giving the same reason.
    pub fn unavailable(index: u32, why: Unavailable) -> Self {
        GpuSample {
            index,
            name: Metric::Unavailable(why),
            uuid: Metric::Unavailable(why),
            pci_bus_id: Metric::Unavailable(why),
            util_pct: Metric::Unavailable(why),
            mem_util_pct: Metric::Unavailable(why),
            power_weighted_load_pct: Metric::Unavailable(why),
            mem_used_mib: Metric::Unavailable(why),
            mem_total_mib: Metric::Unavailable(why),
            power_w: Metric::Unavailable(why),
            power_limit_w: Metric::Unavailable(why),
            energy_j: Metric::Unavailable(why),
            temp_c: Metric::Unavailable(why),
            sm_clock_mhz: Metric::Unavailable(why),
            mem_clock_mhz: Metric::Unavailable(why),
            fan_pct: Metric::Unavailable(why),
            pcie_tx_kib_s: Metric::Unavailable(why),
            pcie_rx_kib_s: Metric::Unavailable(why),
            mig: Metric::Unavailable(why),
            virtualization: Metric::Unavailable(why),
            compute_capability: Metric::Unavailable(why),
            processes: Metric::Unavailable(why),
        }
    }
}

impl Unavailability for GpuSample {
    fn unavailable(&self) -> Vec<(&'static str, Unavailable)> {
        reasons([
            ("name", self.name.reason()),
            ("uuid", self.uuid.reason()),
            ("pci_bus_id", self.pci_bus_id.reason()),
            ("util_pct", self.util_pct.reason()),
            ("mem_util_pct", self.mem_util_pct.reason()),
            (
                "power_weighted_load_pct",
                self.power_weighted_load_pct.reason(),
            ),
            ("mem_used_mib", self.mem_used_mib.reason()),
            ("mem_total_mib", self.mem_total_mib.reason()),
            ("power_w", self.power_w.reason()),
            ("power_limit_w", self.power_limit_w.reason()),
            ("energy_j", self.energy_j.reason()),
            ("temp_c", self.temp_c.reason()),
            ("sm_clock_mhz", self.sm_clock_mhz.reason()),
            ("mem_clock_mhz", self.mem_clock_mhz.reason()),
            ("fan_pct", self.fan_pct.reason()),
            ("pcie_tx_kib_s", self.pcie_tx_kib_s.reason()),
            ("pcie_rx_kib_s", self.pcie_rx_kib_s.reason()),
            ("mig", self.mig.reason()),
            ("virtualization", self.virtualization.reason()),
            ("compute_capability", self.compute_capability.reason()),
            ("processes", self.processes.reason()),
        ])
    }
}

/// The host at one moment. Rates and percentages compare with the previous reading.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostSample {
    /// All cores together, 0–100.
    pub cpu_pct: Metric<f64>,
    pub cpu_per_core_pct: Metric<Vec<f64>>,
    pub load_avg: Metric<LoadAvg>,
    pub mem: Metric<Memory>,
    /// Metered interfaces only (see `HostConfig`).
    pub net: Vec<NetInterface>,
    pub disks: Vec<DiskUsage>,
    /// Of the bytes sent since the reader started, those that went to the intranet and to
    /// other regions (what the machine's sockets sent there); zero where not measured.
    pub egress_split_total: crate::traffic::EgressSplit,
}

impl HostSample {
    /// Bytes sent on metered interfaces since their counters started: what egress is billed on.
    pub fn tx_bytes_total(&self) -> u64 {
        self.net.iter().map(|n| n.tx_bytes).sum()
    }

    /// Bytes per second sent on metered interfaces; unavailable if any interface's rate is.
    pub fn tx_bytes_per_s(&self) -> Metric<f64> {
        let mut total = 0.0;
        for n in &self.net {
            match n.tx_bytes_per_s {
                Metric::Value(v) => total += v,
                Metric::Unavailable(why) => return Metric::Unavailable(why),
            }
        }
        Metric::Value(total)
    }
}

impl Unavailability for HostSample {
    fn unavailable(&self) -> Vec<(&'static str, Unavailable)> {
        reasons([
            ("cpu_pct", self.cpu_pct.reason()),
            ("cpu_per_core_pct", self.cpu_per_core_pct.reason()),
            ("load_avg", self.load_avg.reason()),
            ("mem", self.mem.reason()),
        ])
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LoadAvg {
    pub one: f64,
    pub five: f64,
    pub fifteen: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Memory {
    pub total_mib: u64,
    /// What new work could still get without swapping (MemAvailable).
    pub available_mib: u64,
}

/// Counters of one network interface. Counters restart when the interface is re-created.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NetInterface {
    pub name: String,
    pub rx_bytes: u64,
    pub tx_bytes: u64,
    pub rx_bytes_per_s: Metric<f64>,
    pub tx_bytes_per_s: Metric<f64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiskUsage {
    pub mount: String,
    pub device: String,
    pub fs_type: String,
    pub total_bytes: u64,
    pub used_bytes: u64,
    /// Free space an unprivileged user may still use.
    pub avail_bytes: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_versions_parse_compare_and_come_from_nvml() {
        let v: CudaVersion = "12.4".parse().unwrap();
        assert_eq!(v, CudaVersion::from_nvml(12040).unwrap());
        assert!(CudaVersion::from_nvml(12020).unwrap() < v);
        assert_eq!("12".parse::<CudaVersion>().unwrap().to_string(), "12.0");
        assert!("twelve".parse::<CudaVersion>().is_err());
        assert_eq!(CudaVersion::from_nvml(-1), None);
    }

    #[test]
    fn power_weighted_load_needs_every_part() {
        let load = power_weighted_load(
            &Metric::Value(100),
            &Metric::Value(100.0),
            &Metric::Value(400.0),
        );
        assert_eq!(load, Metric::Value(25.0));
        let missing = power_weighted_load(
            &Metric::Value(100),
            &Metric::Unavailable(Unavailable::Unsupported),
            &Metric::Value(400.0),
        );
        assert_eq!(missing.reason(), Some(Unavailable::Unsupported));
        let zero_limit =
            power_weighted_load(&Metric::Value(1), &Metric::Value(1.0), &Metric::Value(0.0));
        assert!(!zero_limit.is_value());
    }
}
