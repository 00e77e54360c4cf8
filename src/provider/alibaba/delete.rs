//! Deleting one resource a sweep or an inventory found: a disk (detached first, then waited
//! for until `Available`, only from the stopped instance the plan showed), an elastic IP
//! (unassociated first on the same rule), a snapshot, a custom image or a load balancer, through
//! [`delete_steps`]: read again just before, and confirmed only on proof that it is gone.
//! Alibaba's own refusal comes back as it is, with its code and message.
//!
//! The calls are one list ([`Steps`]), so `--dry-run` prints exactly what a delete makes.

use async_trait::async_trait;

use super::AlibabaCloud;
use super::inventory::{IMAGE_STATUSES, json_ids};
use super::model::{self, Ack};
use super::rpc::{Product, RpcError};
use crate::meter::ResourceKind;
use crate::provider::delete_steps::{self, Deleting, Found, Now, Plan, Sent, Step};
use crate::provider::{Action, ActionReport, LinkedResource, ProviderError};

type Params = Vec<(&'static str, String)>;

/// One call: the product, the action and its parameters.
struct Call {
    product: Product,
    action: &'static str,
    params: Params,
}

/// What deleting one resource takes, in order.
struct Steps {
    /// DetachDisk or UnassociateEipAddress, for a resource that may be attached to something.
    free: Option<&'static str>,
    /// The status the resource must reach after `free` before it can be deleted.
    freed: &'static str,
    delete: Call,
}

fn call(product: Product, action: &'static str, params: Params) -> Call {
    Call {
        product,
        action,
        params,
    }
}

/// The listing a resource is read back from.
fn lookup(kind: ResourceKind, id: &str) -> Call {
    match kind {
        ResourceKind::PublicIp => call(
            Product::Vpc,
            "DescribeEipAddresses",
            vec![("AllocationId", id.to_string())],
        ),
        ResourceKind::Snapshot => call(
            Product::Ecs,
            "DescribeSnapshots",
            vec![("SnapshotIds", json_ids(&[id]))],
        ),
        ResourceKind::Image => call(
            Product::Ecs,
            "DescribeImages",
            vec![
                ("ImageId", id.to_string()),
                ("ImageOwnerAlias", "self".into()),
                ("Status", IMAGE_STATUSES.into()),
            ],
        ),
        ResourceKind::LoadBalancer => call(
            Product::Slb,
            "DescribeLoadBalancers",
            vec![("LoadBalancerId", id.to_string())],
        ),
        _ => call(
            Product::Ecs,
            "DescribeDisks",
            vec![("DiskIds", json_ids(&[id]))],
        ),
    }
}

/// The freeing call of `kind` from instance `on`, where it has one.
fn free_call(kind: ResourceKind, id: &str, on: &str) -> Option<Call> {
    match kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => Some(call(
            Product::Ecs,
            "DetachDisk",
            vec![("DiskId", id.to_string()), ("InstanceId", on.to_string())],
        )),
        ResourceKind::PublicIp => Some(call(
            Product::Vpc,
            "UnassociateEipAddress",
            vec![
                ("AllocationId", id.to_string()),
                ("InstanceId", on.to_string()),
            ],
        )),
        _ => None,
    }
}

fn steps(r: &LinkedResource) -> Option<Steps> {
    let id = r.id.clone();
    Some(match r.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => Steps {
            free: Some("DetachDisk"),
            freed: "Available",
            delete: call(Product::Ecs, "DeleteDisk", vec![("DiskId", id)]),
        },
        ResourceKind::PublicIp => Steps {
            free: Some("UnassociateEipAddress"),
            freed: "Available",
            delete: call(
                Product::Vpc,
                "ReleaseEipAddress",
                vec![("AllocationId", id)],
            ),
        },
        ResourceKind::Snapshot => Steps {
            free: None,
            freed: "",
            delete: call(Product::Ecs, "DeleteSnapshot", vec![("SnapshotId", id)]),
        },
        ResourceKind::Image => Steps {
            free: None,
            freed: "",
            delete: call(Product::Ecs, "DeleteImage", vec![("ImageId", id)]),
        },
        ResourceKind::LoadBalancer => Steps {
            free: None,
            freed: "",
            delete: call(
                Product::Slb,
                "DeleteLoadBalancer",
                vec![("LoadBalancerId", id)],
            ),
        },
        ResourceKind::NetworkVolume | ResourceKind::StoppedInstance => return None,
    })
}

/// What a read by id found.
type Listed = Result<Found, RpcError>;

/// `Some(id)` for an instance id that is not empty.
fn on(id: &str) -> Option<String> {
    (!id.is_empty()).then(|| id.to_string())
}

fn listed(state: String, on: Option<String>) -> Found {
    Found::Listed(Now {
        state,
        on,
        link: None,
    })
}

impl AlibabaCloud {
    fn step_line(&self, c: &Call) -> String {
        self.line(c.product, c.action, &c.params)
    }

    /// The calls deleting `r` makes, in order; empty where it cannot be deleted here. A disk
    /// or an address is read first, and freed only where the plan showed it attached.
    pub(super) fn delete_calls(&self, r: &LinkedResource) -> Vec<String> {
        let Some(steps) = steps(r) else {
            return Vec::new();
        };
        let read = lookup(r.kind, &r.id);
        let mut calls = Vec::new();
        if steps.free.is_some() {
            calls.push(format!("{} (again, just before)", self.step_line(&read)));
        }
        let shown = r.attached_to.as_deref().filter(|on| !on.is_empty());
        if let Some((on, free)) = shown.and_then(|on| Some((on, free_call(r.kind, &r.id, on)?))) {
            calls.push(format!(
                "{} (only while it is stopped)",
                self.line(
                    Product::Ecs,
                    "DescribeInstances",
                    &[("InstanceIds", json_ids(&[on]))]
                )
            ));
            calls.push(self.step_line(&free));
            calls.push(format!("{} (until {})", self.step_line(&read), steps.freed));
        }
        calls.push(self.step_line(&steps.delete));
        calls.push(format!(
            "{} (read back until it is no longer listed)",
            self.step_line(&read)
        ));
        calls
    }

    /// `r` as the provider lists it now.
    async fn status_of(&self, kind: ResourceKind, id: &str) -> Listed {
        let read = lookup(kind, id);
        let (product, action, params) = (read.product, read.action, &read.params);
        let found = match kind {
            ResourceKind::PublicIp => self
                .pages::<model::EipsReply>(product, action, params)
                .await?
                .into_iter()
                .find(|e| e.allocation_id == id)
                .map(|e| listed(e.status, on(&e.instance_id))),
            ResourceKind::Snapshot => self
                .pages::<model::SnapshotsReply>(product, action, params)
                .await?
                .into_iter()
                .find(|s| s.snapshot_id == id)
                .map(|s| listed(s.status, None)),
            ResourceKind::Image => self
                .pages::<model::ImagesReply>(product, action, params)
                .await?
                .into_iter()
                .find(|i| i.image_id == id)
                .map(|i| listed(i.status, None)),
            ResourceKind::LoadBalancer => self
                .pages::<model::LoadBalancersReply>(product, action, params)
                .await?
                .into_iter()
                .find(|l| l.load_balancer_id == id)
                .map(|l| listed(l.load_balancer_status, None)),
            _ => self
                .pages::<model::DisksReply>(product, action, params)
                .await?
                .into_iter()
                .find(|d| d.disk_id == id)
                .map(|d| listed(d.status, on(&d.instance_id))),
        };
        Ok(found.unwrap_or(Found::Absent))
    }

    pub(super) async fn delete_resource(
        &self,
        r: &LinkedResource,
    ) -> Result<ActionReport, ProviderError> {
        let Some(steps) = steps(r) else {
            return Err(ProviderError::unsupported(
                "alibaba",
                format!(
                    "delete a {} (not built for this adapter yet)",
                    r.kind.label()
                ),
            ));
        };
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
            calls: self.delete_calls(r),
        })
    }
}

/// One resource being deleted.
struct One<'a> {
    cloud: &'a AlibabaCloud,
    r: &'a LinkedResource,
    steps: &'a Steps,
}

#[async_trait]
impl Deleting for One<'_> {
    type Failed = RpcError;
    type Unread = RpcError;

    async fn read(&mut self) -> Listed {
        self.cloud.status_of(self.r.kind, &self.r.id).await
    }

    fn stops(&self, e: &RpcError) -> bool {
        matches!(e, RpcError::Auth { .. })
    }

    async fn instance_state(&mut self, id: &str) -> Result<Option<String>, RpcError> {
        Ok(self.cloud.describe_instance(id).await?.map(|i| i.status))
    }

    /// A refusal is the provider's answer and comes back as it is; a call that may or may not
    /// have been done is left to the read-back.
    async fn send(
        &mut self,
        step: Step,
        now: Option<&Now>,
    ) -> Result<Sent<RpcError>, ProviderError> {
        let freeing;
        let c = match step {
            Step::Free => {
                let on = now.and_then(|n| n.on.as_deref()).unwrap_or_default();
                freeing = free_call(self.r.kind, &self.r.id, on).ok_or_else(|| {
                    ProviderError::unsupported("alibaba", "freeing this kind of resource")
                })?;
                &freeing
            }
            Step::Delete => &self.steps.delete,
        };
        match self
            .cloud
            .rpc
            .call::<Ack>(c.product, c.action, &c.params)
            .await
        {
            Ok(_) => Ok(Sent::Accepted),
            Err(e) if e.is_not_found() => Ok(Sent::NotFound(e)),
            Err(e) if e.is_refusal() => Err(e.into()),
            Err(e) => Ok(Sent::Unanswered(e)),
        }
    }
}
