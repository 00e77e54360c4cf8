//! Where gpumeter runs, with no config: the provider from the machine's own signs (DMI under
//! `/sys/class/dmi/id`, as cloud-init's ds-identify reads it; the GPU clouds' variables in
//! PID 1's environment), then that cloud's metadata service for the instance id, region and
//! instance type. Config and flags override everything found here.
//!
//! Only the cloud the signs point at is asked over the network (ds-identify's rule): a plain
//! machine asks nothing.

pub mod metadata;
pub mod only;
pub mod signs;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::config::ProviderKind;

/// `off` (or `0`, `false`, `no`) turns detection off.
pub const SWITCH_ENV: &str = "GPUMETER_DETECT";
/// The directory read in place of `/sys/class/dmi/id`.
pub const DMI_ENV: &str = "GPUMETER_DETECT_DMI";
/// The file read in place of `/proc/1/environ`.
pub const PID1_ENV: &str = "GPUMETER_DETECT_PID1_ENVIRON";
pub const DMI_ROOT: &str = "/sys/class/dmi/id";
pub const PID1_ENVIRON: &str = "/proc/1/environ";
/// How long one metadata service may take to say everything.
pub const BOUND: Duration = Duration::from_secs(2);
/// More than this of one DMI file or of PID 1's environment is not read.
const MAX_READ: u64 = 64 * 1024;

/// One value found, and what it was found from ("DMI sys_vendor \"Amazon EC2\"", "PID 1's
/// RUNPOD_POD_ID", "http://169.254.169.254 (IMDSv2)"), as `doctor` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found<T> {
    pub value: T,
    pub from: String,
}

/// What the machine says about itself. Every field is `None` on a plain machine.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Detected {
    pub provider: Option<Found<ProviderKind>>,
    pub instance: Option<Found<String>>,
    pub region: Option<Found<String>>,
    /// The cloud's instance type (`p4d.24xlarge`, `ecs.gn7i-c8g1.2xlarge`): the price sheet's
    /// SKU on AWS, Alibaba and Tencent.
    pub instance_type: Option<Found<String>>,
    /// What was asked and did not answer, or answered badly, in words for `doctor`.
    pub problems: Vec<String>,
}

impl Detected {
    /// Whether anything at all was found.
    #[must_use]
    pub fn is_none(&self) -> bool {
        self.provider.is_none()
    }
}

/// Where detection looks: the real places by default, fixtures and loopback peers in tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seams {
    pub enabled: bool,
    pub dmi_root: PathBuf,
    pub pid1_environ: PathBuf,
    /// The IMDS base URL; `None` when `AWS_EC2_METADATA_DISABLED` is true.
    pub aws_metadata: Option<String>,
    pub alibaba_metadata: String,
    pub tencent_metadata: String,
    pub bound: Duration,
}

impl Seams {
    /// The places the process's variables name, else the real ones: `GPUMETER_DETECT`,
    /// `GPUMETER_DETECT_DMI`, `GPUMETER_DETECT_PID1_ENVIRON`, and the metadata addresses the
    /// adapters honour (`AWS_EC2_METADATA_SERVICE_ENDPOINT`, `AWS_EC2_METADATA_DISABLED`,
    /// `GPUMETER_ALIBABA_METADATA`, `GPUMETER_TENCENT_METADATA`).
    #[must_use]
    pub fn from_env() -> Seams {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    pub fn from_lookup(var: impl Fn(&str) -> Option<String>) -> Seams {
        use crate::provider::aws::credentials::{IMDS_DISABLED, IMDS_ENDPOINT};
        let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let off = |v: Option<String>| {
            v.is_some_and(|v| {
                let v = v.trim().to_ascii_lowercase();
                matches!(v.as_str(), "off" | "0" | "false" | "no")
            })
        };
        let aws_off = set(IMDS_DISABLED).is_some_and(|v| v.trim().eq_ignore_ascii_case("true"));
        Seams {
            enabled: !off(set(SWITCH_ENV)),
            dmi_root: set(DMI_ENV).map_or_else(|| PathBuf::from(DMI_ROOT), PathBuf::from),
            pid1_environ: set(PID1_ENV).map_or_else(|| PathBuf::from(PID1_ENVIRON), PathBuf::from),
            aws_metadata: (!aws_off).then(|| {
                set(IMDS_ENDPOINT)
                    .unwrap_or_else(|| crate::provider::aws::imds::DEFAULT_ENDPOINT.into())
            }),
            alibaba_metadata: set(crate::provider::alibaba::credentials::METADATA_ENV)
                .unwrap_or_else(|| "http://100.100.100.200".into()),
            tencent_metadata: set(crate::provider::tencent::credentials::METADATA_ENV)
                .unwrap_or_else(|| crate::provider::tencent::credentials::DEFAULT_METADATA.into()),
            bound: BOUND,
        }
    }
}

/// What the machine says about itself: its signs, then the metadata service of the cloud they
/// point at. Never fails: what could not be asked is in `problems`.
pub async fn detect(seams: &Seams) -> Detected {
    if !seams.enabled {
        return Detected::default();
    }
    let Some(pointed) = signs::identify(&read_signs(seams)) else {
        return Detected::default();
    };
    let kind = pointed.provider.value;
    let mut detected = Detected {
        provider: Some(pointed.provider),
        instance: pointed.instance,
        ..Detected::default()
    };
    match metadata::ask(kind, seams).await {
        Ok(Some(answer)) => {
            let found = |value: String| Found {
                value,
                from: answer.from.clone(),
            };
            let id = answer.identity;
            detected.instance = Some(found(id.instance_id));
            detected.region = id.region.map(found);
            detected.instance_type = id.instance_type.map(found);
        }
        Ok(None) => {}
        Err(why) => detected.problems.push(why),
    }
    detected
}

/// The DMI values and PID 1's environment; what cannot be read (a missing file, `product_uuid`
/// readable by root only, another user's `/proc/1/environ`) is simply not a sign.
#[must_use]
pub fn read_signs(seams: &Seams) -> signs::Signs {
    let mut found = signs::Signs::default();
    for name in signs::DMI_FILES {
        if let Some(bytes) = read_capped(&seams.dmi_root.join(name)) {
            found = found.with_dmi(name, &String::from_utf8_lossy(&bytes));
        }
    }
    if let Some(bytes) = read_capped(&seams.pid1_environ) {
        found.pid1 = signs::parse_environ(&bytes);
    }
    found
}

fn read_capped(path: &Path) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_READ)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

#[cfg(test)]
mod tests;
