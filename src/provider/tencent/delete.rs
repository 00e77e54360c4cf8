//! Deleting one resource a sweep found: a CBS disk (DetachDisks first, only from the stopped
//! instance the plan showed, then waited for until `UNATTACHED`, then TerminateDisks), an EIP
//! (DisassociateAddress first on the same rule, then ReleaseAddresses), a CBS snapshot
//! (DeleteSnapshots), a custom image (CVM DeleteImages) or a load balancer (CLB
//! DeleteLoadBalancer), through [`delete_steps`]: read again just before, and confirmed only on
//! proof that it is gone. Tencent Cloud's own refusal
//! comes back as it is, with its code.
//!
//! The calls are one list ([`Steps`]), so `--dry-run` prints exactly what a delete makes.

use async_trait::async_trait;
use serde_json::{Value, json};

use super::TencentCloud;
use super::api::{ApiError, describe};
use super::inventory::ADDRESS_TYPES;
use super::model;
use crate::meter::ResourceKind;
use crate::provider::delete_steps::{self, Deleting, Found, Now, Plan, Sent, Step};
use crate::provider::http::Repeat;
use crate::provider::{Action, ActionReport, LinkedResource, ProviderError};

/// One call: the action and its body.
struct Call {
    action: &'static str,
    body: Value,
}

/// What deleting one resource takes, in order.
struct Steps {
    /// DetachDisks or DisassociateAddress, for a resource that may be attached to something.
    free: Option<&'static str>,
    /// The state the resource must reach after `free` before it can be deleted.
    freed: &'static str,
    delete: Call,
}

fn call(action: &'static str, body: Value) -> Call {
    Call { action, body }
}

/// The listing a resource is read back from, by id.
fn lookup(kind: ResourceKind, id: &str) -> Call {
    match kind {
        // DescribeAddresses lists only `EIP` unless the `address-type` filter names the others
        // (VPC 2017-03-12): without it another type would read as gone.
        ResourceKind::PublicIp => call(
            "DescribeAddresses",
            json!({"AddressIds": [id], "Filters": [{"Name": "address-type", "Values": ADDRESS_TYPES}]}),
        ),
        ResourceKind::Snapshot => call("DescribeSnapshots", json!({"SnapshotIds": [id]})),
        // ImageIds alone: CVM refuses ImageIds with Filters.
        ResourceKind::Image => call("DescribeImages", json!({"ImageIds": [id]})),
        ResourceKind::LoadBalancer => {
            call("DescribeLoadBalancers", json!({"LoadBalancerIds": [id]}))
        }
        _ => call("DescribeDisks", json!({"DiskIds": [id]})),
    }
}

/// The freeing call of `kind` from instance `on`, where it has one.
fn free_call(kind: ResourceKind, id: &str, on: &str) -> Option<Call> {
    match kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => Some(call(
            "DetachDisks",
            json!({"DiskIds": [id], "InstanceId": on}),
        )),
        ResourceKind::PublicIp => Some(call("DisassociateAddress", json!({"AddressId": id}))),
        _ => None,
    }
}

fn steps(r: &LinkedResource) -> Option<Steps> {
    let id = r.id.as_str();
    Some(match r.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => Steps {
            free: Some("DetachDisks"),
            freed: "UNATTACHED",
            delete: call("TerminateDisks", json!({"DiskIds": [id]})),
        },
        ResourceKind::PublicIp => Steps {
            free: Some("DisassociateAddress"),
            freed: "UNBIND",
            delete: call("ReleaseAddresses", json!({"AddressIds": [id]})),
        },
        ResourceKind::Snapshot => Steps {
            free: None,
            freed: "",
            delete: call("DeleteSnapshots", json!({"SnapshotIds": [id]})),
        },
        ResourceKind::Image => Steps {
            free: None,
            freed: "",
            delete: call("DeleteImages", json!({"ImageIds": [id]})),
        },
        ResourceKind::LoadBalancer => Steps {
            free: None,
            freed: "",
            delete: call("DeleteLoadBalancer", json!({"LoadBalancerIds": [id]})),
        },
        ResourceKind::NetworkVolume | ResourceKind::StoppedInstance => return None,
    })
}

/// What a read by id found.
type Listed = Result<Found, ProviderError>;

fn refused_key(e: &ProviderError) -> bool {
    matches!(e.kind(), crate::provider::ErrorKind::Auth(_))
}

fn listed(state: String, on: Option<String>) -> Found {
    Found::Listed(Now {
        state,
        on: on.filter(|i| !i.is_empty()),
        link: None,
    })
}

impl TencentCloud {
    /// The calls deleting `r` makes, in order; empty where it cannot be deleted here. A disk
    /// or an address is read first, and freed only where the plan showed it attached.
    pub(super) fn delete_calls(r: &LinkedResource) -> Vec<String> {
        let Some(steps) = steps(r) else {
            return Vec::new();
        };
        let read = lookup(r.kind, &r.id);
        let read_line = describe(read.action, &read.body);
        let mut calls = Vec::new();
        if steps.free.is_some() {
            calls.push(format!("{read_line} (again, just before)"));
        }
        let shown = r.attached_to.as_deref().filter(|on| !on.is_empty());
        if let Some((on, free)) = shown.and_then(|on| Some((on, free_call(r.kind, &r.id, on)?))) {
            calls.push(format!(
                "{} (only while it is stopped)",
                describe("DescribeInstances", &json!({"InstanceIds": [on]}))
            ));
            calls.push(describe(free.action, &free.body));
            calls.push(format!("{read_line} (until {})", steps.freed));
        }
        calls.push(describe(steps.delete.action, &steps.delete.body));
        calls.push(format!(
            "{read_line} (read back until it is no longer listed)"
        ));
        calls
    }

    /// `r` as the provider lists it now.
    async fn state_of(&self, kind: ResourceKind, id: &str) -> Listed {
        let read = lookup(kind, id);
        let (action, body) = (read.action, &read.body);
        let found = match kind {
            ResourceKind::PublicIp => self
                .pages::<model::AddressesReply>(action, body)
                .await?
                .into_iter()
                .find(|a| a.address_id == id)
                .map(|a| listed(a.address_status, a.instance_id)),
            ResourceKind::Snapshot => self
                .pages::<model::SnapshotsReply>(action, body)
                .await?
                .into_iter()
                .find(|s| s.snapshot_id == id)
                .map(|s| listed(s.snapshot_state, None)),
            ResourceKind::Image => self
                .pages::<model::ImagesReply>(action, body)
                .await?
                .into_iter()
                .find(|i| i.image_id == id)
                .map(|i| listed(i.image_state, None)),
            ResourceKind::LoadBalancer => self
                .pages::<model::LoadBalancersReply>(action, body)
                .await?
                .into_iter()
                .find(|l| l.load_balancer_id == id)
                .map(|l| listed(super::balancers::state(l.status), None)),
            _ => self
                .pages::<model::DisksReply>(action, body)
                .await?
                .into_iter()
                .find(|d| d.disk_id == id)
                .map(|d| listed(d.disk_state, d.instance_id)),
        };
        Ok(found.unwrap_or(Found::Absent))
    }

    pub(super) async fn delete_resource(
        &self,
        r: &LinkedResource,
    ) -> Result<ActionReport, ProviderError> {
        let Some(steps) = steps(r) else {
            return Err(ProviderError::unsupported(
                "tencent",
                format!(
                    "delete a {} (not built for this adapter yet)",
                    r.kind.label()
                ),
            ));
        };
        if r.kind == ResourceKind::PublicIp && r.id.parse::<std::net::IpAddr>().is_ok() {
            // An inventory names a public IP by its address; VPC deletes by its id.
            return Err(ProviderError::state(
                "tencent",
                format!(
                    "{} is an IP, not an address id (eip-...): delete it as `gpumeter sweep` lists it",
                    r.id
                ),
            ));
        }
        let what = format!("{} {}", r.kind.label(), r.id);
        let plan = Plan {
            what: &what,
            shown_on: r.attached_to.as_deref().filter(|on| !on.is_empty()),
            free: steps.free,
            freed: steps.freed,
            delete: steps.delete.action,
            gone_state: None,
        };
        let mut one = One {
            cloud: self,
            r,
            steps: &steps,
        };
        let (confirmed, summary) = delete_steps::run(&mut one, &plan, &self.readback).await?;
        Ok(ActionReport {
            action: Action::Cleanup {
                delete: vec![r.clone()],
            },
            confirmed,
            summary,
            calls: Self::delete_calls(r),
        })
    }
}

/// One resource being deleted.
struct One<'a> {
    cloud: &'a TencentCloud,
    r: &'a LinkedResource,
    steps: &'a Steps,
}

#[async_trait]
impl Deleting for One<'_> {
    type Failed = ApiError;
    type Unread = ProviderError;

    async fn read(&mut self) -> Listed {
        self.cloud.state_of(self.r.kind, &self.r.id).await
    }

    fn stops(&self, e: &ProviderError) -> bool {
        refused_key(e)
    }

    async fn instance_state(&mut self, id: &str) -> Result<Option<String>, ProviderError> {
        Ok(self
            .cloud
            .describe_instance(id)
            .await?
            .map(|i| i.instance_state))
    }

    /// A refusal is the provider's answer and comes back as it is; a call that may or may not
    /// have been done is left to the read-back. Repeating a detach, a disassociation or a
    /// delete cannot do more: a second one finds nothing to do.
    async fn send(
        &mut self,
        step: Step,
        now: Option<&Now>,
    ) -> Result<Sent<ApiError>, ProviderError> {
        let freeing;
        let c = match step {
            Step::Free => {
                let on = now.and_then(|n| n.on.as_deref()).unwrap_or_default();
                freeing = free_call(self.r.kind, &self.r.id, on).ok_or_else(|| {
                    ProviderError::unsupported("tencent", "freeing this kind of resource")
                })?;
                &freeing
            }
            Step::Delete => &self.steps.delete,
        };
        match self
            .cloud
            .api
            .call::<model::Ack>(c.action, &c.body, Repeat::Safe)
            .await
        {
            Ok(_) => Ok(Sent::Accepted),
            Err(e) if e.is_not_found() => Ok(Sent::NotFound(e)),
            Err(e) if e.is_refusal() => Err(e.into()),
            Err(e) => Ok(Sent::Unanswered(e)),
        }
    }
}
