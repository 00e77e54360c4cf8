//! The real GPUs, through NVML (nvml-wrapper loads libnvidia-ml.so.1 at run time).
//!
//! NVML is started once, by the first read, and owned by the source; the source lives on the
//! sampler's own thread, so even loading the library happens off the async runtime. A failure to
//! start is kept with its reason and returned every round without touching the library again,
//! until [`GpuSource::retry`] asks for another attempt: loading the library every tick would
//! reload all its symbols each second.

use std::time::Duration;

use nvml_wrapper::Nvml;
use nvml_wrapper::enum_wrappers::device::{Clock, PcieUtilCounter, TemperatureSensor};
use nvml_wrapper::enums::device::UsedGpuMemory;
use nvml_wrapper::error::NvmlError;
use nvml_wrapper::struct_wrappers::device::ProcessInfo;
use nvml_wrapper::{Device, enum_wrappers::device::GpuVirtualizationMode};

use super::metric::{Metric, Unavailable, u64_to_f64};
use super::procinfo::ProcTable;
use super::sample::{
    CudaVersion, DriverInfo, GpuProcess, GpuReading, GpuRound, GpuSample, GpuUnavailable,
    GpuUnavailableKind, MigInfo, ProcessKind, Virtualization, power_weighted_load,
};
use super::source::GpuSource;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NvmlConfig {
    /// PCIe throughput costs NVML a 20 ms measurement per direction per GPU; off saves
    /// 40 ms × GPUs of the sampling thread's time each round.
    pub read_pcie: bool,
}

impl Default for NvmlConfig {
    fn default() -> Self {
        NvmlConfig { read_pcie: true }
    }
}

enum State {
    NotStarted,
    Ready {
        // Boxed: the library's symbol table is some 12 KB.
        nvml: Box<Nvml>,
        driver: DriverInfo,
    },
    // The original error is kept for `Debug` and logs; the classified copy is what rounds return.
    Failed {
        _error: NvmlError,
        why: GpuUnavailable,
    },
}

pub struct NvmlSource {
    config: NvmlConfig,
    state: State,
    init_attempts: u32,
    procs: ProcTable,
}

impl NvmlSource {
    /// A source that starts NVML on its first read. Cheap: nothing is loaded here.
    pub fn new(config: NvmlConfig) -> Self {
        NvmlSource {
            config,
            state: State::NotStarted,
            init_attempts: 0,
            procs: ProcTable::system(),
        }
    }

    /// Why NVML could not start, if it was tried and could not.
    pub fn init_error(&self) -> Option<&GpuUnavailable> {
        match &self.state {
            State::NotStarted | State::Ready { .. } => None,
            State::Failed { why, .. } => Some(why),
        }
    }

    /// The started library, for readers beyond the ordinary round (`verify`'s facts) on this
    /// source's thread; `None` until a read has started it, or when it could not start.
    pub(crate) fn nvml(&self) -> Option<&Nvml> {
        match &self.state {
            State::Ready { nvml, .. } => Some(nvml),
            State::NotStarted | State::Failed { .. } => None,
        }
    }

    /// How many times the library has been loaded: once by the first read, plus once per retry
    /// after a failure.
    pub fn init_attempts(&self) -> u32 {
        self.init_attempts
    }
}

impl GpuSource for NvmlSource {
    fn read(&mut self, _at: Duration) -> GpuRound {
        if matches!(self.state, State::NotStarted) {
            self.state = start();
            self.init_attempts += 1;
        }
        let (nvml, driver) = match &self.state {
            State::Ready { nvml, driver } => (nvml, driver),
            State::Failed { why, .. } => return Err(why.clone()),
            State::NotStarted => {
                return Err(GpuUnavailable {
                    kind: GpuUnavailableKind::Other,
                    detail: crate::t!("nvml-not-started").into_owned(),
                });
            }
        };
        let count = nvml.device_count().map_err(|e| classify(&e))?;
        let gpus: Vec<GpuSample> = (0..count)
            .map(|i| match nvml.device_by_index(i) {
                Ok(dev) => read_device(&dev, i, self.config, &mut self.procs),
                Err(e) => GpuSample::unavailable(i, kind(&e)),
            })
            .collect();
        let alive: Vec<u32> = gpus
            .iter()
            .filter_map(|g| g.processes.value())
            .flatten()
            .map(|p| p.pid)
            .collect();
        self.procs.retain(&alive);
        Ok(GpuReading {
            driver: driver.clone(),
            gpus,
        })
    }

    fn retry(&mut self) {
        if matches!(self.state, State::NotStarted | State::Failed { .. }) {
            self.state = start();
            self.init_attempts += 1;
        }
    }
}

fn start() -> State {
    match Nvml::init() {
        Ok(nvml) => {
            let driver = DriverInfo {
                driver_version: metric(nvml.sys_driver_version()),
                cuda_version: metric(nvml.sys_cuda_driver_version()).and_then(|v| {
                    CudaVersion::from_nvml(v).ok_or(Unavailable::Failed("unexpected_value"))
                }),
            };
            State::Ready {
                nvml: Box::new(nvml),
                driver,
            }
        }
        Err(error) => State::Failed {
            why: classify(&error),
            _error: error,
        },
    }
}

/// Why NVML as a whole is unusable.
fn classify(e: &NvmlError) -> GpuUnavailable {
    let kind = match e {
        NvmlError::LibloadingError(_) | NvmlError::LibraryNotFound => {
            GpuUnavailableKind::LibraryNotFound
        }
        NvmlError::DriverNotLoaded => GpuUnavailableKind::DriverNotLoaded,
        NvmlError::NoPermission => GpuUnavailableKind::NoPermission,
        NvmlError::LibRmVersionMismatch => GpuUnavailableKind::VersionMismatch,
        _ => GpuUnavailableKind::Other,
    };
    GpuUnavailable {
        kind,
        detail: e.to_string(),
    }
}

/// Why one reading is missing.
pub(crate) fn kind(e: &NvmlError) -> Unavailable {
    match e {
        // A missing symbol means this driver predates the call.
        NvmlError::NotSupported
        | NvmlError::FunctionNotFound
        | NvmlError::FailedToLoadSymbol(_) => Unavailable::Unsupported,
        NvmlError::NoPermission => Unavailable::Failed("no_permission"),
        NvmlError::GpuLost => Unavailable::Failed("gpu_lost"),
        NvmlError::ResetRequired => Unavailable::Failed("reset_required"),
        NvmlError::Timeout => Unavailable::Failed("timeout"),
        NvmlError::InsufficientPower => Unavailable::Failed("insufficient_power"),
        NvmlError::Uninitialized => Unavailable::Failed("uninitialized"),
        NvmlError::NotFound => Unavailable::Failed("not_found"),
        NvmlError::NoData => Unavailable::Failed("no_data"),
        NvmlError::UnexpectedVariant(_) => Unavailable::Failed("unexpected_value"),
        _ => Unavailable::Failed("unknown"),
    }
}

pub(crate) fn metric<T>(r: Result<T, NvmlError>) -> Metric<T> {
    match r {
        Ok(v) => Metric::Value(v),
        Err(e) => Metric::Unavailable(kind(&e)),
    }
}

const MIB: u64 = 1 << 20;

fn read_device(
    dev: &Device<'_>,
    index: u32,
    config: NvmlConfig,
    procs: &mut ProcTable,
) -> GpuSample {
    let util = metric(dev.utilization_rates());
    let util_pct = util.as_ref().map(|u| u.gpu);
    let power_w = metric(dev.power_usage()).map(milli);
    let power_limit_w = metric(dev.enforced_power_limit()).map(milli);
    let mem = metric(gpumeter_driver::nvml_memory_info(dev));
    let pcie = |counter| {
        if config.read_pcie {
            metric(dev.pcie_throughput(counter))
        } else {
            Metric::Unavailable(Unavailable::Unsupported)
        }
    };
    GpuSample {
        index,
        name: metric(dev.name()),
        uuid: metric(dev.uuid()),
        pci_bus_id: metric(dev.pci_info()).map(|p| p.bus_id),
        power_weighted_load_pct: power_weighted_load(&util_pct, &power_w, &power_limit_w),
        util_pct,
        mem_util_pct: util.map(|u| u.memory),
        mem_used_mib: mem.as_ref().map(|m| m.used / MIB),
        mem_total_mib: mem.map(|m| m.total / MIB),
        power_w,
        power_limit_w,
        energy_j: metric(dev.total_energy_consumption()).map(|mj| u64_to_f64(mj) / 1000.0),
        temp_c: metric(dev.temperature(TemperatureSensor::Gpu)),
        sm_clock_mhz: metric(dev.clock_info(Clock::SM)),
        mem_clock_mhz: metric(dev.clock_info(Clock::Memory)),
        fan_pct: metric(dev.fan_speed(0)),
        pcie_tx_kib_s: pcie(PcieUtilCounter::Send),
        pcie_rx_kib_s: pcie(PcieUtilCounter::Receive),
        mig: read_mig(dev),
        virtualization: metric(dev.virtualization_mode()).map(|m| match m {
            GpuVirtualizationMode::Bare => Virtualization::BareMetal,
            GpuVirtualizationMode::PassThrough => Virtualization::Passthrough,
            GpuVirtualizationMode::Vgpu => Virtualization::Vgpu,
            GpuVirtualizationMode::HostVgpu => Virtualization::HostVgpu,
            GpuVirtualizationMode::HostVsga => Virtualization::HostVsga,
        }),
        compute_capability: metric(dev.cuda_compute_capability())
            .map(|c| format!("{}.{}", c.major, c.minor)),
        processes: read_processes(dev, procs),
    }
}

fn milli(mw: u32) -> f64 {
    f64::from(mw) / 1000.0
}

fn read_mig(dev: &Device<'_>) -> Metric<MigInfo> {
    metric(dev.mig_mode()).map(|mode| {
        let enabled = mode.current == 1;
        let max = if enabled {
            dev.mig_device_count().unwrap_or(0)
        } else {
            0
        };
        // Slots without an instance answer NotFound; only existing instances are listed.
        let instance_mem_total_mib = (0..max)
            .filter_map(|i| dev.mig_device_by_index(i).ok())
            .filter_map(|mig| gpumeter_driver::nvml_memory_info(&mig).ok())
            .map(|m| m.total / MIB)
            .collect();
        MigInfo {
            enabled,
            instance_mem_total_mib,
        }
    })
}

fn read_processes(dev: &Device<'_>, procs: &mut ProcTable) -> Metric<Vec<GpuProcess>> {
    // Half a list would read as "nothing else runs here": the compute list (the CUDA jobs)
    // must read, and the graphics list may only be missing where the card has none to offer.
    let compute = match gpumeter_driver::nvml_compute_processes(dev) {
        Ok(list) => list,
        Err(e) => return Metric::Unavailable(kind(&e)),
    };
    let graphics = match gpumeter_driver::nvml_graphics_processes(dev).map_err(|e| kind(&e)) {
        Ok(list) => list,
        Err(Unavailable::Unsupported) => Vec::new(),
        Err(why) => return Metric::Unavailable(why),
    };
    let mut out: Vec<GpuProcess> = Vec::with_capacity(compute.len() + graphics.len());
    let tagged = compute
        .iter()
        .map(|p| (p, ProcessKind::Compute))
        .chain(graphics.iter().map(|p| (p, ProcessKind::Graphics)));
    for (info, kind) in tagged {
        if let Some(seen) = out.iter_mut().find(|p| p.pid == info.pid) {
            seen.kind = ProcessKind::Both;
            continue;
        }
        out.push(describe(info, kind, procs));
    }
    Metric::Value(out)
}

fn describe(info: &ProcessInfo, kind: ProcessKind, procs: &mut ProcTable) -> GpuProcess {
    let details = procs.describe(info.pid);
    GpuProcess {
        pid: info.pid,
        kind,
        used_mem_mib: match info.used_gpu_memory {
            UsedGpuMemory::Used(bytes) => Metric::Value(bytes / MIB),
            UsedGpuMemory::Unavailable => Metric::Unavailable(Unavailable::Unsupported),
        },
        name: details.name,
        cmdline: details.cmdline,
        user: details.user,
    }
}
