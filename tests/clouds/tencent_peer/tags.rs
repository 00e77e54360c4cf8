//! The tags the peer's resources carry, given in each API's shape: CBS (disks, snapshots) and
//! CVM (instances, images) as `"Tags": [{"Key", "Value"}]`, VPC (addresses) as
//! `"TagSet": [{"Key", "Value"}]`, CLB (load balancers) as `"Tags": [{"TagKey", "TagValue"}]`.
//! A resource without tags lists an empty one, as the service does.

use serde_json::{Value, json};

use super::cloud::Cloud;

/// Which API's field and pair names a reply uses.
#[derive(Debug, Clone, Copy)]
pub(super) enum Shape {
    /// CBS and CVM: `Tags`, `Key`, `Value`.
    Cbs,
    /// VPC: `TagSet`, `Key`, `Value`.
    Vpc,
    /// CLB: `Tags`, `TagKey`, `TagValue`.
    Clb,
}

impl Cloud {
    /// `item` with the tags the cloud holds for the id in its `id_field`.
    pub(super) fn tagged(&self, mut item: Value, id_field: &str, shape: Shape) -> Value {
        let id = item[id_field].as_str().unwrap_or_default();
        let (field, key, value) = match shape {
            Shape::Cbs => ("Tags", "Key", "Value"),
            Shape::Vpc => ("TagSet", "Key", "Value"),
            Shape::Clb => ("Tags", "TagKey", "TagValue"),
        };
        let pairs: Vec<Value> = self
            .tags
            .get(id)
            .into_iter()
            .flatten()
            .map(|(k, v)| json!({ key: k, value: v }))
            .collect();
        item[field] = json!(pairs);
        item
    }
}
