//! The cleanup matrix: a disk and an address nothing used when the plan was made, each deleted
//! through the fault proxy, under every fault of the action matrix and three of its own: one read
//! answered with an empty list (before the delete, or as its first read-back), a delete answered
//! "accepted" but not done followed by one empty read-back, and the resource attached to the
//! running instance in the cloud itself after the plan was made (alone, and hidden by one empty
//! read). Whatever happens, a resource reported deleted must be gone from the cloud, and one an
//! instance uses must stay, attached, with that instance named in the refusal.

use std::collections::BTreeMap;
use std::time::Duration;

use async_trait::async_trait;
use futures_util::future::join_all;
use gpumeter::meter::ResourceKind;
use gpumeter::provider::{
    CleanupFilter, CleanupPlan, Exposure, LinkedResource, Provider, ProviderError, cleanup,
};
use jiff::Timestamp;
use tokio::sync::Semaphore;

use super::{CASE_LIMIT, CASES, gated};
use crate::common::fault_proxy::{Answer, Fault, FaultProxy, On};

/// One resource the plan deletes, and the name of the call that deletes it.
pub struct Leftover {
    pub resource: LinkedResource,
    pub change: &'static str,
}

/// A cloud holding a running instance beside a disk and an address that nothing uses.
#[async_trait]
pub trait Cleaning: Sync {
    type World: Send + Sync;
    fn name(&self) -> &'static str;
    async fn fresh(&self) -> Self::World;
    fn upstream(&self, world: &Self::World) -> String;
    fn adapter(&self, world: &Self::World, endpoint: &str) -> Box<dyn Provider>;
    /// The disk and the address, as the plan showed them: attached to nothing.
    fn leftovers(&self, world: &Self::World) -> Vec<Leftover>;
    /// Attaches or associates `r` to the running instance, in the cloud itself.
    async fn attach(&self, world: &Self::World, r: &LinkedResource);
    /// Whether the cloud still holds `r`, and the instance it is attached to now.
    async fn holds(&self, world: &Self::World, r: &LinkedResource) -> (bool, Option<String>);
    /// The running instance.
    fn running(&self, world: &Self::World) -> String;
    /// What must never show in a report or an error.
    fn secret(&self) -> &'static str;
    fn concurrency(&self) -> usize {
        64
    }
    fn hang(&self) -> Duration {
        Duration::from_millis(900)
    }
}

/// `id` of `kind`, as a sweep or an inventory lists it, attached to `on`.
pub fn found(id: &str, kind: ResourceKind, on: Option<&str>) -> LinkedResource {
    LinkedResource {
        id: id.into(),
        name: id.into(),
        kind,
        class: None,
        size_gib: rust_decimal::Decimal::from(40),
        state: String::new(),
        created: Timestamp::UNIX_EPOCH,
        deleted_with_instance: false,
        backs_image: None,
        attached_to: on.map(str::to_string),
        exposure: Exposure::default(),
        origin: None,
        tags: BTreeMap::new(),
    }
}

/// The cases of this matrix's own, beside the action matrix's faults: the resource attached
/// after the plan, alone and hidden by one empty read.
const OWN: &[(Option<(Fault, On)>, bool)] = &[
    (None, true),
    (Some((Fault::EmptyOnce, On::FirstRead)), true),
];

/// What one cloud's cleanup matrix came to.
#[derive(Debug, Default)]
pub struct Figures {
    pub cases: usize,
    /// Reported deleted, and gone.
    pub deleted: usize,
    /// Attached after the plan, refused, still attached, the instance named.
    pub refused_in_use: usize,
    pub failures: Vec<String>,
}

impl Figures {
    pub fn check(&self, cloud: &str) {
        eprintln!(
            "{cloud} cleanup: {} cases, {} reported deleted (each gone in the cloud), {} \
             attached after the plan and refused naming the instance; wrong outcomes {}",
            self.cases,
            self.deleted,
            self.refused_in_use,
            self.failures.len()
        );
        assert!(
            self.refused_in_use > 0 && self.deleted > 0,
            "{cloud}: a matrix with nothing refused or deleted proves nothing"
        );
        assert!(
            self.failures.is_empty(),
            "{cloud}: {} of {} cleanup cases went wrong:\n{}",
            self.failures.len(),
            self.cases,
            self.failures.join("\n")
        );
    }
}

/// How one case ended, when it went right.
enum Right {
    Deleted,
    RefusedInUse,
    NotDone,
}

/// Every leftover through every case, the baselines first.
pub async fn run<C: Cleaning>(cloud: &C) -> Figures {
    let mut figures = Figures::default();
    let gate = Semaphore::new(cloud.concurrency());
    let count = cloud.leftovers(&cloud.fresh().await).len();
    let mut runs = Vec::new();
    for which in 0..count {
        let Some(recorded) = baseline(cloud, which).await else {
            figures.failures.push(format!(
                "{} leftover {which}: not deleted without a fault",
                cloud.name()
            ));
            continue;
        };
        let faults = CASES.iter().map(|&case| (Some(case), false));
        for (fault, attach) in faults.chain(OWN.iter().copied()) {
            let recorded = recorded.clone();
            runs.push(gated(&gate, async move {
                one_case(cloud, which, recorded, fault, attach).await
            }));
        }
    }
    for outcome in join_all(runs).await {
        figures.cases += 1;
        match outcome {
            Ok(Right::Deleted) => figures.deleted += 1,
            Ok(Right::RefusedInUse) => figures.refused_in_use += 1,
            Ok(Right::NotDone) => {}
            Err(failure) => figures.failures.push(failure),
        }
    }
    figures
}

/// The delete's answer, from a run without a fault, which must delete it.
async fn baseline<C: Cleaning>(cloud: &C, which: usize) -> Option<Answer> {
    for _ in 0..3 {
        let world = cloud.fresh().await;
        let left = cloud.leftovers(&world).swap_remove(which);
        let proxy = FaultProxy::start(&cloud.upstream(&world), left.change);
        let adapter = cloud.adapter(&world, &proxy.url());
        let outcomes = cleanup::run(adapter.as_ref(), &planned(&left.resource)).await;
        let (held, _) = cloud.holds(&world, &left.resource).await;
        if outcomes.iter().all(cleanup::Outcome::confirmed) && !held {
            return proxy.change_answer();
        }
        eprintln!("baseline {}: {outcomes:?}", cloud.name());
    }
    None
}

/// The core's plan for `r` alone, made while it was free.
fn planned(r: &LinkedResource) -> Vec<LinkedResource> {
    let only = CleanupFilter {
        ids: vec![r.id.clone()],
        ..CleanupFilter::default()
    };
    let plan =
        CleanupPlan::new(std::slice::from_ref(r), &only, &[], Timestamp::now()).expect("the plan");
    assert_eq!(plan.delete.len(), 1, "{:?}", plan.refused);
    plan.delete
}

async fn one_case<C: Cleaning>(
    cloud: &C,
    which: usize,
    recorded: Answer,
    fault: Option<(Fault, On)>,
    attach: bool,
) -> Result<Right, String> {
    let world = cloud.fresh().await;
    let left = cloud.leftovers(&world).swap_remove(which);
    let r = &left.resource;
    let what = format!(
        "{} cleanup of {} {} with {fault:?}{}",
        cloud.name(),
        r.kind.label(),
        r.id,
        if attach {
            ", attached after the plan"
        } else {
            ""
        }
    );
    let plan = planned(r);
    let proxy = FaultProxy::start(&cloud.upstream(&world), left.change);
    if let Some((fault, on)) = fault {
        proxy.arm(fault, on).replay(recorded).hang_for(cloud.hang());
    }
    if attach {
        cloud.attach(&world, r).await;
    }
    let adapter = cloud.adapter(&world, &proxy.url());
    let outcomes = tokio::time::timeout(CASE_LIMIT, cleanup::run(adapter.as_ref(), &plan))
        .await
        .map_err(|_| format!("{what}: still running after {CASE_LIMIT:?}"))?;
    let (held, on) = cloud.holds(&world, r).await;
    let outcome = &outcomes[0];
    let text = match &outcome.result {
        Ok(report) => report.summary.clone(),
        Err(e) => format!("{e} {}", ProviderError::fix(e)),
    };
    let fail = |why: String| Err(format!("{what}: {why}: {text}; calls {:?}", proxy.calls()));
    if text.contains(cloud.secret()) {
        return fail("the secret shows".into());
    }
    if outcome.confirmed() && held {
        return fail("reported deleted, still held".into());
    }
    if attach {
        let running = cloud.running(&world);
        if !held || on.as_deref() != Some(running.as_str()) {
            return fail(format!(
                "in use by {running}, yet deleted or freed ({held}, {on:?})"
            ));
        }
        if !text.contains(&running) {
            return fail(format!("the refusal does not name {running}"));
        }
        return Ok(Right::RefusedInUse);
    }
    Ok(if outcome.confirmed() {
        Right::Deleted
    } else {
        Right::NotDone
    })
}
