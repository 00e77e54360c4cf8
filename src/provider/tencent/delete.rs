//! Deleting one resource a sweep found: a CBS disk (DetachDisks first if it is attached, then
//! waited for until `UNATTACHED`, then TerminateDisks), an EIP (DisassociateAddress first if it
//! is bound, then ReleaseAddresses), a CBS snapshot (DeleteSnapshots), a custom image (CVM
//! DeleteImages) or a load balancer (CLB DeleteLoadBalancer). Each is read back by id until the
//! provider no longer lists it; only then is the delete confirmed. Tencent Cloud's own refusal
//! comes back as it is, with its code.
//!
//! The calls are one list ([`Steps`]), so `--dry-run` prints exactly what a delete makes.

use serde_json::{Value, json};

use super::TencentCloud;
use super::api::{ApiError, describe};
use super::inventory::ADDRESS_TYPES;
use super::model;
use crate::meter::ResourceKind;
use crate::provider::delete_steps::{self, Step, Until};
use crate::provider::http::Repeat;
use crate::provider::{Action, ActionReport, LinkedResource, ProviderError};

/// One call: the action and its body.
struct Call {
    action: &'static str,
    body: Value,
}

/// What deleting one resource takes, in order.
struct Steps {
    /// DetachDisks or DisassociateAddress, when the resource is attached to something.
    free: Option<Call>,
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

fn steps(r: &LinkedResource) -> Option<Steps> {
    let id = r.id.as_str();
    let attached = r.attached_to.as_deref().filter(|on| !on.is_empty());
    Some(match r.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => Steps {
            free: attached
                .map(|on| call("DetachDisks", json!({"DiskIds": [id], "InstanceId": on}))),
            freed: "UNATTACHED",
            delete: call("TerminateDisks", json!({"DiskIds": [id]})),
        },
        ResourceKind::PublicIp => Steps {
            free: attached.map(|_| call("DisassociateAddress", json!({"AddressId": id}))),
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

/// What a read by id found: the state, or `None` once it is no longer listed.
type Listed = Result<Option<String>, ProviderError>;

fn refused_key(e: &ProviderError) -> bool {
    matches!(e.kind(), crate::provider::ErrorKind::Auth(_))
}

impl TencentCloud {
    /// The calls deleting `r` makes, in order; empty where it cannot be deleted here.
    pub(super) fn delete_calls(r: &LinkedResource) -> Vec<String> {
        let Some(steps) = steps(r) else {
            return Vec::new();
        };
        let read = lookup(r.kind, &r.id);
        let mut calls = Vec::new();
        if let Some(free) = &steps.free {
            calls.push(describe(free.action, &free.body));
            calls.push(format!(
                "{} (until {})",
                describe(read.action, &read.body),
                steps.freed
            ));
        }
        calls.push(describe(steps.delete.action, &steps.delete.body));
        calls.push(format!(
            "{} (read back until it is no longer listed)",
            describe(read.action, &read.body)
        ));
        calls
    }

    /// The state the provider lists `r` in now, or `None` once it lists it no more.
    async fn state_of(&self, kind: ResourceKind, id: &str) -> Listed {
        let read = lookup(kind, id);
        let (action, body) = (read.action, &read.body);
        Ok(match kind {
            ResourceKind::PublicIp => self
                .pages::<model::AddressesReply>(action, body)
                .await?
                .into_iter()
                .find(|a| a.address_id == id)
                .map(|a| a.address_status),
            ResourceKind::Snapshot => self
                .pages::<model::SnapshotsReply>(action, body)
                .await?
                .into_iter()
                .find(|s| s.snapshot_id == id)
                .map(|s| s.snapshot_state),
            ResourceKind::Image => self
                .pages::<model::ImagesReply>(action, body)
                .await?
                .into_iter()
                .find(|i| i.image_id == id)
                .map(|i| i.image_state),
            ResourceKind::LoadBalancer => self
                .pages::<model::LoadBalancersReply>(action, body)
                .await?
                .into_iter()
                .find(|l| l.load_balancer_id == id)
                .map(|l| super::balancers::state(l.status)),
            _ => self
                .pages::<model::DisksReply>(action, body)
                .await?
                .into_iter()
                .find(|d| d.disk_id == id)
                .map(|d| d.disk_state),
        })
    }

    /// Reads `r` until `done` holds, at most `attempts` times; a refused key ends it.
    async fn read_until(
        &self,
        r: &LinkedResource,
        attempts: u32,
        done: impl Fn(Option<&str>) -> bool,
    ) -> Listed {
        self.readback
            .poll(
                attempts,
                || self.state_of(r.kind, &r.id),
                |found| done(found.as_deref()),
                refused_key,
            )
            .await
    }

    /// Makes one call: a refusal is the provider's answer and comes back as it is; a call that
    /// may or may not have been done is left to the read-back. Repeating a detach, a
    /// disassociation or a delete cannot do more: a second one finds nothing to do.
    async fn send(&self, c: &Call) -> Result<Result<(), ApiError>, ProviderError> {
        match self
            .api
            .call::<model::Ack>(c.action, &c.body, Repeat::Safe)
            .await
        {
            Ok(_) => Ok(Ok(())),
            // Already gone: the read-back says so.
            Err(e) if e.is_not_found() => Ok(Err(e)),
            Err(e) if e.is_refusal() => Err(e.into()),
            Err(e) => Ok(Err(e)),
        }
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
        let (confirmed, summary) = delete_steps::run(
            &what,
            steps.free.as_ref().map(|c| c.action),
            steps.freed,
            steps.delete.action,
            &self.readback,
            |step| {
                self.send(match (step, &steps.free) {
                    (Step::Free, Some(free)) => free,
                    _ => &steps.delete,
                })
            },
            |attempts, until: Until| self.read_until(r, attempts, move |s| until.reached(s)),
        )
        .await?;
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
