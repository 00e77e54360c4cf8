//! The fault matrix behind the proxy ([`crate::common::fault_proxy`]): every action of every
//! adapter, against moto and each loopback peer, with each fault on the call that changes the
//! cloud, on every call after it, and on every call. The adapter has seen the instance, as a
//! cockpit that watched it has, so "absent" is as tempting as it gets. Whatever the fault, an
//! action reported done must be done in the cloud itself (read around the proxy), and no
//! snapshot may go before its final replacement exists.

mod autodl;
mod aws;
mod cleanup;
mod cleanup_peers;
mod peers;
mod policies;

use std::future::Future;
use std::time::Duration;

use async_trait::async_trait;
use futures_util::future::join_all;
use gpumeter::provider::{Action, ActionReport, Provider, ProviderError};
use tokio::sync::Semaphore;

use crate::common::fault_proxy::{Answer, Fault, FaultProxy, On};

/// One action, and what starts the name of the call by which it changes the cloud.
pub struct Target {
    pub action: Action,
    pub change: &'static str,
}

/// Release, stop, and snapshot-clean without and with a final snapshot (keeping none), each
/// with the call that changes the cloud: `calls` names release's, stop's, the deletion's and the
/// final snapshot's.
pub fn with_snapshots(calls: [&'static str; 4]) -> Vec<Target> {
    let clean = |final_snapshot| Action::SnapshotClean {
        keep: 0,
        final_snapshot,
        delete: None,
    };
    let [release, stop, delete, create] = calls;
    vec![
        Target {
            action: Action::Release,
            change: release,
        },
        Target {
            action: Action::Stop,
            change: stop,
        },
        Target {
            action: clean(false),
            change: delete,
        },
        Target {
            action: clean(true),
            change: create,
        },
    ]
}

/// What the cloud itself shows after an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Truth {
    pub done: bool,
    /// A snapshot was deleted while the final one asked for does not exist.
    pub backup_lost: bool,
}

/// One cloud the matrix runs against.
#[async_trait]
pub trait Cloud: Sync {
    type World: Send + Sync;
    fn name(&self) -> &'static str;
    /// Every action the adapter performs.
    fn targets(&self) -> Vec<Target>;
    /// A cloud holding the instance and what links to it, as nothing has touched it yet.
    async fn fresh(&self) -> Self::World;
    /// Leaves what a cleanup deletes beside the world's instance (an image, an address), for a
    /// sequence that cleans up; nothing where the cloud's adapter deletes nothing.
    async fn litter(&self, _world: &Self::World) {}
    /// Where the proxy forwards to.
    fn upstream(&self, world: &Self::World) -> String;
    /// The adapter, pointed at `endpoint`, having seen the instance.
    fn adapter(&self, world: &Self::World, endpoint: &str) -> Box<dyn Provider>;
    /// The adapter asking the cloud in a region other than the one it saw the instance in
    /// (`--region` mistyped); `None` for a cloud without regions.
    fn misplaced(&self, _world: &Self::World) -> Option<Box<dyn Provider>> {
        None
    }
    /// What the cloud shows of `action`, asked directly.
    async fn truth(&self, world: &Self::World, action: &Action) -> Truth;
    /// The ids that differ between worlds, for replaying one world's answer in another.
    fn ids(&self, _world: &Self::World) -> Vec<String> {
        Vec::new()
    }
    /// What must never show in a report or an error.
    fn secret(&self) -> &'static str;
    /// How many cases may run at once: a peer in one process serves them all.
    fn concurrency(&self) -> usize {
        64
    }
    /// Longer than the adapter waits for one answer.
    fn hang(&self) -> Duration {
        Duration::from_millis(900)
    }
}

/// Each fault with where it applies. A fault on every call is the wrong endpoint, a proxy in
/// the way or an outage; "accepted" only makes sense on the change; an empty list, once, is an
/// eventually consistent read before the change or as its first read-back.
pub const CASES: &[(Fault, On)] = &[
    (Fault::Hang, On::Change),
    (Fault::Status(429), On::Change),
    (Fault::Status(500), On::Change),
    (Fault::Status(503), On::Change),
    (Fault::Status(404), On::Change),
    (Fault::Truncated, On::Change),
    (Fault::Malformed, On::Change),
    (Fault::Accepted, On::Change),
    (Fault::Hang, On::AfterChange),
    (Fault::Status(429), On::AfterChange),
    (Fault::Status(500), On::AfterChange),
    (Fault::Status(503), On::AfterChange),
    (Fault::Status(404), On::AfterChange),
    (Fault::Truncated, On::AfterChange),
    (Fault::Malformed, On::AfterChange),
    (Fault::Status(404), On::Every),
    (Fault::Status(503), On::Every),
    (Fault::Malformed, On::Every),
    (Fault::EmptyOnce, On::FirstRead),
    (Fault::EmptyOnce, On::ReadAfterChange),
    (Fault::AcceptedThenEmpty, On::Change),
];

/// No action may take longer than this here; the adapters' own bounds are far shorter.
pub const CASE_LIMIT: Duration = Duration::from_secs(60);

/// What one cloud's matrix came to.
#[derive(Debug, Default)]
pub struct Figures {
    pub cases: usize,
    /// Reported done, and done.
    pub confirmed: usize,
    /// Every case that went wrong, in words.
    pub failures: Vec<String>,
}

impl Figures {
    /// Panics with every failure, and prints the figures.
    pub fn check(&self, cloud: &str) {
        eprintln!(
            "{cloud}: {} cases, {} reported done (each done in the cloud), false done {}",
            self.cases,
            self.confirmed,
            self.failures.len()
        );
        assert!(
            self.cases >= CASES.len(),
            "{cloud}: only {} cases ran; a matrix that runs nothing proves nothing",
            self.cases
        );
        assert!(
            self.failures.is_empty(),
            "{cloud}: {} of {} cases went wrong:\n{}",
            self.failures.len(),
            self.cases,
            self.failures.join("\n")
        );
    }
}

/// Runs every target of `cloud` through every case: the baselines first, then every case at
/// once (at most [`Cloud::concurrency`] at a time).
pub async fn run<C: Cloud>(cloud: &C) -> Figures {
    let targets = cloud.targets();
    let recorded = join_all(targets.iter().map(|t| baseline(cloud, t))).await;
    let gate = Semaphore::new(cloud.concurrency());
    let mut runs = Vec::new();
    let mut figures = Figures::default();
    for (target, recorded) in targets.iter().zip(&recorded) {
        let Some(recorded) = recorded else {
            figures.failures.push(format!(
                "{} {}: not done without a fault",
                cloud.name(),
                target.action.label()
            ));
            continue;
        };
        for &(fault, on) in CASES {
            runs.push(gated(&gate, one_case(cloud, target, recorded, fault, on)));
        }
    }
    let elsewhere = targets.iter().map(|t| gated(&gate, misplaced(cloud, t)));
    let (mut outcomes, elsewhere) =
        futures_util::future::join(join_all(runs), join_all(elsewhere)).await;
    outcomes.extend(elsewhere.into_iter().flatten());
    for outcome in outcomes {
        figures.cases += 1;
        match outcome {
            Ok(true) => figures.confirmed += 1,
            Ok(false) => {}
            Err(failure) => figures.failures.push(failure),
        }
    }
    figures
}

pub async fn gated<T>(gate: &Semaphore, run: impl Future<Output = T>) -> T {
    let _permit = gate.acquire().await.expect("the gate is never closed");
    run.await
}

/// The change call's answer and the world's ids, from a run without a fault, which must be
/// done: it proves the proxy forwards faithfully and the truth can see the action. A slow
/// moment of the peer gets two more tries.
async fn baseline<C: Cloud>(cloud: &C, target: &Target) -> Option<(Answer, Vec<String>)> {
    for _ in 0..3 {
        if let Some(recorded) = baseline_once(cloud, target).await {
            return Some(recorded);
        }
    }
    None
}

async fn baseline_once<C: Cloud>(cloud: &C, target: &Target) -> Option<(Answer, Vec<String>)> {
    let world = cloud.fresh().await;
    let proxy = FaultProxy::start(&cloud.upstream(&world), target.change);
    let adapter = cloud.adapter(&world, &proxy.url());
    let report = adapter.perform(&target.action).await;
    let truth = cloud.truth(&world, &target.action).await;
    let confirmed = report.as_ref().is_ok_and(|r| r.confirmed);
    if !(confirmed && truth.done) {
        eprintln!("baseline {}: {report:?} {truth:?}", cloud.name());
        return None;
    }
    Some((proxy.change_answer()?, cloud.ids(&world)))
}

/// The action asked in the wrong region, where the cloud does not list the instance.
async fn misplaced<C: Cloud>(cloud: &C, target: &Target) -> Option<Result<bool, String>> {
    let world = cloud.fresh().await;
    let adapter = cloud.misplaced(&world)?;
    let result = adapter.perform(&target.action).await;
    let truth = cloud.truth(&world, &target.action).await;
    let what = format!(
        "{} {} in the wrong region",
        cloud.name(),
        target.action.label()
    );
    Some(judge(&result, truth, cloud.secret()).map_err(|why| format!("{what}: {why}")))
}

/// `Ok(reported done)`, or what went wrong.
async fn one_case<C: Cloud>(
    cloud: &C,
    target: &Target,
    (recorded, ids): &(Answer, Vec<String>),
    fault: Fault,
    on: On,
) -> Result<bool, String> {
    let what = format!(
        "{} {} with {fault:?} on {on:?}",
        cloud.name(),
        target.action.label()
    );
    let world = cloud.fresh().await;
    let mut replay = recorded.clone();
    for (old, new) in ids.iter().zip(cloud.ids(&world)) {
        replay.body = replay.body.replace(old, &new);
    }
    let proxy = FaultProxy::start(&cloud.upstream(&world), target.change);
    proxy.arm(fault, on).replay(replay).hang_for(cloud.hang());
    let adapter = cloud.adapter(&world, &proxy.url());
    let result = tokio::time::timeout(CASE_LIMIT, adapter.perform(&target.action))
        .await
        .map_err(|_| format!("{what}: still running after {CASE_LIMIT:?}"))?;
    let truth = cloud.truth(&world, &target.action).await;
    judge(&result, truth, cloud.secret())
        .map_err(|why| format!("{what}: {why}; calls {:?}", proxy.calls()))
}

/// The rule: done only if done; no lost backup; no secret in what the user sees.
fn judge(
    result: &Result<ActionReport, ProviderError>,
    truth: Truth,
    secret: &str,
) -> Result<bool, String> {
    let (confirmed, text) = match result {
        Ok(report) => (report.confirmed, report.summary.clone()),
        Err(e) => (false, format!("{e} {}", e.fix())),
    };
    if text.contains(secret) {
        return Err(format!("the secret shows: {text}"));
    }
    if truth.backup_lost {
        return Err(format!("a snapshot went before its replacement: {text}"));
    }
    if confirmed && !truth.done {
        return Err(format!("reported done, not done: {text}"));
    }
    Ok(confirmed)
}
