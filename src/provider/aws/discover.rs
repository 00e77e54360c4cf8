//! The account's GPU instances in one region, read without an instance id (fleet discovery):
//! DescribeInstances, DescribeVolumes and DescribeAddresses, each read once to its last page,
//! then each instance assembled as its inventory is ([`inventory::assemble`]), so states, SKUs,
//! billing modes and disks are named and classed the same in both.

use jiff::Timestamp;

use super::fetch::Session;
use super::inventory::{self, Seen, Unreadable};
use super::known::Known;
use super::query::{Ec2Error, Params, param};
use super::xml::{self, Address, Instance, Volume};
use crate::provider::{Discovered, ProviderError};

/// The `MaxResults` both DescribeInstances (5 to 1000) and DescribeVolumes (5 to 500) take; the
/// most is the default page size.
pub const MOST_PER_PAGE: u32 = 500;
pub const FEWEST_PER_PAGE: u32 = 5;

/// `params` asking `per_page` items a page of DescribeInstances or DescribeVolumes, brought
/// within what both take.
pub fn page_size(per_page: u32, mut params: Params) -> Params {
    let size = per_page.clamp(FEWEST_PER_PAGE, MOST_PER_PAGE);
    params.push(param("MaxResults", size.to_string()));
    params
}

/// Whether an instance of `instance_type` has a GPU. DescribeInstances does not say, so this goes
/// by the instance family: EC2's GPU families are the accelerated `p` (training) and `g`
/// (graphics and inference) ones, and no other family's name starts with either letter. Asking
/// DescribeInstanceTypes for `GpuInfo` instead would cost a call and a permission and does not
/// know every type an instance still runs as: it leaves out retired types (moto's catalogue, a
/// copy of one region's, lists no `p3.2xlarge` at all), and such an instance must not vanish
/// from the fleet. Trainium, Inferentia, Gaudi and FPGA families are not GPUs and are left out.
pub fn has_gpu(instance_type: &str) -> bool {
    instance_type
        .chars()
        .next()
        .is_some_and(|c| matches!(c.to_ascii_lowercase(), 'g' | 'p'))
}

/// Whether the listing keeps an instance in `state`. A terminated one is gone: EC2 lists it for
/// a while after, with nothing left attached and nothing billing. A `shutting-down` one is kept
/// (as released, the inventory's name for it): until it is terminated its disks are still
/// attached, so the sweep, which lists only detached disks and stopped instances' disks, does
/// not show the ones that will survive it, and the instance's row is the only place they appear.
pub fn kept(state: &str) -> bool {
    state != "terminated"
}

/// Every GPU instance EC2 lists in `region`, with its disks and elastic IPs, at `now`. Each
/// listing asks `per_page` items a page (brought within what EC2 takes).
pub async fn instances(
    s: &mut Session<'_>,
    region: &str,
    per_page: u32,
    now: Timestamp,
) -> Result<Vec<Discovered>, ProviderError> {
    let (found, volumes, addresses) = read(s, per_page).await?;
    Ok(assemble(&found, &volumes, &addresses, region, now)?)
}

async fn read(
    s: &mut Session<'_>,
    per_page: u32,
) -> Result<(Vec<Instance>, Vec<Volume>, Vec<Address>), Ec2Error> {
    let size = page_size(per_page, Vec::new());
    let found: Vec<Instance> = s
        .list("DescribeInstances", &size, xml::instances)
        .await?
        .into_iter()
        .filter(|i| kept(&i.state) && has_gpu(&i.instance_type))
        .collect();
    if found.is_empty() {
        return Ok((found, Vec::new(), Vec::new()));
    }
    let volumes = s.list("DescribeVolumes", &size, xml::volumes).await?;
    // DescribeAddresses answers whole: its model has no paging.
    let addresses = s
        .list("DescribeAddresses", &Vec::new(), xml::addresses)
        .await?;
    Ok((found, volumes, addresses))
}

/// The volumes of `i`: attached to it, or in its block device mapping (which EC2 keeps for a
/// stopped instance's disks where the volume's own answer may leave the attachment out).
fn volumes_of(i: &Instance, volumes: &[Volume]) -> Vec<Volume> {
    volumes
        .iter()
        .filter(|v| {
            v.attachments.iter().any(|a| a.0 == i.id) || i.block_devices.iter().any(|b| b.1 == v.id)
        })
        .cloned()
        .collect()
}

/// Each of `found` as one discovered instance, with the volumes and addresses tied to it; pure.
/// `Err` names an instance whose state or launch time cannot be read.
pub fn assemble(
    found: &[Instance],
    volumes: &[Volume],
    addresses: &[Address],
    region: &str,
    now: Timestamp,
) -> Result<Vec<Discovered>, Unreadable> {
    let mut out = Vec::new();
    for i in found {
        let seen = Seen {
            instance: Some(i.clone()),
            volumes: volumes_of(i, volumes),
            addresses: addresses
                .iter()
                .filter(|a| a.instance_id.as_deref() == Some(i.id.as_str()))
                .cloned()
                .collect(),
            ..Seen::default()
        };
        let inv = inventory::assemble(&i.id, region, &seen, &Known::default(), now)?;
        let Some(instance) = inv.instance else {
            return Err(Unreadable::Instance(i.id.clone()));
        };
        out.push(Discovered {
            instance,
            resources: inv.resources,
            deadline: None,
            tags: i.tags.clone(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::meter::{InstanceState, ResourceKind};

    fn instance(id: &str, kind: &str, state: &str, disks: &[&str]) -> Instance {
        Instance {
            id: id.into(),
            instance_type: kind.into(),
            state: state.into(),
            launch_time: Some("2026-01-02T03:04:05.000Z".into()),
            lifecycle: None,
            root_device: Some("/dev/xvda".into()),
            name: None,
            availability_zone: None,
            block_devices: disks
                .iter()
                .enumerate()
                .map(|(n, v)| {
                    (
                        format!("/dev/xvd{}", ['a', 'b', 'c'][n % 3]),
                        v.to_string(),
                        n == 0,
                    )
                })
                .collect(),
            tags: BTreeMap::from([("team".into(), "vision".into())]),
        }
    }

    fn volume(id: &str, size: u64, attached: Option<&str>) -> Volume {
        super::super::xml::test_volume(id, size, "in-use", attached)
    }

    #[test]
    fn gpu_families_are_p_and_g_alone() {
        for gpu in [
            "p3.2xlarge",
            "g5.xlarge",
            "g4dn.12xlarge",
            "p5.48xlarge",
            "gr6.4xlarge",
        ] {
            assert!(has_gpu(gpu), "{gpu}");
        }
        for cpu in [
            "t3.micro",
            "m6g.large",
            "inf2.xlarge",
            "trn1.2xlarge",
            "dl1.24xlarge",
            "",
        ] {
            assert!(!has_gpu(cpu), "{cpu}");
        }
        assert!(kept("shutting-down") && kept("stopped") && !kept("terminated"));
    }

    #[test]
    fn each_instance_holds_its_own_disks_and_address_by_either_link() {
        let now: Timestamp = "2026-01-03T00:00:00Z".parse().unwrap();
        let found = [
            instance("i-1", "g5.xlarge", "running", &["vol-root1"]),
            instance("i-2", "p3.2xlarge", "stopped", &["vol-root2"]),
        ];
        let volumes = [
            volume("vol-root1", 8, None),
            volume("vol-data1", 100, Some("i-1")),
            volume("vol-root2", 30, Some("i-2")),
            volume("vol-free", 500, None),
        ];
        let address = Address {
            public_ip: "203.0.113.1".into(),
            allocation_id: Some("eipalloc-1".into()),
            instance_id: Some("i-2".into()),
            association_id: Some("eipassoc-1".into()),
            network_interface_id: None,
            tags: BTreeMap::new(),
        };
        let got = assemble(&found, &volumes, &[address], "us-east-1", now).unwrap();
        let ids = |d: &Discovered| -> Vec<(String, ResourceKind)> {
            d.resources.iter().map(|r| (r.id.clone(), r.kind)).collect()
        };
        assert_eq!(
            ids(&got[0]),
            [
                ("vol-root1".into(), ResourceKind::SystemDisk),
                ("vol-data1".into(), ResourceKind::DataDisk)
            ]
        );
        assert_eq!(
            ids(&got[1]),
            [
                ("vol-root2".into(), ResourceKind::SystemDisk),
                ("eipalloc-1".into(), ResourceKind::PublicIp)
            ]
        );
        assert_eq!(got[1].instance.state, InstanceState::Stopped);
        assert_eq!(got[1].instance.sku, "p3.2xlarge");
        assert_eq!(got[0].tags["team"], "vision");
        let mut unreadable = found[0].clone();
        unreadable.launch_time = None;
        assert!(assemble(&[unreadable], &volumes, &[], "us-east-1", now).is_err());
    }
}
