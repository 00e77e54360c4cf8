//! Cloud Load Balancer (CLB, API 2018-03-17) instances with no healthy backend: each load
//! balancer the region lists (`DescribeLoadBalancers`, paged) is asked for its targets' health
//! (`DescribeTargetHealth` with its id); one without a target whose `HealthStatus` is true
//! serves nothing and still bills. Where a load balancer's health cannot be read the sweep
//! fails rather than call it idle.

use jiff::Timestamp;
use serde_json::json;

use super::TencentCloud;
use super::model::{self, TargetHealthReply, parse_time};
use super::sweep::{named, resource};
use crate::meter::ResourceKind;
use crate::provider::http::Repeat;
use crate::provider::{LinkedResource, ProviderError};

impl TencentCloud {
    /// The region's load balancers that no healthy target serves.
    pub(super) async fn idle_load_balancers(
        &self,
        now: Timestamp,
    ) -> Result<Vec<LinkedResource>, ProviderError> {
        let all = self
            .pages::<model::LoadBalancersReply>("DescribeLoadBalancers", &json!({}))
            .await?;
        let mut idle = Vec::new();
        for lb in &all {
            let body = json!({"LoadBalancerIds": [lb.load_balancer_id]});
            let health: TargetHealthReply = self
                .api
                .call("DescribeTargetHealth", &body, Repeat::Safe)
                .await?;
            if !healthy(&health, &lb.load_balancer_id) {
                idle.push(idle_row(lb, now));
            }
        }
        Ok(idle)
    }
}

/// CLB's `Status` in words: 0 is being created, 1 is running.
pub(super) fn state(status: i64) -> String {
    match status {
        0 => "creating".into(),
        1 => "active".into(),
        other => format!("status {other}"),
    }
}

/// Whether any target of load balancer `id`, on any listener and rule, passes its health check.
fn healthy(reply: &TargetHealthReply, id: &str) -> bool {
    reply
        .load_balancers
        .iter()
        .filter(|lb| lb.load_balancer_id == id)
        .flat_map(|lb| lb.listeners.iter().flatten())
        .flat_map(|l| l.rules.iter().flatten())
        .flat_map(|r| r.targets.iter().flatten())
        .any(|t| t.health_status == Some(true))
}

/// The sweep's row for `lb`, its state saying why it is listed.
fn idle_row(lb: &model::LoadBalancer, now: Timestamp) -> LinkedResource {
    let r = resource(
        &lb.load_balancer_id,
        ResourceKind::LoadBalancer,
        0,
        &crate::t!("tencent-lb-idle-status", status = state(lb.status)),
        parse_time(&lb.create_time).unwrap_or(now),
    );
    named(r, &lb.load_balancer_name, &lb.tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(id: &str, health: &[Option<bool>]) -> TargetHealthReply {
        let targets: Vec<serde_json::Value> = health
            .iter()
            .map(|h| json!({"IP": "10.0.0.8", "Port": 80, "HealthStatus": h}))
            .collect();
        serde_json::from_value(json!({"RequestId": "r", "LoadBalancers": [{
            "LoadBalancerId": id,
            "Listeners": [{"ListenerId": "lbl-1", "Rules": [{"LocationId": "", "Targets": targets}]}]
        }]}))
        .unwrap()
    }

    #[test]
    fn only_a_target_that_passes_is_healthy() {
        assert!(!healthy(&reply("lb-1", &[]), "lb-1"));
        assert!(!healthy(&reply("lb-1", &[Some(false), None]), "lb-1"));
        assert!(healthy(&reply("lb-1", &[Some(false), Some(true)]), "lb-1"));
        assert!(!healthy(&reply("lb-2", &[Some(true)]), "lb-1"), "another's");
        let none: TargetHealthReply =
            serde_json::from_str(r#"{"RequestId":"r","LoadBalancers":[]}"#).unwrap();
        assert!(!healthy(&none, "lb-1"));
        assert!(serde_json::from_str::<TargetHealthReply>(r#"{"RequestId":"r"}"#).is_err());
    }

    #[test]
    fn an_idle_row_says_why_it_is_listed() {
        let lb: model::LoadBalancer = serde_json::from_str(
            r#"{"LoadBalancerId":"lb-1","LoadBalancerName":"web","Status":1,
                "CreateTime":"2026-11-20 01:00:00"}"#,
        )
        .unwrap();
        let row = idle_row(&lb, Timestamp::UNIX_EPOCH);
        assert_eq!(row.kind, ResourceKind::LoadBalancer);
        assert_eq!((row.id.as_str(), row.name.as_str()), ("lb-1", "web"));
        assert_eq!(row.state, "active, no healthy backend");
        assert_eq!(row.created.to_string(), "2026-11-20T01:00:00Z");
        assert!(row.size_gib.is_zero());
    }
}
