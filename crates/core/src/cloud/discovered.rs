//! What an account listing finds: each GPU instance, the resources the provider ties to it, and
//! its tags, read without an instance id (`gpumeter fleet` over an account).

use std::collections::BTreeMap;

use serde::Serialize;

use super::{HeldDeadline, InstanceInfo, Inventory, LinkedResource};

/// One instance an account listing found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Discovered {
    pub instance: InstanceInfo,
    /// Its disks, addresses and the like, as the listing ties them to it.
    pub resources: Vec<LinkedResource>,
    /// The deadline the provider holds for it (an auto-release time), where the listing says.
    pub deadline: Option<HeldDeadline>,
    /// The instance's own tags (key, value).
    pub tags: BTreeMap<String, String>,
}

impl Discovered {
    /// The instance as one inventory, the shape a fleet row is priced from.
    pub fn inventory(&self) -> Inventory {
        Inventory {
            instance: Some(self.instance.clone()),
            resources: self.resources.clone(),
            deadline: self.deadline,
        }
    }

    /// Every provider string made one clean line, as [`Inventory::one_lined`] does.
    #[must_use]
    pub fn one_lined(self) -> Discovered {
        let clean = |s: String| crate::text::one_line(&s, super::clean::FIELD_CHARS);
        Discovered {
            instance: self.instance.one_lined(),
            resources: self
                .resources
                .into_iter()
                .map(LinkedResource::one_lined)
                .collect(),
            deadline: self.deadline,
            tags: self
                .tags
                .into_iter()
                .map(|(k, v)| (clean(k), clean(v)))
                .collect(),
        }
    }
}
