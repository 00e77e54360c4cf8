//! `stopped_release_after` in process, on the demo cloud, with a wall clock the test moves:
//! an instance stopped and left past the policy is released through the deadline's path (the
//! grace line, then a release the cloud confirms); one started during the grace period is not
//! released, even where the watchdog has not read the cloud since it was started.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use gpumeter::config::OnExpiry;
use gpumeter::demo::demo_simulator;
use gpumeter::guard::{IdleRule, IdleTracker};
use gpumeter::ledger::{Change, GuardPolicy, Ledger, WatchdogEvent};
use gpumeter::meter::InstanceState;
use gpumeter::provider::demo::DemoCloud;
use gpumeter::provider::{Action, ActionReport, Capabilities, Inventory, Provider, ProviderError};
use gpumeter::watchdog::{Ended, WallClock, Watch, WatchStopped, watch};
use jiff::{SignedDuration, Timestamp};

const THREE_DAYS: Duration = Duration::from_secs(3 * 24 * 3600);

/// A wall clock the test moves: the real one plus `offset` seconds.
fn stepping_clock() -> (Arc<AtomicI64>, WallClock) {
    let offset = Arc::new(AtomicI64::new(0));
    let read = offset.clone();
    let clock = Arc::new(move || {
        let by = SignedDuration::from_secs(read.load(Ordering::SeqCst));
        Timestamp::now().saturating_add(by).unwrap()
    });
    (offset, clock)
}

fn cloud(dir: &Path) -> DemoCloud {
    DemoCloud::new(dir, Arc::new(Timestamp::now)).with_delay(Duration::ZERO)
}

fn state(dir: &Path) -> InstanceState {
    cloud(dir).load().unwrap().instance.state
}

/// A watchdog over a fresh demo instance in `dir` that releases it once stopped three days,
/// with `grace` after the deadline it sets and the cloud read every `inventory_every`.
fn watchdog(dir: &Path, wall: WallClock, grace: Duration, inventory_every: Duration) -> Watch {
    let cloud = cloud(dir);
    cloud.reset().unwrap();
    let instance = cloud.load().unwrap().instance.id;
    let mut ledger = Ledger::open(dir.join("ledger.sqlite")).unwrap();
    let policy = GuardPolicy {
        deadline: None,
        on_expiry: OnExpiry::Alert,
        grace,
    };
    let change = Change {
        at: Timestamp::now(),
        by: "cockpit",
    };
    ledger.set_policy(&instance, &policy, change).unwrap();
    Watch {
        notifier: None,
        instance,
        provider: Arc::new(cloud),
        ledger,
        interval: Duration::from_millis(200),
        inventory_every,
        idle: IdleTracker::new(IdleRule::default()),
        on_idle: OnExpiry::Alert,
        hooks: gpumeter::config::HooksConfig::default(),
        started_by: None,
        wall,
        budget: None,
        balance: None,
        released_after_stopped_days: None,
        stopped_release: Some(WatchStopped::new(THREE_DAYS)),
    }
}

/// The demo cloud as a cloud that does not date shutdowns (EC2, say): its instance is listed
/// as AWS's, and a stopped one reads as stopped since the moment of the read.
struct Undated(DemoCloud);

#[async_trait::async_trait]
impl Provider for Undated {
    fn name(&self) -> &'static str {
        "aws"
    }

    fn capabilities(&self) -> Capabilities {
        self.0.capabilities()
    }

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        self.0.plan_instance(action)
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        let mut inventory = self.0.inventory().await?;
        if let Some(i) = inventory.instance.as_mut() {
            "aws".clone_into(&mut i.provider);
            if let Some(last) = i.history.last_mut()
                && last.1 == InstanceState::Stopped
            {
                last.0 = Timestamp::now();
            }
        }
        Ok(inventory)
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        self.0.act(action).await
    }
}

fn events(dir: &Path, instance: &str) -> Vec<WatchdogEvent> {
    Ledger::open_read_only(dir.join("ledger.sqlite"))
        .unwrap()
        .last_watchdog_events(instance, 50)
        .unwrap()
}

/// Polls (at most `limit`) until `done` holds.
async fn until(limit: Duration, done: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test]
async fn stopped_past_the_policy_the_instance_is_released_after_the_grace_line() {
    let dir = tempfile::tempdir().unwrap();
    let (offset, wall) = stepping_clock();
    let w = watchdog(
        dir.path(),
        wall,
        Duration::from_secs(1),
        Duration::from_millis(200),
    );
    let instance = w.instance.clone();
    let sim = demo_simulator("training");
    let steps = async {
        tokio::time::sleep(Duration::from_millis(600)).await;
        let report = cloud(dir.path()).perform(&Action::Stop).await.unwrap();
        assert!(report.confirmed, "{report:?}");
        // Stopped for less than the policy: nothing happens.
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(state(dir.path()), InstanceState::Stopped);
        let two_days = 2 * 24 * 3600;
        offset.store(two_days, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(
            state(dir.path()),
            InstanceState::Stopped,
            "two days of three"
        );
        offset.store(3 * 24 * 3600 + 60, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(30)).await;
    };
    let ended = tokio::select! {
        ended = watch(w, sim.clone(), sim) => ended,
        () = steps => panic!("the watchdog did not release the instance"),
    };
    assert_eq!(ended.unwrap(), Ended::Released);
    assert_eq!(state(dir.path()), InstanceState::Released, "read back");
    let events = events(dir.path(), &instance);
    let grace = events
        .iter()
        .position(|e| {
            e.text
                .contains("stopped_release_after: release after the grace period")
                && e.text.contains(&format!("{instance} stopped 3d"))
        })
        .unwrap_or_else(|| panic!("no line saying the policy: {events:#?}"));
    let banner = events
        .iter()
        .position(|e| e.text.contains("unless extended (any key in the cockpit"))
        .unwrap_or_else(|| panic!("no grace line: {events:#?}"));
    let action = events
        .iter()
        .position(|e| e.kind == "action")
        .expect("the release is an event");
    assert!(grace <= banner && banner < action, "{events:#?}");
    assert_eq!(events[action].outcome.as_deref(), Some("confirmed"));
    assert!(
        events[action].text.contains("stopped 3d"),
        "the release says why: {events:#?}"
    );
    assert!(
        !events.iter().any(|e| e.text.contains("is up again")),
        "released is not up: {events:#?}"
    );
}

/// `--on-idle stop` followed by the policy: the idle instance is stopped by the watchdog, and
/// released once it has stayed stopped three days.
#[tokio::test]
async fn idle_then_stopped_then_released() {
    let dir = tempfile::tempdir().unwrap();
    let (offset, wall) = stepping_clock();
    let mut w = watchdog(
        dir.path(),
        wall,
        Duration::from_secs(1),
        Duration::from_millis(200),
    );
    w.idle = IdleTracker::new(IdleRule {
        window: Duration::from_secs(1),
        ..IdleRule::default()
    });
    w.on_idle = OnExpiry::Stop;
    let sim = demo_simulator("idle");
    let steps = async {
        let stopped = || state(dir.path()) == InstanceState::Stopped;
        assert!(
            until(Duration::from_secs(20), stopped).await,
            "the idle rule did not stop the instance"
        );
        offset.store(3 * 24 * 3600 + 60, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(30)).await;
    };
    let ended = tokio::select! {
        ended = watch(w, sim.clone(), sim) => ended,
        () = steps => panic!("the watchdog did not release the stopped instance"),
    };
    assert_eq!(ended.unwrap(), Ended::Released);
    assert_eq!(state(dir.path()), InstanceState::Released);
}

#[tokio::test]
async fn started_during_the_grace_period_the_instance_is_not_released() {
    let dir = tempfile::tempdir().unwrap();
    let (offset, wall) = stepping_clock();
    // The cloud is read at start and not again for an hour: only the read before the release
    // can see the start.
    let w = watchdog(
        dir.path(),
        wall,
        Duration::from_secs(3),
        Duration::from_secs(3600),
    );
    let instance = w.instance.clone();
    cloud(dir.path()).perform(&Action::Stop).await.unwrap();
    offset.store(3 * 24 * 3600 + 60, Ordering::SeqCst);
    let ledger = dir.path().join("ledger.sqlite");
    let armed = || {
        Ledger::open_read_only(&ledger)
            .unwrap()
            .guard(&instance)
            .unwrap()
            .is_some_and(|g| g.deadline.is_some() && g.on_expiry == OnExpiry::Release)
    };
    let sim = demo_simulator("training");
    let steps = async {
        assert!(
            until(Duration::from_secs(20), armed).await,
            "the policy set no deadline"
        );
        let report = cloud(dir.path()).perform(&Action::Start).await.unwrap();
        assert!(report.confirmed, "{report:?}");
        let refused = || {
            events(dir.path(), &instance).iter().any(|e| {
                e.text
                    .contains("NOT released: a fresh read shows it running")
            })
        };
        assert!(
            until(Duration::from_secs(20), refused).await,
            "{:#?}",
            events(dir.path(), &instance)
        );
        // A few more checks: nothing more is tried.
        tokio::time::sleep(Duration::from_secs(1)).await;
    };
    tokio::select! {
        ended = watch(w, sim.clone(), sim) => panic!("the watchdog ended: {ended:?}"),
        () = steps => {}
    }
    assert_eq!(state(dir.path()), InstanceState::Running);
    let events = events(dir.path(), &instance);
    assert!(
        events.iter().all(|e| e.kind != "action"),
        "no release was tried: {events:#?}"
    );
    let guard = Ledger::open_read_only(&ledger)
        .unwrap()
        .guard(&instance)
        .unwrap()
        .unwrap();
    assert_eq!(
        (guard.deadline, guard.on_expiry),
        (None, OnExpiry::Alert),
        "the deadline the policy set is taken back"
    );
}

/// A key in the cockpit or `gpumeter extend` during the grace period moves the release later;
/// a start before then takes the extended release back too.
#[tokio::test]
async fn extended_in_the_grace_period_then_started_the_instance_is_not_released() {
    let dir = tempfile::tempdir().unwrap();
    let (offset, wall) = stepping_clock();
    let w = watchdog(
        dir.path(),
        wall.clone(),
        Duration::from_secs(2),
        Duration::from_millis(200),
    );
    let instance = w.instance.clone();
    cloud(dir.path()).perform(&Action::Stop).await.unwrap();
    offset.store(3 * 24 * 3600 + 60, Ordering::SeqCst);
    let ledger = dir.path().join("ledger.sqlite");
    let guard = || {
        Ledger::open_read_only(&ledger)
            .unwrap()
            .guard(&instance)
            .unwrap()
            .unwrap()
    };
    let sim = demo_simulator("training");
    let steps = async {
        let armed = || guard().deadline.is_some() && guard().on_expiry == OnExpiry::Release;
        assert!(
            until(Duration::from_secs(20), armed).await,
            "no deadline set"
        );
        let extended = guard().deadline.unwrap() + SignedDuration::from_secs(4);
        let policy = GuardPolicy {
            deadline: Some(extended),
            on_expiry: OnExpiry::Release,
            grace: Duration::from_secs(2),
        };
        let by = Change {
            at: wall(),
            by: "cockpit",
        };
        Ledger::open(&ledger)
            .unwrap()
            .set_policy(&instance, &policy, by)
            .unwrap();
        cloud(dir.path()).perform(&Action::Start).await.unwrap();
        let said = || {
            events(dir.path(), &instance)
                .iter()
                .any(|e| e.text.contains("is up again; its release is called off"))
        };
        assert!(until(Duration::from_secs(20), said).await);
        // Past the extended deadline and its grace.
        tokio::time::sleep(Duration::from_secs(7)).await;
    };
    tokio::select! {
        ended = watch(w, sim.clone(), sim) => panic!("the watchdog ended: {ended:?}"),
        () = steps => {}
    }
    assert_eq!(state(dir.path()), InstanceState::Running);
    assert!(
        events(dir.path(), &instance)
            .iter()
            .all(|e| e.kind != "action"),
        "no release was tried"
    );
    assert_eq!(guard().deadline, None);
}

/// On a cloud that does not date shutdowns the clock runs from the watchdog's first sighting,
/// kept in the ledger: a watchdog started again three days later releases the instance at
/// once, where one that started the clock afresh would wait three more days.
#[tokio::test]
async fn a_watchdog_started_again_keeps_the_clock_of_an_undated_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let (offset, wall) = stepping_clock();
    let undated = |w: Watch| Watch {
        provider: Arc::new(Undated(cloud(dir.path()))),
        ..w
    };
    let first = undated(watchdog(
        dir.path(),
        wall.clone(),
        Duration::from_secs(1),
        Duration::from_millis(200),
    ));
    let instance = first.instance.clone();
    cloud(dir.path()).perform(&Action::Stop).await.unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let seen = || {
        Ledger::open_read_only(&ledger)
            .unwrap()
            .stopped_seen(&instance)
            .unwrap()
    };
    let sim = demo_simulator("training");
    tokio::select! {
        ended = watch(first, sim.clone(), sim.clone()) => panic!("it ended: {ended:?}"),
        kept = until(Duration::from_secs(20), || seen().is_some()) => assert!(kept),
    }
    let first_seen = seen().unwrap();
    // Three days on, the first watchdog gone, a second one starts.
    offset.store(3 * 24 * 3600 + 60, Ordering::SeqCst);
    let second = Watch {
        ledger: Ledger::open(&ledger).unwrap(),
        provider: Arc::new(Undated(cloud(dir.path()))),
        wall,
        interval: Duration::from_millis(200),
        inventory_every: Duration::from_millis(200),
        idle: IdleTracker::new(IdleRule::default()),
        on_idle: OnExpiry::Alert,
        hooks: gpumeter::config::HooksConfig::default(),
        started_by: None,
        notifier: None,
        budget: None,
        balance: None,
        released_after_stopped_days: None,
        stopped_release: Some(WatchStopped::new(THREE_DAYS)),
        instance: instance.clone(),
    };
    let ended = tokio::time::timeout(Duration::from_secs(30), watch(second, sim.clone(), sim))
        .await
        .expect("the second watchdog did not release the instance");
    assert_eq!(ended.unwrap(), Ended::Released);
    assert_eq!(state(dir.path()), InstanceState::Released);
    let since = first_seen.strftime("%Y-%m-%d %H:%M UTC").to_string();
    assert!(
        events(dir.path(), &instance)
            .iter()
            .any(|e| e.text.contains(&format!("stopped 3d0h (since {since})"))),
        "the release counts from the first sighting: {:#?}",
        events(dir.path(), &instance)
    );
}

fn snapshots(dir: &Path) -> usize {
    cloud(dir)
        .load()
        .unwrap()
        .resources
        .iter()
        .filter(|r| r.kind == gpumeter::meter::ResourceKind::Snapshot)
        .count()
}

/// Stops the instance, then moves the clock past the policy; the watchdog's run with `w`.
async fn stopped_past_the_policy(dir: &Path, offset: &AtomicI64) {
    tokio::time::sleep(Duration::from_millis(600)).await;
    let report = cloud(dir).perform(&Action::Stop).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    tokio::time::sleep(Duration::from_millis(600)).await;
    offset.store(3 * 24 * 3600 + 60, Ordering::SeqCst);
}

/// `stopped_release_snapshot`: the release waits on a final snapshot the cloud reads back.
#[tokio::test]
async fn a_final_snapshot_is_read_back_before_the_release() {
    let dir = tempfile::tempdir().unwrap();
    let (offset, wall) = stepping_clock();
    let mut w = watchdog(
        dir.path(),
        wall,
        Duration::from_secs(1),
        Duration::from_millis(200),
    );
    w.stopped_release = Some(WatchStopped::new(THREE_DAYS).with_final_snapshot(true));
    let instance = w.instance.clone();
    let before = snapshots(dir.path());
    let sim = demo_simulator("training");
    let steps = async {
        stopped_past_the_policy(dir.path(), &offset).await;
        tokio::time::sleep(Duration::from_secs(30)).await;
    };
    let ended = tokio::select! {
        ended = watch(w, sim.clone(), sim) => ended,
        () = steps => panic!("the watchdog did not release the instance"),
    };
    assert_eq!(ended.unwrap(), Ended::Released);
    assert_eq!(
        snapshots(dir.path()),
        before + 1,
        "the final snapshot is kept"
    );
    let events = events(dir.path(), &instance);
    let snapshot = events
        .iter()
        .position(|e| {
            e.text
                .contains(&format!("final snapshot of {instance} read back"))
        })
        .unwrap_or_else(|| panic!("no final snapshot: {events:#?}"));
    let action = events
        .iter()
        .position(|e| e.kind == "action")
        .expect("the release is an event");
    assert!(snapshot < action, "the snapshot comes first: {events:#?}");
}

/// The demo cloud with no snapshots to take.
struct NoSnapshots(DemoCloud);

#[async_trait::async_trait]
impl Provider for NoSnapshots {
    fn name(&self) -> &'static str {
        "demo"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            snapshots: false,
            ..self.0.capabilities()
        }
    }

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        self.0.plan_instance(action)
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        self.0.inventory().await
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        self.0.act(action).await
    }
}

/// Where no final snapshot can be taken, the instance is kept, said once, and never released.
#[tokio::test]
async fn without_a_final_snapshot_the_instance_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (offset, wall) = stepping_clock();
    let mut w = watchdog(
        dir.path(),
        wall,
        Duration::from_secs(1),
        Duration::from_millis(200),
    );
    w.stopped_release = Some(WatchStopped::new(THREE_DAYS).with_final_snapshot(true));
    w.provider = Arc::new(NoSnapshots(cloud(dir.path())));
    let instance = w.instance.clone();
    let sim = demo_simulator("training");
    let steps = async {
        stopped_past_the_policy(dir.path(), &offset).await;
        tokio::time::sleep(Duration::from_secs(6)).await;
    };
    tokio::select! {
        ended = watch(w, sim.clone(), sim) => panic!("the watchdog ended: {ended:?}"),
        () = steps => {}
    }
    assert_eq!(state(dir.path()), InstanceState::Stopped, "kept");
    let events = events(dir.path(), &instance);
    let refused: Vec<_> = events
        .iter()
        .filter(|e| e.text.contains(&format!("no final snapshot of {instance}")))
        .collect();
    assert_eq!(refused.len(), 1, "said once: {events:#?}");
    assert!(
        refused[0].text.contains("takes no snapshots"),
        "{refused:?}"
    );
    assert!(!events.iter().any(|e| e.kind == "action"), "{events:#?}");
}
