//! Server Load Balancer (SLB, API 2014-05-15) instances with no healthy backend: each load
//! balancer the region lists (`DescribeLoadBalancers`) is asked for its backends' health
//! (`DescribeHealthStatus`); one without a backend whose `ServerHealthStatus` is `normal` serves
//! nothing and still bills. Where a load balancer's health cannot be read the sweep fails
//! rather than call it idle.

use super::AlibabaCloud;
use super::inventory::lb_row;
use super::model::{self, HealthStatusReply};
use super::rpc::{Product, RpcError};
use crate::provider::LinkedResource;

impl AlibabaCloud {
    /// The region's load balancers that no healthy backend serves.
    pub(super) async fn idle_load_balancers(&self) -> Result<Vec<LinkedResource>, RpcError> {
        let all = self
            .pages::<model::LoadBalancersReply>(Product::Slb, "DescribeLoadBalancers", &[])
            .await?;
        let mut idle = Vec::new();
        for lb in &all {
            let health: HealthStatusReply = self
                .rpc
                .call(
                    Product::Slb,
                    "DescribeHealthStatus",
                    &[("LoadBalancerId", lb.load_balancer_id.clone())],
                )
                .await?;
            if !healthy(&health) {
                idle.push(idle_row(lb));
            }
        }
        Ok(idle)
    }
}

/// Whether any backend server answers its health check (`normal`; `abnormal` and
/// `unavailable` do not).
fn healthy(reply: &HealthStatusReply) -> bool {
    reply
        .backend_servers
        .items
        .iter()
        .any(|s| s.server_health_status == "normal")
}

/// The sweep's row for `lb`: as the inventory lists it, its state saying why it is listed.
fn idle_row(lb: &model::LoadBalancer) -> LinkedResource {
    let mut row = lb_row(lb);
    row.state = if lb.load_balancer_status.is_empty() {
        crate::t!("alibaba-lb-idle").into_owned()
    } else {
        crate::t!(
            "alibaba-lb-idle-status",
            status = lb.load_balancer_status.as_str()
        )
    };
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meter::ResourceKind;

    #[test]
    fn only_a_normal_backend_is_healthy() {
        let reply = |statuses: &[&str]| -> HealthStatusReply {
            let servers: Vec<serde_json::Value> = statuses
                .iter()
                .map(|s| serde_json::json!({"ServerId": "i-1", "ServerHealthStatus": s}))
                .collect();
            serde_json::from_value(serde_json::json!({
                "RequestId": "r", "BackendServers": {"BackendServer": servers}
            }))
            .unwrap()
        };
        assert!(!healthy(&reply(&[])));
        assert!(!healthy(&reply(&["abnormal", "unavailable"])));
        assert!(healthy(&reply(&["abnormal", "normal"])));
        assert!(serde_json::from_str::<HealthStatusReply>(r#"{"RequestId":"r"}"#).is_err());
    }

    #[test]
    fn an_idle_row_says_why_it_is_listed() {
        let lb: model::LoadBalancer = serde_json::from_str(
            r#"{"LoadBalancerId":"lb-1","LoadBalancerName":"web","LoadBalancerStatus":"active",
                "CreateTime":"2026-11-29T08:02Z","CreateTimeStamp":1796025720000}"#,
        )
        .unwrap();
        let row = idle_row(&lb);
        assert_eq!(row.kind, ResourceKind::LoadBalancer);
        assert_eq!((row.id.as_str(), row.name.as_str()), ("lb-1", "web"));
        assert_eq!(row.state, "active, no healthy backend");
        assert_eq!(row.created.as_millisecond(), 1_796_025_720_000);
        assert!(row.size_gib.is_zero());
    }
}
