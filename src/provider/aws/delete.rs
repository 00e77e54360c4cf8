//! Deleting one leftover the sweep (or an inventory) found, each read back by id until EC2 no
//! longer lists it or shows it deleted (a load balancer: [`super::elb`]). A disk still attached is detached first and waited for
//! until `available`; an associated address is disassociated first. EC2's refusal of a call
//! comes back as it is, code and message. A NotFound answer counts as gone: the resource was
//! listed moments before.
//!
//! The calls are those [`plan`] names, in its order; a read repeated while waiting is shown once.

use async_trait::async_trait;

use super::fetch::{Session, filter, instance_param};
use super::query::{Ec2Error, Params, describe_call, param as p};
use super::xml;
use crate::meter::ResourceKind;
use crate::provider::delete_steps::{self, Deleting, Found, Now, Plan, Sent, Step};
use crate::provider::http::Repeat;
use crate::provider::readback::Readback;
use crate::provider::{LinkedResource, ProviderError};

pub type Outcome = (bool, String);

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

/// The calls deleting `r` makes, in order; empty for a kind this adapter does not delete. A
/// disk or an address is read again first, and freed only where the plan showed it attached,
/// after its instance reads `stopped`.
pub fn plan(r: &LinkedResource) -> Vec<String> {
    let id = r.id.as_str();
    let shown = r.attached_to.as_deref().filter(|on| !on.is_empty());
    let holder = |on: &str| describe_call("DescribeInstances", &instance_param(on));
    match r.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => {
            let read = describe_call("DescribeVolumes", &volume_read(id));
            let mut calls = vec![read.clone()];
            if let Some(on) = shown {
                calls.push(holder(on));
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
            if let Some(on) = shown {
                calls.push(holder(on));
                calls.push(describe_call(
                    "DisassociateAddress",
                    &[p("AssociationId", crate::t!("aws-plan-association"))],
                ));
                calls.push(read.clone());
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
    let (free, freed, delete, gone_state) = match r.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => (
            Some("DetachVolume"),
            "available",
            "DeleteVolume",
            Some("deleted"),
        ),
        ResourceKind::PublicIp => (Some("DisassociateAddress"), FREE, "ReleaseAddress", None),
        ResourceKind::Snapshot => (None, "", "DeleteSnapshot", None),
        ResourceKind::Image => (None, "", "DeregisterImage", Some("deregistered")),
        ResourceKind::LoadBalancer => return super::elb::delete(s, id, readback).await,
        ResourceKind::NetworkVolume | ResourceKind::StoppedInstance => {
            return Err(ProviderError::unsupported(
                super::ID,
                crate::t!("aws-unsupported-delete-kind", kind = r.kind.shown()),
            ));
        }
    };
    let what = format!("{} {id}", r.kind.shown());
    let plan = Plan {
        what: &what,
        shown_on: r.attached_to.as_deref().filter(|on| !on.is_empty()),
        free,
        freed,
        delete,
        gone_state,
    };
    delete_steps::run(&mut One { s, r }, &plan, &readback).await
}

/// What an address reads while no instance or interface holds it.
const FREE: &str = "free";

fn now(state: String, on: Option<String>) -> Now {
    Now {
        state,
        on,
        link: None,
    }
}

/// One resource being deleted.
struct One<'s, 'a> {
    s: &'s mut Session<'a>,
    r: &'s LinkedResource,
}

impl One<'_, '_> {
    /// The read by id, and the codes by which EC2 says it does not know the id.
    fn lookup(&self) -> (&'static str, Params, &'static [&'static str]) {
        let id = self.r.id.as_str();
        match self.r.kind {
            ResourceKind::PublicIp => ("DescribeAddresses", address_read(id), ADDRESS_GONE),
            ResourceKind::Snapshot => ("DescribeSnapshots", snapshot_read(id), SNAPSHOT_GONE),
            ResourceKind::Image => ("DescribeImages", image_read(id), IMAGE_GONE),
            _ => ("DescribeVolumes", volume_read(id), VOLUME_GONE),
        }
    }

    async fn call(
        &mut self,
        action: &str,
        params: &Params,
    ) -> Result<Sent<Ec2Error>, ProviderError> {
        let (_, _, gone) = self.lookup();
        let answer = match self.s.call(action, params, Repeat::Safe).await {
            Ok(body) => xml::parse_answer(&body, action)
                .map(|_| ())
                .map_err(|m| Ec2Error::malformed(action, &m)),
            Err(e) => Err(e),
        };
        match answer {
            Ok(()) => Ok(Sent::Accepted),
            Err(e) if e.code().is_some_and(|c| gone.contains(&c)) => Ok(Sent::NotFound(e)),
            Err(e @ Ec2Error::Api { status, .. }) if status < 500 => Err(e.into()),
            Err(e @ Ec2Error::Credentials(_)) => Err(e.into()),
            Err(e) => Ok(Sent::Unanswered(e)),
        }
    }
}

#[async_trait]
impl Deleting for One<'_, '_> {
    type Failed = Ec2Error;
    type Unread = Ec2Error;

    async fn read(&mut self) -> Result<Found, Ec2Error> {
        let id = self.r.id.as_str();
        let (action, params, gone) = self.lookup();
        let s = &mut *self.s;
        let listed = match self.r.kind {
            ResourceKind::PublicIp => s.list(action, &params, xml::addresses).await.map(|all| {
                let is_it =
                    |a: &xml::Address| a.allocation_id.as_deref() == Some(id) || a.public_ip == id;
                all.into_iter().find(is_it).map(|a| Now {
                    state: if a.association_id.is_some() {
                        "associated"
                    } else {
                        FREE
                    }
                    .into(),
                    on: a.instance_id.or(a.network_interface_id),
                    link: a.association_id,
                })
            }),
            ResourceKind::Snapshot => s.list(action, &params, xml::snapshots).await.map(|all| {
                let x = all.into_iter().find(|x| x.id == id)?;
                Some(now(x.status, None))
            }),
            ResourceKind::Image => s.list(action, &params, xml::images).await.map(|all| {
                let x = all.into_iter().find(|x| x.id == id)?;
                Some(now(x.state, None))
            }),
            _ => s.list(action, &params, xml::volumes).await.map(|all| {
                let v = all.into_iter().find(|v| v.id == id)?;
                let on = v.attachments.into_iter().next().map(|a| a.0);
                Some(now(v.status, on))
            }),
        };
        match listed {
            Ok(Some(now)) => Ok(Found::Listed(now)),
            Ok(None) => Ok(Found::Absent),
            Err(e) if e.code().is_some_and(|c| gone.contains(&c)) => Ok(Found::NotFound),
            Err(e) => Err(e),
        }
    }

    fn stops(&self, e: &Ec2Error) -> bool {
        matches!(e, Ec2Error::Credentials(_))
            || matches!(e, Ec2Error::Api { status, .. } if *status == 401 || *status == 403)
    }

    async fn instance_state(&mut self, id: &str) -> Result<Option<String>, Ec2Error> {
        Ok(self.s.instance(id).await?.map(|i| i.state))
    }

    async fn send(
        &mut self,
        step: Step,
        now: Option<&Now>,
    ) -> Result<Sent<Ec2Error>, ProviderError> {
        let id = self.r.id.clone();
        let (action, params) = match (step, self.r.kind) {
            (Step::Free, ResourceKind::PublicIp) => {
                let association = now.and_then(|n| n.link.clone()).unwrap_or_default();
                (
                    "DisassociateAddress",
                    vec![p("AssociationId", &association)],
                )
            }
            (Step::Free, _) => {
                let on = now.and_then(|n| n.on.clone()).unwrap_or_default();
                ("DetachVolume", detach(&id, &on))
            }
            (Step::Delete, ResourceKind::PublicIp) => {
                ("ReleaseAddress", vec![p(address_key(&id).0, &id)])
            }
            (Step::Delete, ResourceKind::Snapshot) => {
                ("DeleteSnapshot", vec![p("SnapshotId", &id)])
            }
            (Step::Delete, ResourceKind::Image) => ("DeregisterImage", vec![p("ImageId", &id)]),
            (Step::Delete, _) => ("DeleteVolume", vec![p("VolumeId", &id)]),
        };
        self.call(action, &params).await
    }
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
