//! The minimal policies in `deploy/policies/`: every call that an inventory (the checklist), an
//! action (before and after it), the account sweep or the listing of its regions makes is one
//! the provider's policy allows, and the file allows nothing that no command calls. The calls are read off the wire by the proxy, with the
//! service each was signed for, so the policy is checked against what the adapter sends.

use std::collections::BTreeSet;
use std::path::Path;

use gpumeter::provider::{Action, CleanupFilter, CleanupPlan, Provider};
use jiff::Timestamp;
use serde_json::Value;

use super::Cloud;
use crate::common::fault_proxy::FaultProxy;

/// Allowed without being called: EC2 authorises `CreateTags` for the tags a `CreateSnapshot`
/// sets on what it creates (`TagSpecification`, the final snapshot's token), as the EC2 user
/// guide's "Grant permission to tag resources during creation" describes.
const IMPLIED: &[(&str, &str)] = &[("ec2:CreateSnapshot", "ec2:CreateTags")];

/// The policy language's name of a call signed for `service`. Alibaba's signature names no
/// product, only the API version, which is the official SDK package's (`alibabacloud_ecs20140526`,
/// `alibabacloud_vpc20160428`, `alibabacloud_slb20140515`).
fn policy_name(service: &str, call: &str) -> String {
    let product = match service {
        "acs:2014-05-26" => "ecs",
        "acs:2016-04-28" => "vpc",
        "acs:2014-05-15" => "slb",
        other => other,
    };
    format!("{product}:{call}")
}

/// Every action a policy file allows, from its statements (`Statement`/`Action` in AWS IAM and
/// Alibaba RAM, `statement`/`action` in Tencent CAM).
fn allowed(file: &str) -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy/policies")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let policy: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let statements = policy
        .get("Statement")
        .or_else(|| policy.get("statement"))
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{file}: no statements"));
    statements
        .iter()
        .flat_map(|s| {
            let actions = s.get("Action").or_else(|| s.get("action"));
            actions
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|a| a.as_str().map(str::to_string))
        .collect()
}

/// The cleanup of everything an inventory and a sweep list now, in the core's plan: what an empty
/// [`Action::Cleanup`] in a sequence stands for, since a sequence is written before its world.
async fn cleanup_of_all(adapter: &dyn Provider) -> Action {
    let mut found = adapter.inventory().await.expect("the inventory").resources;
    for r in adapter.sweep().await.expect("the sweep") {
        if !found.iter().any(|f| f.id == r.id) {
            found.push(r);
        }
    }
    found.retain(|r| !r.deleted_with_instance);
    let plan = CleanupPlan::new(&found, &CleanupFilter::default(), &[], Timestamp::now())
        .expect("the plan");
    Action::Cleanup {
        delete: plan.delete,
    }
}

/// The policy names of every signed call made by an inventory, each sequence of actions (in one
/// fresh world) and an inventory after it. Each action must be done, or the calls prove little.
/// A sequence with a cleanup first has the world's leftovers made ([`Cloud::litter`]).
async fn calls_of<C: Cloud>(cloud: &C, sequences: Vec<Vec<Action>>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for actions in sequences {
        let world = cloud.fresh().await;
        let proxy = FaultProxy::start(&cloud.upstream(&world), "-");
        let adapter = cloud.adapter(&world, &proxy.url());
        if actions.iter().any(|a| matches!(a, Action::Cleanup { .. })) {
            cloud.litter(&world).await;
        }
        if let Err(e) = adapter.inventory().await {
            panic!("{}: the inventory failed: {e}", cloud.name());
        }
        for action in &actions {
            let action = match action {
                Action::Cleanup { delete } if delete.is_empty() => {
                    cleanup_of_all(adapter.as_ref()).await
                }
                other => other.clone(),
            };
            let action = &action;
            match adapter.perform(action).await {
                Ok(report) if report.confirmed => {}
                other => panic!("{} {}: not done: {other:?}", cloud.name(), action.label()),
            }
        }
        let _ = adapter.inventory().await;
        // `sweep` reads the account with the same Describe calls; where it is built, they must
        // be allowed too.
        match adapter.sweep().await {
            Ok(_) => {}
            Err(e) if e.is_unsupported() => {}
            Err(e) => panic!("{}: the sweep failed: {e}", cloud.name()),
        }
        // `sweep --all-regions` asks for the account's regions first, where the adapter lists
        // them.
        if let Err(e) = adapter.regions().await {
            panic!("{}: the regions could not be listed: {e}", cloud.name());
        }
        for (service, call) in proxy.signed_calls() {
            if !service.is_empty() {
                seen.insert(policy_name(&service, &call));
            }
        }
    }
    seen
}

/// Runs every target of `cloud` (and `more` sequences) and compares the calls with `file`.
pub async fn check<C: Cloud>(cloud: &C, more: Vec<Vec<Action>>, file: &str) {
    let mut sequences: Vec<Vec<Action>> = cloud
        .targets()
        .into_iter()
        .map(|t| vec![t.action])
        .collect();
    sequences.extend(more);
    let seen = calls_of(cloud, sequences).await;
    let allowed = allowed(file);
    let denied: Vec<&String> = seen.difference(&allowed).collect();
    assert!(
        denied.is_empty(),
        "{file} does not allow {denied:?}, which {} calls",
        cloud.name()
    );
    let implied: BTreeSet<String> = IMPLIED
        .iter()
        .filter(|(by, _)| seen.contains(*by))
        .map(|(_, what)| (*what).to_string())
        .collect();
    let unused: Vec<&String> = allowed
        .iter()
        .filter(|a| !seen.contains(*a) && !implied.contains(*a))
        .collect();
    assert!(
        unused.is_empty(),
        "{file} allows {unused:?}, which no command of {} calls: not minimal",
        cloud.name()
    );
    eprintln!("{file}: {} actions, each called", allowed.len());
}
