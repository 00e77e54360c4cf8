//! The regions enabled for the account (`ec2 DescribeRegions` with no parameters: EC2 then
//! leaves out the opt-in regions the account has not opted in to), for a sweep of every region.

use roxmltree::Document;

use super::fetch::Session;
use super::xml;
use crate::provider::ProviderError;

/// Each region's name, in EC2's order. The answer is not paged.
pub async fn enabled(s: &mut Session<'_>) -> Result<Vec<String>, ProviderError> {
    s.list("DescribeRegions", &Vec::new(), names)
        .await
        .map_err(ProviderError::from)
}

/// `regionInfo`'s `regionName`s; an item without one is not a region.
fn names(doc: &Document<'_>) -> Vec<String> {
    xml::items(doc.root_element(), "regionInfo")
        .filter_map(|item| xml::text(item, "regionName").map(str::to_string))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_read_from_each_item() {
        let body = r#"<DescribeRegionsResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
            <requestId>r-1</requestId>
            <regionInfo>
                <item><regionName>us-east-1</regionName><regionEndpoint>ec2.us-east-1.amazonaws.com</regionEndpoint><optInStatus>opt-in-not-required</optInStatus></item>
                <item><regionEndpoint>ec2.nowhere.amazonaws.com</regionEndpoint></item>
                <item><regionName> eu-west-1 </regionName></item>
            </regionInfo>
        </DescribeRegionsResponse>"#;
        let doc = xml::parse_answer(body, "DescribeRegions").unwrap();
        assert_eq!(names(&doc), ["us-east-1", "eu-west-1"]);
    }
}
