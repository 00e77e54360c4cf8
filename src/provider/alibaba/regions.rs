//! The regions of the account (`ecs DescribeRegions`, API 2014-05-26), for a sweep of every
//! region. The official request model has no `RegionId` (see [`super::rpc::takes_region`]):
//! the answer is the same wherever it is asked.

use super::AlibabaCloud;
use super::model::{Paged as _, RegionsReply};
use super::rpc::Product;
use crate::provider::ProviderError;

impl AlibabaCloud {
    /// Each region's id, in ECS's order. The answer is not paged. A region listed as sold out
    /// (`Status` `soldOut`) takes no new instance but still bills for what is in it, so every
    /// region listed is swept.
    pub(super) async fn account_regions(&self) -> Result<Vec<String>, ProviderError> {
        let reply: RegionsReply = self.rpc.call(Product::Ecs, "DescribeRegions", &[]).await?;
        Ok(names(reply))
    }
}

/// `Regions.Region[].RegionId`, trimmed; an item without one is not a region.
fn names(reply: RegionsReply) -> Vec<String> {
    crate::provider::rpc_cloud::region_names(reply.page().0.iter().map(|r| r.region_id.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_region_is_read_sold_out_too() {
        let body = r#"{"RequestId":"r","Regions":{"Region":[
            {"RegionId":"cn-hangzhou","LocalName":"China (Hangzhou)","Status":"available",
             "RegionEndpoint":"ecs.cn-hangzhou.aliyuncs.com"},
            {"LocalName":"nowhere"},
            {"RegionId":" ap-southeast-1 ","Status":"soldOut"}]}}"#;
        let reply: RegionsReply = serde_json::from_str(body).unwrap();
        assert_eq!(names(reply), ["cn-hangzhou", "ap-southeast-1"]);
        assert!(serde_json::from_str::<RegionsReply>(r#"{"RequestId":"r"}"#).is_err());
    }
}
