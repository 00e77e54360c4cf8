//! What Tencent Cloud fills into the signed-API skeleton: CVM's instance calls and their words.

use async_trait::async_trait;
use serde_json::{Value, json};

use super::TencentCloud;
use super::actions::ids;
use super::api::{ApiError, describe};
use super::model;
use crate::provider::ProviderError;
use crate::provider::http::Repeat;
use crate::provider::rpc_cloud::{Call, Common, InstanceApi, Listed, StoppedMode, Words};

impl Listed for model::Instance {
    fn state(&self) -> &str {
        &self.instance_state
    }

    fn stopped_mode(&self) -> &str {
        &self.stop_charging_mode
    }

    fn core_state(&self) -> crate::meter::InstanceState {
        super::inventory::map_state(&self.instance_state)
    }
}

impl TencentCloud {
    fn body(&self, call: Call, id: &str) -> Value {
        match call {
            Call::Release => json!({"InstanceIds": [id], "ReleaseAddress": true}),
            Call::Stop => {
                json!({"InstanceIds": [id], "StopType": "SOFT_FIRST", "StoppedMode": self.asked_mode()})
            }
            Call::Start => ids(id),
        }
    }
}

#[async_trait]
impl InstanceApi for TencentCloud {
    type Instance = model::Instance;
    type Error = ApiError;
    const WORDS: Words = Words {
        calls: ["TerminateInstances", "StopInstances", "StartInstances"],
        running: "RUNNING",
        stopped: "STOPPED",
        stopped_mode: StoppedMode {
            field: "StopChargingMode",
            stop_charging: ("STOP_CHARGING", || crate::t!("tencent-stop-charging-bills")),
            keep_charging: "KEEP_CHARGING",
        },
    };

    fn common(&self) -> &Common {
        &self.common
    }

    fn region(&self) -> &str {
        self.api.region()
    }

    async fn instance_id(&self) -> Result<String, ProviderError> {
        TencentCloud::instance_id(self).await
    }

    async fn describe_instance(&self, id: &str) -> Result<Option<model::Instance>, ApiError> {
        let reply: model::InstancesReply = self
            .api
            .call(
                "DescribeInstances",
                &json!({"InstanceIds": [id]}),
                Repeat::Safe,
            )
            .await?;
        let found = reply.instance_set.into_iter().find(|i| i.instance_id == id);
        if found.is_some() {
            self.saw(id);
        }
        Ok(found)
    }

    fn call_line(&self, call: Call, id: &str) -> String {
        describe(Self::WORDS.call(call), &self.body(call, id))
    }

    fn describe_line(&self, id: &str) -> String {
        describe("DescribeInstances", &ids(id))
    }

    async fn send(&self, call: Call, id: &str) -> Result<(), ApiError> {
        // Each is safe to repeat: a second terminate, stop or start finds nothing left to do.
        self.api
            .call::<model::Ack>(Self::WORDS.call(call), &self.body(call, id), Repeat::Safe)
            .await
            .map(|_| ())
    }

    fn absent(&self, id: &str) -> Result<(), ProviderError> {
        TencentCloud::absent(self, id)
    }

    /// A terminated instance waits in the recycle bin as `SHUTDOWN`, no longer billing compute.
    fn recycled(&self, instance: &model::Instance) -> bool {
        instance.instance_state == "SHUTDOWN"
    }

    /// What the release left billing, from what was last seen with the instance.
    async fn leftover_note(&self, id: &str) -> String {
        let staying: Vec<String> = self
            .known(id)
            .iter()
            .filter(|r| !r.deleted_with_instance)
            .map(|r| format!("{} {}", r.kind.label(), r.id))
            .collect();
        if staying.is_empty() {
            String::new()
        } else {
            crate::t!("rpc-note-still-billing", names = staying.join(", "))
        }
    }
}
