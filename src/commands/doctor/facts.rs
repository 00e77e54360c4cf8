//! What `doctor` reads from the machine: NVML, the watchdog's unit, the price sheet's date,
//! whether the clock is synchronised and which zone it shows. Each reader answers in plain
//! data for [`super::checks`], and none waits long: a missing tool is "unknown".

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::checks::{Clock, Policy, Probe};
use crate::config::{Config, SheetRef};
use crate::detect::Detected;
use crate::telemetry::{GpuSource as _, NvmlConfig, NvmlSource};

/// The guards' policy as the config sets it.
pub fn policy(config: &Config) -> Policy {
    let deadline = config.deadline.release_in.map_or_else(
        || {
            config
                .deadline
                .release_at
                .map(|t| crate::t!("doctor-deadline-at", time = t.to_string()))
        },
        |d| {
            jiff::SignedDuration::try_from(d)
                .ok()
                .map(|d| crate::t!("doctor-deadline-in", span = format!("{d:#}")))
        },
    );
    Policy {
        at_zero: config.deadline.on_expiry,
        on_idle: config.idle.on_idle,
        deadline,
    }
}

/// What NVML sees, or its error, in one line.
pub fn nvml() -> Probe {
    let mut source = NvmlSource::new(NvmlConfig { read_pcie: false });
    match source.read(Duration::ZERO) {
        Ok(reading) => {
            let model = reading
                .gpus
                .first()
                .and_then(|g| g.name.value().cloned())
                .unwrap_or_else(|| "GPU".into());
            let driver = reading
                .driver
                .driver_version
                .value()
                .cloned()
                .unwrap_or_else(|| crate::t!("doctor-driver-unknown").into_owned());
            Probe::Found(crate::t!(
                "doctor-nvml-found",
                count = reading.gpus.len().to_string(),
                model = model,
                driver = driver
            ))
        }
        Err(why) => Probe::Failed(crate::ui::words::gpu_unavailable_said(&why)),
    }
}

/// The unit `gpumeter watchdog --install-service` writes, where it writes it.
fn unit_path() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|base| {
        base.config_dir()
            .join("systemd")
            .join("user")
            .join(crate::commands::watchdog::service::UNIT)
    })
}

/// The installed unit's path, if there is one; and whether one could be installed and run.
pub fn service() -> (Option<String>, bool) {
    let path = unit_path();
    let installed = path
        .as_ref()
        .filter(|p| p.is_file())
        .map(|p| p.display().to_string());
    (installed, path.is_some() && on_path("systemctl"))
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// The sheet that prices the instance: the config's, else the bundled sheet of the detected
/// provider's region. `(id, date, age in days)`.
pub fn sheet(config: &Config, detected: &Detected) -> Option<(String, String, i64)> {
    let sheet = match &config.pricing.sheet {
        Some(SheetRef::Bundled(id)) => crate::pricing::bundled_sheet(id).cloned(),
        Some(SheetRef::File(path)) => crate::pricing::load_file(path).ok(),
        None => {
            let provider = detected.provider.as_ref()?.value;
            let region = detected.region.as_ref().map(|r| r.value.as_str());
            let sku = detected.instance_type.as_ref().map(|s| s.value.as_str());
            let choice = crate::spend::sheet_for_region(provider, region, sku)?;
            crate::pricing::bundled_sheet(&choice.sheet).cloned()
        }
    }?;
    let age = sheet.age_days(super::super::today());
    Some((sheet.id.clone(), sheet.as_of.to_string(), age))
}

/// systemd's view of NTP, without root. Anything else (no systemd, no bus) is unknown: the
/// kernel's own flag needs `adjtimex`, which this build does not call.
pub fn clock() -> Clock {
    let answer = Command::new("timedatectl")
        .args(["show", "-p", "NTPSynchronized", "--value"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output();
    let from = "timedatectl NTPSynchronized".to_string();
    match answer {
        Ok(out) if out.status.success() => match String::from_utf8_lossy(&out.stdout).trim() {
            "yes" => Clock::Synchronised { from },
            "no" => Clock::NotSynchronised { from },
            _ => Clock::Unknown,
        },
        _ => Clock::Unknown,
    }
}

/// The zone times are shown in, as every command resolves it (the config's `timezone`, else
/// `TZ`, else the system's); an error when nothing names one and times are UTC by default, or
/// `TZ` names no zone this machine knows.
pub fn zone(config: &crate::config::Config) -> Probe {
    use gpumeter_core::zone::ZoneSource;
    let zone = config.user_zone();
    let fix = crate::t!("doctor-zone-set-fix");
    match zone.source {
        ZoneSource::EnvNotUnderstood => Probe::Failed(format!("{}: {fix}", zone.shown())),
        ZoneSource::System if !std::path::Path::new("/etc/localtime").exists() => {
            Probe::Failed(crate::t!("doctor-zone-utc", fix = fix))
        }
        _ => Probe::Found(zone.shown()),
    }
}
