//! The watchdog's loop in process, on the demo cloud, with a wall clock that steps: three
//! hours forward (a fresh machine's first NTP sync) releases nothing early, and the grace
//! line still comes first; an hour back delays no deadline that has passed; the step is an
//! event the cockpit shows. Time is counted on the monotonic clock, which the test leaves be.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use gpumeter::config::OnExpiry;
use gpumeter::demo::demo_simulator;
use gpumeter::guard::{IdleRule, IdleTracker};
use gpumeter::ledger::{Change, GuardPolicy, Ledger, WatchdogEvent};
use gpumeter::meter::InstanceState;
use gpumeter::provider::demo::DemoCloud;
use gpumeter::watchdog::{Ended, Watch, watch};
use jiff::{SignedDuration, Timestamp};

/// How late after the grace period a release may come on a loaded machine.
const ON_TIME: Duration = Duration::from_secs(12);

/// A wall clock the test moves: the real one plus `offset` seconds.
fn stepping_clock() -> (Arc<AtomicI64>, gpumeter::watchdog::WallClock) {
    let offset = Arc::new(AtomicI64::new(0));
    let read = offset.clone();
    let clock = Arc::new(move || {
        let by = SignedDuration::from_secs(read.load(Ordering::SeqCst));
        Timestamp::now().saturating_add(by).unwrap()
    });
    (offset, clock)
}

/// A demo cloud in `dir` whose guard row releases at `deadline` after a second's grace, and a
/// watchdog for it that checks five times a second on `wall`. The instance's id with it.
fn watchdog(
    dir: &Path,
    deadline: Timestamp,
    wall: gpumeter::watchdog::WallClock,
) -> (Watch, String) {
    let cloud = DemoCloud::new(dir, Arc::new(Timestamp::now)).with_delay(Duration::ZERO);
    let instance = cloud.reset().unwrap().instance.id;
    let mut ledger = Ledger::open(dir.join("ledger.sqlite")).unwrap();
    let policy = GuardPolicy {
        deadline: Some(deadline),
        on_expiry: OnExpiry::Release,
        grace: Duration::from_secs(1),
    };
    let change = Change {
        at: Timestamp::now(),
        by: "cockpit",
    };
    ledger.set_policy(&instance, &policy, change).unwrap();
    let w = Watch {
        notifier: None,
        instance: instance.clone(),
        provider: Arc::new(cloud),
        ledger,
        interval: Duration::from_millis(200),
        // Only the read-back after the release asks the cloud again.
        inventory_every: Duration::from_secs(3600),
        idle: IdleTracker::new(IdleRule::default()),
        on_idle: OnExpiry::Alert,
        hooks: gpumeter::config::HooksConfig::default(),
        started_by: None,
        wall,
        budget: None,
        balance: None,
        released_after_stopped_days: None,
        stopped_release: None,
    };
    (w, instance)
}

/// When the demo cloud recorded the release (on the real clock), if it did.
fn released_at(dir: &Path) -> Option<Timestamp> {
    let state = DemoCloud::new(dir, Arc::new(Timestamp::now))
        .load()
        .unwrap();
    state
        .instance
        .history
        .iter()
        .find(|(_, s)| *s == InstanceState::Released)
        .map(|(at, _)| *at)
}

/// Runs the watchdog until it ends (at most 60 s), stepping the wall clock by `step` seconds
/// once `after` has passed; the watchdog's events then.
async fn run_with_a_step(
    dir: &Path,
    deadline: Timestamp,
    after: Duration,
    step: i64,
) -> Vec<WatchdogEvent> {
    let (offset, wall) = stepping_clock();
    let (w, instance) = watchdog(dir, deadline, wall);
    let sim = demo_simulator("training");
    let stepper = async {
        tokio::time::sleep(after).await;
        offset.store(step, Ordering::SeqCst);
        std::future::pending::<()>().await;
    };
    let ended = tokio::time::timeout(Duration::from_secs(60), async {
        tokio::select! {
            ended = watch(w, sim.clone(), sim) => ended,
            () = stepper => unreachable!(),
        }
    })
    .await
    .expect("the watchdog ended within 60s");
    assert_eq!(ended.unwrap(), Ended::Released);
    let ledger = Ledger::open_read_only(dir.join("ledger.sqlite")).unwrap();
    ledger.last_watchdog_events(&instance, 50).unwrap()
}

fn position(events: &[WatchdogEvent], what: &str) -> usize {
    events
        .iter()
        .position(|e| e.text.contains(what))
        .unwrap_or_else(|| panic!("no event says {what:?}: {events:#?}"))
}

#[tokio::test]
async fn a_forward_step_releases_nothing_early_and_the_grace_line_comes_first() {
    let dir = tempfile::tempdir().unwrap();
    // The ledger keeps whole seconds.
    let deadline = Timestamp::from_second(Timestamp::now().as_second() + 4).unwrap();
    let events = run_with_a_step(dir.path(), deadline, Duration::from_secs(1), 3 * 3600).await;
    let due = deadline + SignedDuration::from_secs(1);
    let at = released_at(dir.path()).expect("released");
    assert!(
        at >= due,
        "released at {at}, before the grace ended at {due}"
    );
    assert!(
        at.duration_since(due) < SignedDuration::try_from(ON_TIME).unwrap(),
        "released {:#} after the grace ended",
        at.duration_since(due)
    );
    let step = position(&events, "the wall clock stepped forward by 3h 00m");
    let grace = position(&events, "deadline reached: release at");
    let release = events
        .iter()
        .position(|e| e.kind == "action")
        .expect("the release is an event");
    assert!(step < grace && grace < release, "{events:#?}");
    assert_eq!(events[step].level, "warn");
}

#[tokio::test]
async fn a_backward_step_does_not_delay_a_deadline_that_has_passed() {
    let dir = tempfile::tempdir().unwrap();
    let deadline = Timestamp::from_second(Timestamp::now().as_second() + 3).unwrap();
    let events = run_with_a_step(dir.path(), deadline, Duration::from_millis(500), -3600).await;
    let due = deadline + SignedDuration::from_secs(1);
    let at = released_at(dir.path()).expect("released");
    assert!(
        at >= due && at.duration_since(due) < SignedDuration::try_from(ON_TIME).unwrap(),
        "released at {at}; the grace ended at {due}"
    );
    position(&events, "the wall clock stepped back by 1h 00m");
}
