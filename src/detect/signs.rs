//! Which cloud the machine's own signs point at: the DMI values under `/sys/class/dmi/id` and
//! the variables in PID 1's environment, matched as plain strings. No I/O here: the caller reads
//! the files and hands over their text.
//!
//! The DMI rules follow cloud-init (`tools/ds-identify`, `DataSourceEc2.identify_aws`): AWS by
//! `sys_vendor` "Amazon EC2" (Nitro), "amazon" in `product_version` or `bios_version` (Xen) or a
//! `product_uuid` starting "ec2" in either byte order; Alibaba by `product_name` "Alibaba Cloud
//! ECS". ds-identify has no rule for Tencent Cloud: its CVMs report `sys_vendor` "Tencent Cloud".
//! In a container DMI describes the host, not the rental, so the GPU clouds' variables in PID
//! 1's environment are read first: RunPod's `RUNPOD_POD_ID`, Vast.ai's `CONTAINER_ID` (or
//! `VAST_CONTAINERLABEL`, `C.<id>`).

use std::collections::BTreeMap;

use super::Found;
use crate::config::ProviderKind;
use gpumeter_core::text::one_line;

/// The DMI files read, by their name under `/sys/class/dmi/id`.
pub const DMI_FILES: [&str; 7] = [
    "sys_vendor",
    "product_name",
    "product_version",
    "product_uuid",
    "bios_version",
    "chassis_asset_tag",
    "board_asset_tag",
];

/// The longest DMI value or variable kept: more is not a sign of anything.
const MAX_VALUE: usize = 128;

/// What the machine says about itself, read once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Signs {
    /// DMI values by file name, trimmed; a file that could not be read is absent.
    pub dmi: BTreeMap<String, String>,
    /// PID 1's environment.
    pub pid1: BTreeMap<String, String>,
}

/// The cloud the signs point at, what pointed at it, and the instance when the signs name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pointed {
    pub provider: Found<ProviderKind>,
    pub instance: Option<Found<String>>,
}

impl Signs {
    /// Keeps a DMI value, as one clean line.
    #[must_use]
    pub fn with_dmi(mut self, name: &str, value: &str) -> Self {
        let value = one_line(value.trim(), MAX_VALUE);
        if !value.is_empty() {
            self.dmi.insert(name.to_string(), value);
        }
        self
    }

    fn dmi(&self, name: &str) -> &str {
        self.dmi.get(name).map_or("", String::as_str)
    }

    fn var(&self, name: &str) -> Option<&str> {
        self.pid1
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }
}

/// The variables of `/proc/<pid>/environ`: `NAME=value` pairs separated by NUL bytes. A pair
/// without `=` or with a name that is not a plain variable name is skipped.
#[must_use]
pub fn parse_environ(bytes: &[u8]) -> BTreeMap<String, String> {
    bytes
        .split(|b| *b == 0)
        .filter_map(|pair| {
            let pair = String::from_utf8_lossy(pair);
            let (name, value) = pair.split_once('=')?;
            let plain =
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            plain.then(|| (name.to_string(), one_line(value.trim(), MAX_VALUE)))
        })
        .collect()
}

/// The cloud the signs point at; `None` on a plain machine.
#[must_use]
pub fn identify(signs: &Signs) -> Option<Pointed> {
    gpu_cloud(signs).or_else(|| dmi_cloud(signs))
}

fn found<T>(value: T, from: String) -> Found<T> {
    Found { value, from }
}

/// RunPod or Vast.ai from PID 1's variables, with the instance they name.
fn gpu_cloud(signs: &Signs) -> Option<Pointed> {
    if let Some(pod) = signs.var("RUNPOD_POD_ID") {
        let from = "PID 1's RUNPOD_POD_ID".to_string();
        return Some(Pointed {
            provider: found(ProviderKind::Runpod, from.clone()),
            instance: Some(found(pod.to_string(), from)),
        });
    }
    let by_id = signs
        .var("CONTAINER_ID")
        .filter(|_| signs.var("VAST_CONTAINERLABEL").is_some())
        .map(|id| (id.to_string(), "PID 1's CONTAINER_ID"));
    let by_label = || {
        let label = signs.var("VAST_CONTAINERLABEL")?;
        let id = label.strip_prefix("C.")?;
        (!id.is_empty() && id.chars().all(|c| c.is_ascii_digit()))
            .then(|| (id.to_string(), "PID 1's VAST_CONTAINERLABEL"))
    };
    let (id, from) = by_id.or_else(by_label)?;
    Some(Pointed {
        provider: found(ProviderKind::Vast, from.to_string()),
        instance: Some(found(id, from.to_string())),
    })
}

/// AWS, Alibaba or Tencent from DMI.
fn dmi_cloud(signs: &Signs) -> Option<Pointed> {
    let said = |name: &str| format!("DMI {name} \"{}\"", signs.dmi(name));
    let (kind, from) = if signs.dmi("sys_vendor") == "Amazon EC2" {
        (ProviderKind::Aws, said("sys_vendor"))
    } else if let Some(name) = ["product_version", "bios_version"]
        .into_iter()
        .find(|n| signs.dmi(n).to_ascii_lowercase().contains("amazon"))
    {
        (ProviderKind::Aws, said(name))
    } else if ec2_uuid(signs.dmi("product_uuid")) {
        (ProviderKind::Aws, said("product_uuid"))
    } else if signs.dmi("product_name") == "Alibaba Cloud ECS" {
        (ProviderKind::Alibaba, said("product_name"))
    } else if signs.dmi("sys_vendor") == "Alibaba Cloud" {
        (ProviderKind::Alibaba, said("sys_vendor"))
    } else if signs.dmi("sys_vendor") == "Tencent Cloud" {
        (ProviderKind::Tencent, said("sys_vendor"))
    } else {
        return None;
    };
    // On Nitro the board's asset tag is the instance id; the metadata service says it too.
    let tag = signs.dmi("board_asset_tag");
    let instance = (kind == ProviderKind::Aws && aws_instance_id(tag))
        .then(|| found(tag.to_string(), "DMI board_asset_tag".to_string()));
    Some(Pointed {
        provider: found(kind, from),
        instance,
    })
}

/// An EC2 `product_uuid`: "ec2" first in either byte order of its first group
/// (`EC2E1916-…`, or `45E12AEC-…` read little-endian).
fn ec2_uuid(uuid: &str) -> bool {
    let first = uuid.split('-').next().unwrap_or("").to_ascii_lowercase();
    if first.starts_with("ec2") {
        return true;
    }
    // Little-endian: the bytes of the first group reversed, so "ec" then "2?" end it.
    let b = first.as_bytes();
    b.len() == 8 && &b[6..8] == b"ec" && b[4] == b'2' && b[5].is_ascii_hexdigit()
}

/// `i-` and 8 or 17 lowercase hex digits, as EC2 names instances.
fn aws_instance_id(tag: &str) -> bool {
    tag.strip_prefix("i-").is_some_and(|hex| {
        matches!(hex.len(), 8 | 17) && hex.chars().all(|c| c.is_ascii_hexdigit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dmi(pairs: &[(&str, &str)]) -> Signs {
        pairs
            .iter()
            .fold(Signs::default(), |s, (n, v)| s.with_dmi(n, v))
    }

    fn env(text: &str) -> Signs {
        Signs {
            pid1: parse_environ(text.as_bytes()),
            ..Signs::default()
        }
    }

    fn kind(signs: &Signs) -> Option<ProviderKind> {
        identify(signs).map(|p| p.provider.value)
    }

    #[test]
    fn aws_nitro_by_sys_vendor_with_the_instance_from_the_board_asset_tag() {
        let s = dmi(&[
            ("sys_vendor", "Amazon EC2\n"),
            ("product_name", "p4d.24xlarge"),
            ("board_asset_tag", "i-0123456789abcdef0"),
        ]);
        let p = identify(&s).unwrap();
        assert_eq!(p.provider.value, ProviderKind::Aws);
        assert_eq!(p.provider.from, "DMI sys_vendor \"Amazon EC2\"");
        let instance = p.instance.unwrap();
        assert_eq!(instance.value, "i-0123456789abcdef0");
        assert_eq!(instance.from, "DMI board_asset_tag");
    }

    #[test]
    fn aws_xen_by_version_or_uuid_in_either_byte_order() {
        let xen = dmi(&[("sys_vendor", "Xen"), ("bios_version", "4.11.amazon")]);
        assert_eq!(kind(&xen), Some(ProviderKind::Aws));
        let version = dmi(&[("product_version", "4.2.Amazon")]);
        assert_eq!(kind(&version), Some(ProviderKind::Aws));
        let same = dmi(&[("product_uuid", "EC2E1916-9099-7CAF-FD21-012345ABCDEF")]);
        assert_eq!(kind(&same), Some(ProviderKind::Aws));
        let other = dmi(&[("product_uuid", "45E12AEC-DCD1-B213-94ED-012345ABCDEF")]);
        assert_eq!(kind(&other), Some(ProviderKind::Aws));
        let neither = dmi(&[("product_uuid", "4C4C4544-0047-3510-8052-B4C04F4E4D32")]);
        assert_eq!(kind(&neither), None);
        // A tag that is not an instance id names no instance.
        let p = identify(&dmi(&[
            ("sys_vendor", "Amazon EC2"),
            ("board_asset_tag", "x"),
        ]));
        assert_eq!(p.unwrap().instance, None);
    }

    #[test]
    fn alibaba_by_product_name_or_vendor() {
        let ecs = dmi(&[("product_name", "Alibaba Cloud ECS")]);
        let p = identify(&ecs).unwrap();
        assert_eq!(p.provider.value, ProviderKind::Alibaba);
        assert_eq!(p.provider.from, "DMI product_name \"Alibaba Cloud ECS\"");
        assert_eq!(p.instance, None);
        let vendor = dmi(&[("sys_vendor", "Alibaba Cloud")]);
        assert_eq!(kind(&vendor), Some(ProviderKind::Alibaba));
    }

    #[test]
    fn tencent_by_sys_vendor() {
        let cvm = dmi(&[("sys_vendor", "Tencent Cloud"), ("product_name", "CVM")]);
        let p = identify(&cvm).unwrap();
        assert_eq!(p.provider.value, ProviderKind::Tencent);
        assert_eq!(p.provider.from, "DMI sys_vendor \"Tencent Cloud\"");
    }

    #[test]
    fn runpod_by_its_pod_id_before_the_host_s_dmi() {
        let mut s = env("PATH=/usr/bin\0RUNPOD_POD_ID=abc123xyz\0RUNPOD_GPU_COUNT=1\0");
        s = s.with_dmi("sys_vendor", "Amazon EC2");
        let p = identify(&s).unwrap();
        assert_eq!(p.provider.value, ProviderKind::Runpod);
        assert_eq!(p.instance.unwrap().value, "abc123xyz");
    }

    #[test]
    fn vast_by_container_id_with_its_label_or_by_the_label_alone() {
        let both = env("CONTAINER_ID=4321\0VAST_CONTAINERLABEL=C.4321\0");
        let p = identify(&both).unwrap();
        assert_eq!(p.provider.value, ProviderKind::Vast);
        assert_eq!(p.instance.unwrap().from, "PID 1's CONTAINER_ID");
        let label = identify(&env("VAST_CONTAINERLABEL=C.987\0")).unwrap();
        assert_eq!(label.instance.unwrap().value, "987");
        // Docker and others set CONTAINER_ID too: alone it says nothing about Vast.ai.
        assert_eq!(kind(&env("CONTAINER_ID=4321\0")), None);
        assert_eq!(kind(&env("VAST_CONTAINERLABEL=web\0")), None);
    }

    #[test]
    fn a_plain_machine_is_none() {
        let kvm = dmi(&[
            ("sys_vendor", "QEMU"),
            ("product_name", "Standard PC (Q35 + ICH9, 2009)"),
            ("bios_version", "1.16.2-debian"),
        ]);
        assert_eq!(identify(&kvm), None);
        assert_eq!(identify(&Signs::default()), None);
        assert_eq!(
            identify(&env("HOME=/root\0TERM=xterm\0RUNPOD_POD_ID=\0")),
            None
        );
    }

    #[test]
    fn environ_is_read_safely() {
        let vars = parse_environ(b"A=1\0broken\0B=x=y\0=v\0BAD NAME=1\0C=\x1b[31mred\xff\0");
        assert_eq!(vars.get("A").map(String::as_str), Some("1"));
        assert_eq!(vars.get("B").map(String::as_str), Some("x=y"));
        assert_eq!(vars.len(), 3);
        assert!(!vars["C"].contains('\x1b'));
    }
}
