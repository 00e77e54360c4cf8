//! Deleting one resource a sweep found: a CBS disk (DetachDisks first, only from the stopped
//! instance the plan showed, then waited for until `UNATTACHED`, then TerminateDisks), an EIP
//! (DisassociateAddress first on the same rule, then ReleaseAddresses), a CBS snapshot
//! (DeleteSnapshots), a custom image (CVM DeleteImages) or a load balancer (CLB
//! DeleteLoadBalancer), through the skeleton's [`delete`]: read again just before, and
//! confirmed only on proof that it is gone. Tencent Cloud's own refusal comes back as it is,
//! with its code.

use async_trait::async_trait;
use serde_json::{Value, json};

use super::TencentCloud;
use super::api::{ApiError, describe};
use super::inventory::ADDRESS_TYPES;
use super::model;
use crate::meter::ResourceKind;
use crate::provider::delete_steps::{Found, Now};
use crate::provider::http::Repeat;
use crate::provider::rpc_cloud::delete::{DeleteApi, Request, Steps, request};
use crate::provider::{LinkedResource, ProviderError};

fn listed(state: String, on: Option<String>) -> Found {
    Found::Listed(Now {
        state,
        on: on.filter(|i| !i.is_empty()),
        link: None,
    })
}

#[async_trait]
impl DeleteApi for TencentCloud {
    type Body = Value;
    type Unread = ProviderError;

    fn steps(r: &LinkedResource) -> Option<Steps<Value>> {
        let id = r.id.as_str();
        Some(match r.kind {
            ResourceKind::SystemDisk | ResourceKind::DataDisk => Steps::freed_first(
                "DetachDisks",
                "UNATTACHED",
                request("TerminateDisks", json!({"DiskIds": [id]})),
            ),
            ResourceKind::PublicIp => Steps::freed_first(
                "DisassociateAddress",
                "UNBIND",
                request("ReleaseAddresses", json!({"AddressIds": [id]})),
            ),
            ResourceKind::Snapshot => {
                Steps::delete("DeleteSnapshots", json!({"SnapshotIds": [id]}))
            }
            ResourceKind::Image => Steps::delete("DeleteImages", json!({"ImageIds": [id]})),
            ResourceKind::LoadBalancer => {
                Steps::delete("DeleteLoadBalancer", json!({"LoadBalancerIds": [id]}))
            }
            ResourceKind::NetworkVolume | ResourceKind::StoppedInstance => return None,
        })
    }

    fn lookup(kind: ResourceKind, id: &str) -> Request<Value> {
        match kind {
            // DescribeAddresses lists only `EIP` unless the `address-type` filter names the
            // others (VPC 2017-03-12): without it another type would read as gone.
            ResourceKind::PublicIp => request(
                "DescribeAddresses",
                json!({"AddressIds": [id], "Filters": [{"Name": "address-type", "Values": ADDRESS_TYPES}]}),
            ),
            ResourceKind::Snapshot => request("DescribeSnapshots", json!({"SnapshotIds": [id]})),
            // ImageIds alone: CVM refuses ImageIds with Filters.
            ResourceKind::Image => request("DescribeImages", json!({"ImageIds": [id]})),
            ResourceKind::LoadBalancer => {
                request("DescribeLoadBalancers", json!({"LoadBalancerIds": [id]}))
            }
            _ => request("DescribeDisks", json!({"DiskIds": [id]})),
        }
    }

    fn free_call(kind: ResourceKind, id: &str, on: &str) -> Option<Request<Value>> {
        match kind {
            ResourceKind::SystemDisk | ResourceKind::DataDisk => Some(request(
                "DetachDisks",
                json!({"DiskIds": [id], "InstanceId": on}),
            )),
            ResourceKind::PublicIp => {
                Some(request("DisassociateAddress", json!({"AddressId": id})))
            }
            _ => None,
        }
    }

    fn request_line(&self, c: &Request<Value>) -> String {
        describe(c.action, &c.body)
    }

    /// Repeating a detach, a disassociation or a delete cannot do more: a second one finds
    /// nothing to do.
    async fn send_request(&self, c: &Request<Value>) -> Result<(), ApiError> {
        self.api
            .call::<model::Ack>(c.action, &c.body, Repeat::Safe)
            .await
            .map(|_| ())
    }

    async fn read(&self, kind: ResourceKind, id: &str) -> Result<Found, ProviderError> {
        let read = Self::lookup(kind, id);
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

    fn stops(e: &ProviderError) -> bool {
        matches!(e.kind(), crate::provider::ErrorKind::Auth(_))
    }

    fn check(&self, r: &LinkedResource) -> Result<(), ProviderError> {
        if r.kind == ResourceKind::PublicIp && r.id.parse::<std::net::IpAddr>().is_ok() {
            // An inventory names a public IP by its address; VPC deletes by its id.
            return Err(ProviderError::state(
                "tencent",
                crate::t!("tencent-ip-not-address-id", ip = r.id.as_str()),
            ));
        }
        Ok(())
    }
}
