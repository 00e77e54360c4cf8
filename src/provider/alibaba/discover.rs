//! The account listing: every GPU instance of the region with its disks, its EIP and its tags,
//! no instance id needed. Disks and EIPs are each listed once for the whole region and grouped
//! by instance, not asked for instance by instance, so a fleet of hundreds costs a few pages.

use super::AlibabaCloud;
use super::inventory::{collect, instance_info};
use super::model::{self, parse_time};
use super::rpc::{Product, RpcError};
use crate::provider::by_instance::by_instance;
use crate::provider::rpc_cloud::InstanceApi as _;
use crate::provider::{Discovered, HeldDeadline, ProviderError};

impl AlibabaCloud {
    pub(super) async fn discover(&self) -> Result<Vec<Discovered>, ProviderError> {
        let read = async {
            let instances = self
                .pages::<model::InstancesReply>(Product::Ecs, "DescribeInstances", &[])
                .await?;
            let gpus: Vec<model::Instance> =
                instances.into_iter().filter(|i| i.gpu_amount > 0).collect();
            if gpus.is_empty() {
                return Ok((gpus, Vec::new(), Vec::new()));
            }
            let disks = self
                .pages::<model::DisksReply>(Product::Ecs, "DescribeDisks", &[])
                .await?;
            let eips = self
                .pages::<model::EipsReply>(Product::Vpc, "DescribeEipAddresses", &[])
                .await?;
            Ok::<_, RpcError>((gpus, disks, eips))
        };
        let (instances, disks, eips) = read.await.map_err(ProviderError::from)?;
        let mut disks_of = by_instance(disks, |d| Some(d.instance_id.as_str()));
        let mut eips_of = by_instance(eips, |e| Some(e.instance_id.as_str()));
        let now = self.common.now();
        let region = self.region();
        let found = instances
            .iter()
            .map(|i| {
                self.saw(&i.instance_id);
                let disks = disks_of.remove(&i.instance_id).unwrap_or_default();
                let eips = eips_of.remove(&i.instance_id).unwrap_or_default();
                Discovered {
                    instance: instance_info(i, region, now),
                    resources: collect(&disks, &[], &[], &eips, &[]),
                    deadline: parse_time(&i.auto_release_time).map(|at| HeldDeadline { at }),
                    tags: i.tags.clone(),
                }
            })
            .collect();
        Ok(found)
    }
}
