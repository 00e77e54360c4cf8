//! Elastic Load Balancing's XML answers (Query protocol, 2015-12-01): each answer is
//! `<{Action}Response><{Action}Result>…</{Action}Result></{Action}Response>`, lists are
//! `<Name><member>…</member></Name>`. Elements are matched by local name, as in [`super::xml`].

use roxmltree::{Document, Node};

fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children()
        .find(|c| c.is_element() && c.tag_name().name() == name)
}

fn owned(node: Node<'_, '_>, name: &str) -> Option<String> {
    super::xml::text(node, name).map(str::to_string)
}

/// The `<{Action}Result>` element of an answer.
fn result<'a, 'i>(doc: &'a Document<'i>) -> Option<Node<'a, 'i>> {
    let root = doc.root_element();
    let action = root.tag_name().name().strip_suffix("Response")?;
    child(root, &format!("{action}Result"))
}

/// The `<member>` elements of the result's list `name`.
fn members<'a, 'i>(doc: &'a Document<'i>, name: &str) -> Vec<Node<'a, 'i>> {
    result(doc)
        .and_then(|r| child(r, name))
        .map(|list| {
            list.children()
                .filter(|c| c.is_element() && c.tag_name().name() == "member")
                .collect()
        })
        .unwrap_or_default()
}

/// The answer's `NextMarker`, when there is another page.
pub fn next_marker(doc: &Document<'_>) -> Option<String> {
    result(doc).and_then(|r| owned(r, "NextMarker"))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadBalancer {
    pub arn: String,
    pub name: String,
    /// `State/Code`: `active`, `provisioning`, `active_impaired`, `failed`.
    pub state: String,
    /// `application`, `network` or `gateway`.
    pub kind: Option<String>,
    pub created: Option<String>,
}

pub fn load_balancers(doc: &Document<'_>) -> Vec<LoadBalancer> {
    members(doc, "LoadBalancers")
        .into_iter()
        .filter_map(|lb| {
            let arn = owned(lb, "LoadBalancerArn")?;
            Some(LoadBalancer {
                name: owned(lb, "LoadBalancerName").unwrap_or_else(|| arn.clone()),
                state: child(lb, "State")
                    .and_then(|s| owned(s, "Code"))
                    .unwrap_or_else(|| crate::t!("aws-elb-unknown-state").into_owned()),
                kind: owned(lb, "Type"),
                created: owned(lb, "CreatedTime"),
                arn,
            })
        })
        .collect()
}

/// The ARN of each target group.
pub fn target_groups(doc: &Document<'_>) -> Vec<String> {
    members(doc, "TargetGroups")
        .into_iter()
        .filter_map(|tg| owned(tg, "TargetGroupArn"))
        .collect()
}

/// Each target's id and `TargetHealth/State` (`healthy`, `unhealthy`, `draining`, `unused`, …).
pub fn target_health(doc: &Document<'_>) -> Vec<(String, String)> {
    members(doc, "TargetHealthDescriptions")
        .into_iter()
        .map(|d| {
            let id = child(d, "Target")
                .and_then(|t| owned(t, "Id"))
                .unwrap_or_default();
            let state = child(d, "TargetHealth")
                .and_then(|h| owned(h, "State"))
                .unwrap_or_default();
            (id, state)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::aws::xml::parse;

    #[test]
    fn reads_load_balancers_and_the_next_marker() {
        let doc = parse(
            r#"<DescribeLoadBalancersResponse xmlns="http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/">
              <DescribeLoadBalancersResult><LoadBalancers><member>
                <LoadBalancerArn>arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/app/web/50dc</LoadBalancerArn>
                <LoadBalancerName>web</LoadBalancerName><Type>application</Type>
                <CreatedTime>2026-03-25T21:26:12.920Z</CreatedTime>
                <State><Code>active</Code></State>
              </member><member><LoadBalancerName>no-arn</LoadBalancerName></member></LoadBalancers>
              <NextMarker>m1</NextMarker></DescribeLoadBalancersResult>
              <ResponseMetadata><RequestId>r</RequestId></ResponseMetadata>
            </DescribeLoadBalancersResponse>"#,
        )
        .unwrap();
        let found = load_balancers(&doc);
        assert_eq!(found.len(), 1, "one without an ARN is not read: {found:?}");
        assert_eq!(found[0].name, "web");
        assert_eq!(found[0].state, "active");
        assert_eq!(found[0].kind.as_deref(), Some("application"));
        assert_eq!(
            found[0].created.as_deref(),
            Some("2026-03-25T21:26:12.920Z")
        );
        assert_eq!(next_marker(&doc).as_deref(), Some("m1"));
    }

    #[test]
    fn reads_target_groups_and_their_health() {
        let doc = parse(
            "<DescribeTargetGroupsResponse><DescribeTargetGroupsResult><TargetGroups>\
             <member><TargetGroupArn>tg-1</TargetGroupArn></member></TargetGroups>\
             </DescribeTargetGroupsResult></DescribeTargetGroupsResponse>",
        )
        .unwrap();
        assert_eq!(target_groups(&doc), ["tg-1"]);
        assert_eq!(next_marker(&doc), None);
        let doc = parse(
            "<DescribeTargetHealthResponse><DescribeTargetHealthResult>\
             <TargetHealthDescriptions><member><Target><Id>i-1</Id><Port>80</Port></Target>\
             <TargetHealth><State>draining</State></TargetHealth></member>\
             </TargetHealthDescriptions></DescribeTargetHealthResult></DescribeTargetHealthResponse>",
        )
        .unwrap();
        assert_eq!(target_health(&doc), [("i-1".into(), "draining".into())]);
    }
}
