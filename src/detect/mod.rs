//! Where gpumeter runs, with no config: the provider from the machine's own signs (DMI under
//! `/sys/class/dmi/id`, as cloud-init's ds-identify reads it; the GPU clouds' variables in
//! PID 1's environment), then that cloud's metadata service for the instance id, region and
//! instance type. Config and flags override everything found here.

use crate::config::ProviderKind;

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
