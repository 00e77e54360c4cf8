//! The regions of the account (`cvm DescribeRegions`, API 2017-03-12, no parameters), for a
//! sweep of every region.

use serde_json::json;

use super::TencentCloud;
use super::model::RegionsReply;
use crate::provider::ProviderError;
use crate::provider::http::Repeat;

impl TencentCloud {
    /// Each region's name (`ap-guangzhou`), in CVM's order. The answer is not paged. A region
    /// whose `RegionState` is not `AVAILABLE` takes no new instance but may still hold what
    /// bills, so every region listed is swept.
    pub(super) async fn account_regions(&self) -> Result<Vec<String>, ProviderError> {
        let reply: RegionsReply = self
            .api
            .call("DescribeRegions", &json!({}), Repeat::Safe)
            .await?;
        Ok(names(&reply))
    }
}

/// `RegionSet[].Region`, trimmed; an item without one is not a region.
fn names(reply: &RegionsReply) -> Vec<String> {
    crate::provider::rpc_cloud::region_names(reply.region_set.iter().map(|r| r.region.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_region_is_read() {
        let body = r#"{"RequestId":"r","TotalCount":3,"RegionSet":[
            {"Region":"ap-guangzhou","RegionName":"South China (Guangzhou)","RegionState":"AVAILABLE"},
            {"RegionName":"nowhere"},
            {"Region":" ap-tokyo ","RegionState":"UNAVAILABLE"}]}"#;
        let reply: RegionsReply = serde_json::from_str(body).unwrap();
        assert_eq!(names(&reply), ["ap-guangzhou", "ap-tokyo"]);
        assert!(serde_json::from_str::<RegionsReply>(r#"{"RequestId":"r"}"#).is_err());
    }
}
