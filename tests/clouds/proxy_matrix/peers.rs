//! The loopback peers behind the fault proxy: Alibaba, Tencent, Lambda, RunPod and Vast.ai.
//! Each world is a fresh peer; the truth is read from the peer's own state.

use std::collections::BTreeMap;

use async_trait::async_trait;
use gpumeter::meter::ResourceKind;
use gpumeter::provider::alibaba::AlibabaCloud;
use gpumeter::provider::tencent::TencentCloud;
use gpumeter::provider::{Action, Exposure, LinkedResource, Provider, Seen};
use jiff::{SignedDuration, Timestamp};

use super::{Cloud, Target, Truth, run, with_snapshots};
use crate::alibaba_peer::{self, cloud::SNAPSHOTS};
use crate::gpu_peer::{self, Kind, cloud as gpu};
use crate::tencent_peer;

/// `id` seen at `provider` in `region` (`None`: a cloud without regions).
fn seen(provider: &str, region: Option<&str>, id: &str) -> Seen {
    [(provider, region, id)].into_iter().collect()
}

fn in_two_hours() -> Action {
    Action::SetDeadline {
        at: Some(Timestamp::now() + SignedDuration::from_hours(2)),
    }
}

fn done(done: bool) -> Truth {
    Truth {
        done,
        backup_lost: false,
    }
}

/// The Alibaba adapter at `endpoint`, asking `region` (else the peer's), having seen the
/// instance in the peer's region.
fn alibaba(endpoint: &str, region: Option<&str>) -> AlibabaCloud {
    let env = alibaba_peer::env_at(endpoint);
    let adapter = alibaba_peer::Peer::adapter_in(&env, Some(alibaba_peer::INSTANCE), region);
    let region = Some(alibaba_peer::cloud::REGION);
    adapter.add_seen(&seen("alibaba", region, alibaba_peer::INSTANCE));
    adapter
}

/// The Tencent adapter at `endpoint`, asking `region` (else the peer's), having seen the
/// instance in the peer's region.
fn tencent(endpoint: &str, region: Option<&str>) -> TencentCloud {
    let env = tencent_peer::env_at(endpoint, tencent_peer::SECRET);
    let adapter = tencent_peer::Peer::adapter_in(&env, Some(tencent_peer::INSTANCE), region);
    adapter.add_seen(&seen(
        "tencent",
        Some(tencent_peer::REGION),
        tencent_peer::INSTANCE,
    ));
    adapter
}

struct Alibaba;

#[async_trait]
impl Cloud for Alibaba {
    type World = alibaba_peer::Peer;

    fn name(&self) -> &'static str {
        "alibaba"
    }

    fn targets(&self) -> Vec<Target> {
        let mut targets = with_snapshots([
            "DeleteInstance",
            "StopInstance",
            "DeleteSnapshot",
            "CreateSnapshot",
        ]);
        targets.push(Target {
            action: in_two_hours(),
            change: "ModifyInstanceAutoReleaseTime",
        });
        targets
    }

    /// With its image shared with another account, so that its sharing is read: a listing
    /// says only that it is shared.
    async fn fresh(&self) -> Self::World {
        let peer = alibaba_peer::Peer::start().expect("the test has checked the models");
        peer.cloud(|c| c.image_accounts = vec!["1234567890123456".into()]);
        peer
    }

    fn upstream(&self, world: &Self::World) -> String {
        world.url()
    }

    fn adapter(&self, _world: &Self::World, endpoint: &str) -> Box<dyn Provider> {
        Box::new(alibaba(endpoint, None))
    }

    fn misplaced(&self, world: &Self::World) -> Option<Box<dyn Provider>> {
        Some(Box::new(alibaba(&world.url(), Some("cn-shanghai"))))
    }

    async fn truth(&self, world: &Self::World, action: &Action) -> Truth {
        world.cloud(|c| match action {
            Action::Release => done(c.instance.is_none()),
            Action::Stop => done(c.instance.as_ref().is_some_and(|i| i.status != "Running")),
            Action::Start => done(c.instance.as_ref().is_some_and(|i| i.status == "Running")),
            Action::Cleanup { .. } => done(false),
            Action::SetDeadline { .. } => done(
                c.instance
                    .as_ref()
                    .is_some_and(|i| !i.auto_release.is_empty()),
            ),
            Action::SnapshotClean { final_snapshot, .. } => {
                // SNAPSHOTS[0] is behind an image and stays; the other two go.
                let old = |s: &&alibaba_peer::cloud::Snapshot| SNAPSHOTS.contains(&s.id.as_str());
                let old_left = c.snapshots.iter().filter(old).count();
                let old_gone = !c
                    .snapshots
                    .iter()
                    .any(|s| SNAPSHOTS[1..].contains(&s.id.as_str()));
                let final_taken = c.snapshots.iter().any(|s| !old(&s));
                let deleted_any = old_left < SNAPSHOTS.len();
                Truth {
                    done: old_gone && (!final_snapshot || final_taken),
                    backup_lost: *final_snapshot && deleted_any && !final_taken,
                }
            }
        })
    }

    fn secret(&self) -> &'static str {
        alibaba_peer::SECRET
    }
}

struct Tencent;

#[async_trait]
impl Cloud for Tencent {
    type World = tencent_peer::Peer;

    fn name(&self) -> &'static str {
        "tencent"
    }

    fn targets(&self) -> Vec<Target> {
        vec![
            Target {
                action: Action::Release,
                change: "TerminateInstances",
            },
            Target {
                action: Action::Stop,
                change: "StopInstances",
            },
            Target {
                action: in_two_hours(),
                change: "ImportInstancesActionTimer",
            },
        ]
    }

    /// With an old snapshot of a disk long gone, shared with another account (so that whom it
    /// is shared with is read: the listing says only how many), and the custom image made from
    /// it, which the sweep lists and a cleanup deletes, and a load balancer serving the instance.
    async fn fresh(&self) -> Self::World {
        let peer = tencent_peer::Peer::start().expect("the test has checked the models");
        peer.cloud(|c| {
            c.lbs.push(tencent_peer::cloud::Clb {
                id: "lb-loop1".into(),
                healthy: true,
            });
            c.snapshots.push(tencent_peer::cloud::Snapshot {
                id: "snap-old".into(),
                disk: "disk-gone".into(),
                size: 50,
            });
            c.snapshot_shares
                .insert("snap-old".into(), vec!["100000000001".into()]);
            c.images.push(tencent_peer::cloud::Image {
                id: "img-old".into(),
                snapshots: vec!["snap-old".into()],
                shared: Vec::new(),
            });
        });
        peer
    }

    fn upstream(&self, world: &Self::World) -> String {
        world.url()
    }

    fn adapter(&self, _world: &Self::World, endpoint: &str) -> Box<dyn Provider> {
        Box::new(tencent(endpoint, None))
    }

    fn misplaced(&self, world: &Self::World) -> Option<Box<dyn Provider>> {
        Some(Box::new(tencent(&world.url(), Some("ap-shanghai"))))
    }

    async fn truth(&self, world: &Self::World, action: &Action) -> Truth {
        world.cloud(|c| {
            done(match action {
                Action::Release => c.instance.is_none() || c.terminating,
                Action::Stop => c.instance.as_ref().is_some_and(|i| i.state == "STOPPED"),
                Action::Start => c.instance.as_ref().is_some_and(|i| i.state == "RUNNING"),
                Action::SetDeadline { .. } => !c.timers.is_empty(),
                Action::SnapshotClean { .. } | Action::Cleanup { .. } => false,
            })
        })
    }

    fn secret(&self) -> &'static str {
        tencent_peer::SECRET
    }
}

/// Lambda Cloud, RunPod or Vast.ai.
struct Gpu(Kind);

#[async_trait]
impl Cloud for Gpu {
    type World = gpu_peer::Peer;

    fn name(&self) -> &'static str {
        match self.0 {
            Kind::Lambda => "lambda",
            Kind::Runpod => "runpod",
            Kind::Vast => "vast",
        }
    }

    fn targets(&self) -> Vec<Target> {
        let target = |action, change| Target { action, change };
        match self.0 {
            Kind::Lambda => vec![target(
                Action::Release,
                "POST /api/v1/instance-operations/terminate",
            )],
            Kind::Runpod => vec![
                target(Action::Release, "POST /v2/pods/"),
                target(Action::Stop, "POST /v2/pods/"),
            ],
            Kind::Vast => vec![
                target(Action::Release, "DELETE /api/v0/instances/"),
                target(Action::Stop, "PUT /api/v0/instances/"),
            ],
        }
    }

    async fn fresh(&self) -> Self::World {
        gpu_peer::Peer::start(self.0)
    }

    fn upstream(&self, world: &Self::World) -> String {
        world.url()
    }

    fn adapter(&self, _world: &Self::World, endpoint: &str) -> Box<dyn Provider> {
        let (adapter, id): (Box<dyn Provider>, _) = match self.0 {
            Kind::Lambda => (Box::new(gpu_peer::lambda_at(endpoint)), gpu::LAMBDA_ID),
            Kind::Runpod => (Box::new(gpu_peer::runpod_at(endpoint)), gpu::POD_ID),
            Kind::Vast => (Box::new(gpu_peer::vast_at(endpoint)), gpu::VAST_ID),
        };
        adapter.add_seen(&seen(self.name(), None, id));
        adapter
    }

    async fn truth(&self, world: &Self::World, action: &Action) -> Truth {
        let kind = self.0;
        world.cloud(|c| {
            let status = c.status.as_deref();
            done(match (action, kind) {
                (Action::Release, Kind::Lambda) => status != Some("active"),
                (Action::Release, _) => status.is_none(),
                (Action::Stop, Kind::Runpod) => status == Some("EXITED"),
                (Action::Stop, _) => status == Some("stopped"),
                (Action::Start, Kind::Runpod) => status == Some("RUNNING"),
                (Action::Start, Kind::Vast) => status == Some("running"),
                _ => false,
            })
        })
    }

    fn secret(&self) -> &'static str {
        gpu_peer::KEY
    }
}

#[tokio::test]
async fn alibaba_behind_the_fault_proxy_is_never_falsely_done() {
    if crate::models::required().is_none() {
        return;
    }
    run(&Alibaba).await.check("alibaba");
}

#[tokio::test]
async fn tencent_behind_the_fault_proxy_is_never_falsely_done() {
    if crate::models::required().is_none() {
        return;
    }
    run(&Tencent).await.check("tencent");
}

#[tokio::test]
async fn lambda_behind_the_fault_proxy_is_never_falsely_done() {
    run(&Gpu(Kind::Lambda)).await.check("lambda");
}

#[tokio::test]
async fn runpod_behind_the_fault_proxy_is_never_falsely_done() {
    run(&Gpu(Kind::Runpod)).await.check("runpod");
}

#[tokio::test]
async fn vast_behind_the_fault_proxy_is_never_falsely_done() {
    run(&Gpu(Kind::Vast)).await.check("vast");
}

/// Setting a deadline, then taking it away; stopping, then starting again.
fn set_and_cancel_stop_and_start() -> Vec<Vec<Action>> {
    vec![
        vec![in_two_hours(), Action::SetDeadline { at: None }],
        vec![Action::Stop, Action::Start],
    ]
}

/// `id` of `kind`, as a sweep or an inventory lists it, attached to `on`.
fn found(id: &str, kind: ResourceKind, on: Option<&str>) -> LinkedResource {
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

/// Stopping the instance, then a cleanup of the image, the address and the data disk still
/// attached to it (detached and disassociated first) and the snapshot behind the image.
fn stop_and_clean(image: &str, eip: &str, disk: &str, snapshot: &str, on: &str) -> Vec<Action> {
    vec![
        Action::Stop,
        Action::Cleanup {
            delete: vec![
                found(image, ResourceKind::Image, None),
                found(eip, ResourceKind::PublicIp, Some(on)),
                found(disk, ResourceKind::DataDisk, Some(on)),
                found(snapshot, ResourceKind::Snapshot, None),
            ],
        },
    ]
}

/// A cleanup of the load balancer `id` alone.
fn clean_load_balancer(id: &str) -> Vec<Action> {
    vec![Action::Cleanup {
        delete: vec![found(id, ResourceKind::LoadBalancer, None)],
    }]
}

#[tokio::test]
async fn the_ram_policy_allows_every_call_and_nothing_more() {
    use alibaba_peer::cloud::{DATA_DISK, EIP, IMAGE, SLB};
    if crate::models::required().is_none() {
        return;
    }
    let mut more = set_and_cancel_stop_and_start();
    more.push(stop_and_clean(
        IMAGE,
        EIP,
        DATA_DISK,
        SNAPSHOTS[0],
        alibaba_peer::INSTANCE,
    ));
    more.push(clean_load_balancer(SLB));
    super::policies::check(&Alibaba, more, "alibaba-ram.json").await;
}

#[tokio::test]
async fn the_cam_policy_allows_every_call_and_nothing_more() {
    if crate::models::required().is_none() {
        return;
    }
    let mut more = set_and_cancel_stop_and_start();
    more.push(stop_and_clean(
        "img-old",
        "eip-loop1",
        "disk-keep",
        "snap-old",
        tencent_peer::INSTANCE,
    ));
    more.push(clean_load_balancer("lb-loop1"));
    super::policies::check(&Tencent, more, "tencent-cam.json").await;
}
