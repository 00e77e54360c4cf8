//! The account swept in one region: what bills with no running instance to show for it. Volumes
//! that are `available` (attached to nothing), the volumes of stopped instances, the account's
//! own snapshots and images, elastic IPs associated with nothing, and load balancers with no
//! healthy target ([`super::elb`]). Every list is read to its last page, each page as large as
//! the call takes, so the calls grow with the pages, not with what they hold.

use std::collections::{BTreeMap, BTreeSet};

use jiff::Timestamp;

use super::discover::page_size;
use super::fetch::{Session, filter, owned_by_self};
use super::inventory::{Seen, assemble};
use super::known::Known;
use super::links;
use super::query::Ec2Error;
use super::shares;
use super::xml::{self, Instance, Volume};
use crate::provider::{LinkedResource, ProviderError};

/// The most values one EC2 filter takes in a call.
const MOST_FILTER_VALUES: usize = 200;

/// What bills in `region` without a running instance, at `now`, each listing asking `per_page`
/// items a page where it takes a number.
pub async fn sweep(
    s: &mut Session<'_>,
    region: &str,
    per_page: u32,
    now: Timestamp,
) -> Result<Vec<LinkedResource>, ProviderError> {
    let seen = read(s, per_page)
        .await
        .map_err(|e| ProviderError::state(super::ID, format!("aws: {e}")))?;
    let mut found = assemble("", region, &seen, &Known::default(), now)?.resources;
    found.extend(super::elb::sweep(s, now).await?);
    Ok(found)
}

async fn read(s: &mut Session<'_>, per_page: u32) -> Result<Seen, Ec2Error> {
    let (mut seen, public) = list(s, per_page).await?;
    seen.addresses
        .retain(|a| a.instance_id.is_none() && a.association_id.is_none());
    if let Some(kept) = s.shares {
        // Every snapshot and image the account owns was listed: the rest are gone.
        let listed = seen.snapshots.iter().map(|x| x.id.as_str());
        kept.retain(
            &listed
                .chain(seen.images.iter().map(|i| i.id.as_str()))
                .collect(),
        );
    }
    s.sharing(&mut seen, public.as_ref()).await;
    Ok(seen)
}

/// What of the sweep belongs to instance `id`, which EC2 no longer lists or lists terminated
/// (`instance`): by the links EC2 keeps and the ids `recorded` for it ([`links`]). Who may use
/// each snapshot and image is read for those alone.
pub async fn of_released(
    s: &mut Session<'_>,
    (id, instance): (&str, Option<Instance>),
    recorded: &BTreeSet<String>,
    per_page: u32,
) -> Result<Seen, Ec2Error> {
    let (all, public) = list(s, per_page).await?;
    let mut seen = links::belonging(all, id, recorded);
    seen.instance = instance;
    s.sharing(&mut seen, public.as_ref()).await;
    Ok(seen)
}

/// Every listing of the sweep, every address (associated or not), sharing not read; with the
/// ids of the public snapshots, where that listing was read.
async fn list(
    s: &mut Session<'_>,
    per_page: u32,
) -> Result<(Seen, Option<BTreeSet<String>>), Ec2Error> {
    let available = page_size(per_page, filter("status", &["available"]));
    let mut volumes = s.list("DescribeVolumes", &available, xml::volumes).await?;
    let stopped = page_size(per_page, filter("instance-state-name", &["stopped"]));
    let stopped = s
        .list("DescribeInstances", &stopped, xml::instances)
        .await?;
    volumes.extend(stopped_disks(s, &stopped, per_page).await?);
    let (snapshots, public) = shares::snapshots(s, &shares::paged(Vec::new())).await?;
    let owned = shares::paged(owned_by_self(Vec::new()));
    let images = s.list("DescribeImages", &owned, xml::images).await?;
    // DescribeAddresses answers whole: its model has no paging.
    let addresses = s
        .list("DescribeAddresses", &Vec::new(), xml::addresses)
        .await?;
    let seen = Seen {
        instance: None,
        volumes,
        snapshots,
        images,
        addresses,
        shared: BTreeMap::new(),
    };
    Ok((seen, public))
}

/// The volumes of the `stopped` instances, each said to be in use by one.
async fn stopped_disks(
    s: &mut Session<'_>,
    stopped: &[Instance],
    per_page: u32,
) -> Result<Vec<Volume>, Ec2Error> {
    let ids: Vec<&str> = stopped
        .iter()
        .flat_map(|i| i.block_devices.iter().map(|(_, volume, _)| volume.as_str()))
        .collect::<BTreeSet<&str>>()
        .into_iter()
        .collect();
    let mut disks = Vec::new();
    for chunk in ids.chunks(MOST_FILTER_VALUES) {
        let params = page_size(per_page, filter("volume-id", chunk));
        disks.extend(s.list("DescribeVolumes", &params, xml::volumes).await?);
    }
    for disk in &mut disks {
        disk.status = crate::t!("aws-disk-in-use-stopped").into_owned();
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
    Ok(disks)
}
