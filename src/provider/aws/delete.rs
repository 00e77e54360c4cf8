//! Deleting one leftover the sweep (or an inventory) found, each read back by id until EC2 no
//! longer lists it or shows it deleted (a load balancer: [`super::elb`]). A disk still attached is detached first and waited for
//! until `available`; an associated address is disassociated first. EC2's refusal of a call
//! comes back as it is, code and message. A NotFound answer counts as gone: the resource was
//! listed moments before.
//!
//! The calls are those [`plan`] names, in its order; a read repeated while waiting is shown once.

use roxmltree::Document;

use super::fetch::{Session, filter};
use super::query::{Ec2Error, Params, describe_call};
use super::xml;
use crate::meter::ResourceKind;
use crate::provider::http::Repeat;
use crate::provider::readback::Readback;
use crate::provider::{LinkedResource, ProviderError};

pub type Outcome = (bool, String);

fn p(k: &str, v: &str) -> (String, String) {
    (k.to_string(), v.to_string())
}

fn volume_read(id: &str) -> Params {
    vec![p("VolumeId.1", id)]
}

fn snapshot_read(id: &str) -> Params {
    vec![p("SnapshotId.1", id)]
}

fn image_read(id: &str) -> Params {
    vec![p("ImageId.1", id)]
}

/// An address is named by its allocation id; one without (EC2-Classic) by its public IP.
fn address_key(id: &str) -> (&'static str, &'static str) {
    if id.starts_with("eipalloc-") {
        ("AllocationId", "allocation-id")
    } else {
        ("PublicIp", "public-ip")
    }
}

fn address_read(id: &str) -> Params {
    filter(address_key(id).1, &[id])
}

/// The calls deleting `r` makes, in order; empty for a kind this adapter does not delete.
pub fn plan(r: &LinkedResource) -> Vec<String> {
    let id = r.id.as_str();
    match r.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => {
            let read = describe_call("DescribeVolumes", &volume_read(id));
            let mut calls = vec![read.clone()];
            if let Some(on) = &r.attached_to {
                calls.push(describe_call("DetachVolume", &detach(id, on)));
                calls.push(read.clone());
            }
            calls.push(describe_call("DeleteVolume", &[p("VolumeId", id)]));
            calls.push(read);
            calls
        }
        ResourceKind::PublicIp => {
            let read = describe_call("DescribeAddresses", &address_read(id));
            let mut calls = vec![read.clone()];
            if r.attached_to.is_some() {
                calls.push(describe_call(
                    "DisassociateAddress",
                    &[p(
                        "AssociationId",
                        "<its association, as DescribeAddresses reads it>",
                    )],
                ));
            }
            calls.push(describe_call("ReleaseAddress", &[p(address_key(id).0, id)]));
            calls.push(read);
            calls
        }
        ResourceKind::Snapshot => vec![
            describe_call("DeleteSnapshot", &[p("SnapshotId", id)]),
            describe_call("DescribeSnapshots", &snapshot_read(id)),
        ],
        ResourceKind::Image => vec![
            describe_call("DeregisterImage", &[p("ImageId", id)]),
            describe_call("DescribeImages", &image_read(id)),
        ],
        ResourceKind::LoadBalancer => super::elb::plan(id),
        ResourceKind::NetworkVolume | ResourceKind::StoppedInstance => Vec::new(),
    }
}

fn detach(volume: &str, instance: &str) -> Params {
    vec![p("VolumeId", volume), p("InstanceId", instance)]
}

/// One resource read by id: `None` when EC2 no longer lists it (or answers `not_found`).
async fn read_one<T>(
    s: &mut Session<'_>,
    (action, params): (&str, &Params),
    read: fn(&Document<'_>) -> Vec<T>,
    is_it: impl Fn(&T) -> bool,
    not_found: &[&str],
) -> Result<Option<T>, Ec2Error> {
    match s.list(action, params, read).await {
        Ok(found) => Ok(found.into_iter().find(is_it)),
        Err(e) if e.code().is_some_and(|c| not_found.contains(&c)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Reads until `done` holds, at most `readback.attempts` times: the last answer.
async fn until<T>(
    s: &mut Session<'_>,
    readback: Readback,
    (action, params): (&str, &Params),
    read: fn(&Document<'_>) -> Vec<T>,
    is_it: impl Fn(&T) -> bool + Copy,
    not_found: &[&str],
    done: impl Fn(Option<&T>) -> bool,
) -> Result<Option<T>, Ec2Error> {
    let mut attempt = 1;
    loop {
        let now = read_one(s, (action, params), read, is_it, not_found).await?;
        if done(now.as_ref()) || attempt >= readback.attempts.max(1) {
            return Ok(now);
        }
        attempt += 1;
        tokio::time::sleep(readback.interval).await;
    }
}

/// Sends a delete; a NotFound answer means it is gone already.
async fn send(
    s: &mut Session<'_>,
    action: &str,
    params: &Params,
    not_found: &[&str],
) -> Result<(), Ec2Error> {
    match s.call(action, params, Repeat::Safe).await {
        Ok(body) => xml::parse_answer(&body, action)
            .map(|_| ())
            .map_err(|m| Ec2Error::malformed(action, &m)),
        Err(e) if e.code().is_some_and(|c| not_found.contains(&c)) => Ok(()),
        Err(e) => Err(e),
    }
}

fn read_back_failed(what: &str, e: &Ec2Error) -> Outcome {
    (false, format!("{what}, but the read-back failed: {e}"))
}

const VOLUME_GONE: &[&str] = &["InvalidVolume.NotFound"];
const SNAPSHOT_GONE: &[&str] = &["InvalidSnapshot.NotFound"];
const IMAGE_GONE: &[&str] = &["InvalidAMIID.NotFound", "InvalidAMIID.Unavailable"];
const ADDRESS_GONE: &[&str] = &["InvalidAllocationID.NotFound", "InvalidAddress.NotFound"];

/// Deletes `r` and reads it back.
pub async fn delete(
    s: &mut Session<'_>,
    r: &LinkedResource,
    readback: Readback,
) -> Result<Outcome, ProviderError> {
    let id = r.id.as_str();
    Ok(match r.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => volume(s, r, readback).await?,
        ResourceKind::PublicIp => address(s, id, readback).await?,
        ResourceKind::Snapshot => {
            send(
                s,
                "DeleteSnapshot",
                &vec![p("SnapshotId", id)],
                SNAPSHOT_GONE,
            )
            .await?;
            let read = ("DescribeSnapshots", &snapshot_read(id));
            let is_it = |x: &xml::Snapshot| x.id == id;
            match until(
                s,
                readback,
                read,
                xml::snapshots,
                is_it,
                SNAPSHOT_GONE,
                |n| n.is_none(),
            )
            .await
            {
                Ok(None) => (true, format!("{id} deleted; EC2 no longer lists it")),
                Ok(Some(x)) => (false, format!("{id} is still listed `{}`", x.status)),
                Err(e) => read_back_failed("DeleteSnapshot accepted", &e),
            }
        }
        ResourceKind::Image => {
            send(s, "DeregisterImage", &vec![p("ImageId", id)], IMAGE_GONE).await?;
            let read = ("DescribeImages", &image_read(id));
            let is_it = |x: &xml::Image| x.id == id;
            let gone = |n: Option<&xml::Image>| n.is_none_or(|i| i.state == "deregistered");
            match until(s, readback, read, xml::images, is_it, IMAGE_GONE, gone).await {
                Ok(None) => (true, format!("{id} deregistered; EC2 no longer lists it")),
                Ok(Some(i)) if i.state == "deregistered" => (
                    true,
                    format!("{id} deregistered; EC2 reads back `deregistered`"),
                ),
                Ok(Some(i)) => (false, format!("{id} is still listed `{}`", i.state)),
                Err(e) => read_back_failed("DeregisterImage accepted", &e),
            }
        }
        ResourceKind::LoadBalancer => super::elb::delete(s, id, readback).await?,
        ResourceKind::NetworkVolume | ResourceKind::StoppedInstance => {
            return Err(ProviderError::unsupported(
                "aws",
                format!(
                    "delete a {} (not built for this adapter yet)",
                    r.kind.label()
                ),
            ));
        }
    })
}

async fn volume(
    s: &mut Session<'_>,
    r: &LinkedResource,
    readback: Readback,
) -> Result<Outcome, ProviderError> {
    let id = r.id.as_str();
    let read_params = volume_read(id);
    let read = ("DescribeVolumes", &read_params);
    let is_it = |v: &xml::Volume| v.id == id;
    let Some(now) = read_one(s, read, xml::volumes, is_it, VOLUME_GONE).await? else {
        return Ok((
            true,
            format!("{id} is gone already: EC2 no longer lists it"),
        ));
    };
    let on = now
        .attachments
        .first()
        .map(|a| a.0.clone())
        .or_else(|| r.attached_to.clone().filter(|_| now.status != "available"));
    if let Some(instance) = on {
        send(s, "DetachVolume", &detach(id, &instance), &[]).await?;
        let free = |v: Option<&xml::Volume>| v.is_none_or(|v| v.status == "available");
        match until(s, readback, read, xml::volumes, is_it, VOLUME_GONE, free).await {
            Ok(Some(v)) if v.status != "available" => {
                return Ok((
                    false,
                    format!(
                        "DetachVolume from {instance} accepted, but {id} reads back `{}`, not \
                         `available`: not deleted",
                        v.status
                    ),
                ));
            }
            Ok(_) => {}
            Err(e) => {
                return Ok(read_back_failed(
                    &format!("DetachVolume from {instance} accepted; not deleted"),
                    &e,
                ));
            }
        }
    }
    send(s, "DeleteVolume", &vec![p("VolumeId", id)], VOLUME_GONE).await?;
    let gone = |v: Option<&xml::Volume>| v.is_none_or(|v| v.status == "deleted");
    Ok(
        match until(s, readback, read, xml::volumes, is_it, VOLUME_GONE, gone).await {
            Ok(None) => (true, format!("{id} deleted; EC2 no longer lists it")),
            Ok(Some(v)) if v.status == "deleted" => {
                (true, format!("{id} deleted; EC2 reads back `deleted`"))
            }
            Ok(Some(v)) => (false, format!("{id} is still listed `{}`", v.status)),
            Err(e) => read_back_failed("DeleteVolume accepted", &e),
        },
    )
}

async fn address(s: &mut Session<'_>, id: &str, readback: Readback) -> Result<Outcome, Ec2Error> {
    let read_params = address_read(id);
    let read = ("DescribeAddresses", &read_params);
    let is_it = |a: &xml::Address| a.allocation_id.as_deref() == Some(id) || a.public_ip == id;
    let Some(now) = read_one(s, read, xml::addresses, is_it, ADDRESS_GONE).await? else {
        return Ok((
            true,
            format!("{id} is released already: EC2 no longer lists it"),
        ));
    };
    if let Some(association) = &now.association_id {
        send(
            s,
            "DisassociateAddress",
            &vec![p("AssociationId", association)],
            &["InvalidAssociationID.NotFound"],
        )
        .await?;
    }
    send(
        s,
        "ReleaseAddress",
        &vec![p(address_key(id).0, id)],
        ADDRESS_GONE,
    )
    .await?;
    Ok(
        match until(
            s,
            readback,
            read,
            xml::addresses,
            is_it,
            ADDRESS_GONE,
            |a| a.is_none(),
        )
        .await
        {
            Ok(None) => (true, format!("{id} released; EC2 no longer lists it")),
            Ok(Some(_)) => (false, format!("{id} is still allocated")),
            Err(e) => read_back_failed("ReleaseAddress accepted", &e),
        },
    )
}

/// `calls` with each run of one repeated call (a read while waiting) shown once.
pub fn once_each(calls: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(calls.len());
    for call in calls {
        if out.last() != Some(&call) {
            out.push(call);
        }
    }
    out
}
