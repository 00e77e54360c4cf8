//! The tags the peer's resources carry, given in each API's shape: ECS and SLB as
//! `"Tags": {"Tag": [{"TagKey", "TagValue"}]}`, VPC as `"Tags": {"Tag": [{"Key", "Value"}]}`.
//! A resource without tags is listed without the field, as the service leaves it out.

use serde_json::{Value, json};

use super::cloud::Cloud;

/// Which API's pair names a reply uses.
#[derive(Debug, Clone, Copy)]
pub(super) enum Shape {
    /// ECS and SLB: `TagKey`, `TagValue`.
    Ecs,
    /// VPC: `Key`, `Value`.
    Vpc,
}

impl Cloud {
    /// `item` with the tags the cloud holds for the id in its `id_field`.
    pub(super) fn tagged(&self, mut item: Value, id_field: &str, shape: Shape) -> Value {
        let id = item[id_field].as_str().unwrap_or_default();
        let Some(tags) = self.tags.get(id).filter(|t| !t.is_empty()) else {
            return item;
        };
        let (key, value) = match shape {
            Shape::Ecs => ("TagKey", "TagValue"),
            Shape::Vpc => ("Key", "Value"),
        };
        let pairs: Vec<Value> = tags
            .iter()
            .map(|(k, v)| json!({ key: k, value: v }))
            .collect();
        item["Tags"] = json!({ "Tag": pairs });
        item
    }
}
