//! Deleting one resource a sweep or an inventory found: a disk (detached first if it is
//! attached, then waited for until `Available`), an elastic IP (unassociated first if it is),
//! a snapshot, a custom image or a load balancer. Each is read back by id until the provider
//! no longer lists it; only then is the delete confirmed. Alibaba's own refusal comes back as
//! it is, with its code and message.
//!
//! The calls are one list ([`Steps`]), so `--dry-run` prints exactly what a delete makes.

use super::AlibabaCloud;
use super::inventory::{IMAGE_STATUSES, json_ids};
use super::model::{self, Ack};
use super::rpc::{Product, RpcError};
use crate::meter::ResourceKind;
use crate::provider::delete_steps::{self, Step, Until};
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
    /// DetachDisk or UnassociateEipAddress, when the resource is attached to something.
    free: Option<Call>,
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

fn steps(r: &LinkedResource) -> Option<Steps> {
    let id = r.id.clone();
    let attached = r.attached_to.clone().filter(|on| !on.is_empty());
    Some(match r.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => Steps {
            free: attached.map(|on| {
                call(
                    Product::Ecs,
                    "DetachDisk",
                    vec![("DiskId", id.clone()), ("InstanceId", on)],
                )
            }),
            freed: "Available",
            delete: call(Product::Ecs, "DeleteDisk", vec![("DiskId", id)]),
        },
        ResourceKind::PublicIp => Steps {
            free: attached.map(|on| {
                call(
                    Product::Vpc,
                    "UnassociateEipAddress",
                    vec![("AllocationId", id.clone()), ("InstanceId", on)],
                )
            }),
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

/// What a read by id found: the status, or `None` once it is no longer listed.
type Listed = Result<Option<String>, RpcError>;

impl AlibabaCloud {
    fn step_line(&self, c: &Call) -> String {
        self.line(c.product, c.action, &c.params)
    }

    /// The calls deleting `r` makes, in order; empty where it cannot be deleted here.
    pub(super) fn delete_calls(&self, r: &LinkedResource) -> Vec<String> {
        let Some(steps) = steps(r) else {
            return Vec::new();
        };
        let read = lookup(r.kind, &r.id);
        let mut calls = Vec::new();
        if let Some(free) = &steps.free {
            calls.push(self.step_line(free));
            calls.push(format!("{} (until {})", self.step_line(&read), steps.freed));
        }
        calls.push(self.step_line(&steps.delete));
        calls.push(format!(
            "{} (read back until it is no longer listed)",
            self.step_line(&read)
        ));
        calls
    }

    /// The status the provider lists `r` with now, or `None` once it lists it no more.
    async fn status_of(&self, kind: ResourceKind, id: &str) -> Listed {
        let read = lookup(kind, id);
        let (product, action, params) = (read.product, read.action, &read.params);
        Ok(match kind {
            ResourceKind::PublicIp => self
                .pages::<model::EipsReply>(product, action, params)
                .await?
                .into_iter()
                .find(|e| e.allocation_id == id)
                .map(|e| e.status),
            ResourceKind::Snapshot => self
                .pages::<model::SnapshotsReply>(product, action, params)
                .await?
                .into_iter()
                .find(|s| s.snapshot_id == id)
                .map(|s| s.status),
            ResourceKind::Image => self
                .pages::<model::ImagesReply>(product, action, params)
                .await?
                .into_iter()
                .find(|i| i.image_id == id)
                .map(|i| i.status),
            ResourceKind::LoadBalancer => self
                .pages::<model::LoadBalancersReply>(product, action, params)
                .await?
                .into_iter()
                .find(|l| l.load_balancer_id == id)
                .map(|l| l.load_balancer_status),
            _ => self
                .pages::<model::DisksReply>(product, action, params)
                .await?
                .into_iter()
                .find(|d| d.disk_id == id)
                .map(|d| d.status),
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
                || self.status_of(r.kind, &r.id),
                |found| done(found.as_deref()),
                |e| matches!(e, RpcError::Auth { .. }),
            )
            .await
    }

    /// Makes one call: a refusal is the provider's answer and comes back as it is; a call that
    /// may or may not have been done is left to the read-back.
    async fn send(&self, c: &Call) -> Result<Result<(), RpcError>, ProviderError> {
        match self.rpc.call::<Ack>(c.product, c.action, &c.params).await {
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
                "alibaba",
                format!(
                    "delete a {} (not built for this adapter yet)",
                    r.kind.label()
                ),
            ));
        };
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
            calls: self.delete_calls(r),
        })
    }
}
