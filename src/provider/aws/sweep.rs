//! The account swept in one region: what bills with no running instance to show for it. Volumes
//! that are `available` (attached to nothing), the volumes of stopped instances, the account's
//! own snapshots and images, elastic IPs associated with nothing, and load balancers with no
//! healthy target ([`super::elb`]). Every list is read to its last page.

use std::collections::{BTreeMap, BTreeSet};

use jiff::Timestamp;

use super::fetch::{Session, filter, owned_by_self};
use super::inventory::{Seen, assemble};
use super::known::Known;
use super::links;
use super::query::Ec2Error;
use super::xml;
use crate::provider::{LinkedResource, ProviderError};

/// What bills in `region` without a running instance, at `now`.
pub async fn sweep(
    s: &mut Session<'_>,
    region: &str,
    now: Timestamp,
) -> Result<Vec<LinkedResource>, ProviderError> {
    let seen = read(s)
        .await
        .map_err(|e| ProviderError::state(super::ID, format!("aws: {e}")))?;
    let mut found = assemble("", region, &seen, &Known::default(), now)?.resources;
    found.extend(super::elb::sweep(s, now).await?);
    Ok(found)
}

async fn read(s: &mut Session<'_>) -> Result<Seen, Ec2Error> {
    let mut seen = list(s).await?;
    seen.addresses
        .retain(|a| a.instance_id.is_none() && a.association_id.is_none());
    s.sharing(&mut seen).await;
    Ok(seen)
}

/// What of the sweep belongs to instance `id`, which EC2 no longer lists or lists terminated
/// (`instance`): by the links EC2 keeps and the ids `recorded` for it ([`links`]). Who may use
/// each snapshot and image is read for those alone.
pub async fn of_released(
    s: &mut Session<'_>,
    id: &str,
    instance: Option<xml::Instance>,
    recorded: &BTreeSet<String>,
) -> Result<Seen, Ec2Error> {
    let mut seen = links::belonging(list(s).await?, id, recorded);
    seen.instance = instance;
    s.sharing(&mut seen).await;
    Ok(seen)
}

/// Every listing of the sweep, every address (associated or not), sharing not read.
async fn list(s: &mut Session<'_>) -> Result<Seen, Ec2Error> {
    let mut volumes = s
        .list(
            "DescribeVolumes",
            &filter("status", &["available"]),
            xml::volumes,
        )
        .await?;
    let stopped = s
        .list(
            "DescribeInstances",
            &filter("instance-state-name", &["stopped"]),
            xml::instances,
        )
        .await?;
    let stopped_disks: BTreeSet<&str> = stopped
        .iter()
        .flat_map(|i| i.block_devices.iter().map(|(_, volume, _)| volume.as_str()))
        .collect();
    if !stopped_disks.is_empty() {
        let ids: Vec<&str> = stopped_disks.into_iter().collect();
        let mut disks = s
            .list("DescribeVolumes", &filter("volume-id", &ids), xml::volumes)
            .await?;
        for disk in &mut disks {
            disk.status = "in-use by a stopped instance".into();
            // The instance's block device mapping says where it is attached, where the
            // volume's own answer leaves it out.
            if disk.attachments.is_empty()
                && let Some((i, device)) = stopped.iter().find_map(|i| {
                    i.block_devices
                        .iter()
                        .find(|b| b.1 == disk.id)
                        .map(|b| (i.id.clone(), b.0.clone()))
                })
            {
                disk.attachments.push((i, device, false));
            }
        }
        volumes.extend(disks);
    }
    let snapshots = s
        .list(
            "DescribeSnapshots",
            &owned_by_self(Vec::new()),
            xml::snapshots,
        )
        .await?;
    let images = s
        .list("DescribeImages", &owned_by_self(Vec::new()), xml::images)
        .await?;
    let addresses = s
        .list("DescribeAddresses", &Vec::new(), xml::addresses)
        .await?;
    Ok(Seen {
        instance: None,
        volumes,
        snapshots,
        images,
        addresses,
        shared: BTreeMap::new(),
    })
}
