//! What Alibaba Cloud fills into the signed-API skeleton: ECS's instance calls and their words.

use async_trait::async_trait;

use super::AlibabaCloud;
use super::inventory::json_ids;
use super::model::{self, Ack};
use super::rpc::{Product, RpcError};
use crate::provider::ProviderError;
use crate::provider::rpc_cloud::{Call, Common, InstanceApi, Listed, StoppedMode, Words};

impl Listed for model::Instance {
    fn state(&self) -> &str {
        &self.status
    }

    fn stopped_mode(&self) -> &str {
        &self.stopped_mode
    }

    fn core_state(&self) -> crate::meter::InstanceState {
        super::inventory::map_state(&self.status)
    }
}

impl AlibabaCloud {
    fn params(&self, call: Call, id: &str) -> Vec<(&'static str, String)> {
        let second = match call {
            Call::Release => Some(("Force", "true".to_string())),
            Call::Stop => Some(("StoppedMode", self.asked_mode().to_string())),
            Call::Start => None,
        };
        std::iter::once(("InstanceId", id.to_string()))
            .chain(second)
            .collect()
    }
}

#[async_trait]
impl InstanceApi for AlibabaCloud {
    type Instance = model::Instance;
    type Error = RpcError;
    const WORDS: Words = Words {
        calls: ["DeleteInstance", "StopInstance", "StartInstance"],
        running: "Running",
        stopped: "Stopped",
        stopped_mode: StoppedMode {
            field: "StoppedMode",
            stop_charging: ("StopCharging", || crate::t!("alibaba-stop-charging-bills")),
            keep_charging: "KeepCharging",
        },
    };

    fn common(&self) -> &Common {
        &self.common
    }

    fn region(&self) -> &str {
        self.rpc.region()
    }

    async fn instance_id(&self) -> Result<String, ProviderError> {
        AlibabaCloud::instance_id(self).await
    }

    async fn describe_instance(&self, id: &str) -> Result<Option<model::Instance>, RpcError> {
        let reply: model::InstancesReply = self
            .rpc
            .call(
                Product::Ecs,
                "DescribeInstances",
                &[("InstanceIds", json_ids(&[id]))],
            )
            .await?;
        let found = reply
            .instances
            .items
            .into_iter()
            .find(|i| i.instance_id == id);
        if found.is_some() {
            self.saw(id);
        }
        Ok(found)
    }

    fn call_line(&self, call: Call, id: &str) -> String {
        self.line(Product::Ecs, Self::WORDS.call(call), &self.params(call, id))
    }

    fn describe_line(&self, id: &str) -> String {
        self.line(
            Product::Ecs,
            "DescribeInstances",
            &[("InstanceIds", json_ids(&[id]))],
        )
    }

    async fn send(&self, call: Call, id: &str) -> Result<(), RpcError> {
        let params = self.params(call, id);
        self.rpc
            .call::<Ack>(Product::Ecs, Self::WORDS.call(call), &params)
            .await
            .map(|_| ())
    }

    fn absent(&self, id: &str) -> Result<(), ProviderError> {
        AlibabaCloud::absent(self, id)
    }

    /// What the release left billing, from what this process saw linked to the instance.
    async fn leftover_note(&self, _id: &str) -> String {
        if self.known().linked.is_empty() {
            return crate::t!("alibaba-note-run-checklist").into_owned();
        }
        match self.read_inventory().await {
            Ok(inv) if inv.resources.is_empty() => {
                crate::t!("alibaba-note-nothing-left").into_owned()
            }
            Ok(inv) => {
                let names: Vec<String> = inv
                    .resources
                    .iter()
                    .map(|r| format!("{} {}", r.kind.label(), r.id))
                    .collect();
                crate::t!("rpc-note-still-billing", names = names.join(", "))
            }
            Err(e) => crate::t!("alibaba-note-unlisted", error = e.to_string()),
        }
    }
}
