//! Load balancers with no healthy backend on Alibaba Cloud (SLB) and Tencent Cloud (CLB),
//! through the binary against their peers: of an idle load balancer and one whose backend passes
//! its health check, the sweep lists only the idle one; `cleanup --kind lb --yes` deletes it and
//! reads it back until the provider no longer lists it, with exactly the calls `delete_plan`
//! names, and the one in use stays.

use gpumeter::meter::ResourceKind;
use gpumeter::provider::{LinkedResource, Provider};
use serde_json::Value;

use crate::common::cn_bin::{CnBin as Bin, text};
use crate::{alibaba_peer, tencent_peer};

/// The load balancers `sweep --json` lists.
fn swept_lbs(bin: &Bin) -> Vec<Value> {
    let (_, items) = bin.sweep();
    items
        .into_iter()
        .filter(|i| i["kind"] == "load_balancer")
        .collect()
}

/// The action each planned line names (`slb DeleteLoadBalancer ...` is DeleteLoadBalancer), with
/// each run of one action (a read polled until it shows the change) as one.
fn planned_runs(lines: &[String]) -> Vec<String> {
    runs(
        lines
            .iter()
            .map(|l| l.split_whitespace().nth(1).unwrap_or_default().to_string()),
    )
}

fn runs(actions: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for a in actions {
        if out.last() != Some(&a) {
            out.push(a);
        }
    }
    out
}

/// The one load balancer row of `found`.
fn only_lb(found: &[LinkedResource]) -> LinkedResource {
    let lbs: Vec<&LinkedResource> = found
        .iter()
        .filter(|r| r.kind == ResourceKind::LoadBalancer)
        .collect();
    assert_eq!(lbs.len(), 1, "one load balancer: {lbs:#?}");
    lbs[0].clone()
}

/// The sweep lists only `idle`, in words; `cleanup --kind lb --yes` deletes it with the calls of
/// `plan`, as `calls_since` counts them; then the sweep lists no load balancer.
fn sweep_then_clean(
    bin: &Bin,
    idle: &LinkedResource,
    plan: &[String],
    calls_since: impl Fn(usize) -> (usize, Vec<String>),
) {
    let listed = swept_lbs(bin);
    assert_eq!(listed.len(), 1, "only the idle one: {listed:#?}");
    assert_eq!(listed[0]["id"], idle.id.as_str(), "{listed:#?}");
    assert_eq!(listed[0]["state"], "active, no healthy backend");
    let dry = bin.run(&["cleanup", "--kind", "lb", "--dry-run"]);
    assert!(dry.status.success(), "{}", text(&dry));
    for line in plan {
        let call = line.split(" (").next().unwrap_or_default();
        assert!(text(&dry).contains(call), "{call} in {}", text(&dry));
    }
    let (from, _) = calls_since(0);
    let out = bin.run(&["cleanup", "--kind", "lb", "--yes"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("1 of 1 deleted"), "{}", text(&out));
    let (_, made) = calls_since(from);
    // The binary reads the account first (its sweep), then deletes: the delete's own calls are
    // the last ones, from the delete on.
    let start = made
        .iter()
        .position(|a| a.starts_with("Delete"))
        .unwrap_or_else(|| panic!("no delete in {made:?}"));
    assert_eq!(
        runs(made[start..].iter().cloned()),
        planned_runs(plan),
        "the calls made are the ones planned: {plan:#?}"
    );
    assert_eq!(swept_lbs(bin), Vec::<Value>::new(), "no idle one is left");
}

#[tokio::test]
async fn alibaba_an_slb_without_a_healthy_backend_is_swept_and_deleted_through_the_binary() {
    use alibaba_peer::cloud::SLB;
    const IDLE: &str = "lb-bp1idle00001";
    let Some(peer) = alibaba_peer::Peer::start() else {
        return;
    };
    peer.cloud(|c| c.idle_lbs.push(IDLE.into()));
    let adapter = peer.adapter(Some(alibaba_peer::INSTANCE));
    let idle = only_lb(&adapter.sweep().await.unwrap());
    assert_eq!(idle.id, IDLE);
    let plan = adapter.delete_plan(&idle);
    assert_eq!(
        plan,
        [
            format!("slb DeleteLoadBalancer RegionId=cn-hangzhou LoadBalancerId={IDLE}"),
            format!(
                "slb DescribeLoadBalancers RegionId=cn-hangzhou LoadBalancerId={IDLE} \
                 (read back until it is no longer listed)"
            ),
        ]
    );
    let bin = Bin::alibaba("lb", &peer);
    sweep_then_clean(&bin, &idle, &plan, |from| {
        let calls = peer.calls();
        (
            calls.len(),
            calls[from..].iter().map(|c| c.action.clone()).collect(),
        )
    });
    peer.cloud(|c| {
        assert!(c.idle_lbs.is_empty() && c.lbs_deleted.contains(IDLE));
        assert!(!c.lbs_deleted.contains(SLB), "the one in use stays");
    });
}

#[tokio::test]
async fn tencent_a_clb_without_a_healthy_backend_is_swept_and_deleted_through_the_binary() {
    let Some(peer) = tencent_peer::Peer::start() else {
        return;
    };
    peer.cloud(|c| {
        for (id, healthy) in [("lb-inuse1", true), ("lb-idle01", false)] {
            c.lbs.push(tencent_peer::cloud::Clb {
                id: id.into(),
                healthy,
            });
        }
    });
    let adapter = peer.adapter(Some(tencent_peer::INSTANCE));
    let idle = only_lb(&adapter.sweep().await.unwrap());
    assert_eq!(idle.id, "lb-idle01");
    let plan = adapter.delete_plan(&idle);
    assert_eq!(
        plan,
        [
            r#"clb DeleteLoadBalancer {"LoadBalancerIds":["lb-idle01"]}"#.to_string(),
            r#"clb DescribeLoadBalancers {"LoadBalancerIds":["lb-idle01"]} (read back until it is no longer listed)"#
                .to_string(),
        ]
    );
    let bin = Bin::tencent("lb", &peer);
    sweep_then_clean(&bin, &idle, &plan, |from| {
        let calls = peer.calls();
        (
            calls.len(),
            calls[from..].iter().map(|c| c.action.clone()).collect(),
        )
    });
    peer.cloud(|c| {
        let left: Vec<&str> = c.lbs.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(left, ["lb-inuse1"], "the one in use stays");
    });
}
