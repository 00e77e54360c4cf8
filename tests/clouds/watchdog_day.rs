//! A benchmark, not a test (`scripts/watchdog-bench` runs it): a watchdog guarding an AWS
//! instance that nothing touches, against moto, for a simulated day of 5 s checks. The
//! watchdog's clock is tokio's, paused and stepped; the adapter's calls run on a runtime of
//! their own in real time, so its HTTP timeouts mean what they say. Counts the EC2 calls moto
//! was sent and fails above 300 (the inventory interval's 144 looks and the first full read).
//! The spot notice is the instance's own metadata, never an EC2 call; here the metadata
//! service is off, as on a machine that is not the instance.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use gpumeter::config::OnExpiry;
use gpumeter::demo::demo_simulator;
use gpumeter::guard::{IdleRule, IdleTracker};
use gpumeter::ledger::Ledger;
use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::{AwsEnv, AwsSettings};
use gpumeter::provider::refresh::Look;
use gpumeter::provider::{Action, ActionReport, Capabilities, Inventory, Provider, ProviderError};
use gpumeter::watchdog::{Watch, watch};
use jiff::{SignedDuration, Timestamp};

use crate::aws_moto::{call, grab, moto_ec2, policy, run_instance};
use crate::common::moto::moto;

const DAY: Duration = Duration::from_secs(24 * 3600);
const CHECK_EVERY: Duration = Duration::from_secs(5);
const INVENTORY_EVERY: Duration = Duration::from_secs(600);
const MOST_CALLS: usize = 300;

/// The AWS adapter, each call sent to a runtime that keeps real time and waited for with the
/// paused runtime's thread blocked: a runtime that waited idle would move its clock on to its
/// next timer, so a call takes no simulated time at all.
struct RealTime {
    aws: Arc<Aws>,
    io: tokio::runtime::Handle,
    /// The watchdog's checks: each asks for a spot notice.
    checks: AtomicUsize,
}

impl RealTime {
    fn on_io<T, F>(&self, f: impl FnOnce(Arc<Aws>) -> F) -> T
    where
        F: std::future::Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let (tx, rx) = std::sync::mpsc::channel();
        let call = f(Arc::clone(&self.aws));
        self.io.spawn(async move {
            let _ = tx.send(call.await);
        });
        rx.recv().expect("the call answers")
    }
}

#[async_trait]
impl Provider for RealTime {
    fn name(&self) -> &str {
        self.aws.name()
    }
    fn capabilities(&self) -> Capabilities {
        self.aws.capabilities()
    }
    fn plan_instance(&self, action: &Action) -> Vec<String> {
        self.aws.plan_instance(action)
    }
    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        self.on_io(|aws| async move { aws.inventory().await })
    }
    async fn look(&self) -> Result<Look, ProviderError> {
        self.on_io(|aws| async move { aws.look().await })
    }
    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        let action = action.clone();
        self.on_io(|aws| async move { aws.act(&action).await })
    }
    async fn interruption_notice(&self) -> Result<Option<Timestamp>, ProviderError> {
        self.checks.fetch_add(1, Ordering::SeqCst);
        self.on_io(|aws| async move { aws.interruption_notice().await })
    }
}

fn env(url: &str) -> AwsEnv {
    AwsEnv::from_pairs([
        ("AWS_ACCESS_KEY_ID", "AKIDMOTOTEST"),
        ("AWS_SECRET_ACCESS_KEY", crate::aws_moto::SECRET),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ENDPOINT_URL", url),
        ("AWS_EC2_METADATA_DISABLED", "true"),
    ])
}

/// A running instance with its root volume, a data volume, a snapshot of it and an address.
async fn untouched_instance(url: &str) -> String {
    let ec2 = moto_ec2(url);
    let (instance, zone) = run_instance(&ec2).await;
    let volume = call(
        &ec2,
        "CreateVolume",
        &[("AvailabilityZone", &zone), ("Size", "500")],
    )
    .await;
    let volume = grab(&volume, "volumeId");
    let attach = [
        ("VolumeId", volume.as_str()),
        ("InstanceId", instance.as_str()),
        ("Device", "/dev/sdf"),
    ];
    call(&ec2, "AttachVolume", &attach).await;
    call(&ec2, "CreateSnapshot", &[("VolumeId", &volume)]).await;
    let eip = call(&ec2, "AllocateAddress", &[("Domain", "vpc")]).await;
    let allocation = grab(&eip, "allocationId");
    let assoc = [
        ("AllocationId", allocation.as_str()),
        ("InstanceId", instance.as_str()),
    ];
    call(&ec2, "AssociateAddress", &assoc).await;
    instance
}

#[test]
#[ignore = "a benchmark: scripts/watchdog-bench runs it in release"]
fn a_day_watching_an_untouched_instance_asks_ec2_at_most_300_times() {
    let Some(moto) = moto() else { return };
    let io = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let instance = io.block_on(untouched_instance(&moto.url));
    let settings = AwsSettings::resolve(&env(&moto.url), Some(instance.clone()), None);
    let aws = Arc::new(Aws::with_policy(settings, policy(), policy()));
    let provider = Arc::new(RealTime {
        aws,
        io: io.handle().clone(),
        checks: AtomicUsize::new(0),
    });
    let ec2_calls = || {
        moto.calls()
            .iter()
            .filter(|c| c.starts_with("ec2 "))
            .count()
    };
    let before = ec2_calls();
    let dir = tempfile::tempdir().unwrap();
    let paused = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .unwrap();
    let real = Instant::now();
    let checked = paused.block_on(async {
        let origin = tokio::time::Instant::now();
        let start = Timestamp::now();
        let wall = move || start + SignedDuration::try_from(origin.elapsed()).unwrap();
        let w = Watch {
            notifier: None,
            instance,
            provider: provider.clone(),
            ledger: Ledger::open(dir.path().join("ledger.sqlite")).unwrap(),
            interval: CHECK_EVERY,
            inventory_every: INVENTORY_EVERY,
            idle: IdleTracker::new(IdleRule::default()),
            on_idle: OnExpiry::Alert,
            hooks: gpumeter::config::HooksConfig::default(),
            started_by: None,
            wall: Arc::new(wall),
            budget: None,
            balance: None,
            released_after_stopped_days: None,
            stopped_release: None,
        };
        let sim = demo_simulator("training");
        let ended = tokio::time::timeout(DAY, watch(w, sim.clone(), sim)).await;
        assert!(ended.is_err(), "the watchdog kept watching: {ended:?}");
        origin.elapsed()
    });
    let calls = ec2_calls() - before;
    let checks = provider.checks.load(Ordering::SeqCst);
    let per_action = moto.calls()[before..]
        .iter()
        .filter_map(|c| c.split_whitespace().nth(1))
        .fold(std::collections::BTreeMap::new(), |mut m, a| {
            *m.entry(a.to_string()).or_insert(0) += 1;
            m
        });
    eprintln!(
        "a simulated {:.1} h, {checks} checks {CHECK_EVERY:?} apart, looking every \
         {INVENTORY_EVERY:?}: {calls} EC2 calls (at most {MOST_CALLS}) {per_action:?}; {:.1} s of real time",
        checked.as_secs_f64() / 3600.0,
        real.elapsed().as_secs_f64()
    );
    assert!(checked >= DAY, "only {checked:?} passed");
    let ticks = usize::try_from(DAY.as_secs() / CHECK_EVERY.as_secs()).unwrap();
    assert!(checks >= ticks - 1, "{checks} checks of {ticks}");
    assert!(
        calls <= MOST_CALLS,
        "{calls} EC2 calls in a day: {per_action:?}"
    );
}
