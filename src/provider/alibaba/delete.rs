//! Deleting one resource a sweep or an inventory found: a disk (detached first, then waited
//! for until `Available`, only from the stopped instance the plan showed), an elastic IP
//! (unassociated first on the same rule), a snapshot, a custom image or a load balancer, through
//! the skeleton's [`delete`]: read again just before, and confirmed only on proof that it is
//! gone. Alibaba's own refusal comes back as it is, with its code and message.

use async_trait::async_trait;

use super::AlibabaCloud;
use super::inventory::{IMAGE_STATUSES, json_ids};
use super::model::{self, Ack};
use super::rpc::{Product, RpcError};
use crate::meter::ResourceKind;
use crate::provider::LinkedResource;
use crate::provider::delete_steps::{Found, Now};
use crate::provider::rpc_cloud::CallError;
use crate::provider::rpc_cloud::delete::{DeleteApi, Request, Steps, request};

/// The product a call goes to, and its parameters.
type Body = (Product, Vec<(&'static str, String)>);

fn call(
    product: Product,
    action: &'static str,
    params: Vec<(&'static str, String)>,
) -> Request<Body> {
    request(action, (product, params))
}

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

#[async_trait]
impl DeleteApi for AlibabaCloud {
    type Body = Body;
    type Unread = RpcError;

    fn steps(r: &LinkedResource) -> Option<Steps<Body>> {
        let id = r.id.clone();
        Some(match r.kind {
            ResourceKind::SystemDisk | ResourceKind::DataDisk => Steps::freed_first(
                "DetachDisk",
                "Available",
                call(Product::Ecs, "DeleteDisk", vec![("DiskId", id)]),
            ),
            ResourceKind::PublicIp => Steps::freed_first(
                "UnassociateEipAddress",
                "Available",
                call(
                    Product::Vpc,
                    "ReleaseEipAddress",
                    vec![("AllocationId", id)],
                ),
            ),
            ResourceKind::Snapshot => {
                Steps::delete("DeleteSnapshot", (Product::Ecs, vec![("SnapshotId", id)]))
            }
            ResourceKind::Image => {
                Steps::delete("DeleteImage", (Product::Ecs, vec![("ImageId", id)]))
            }
            ResourceKind::LoadBalancer => Steps::delete(
                "DeleteLoadBalancer",
                (Product::Slb, vec![("LoadBalancerId", id)]),
            ),
            ResourceKind::NetworkVolume | ResourceKind::StoppedInstance => return None,
        })
    }

    fn lookup(kind: ResourceKind, id: &str) -> Request<Body> {
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

    fn free_call(kind: ResourceKind, id: &str, on: &str) -> Option<Request<Body>> {
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

    fn request_line(&self, c: &Request<Body>) -> String {
        self.line(c.body.0, c.action, &c.body.1)
    }

    async fn send_request(&self, c: &Request<Body>) -> Result<(), RpcError> {
        let (product, params) = &c.body;
        self.rpc
            .call::<Ack>(*product, c.action, params)
            .await
            .map(|_| ())
    }

    async fn read(&self, kind: ResourceKind, id: &str) -> Result<Found, RpcError> {
        let read = Self::lookup(kind, id);
        let (action, (product, params)) = (read.action, (read.body.0, &read.body.1));
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

    fn stops(e: &RpcError) -> bool {
        e.is_auth()
    }
}
