//! The watchdog's budget in process, on the demo cloud, with a webhook on a loopback receiver
//! and a wall clock the test moves: the 80 and 100 % crossings reach the hook once each,
//! saying the level reached, and a watchdog started again sends neither again; with
//! `on_budget = "stop"` the limit stops the instance through the deadline's path, after the
//! grace period and its line.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use gpumeter::config::{NotifyConfig, OnExpiry};
use gpumeter::demo::{demo_pricing, demo_simulator};
use gpumeter::guard::month::month_of;
use gpumeter::guard::{IdleRule, IdleTracker, MonthSpend};
use gpumeter::ledger::{Change, GuardPolicy, GuardState, Ledger, WatchdogEvent};
use gpumeter::meter::InstanceState;
use gpumeter::money::Money;
use gpumeter::notify::Notifier;
use gpumeter::provider::Provider;
use gpumeter::provider::demo::DemoCloud;
use gpumeter::spend::Spend;
use gpumeter::watchdog::{Ended, WallClock, Watch, WatchBudget, watch};
use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

use crate::notify_peer::{Log, hook, notify_config, receiver, requests};

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

/// What the demo instance in `dir` has cost by `at` and burns an hour, as the cockpit's
/// meter computes it.
async fn spend_at(dir: &Path, at: Timestamp) -> (Money, Money) {
    let inventory = DemoCloud::new(dir, Arc::new(Timestamp::now))
        .inventory()
        .await
        .unwrap();
    let mut spend = Spend::new(demo_pricing(), None, jiff::tz::TimeZone::UTC);
    spend.record_inventory(&inventory, at);
    spend.recompute(Some(&inventory), at, None);
    let accrual = spend.reading.unwrap().accrual;
    (accrual.accrued.total(), accrual.burn_per_hour.total())
}

/// A fresh demo cloud in `dir`, a webhook receiver and its config, a wall clock the test
/// steps by `offset` seconds, and what the instance has cost so far.
struct Setup {
    dir: tempfile::TempDir,
    log: Log,
    hooks: NotifyConfig,
    offset: Arc<AtomicI64>,
    wall: WallClock,
    spent: Money,
}

async fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let (base, log) = receiver(vec![]);
    let hooks = notify_config(&hook("json", &base));
    let (offset, wall) = stepping_clock();
    DemoCloud::new(dir.path(), Arc::new(Timestamp::now))
        .reset()
        .unwrap();
    let (spent, _) = spend_at(dir.path(), Timestamp::now()).await;
    Setup {
        dir,
        log,
        hooks,
        offset,
        wall,
        spent,
    }
}

/// A limit half of what the instance has `spent`: the watchdog's first check is past it.
fn already_past(spent: Money) -> Money {
    Money::new(
        (spent.amount / Decimal::from(2)).round_dp(2),
        spent.currency,
    )
}

/// Seconds until spend reaches `percent` of `limit`, at the burn rate `burn` from `spent`.
fn seconds_to(percent: i64, limit: Money, spent: Money, burn: Money) -> i64 {
    let target = limit.amount * Decimal::from(percent) / Decimal::from(100);
    let hours = (target - spent.amount) / burn.amount;
    i64::try_from((hours * Decimal::from(3600)).ceil()).unwrap()
}

/// The instance's budget of `limit`, with `on_budget` at the limit.
fn per_instance(limit: Money, on_budget: OnExpiry) -> WatchBudget {
    WatchBudget::new(demo_pricing().unwrap(), on_budget).per_instance(limit)
}

/// A watchdog for the demo cloud in `dir`, checking five times a
/// second on `wall`, with the budget `limit` and `on_budget`, telling `hooks`. Its guard row
/// has no deadline and a grace period of one second.
fn watchdog(
    dir: &Path,
    wall: WallClock,
    limit: Money,
    on_budget: OnExpiry,
    hooks: &NotifyConfig,
) -> Watch {
    watchdog_with(dir, wall, per_instance(limit, on_budget), hooks)
}

/// The same watchdog with `budget`.
fn watchdog_with(dir: &Path, wall: WallClock, budget: WatchBudget, hooks: &NotifyConfig) -> Watch {
    let cloud = DemoCloud::new(dir, Arc::new(Timestamp::now)).with_delay(Duration::ZERO);
    let instance = cloud.load().unwrap().instance.id;
    let mut ledger = Ledger::open(dir.join("ledger.sqlite")).unwrap();
    let policy = GuardPolicy {
        deadline: None,
        on_expiry: OnExpiry::Alert,
        grace: Duration::from_secs(1),
    };
    let change = Change {
        at: Timestamp::now(),
        by: "cockpit",
    };
    ledger.set_policy(&instance, &policy, change).unwrap();
    Watch {
        notifier: Some(Notifier::new(hooks, Some(instance.clone())).unwrap()),
        instance,
        provider: Arc::new(cloud),
        ledger,
        interval: Duration::from_millis(200),
        inventory_every: Duration::from_millis(200),
        idle: IdleTracker::new(IdleRule::default()),
        on_idle: OnExpiry::Alert,
        hooks: gpumeter::config::HooksConfig::default(),
        started_by: None,
        wall,
        budget: Some(budget),
        balance: None,
        released_after_stopped_days: None,
        stopped_release: None,
    }
}

/// The budget alerts the hook has received: key and body.
fn budget_alerts(log: &Log) -> Vec<(String, String)> {
    requests(log)
        .iter()
        .map(crate::notify_peer::Request::json)
        .filter(|j| j["key"].as_str().is_some_and(|k| k.starts_with("budget:")))
        .map(|j| {
            let text = |k: &str| j[k].as_str().unwrap_or_default().to_string();
            (text("key"), text("body"))
        })
        .collect()
}

/// Waits (at most 30 s) until the hook has received `n` budget alerts.
async fn until_alerts(log: &Log, n: usize) -> Vec<(String, String)> {
    let start = Instant::now();
    loop {
        let said = budget_alerts(log);
        if said.len() >= n || start.elapsed() > Duration::from_secs(30) {
            return said;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The percentage a crossing's text says: "budget: 95% used (...)".
fn level_in(body: &str) -> u32 {
    body.strip_prefix("budget: ")
        .and_then(|rest| rest.split_once('%'))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no level in {body:?}"))
}

#[tokio::test]
async fn the_hook_gets_80_then_100_once_each_with_the_level_reached() {
    let Setup {
        dir,
        log,
        hooks,
        offset,
        wall,
        spent,
    } = setup().await;
    // Spend stands at about 70 % of the limit when the watchdog starts.
    let limit = Money::new(
        (spent.amount / Decimal::new(7, 1)).round_dp(2),
        spent.currency,
    );
    let w = watchdog(dir.path(), wall.clone(), limit, OnExpiry::Alert, &hooks);
    let sim = demo_simulator("training");
    let steps = async {
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert!(budget_alerts(&log).is_empty(), "nothing at 70 %");
        // Past 80 % between two checks: the spend stands at about 95 %.
        let (spent, burn) = spend_at(dir.path(), Timestamp::now()).await;
        offset.store(seconds_to(95, limit, spent, burn), Ordering::SeqCst);
        let said = until_alerts(&log, 1).await;
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].0, "budget:80");
        let level = level_in(&said[0].1);
        assert!((94..=96).contains(&level), "{said:?}");
        offset.store(seconds_to(110, limit, spent, burn), Ordering::SeqCst);
        let said = until_alerts(&log, 2).await;
        // A few more checks say nothing more.
        tokio::time::sleep(Duration::from_secs(1)).await;
        said
    };
    let said = tokio::select! {
        ended = watch(w, sim.clone(), sim) => panic!("the watchdog ended first: {ended:?}"),
        said = steps => said,
    };
    assert_eq!(budget_alerts(&log).len(), 2, "{said:?}");
    assert_eq!(said[1].0, "budget:100");
    assert!((109..=111).contains(&level_in(&said[1].1)), "{said:?}");
    assert!(
        said[1].1.contains(&format!("of {limit})")),
        "the limit is quoted: {said:?}"
    );

    // Started again over the same ledger, past both, it sends neither again.
    let again = watchdog(dir.path(), wall, limit, OnExpiry::Alert, &hooks);
    let sim = demo_simulator("training");
    tokio::select! {
        ended = watch(again, sim.clone(), sim) => panic!("the watchdog ended first: {ended:?}"),
        () = tokio::time::sleep(Duration::from_secs(2)) => {}
    }
    assert_eq!(budget_alerts(&log).len(), 2, "{:?}", budget_alerts(&log));
}

/// When the demo cloud recorded a stop, polled for at most `limit`.
/// When the demo cloud's instance first went into `wanted`, waiting up to `limit`.
async fn reached(dir: &Path, wanted: InstanceState, limit: Duration) -> Option<Timestamp> {
    let cloud = DemoCloud::new(dir, Arc::new(Timestamp::now));
    let start = Instant::now();
    while start.elapsed() < limit {
        let state = cloud.load().unwrap();
        if let Some((at, _)) = state.instance.history.iter().find(|(_, s)| *s == wanted) {
            return Some(*at);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

/// What a watchdog over a demo instance already past its limit did with `on_budget`, once the
/// instance reached `wanted`.
struct Acted {
    started: Timestamp,
    at: Timestamp,
    said: Vec<(String, String)>,
    guard: GuardState,
    events: Vec<WatchdogEvent>,
}

async fn act_on_budget(on_budget: OnExpiry, wanted: InstanceState) -> Acted {
    let Setup {
        dir,
        log,
        hooks,
        wall,
        spent,
        ..
    } = setup().await;
    let limit = already_past(spent);
    let w = watchdog(dir.path(), wall, limit, on_budget, &hooks);
    let instance = w.instance.clone();
    let sim = demo_simulator("training");
    let started = Timestamp::now();
    let at = tokio::select! {
        // A watchdog whose instance is released ends; the cloud says when that was.
        _ = watch(w, sim.clone(), sim) => reached(dir.path(), wanted, Duration::from_secs(1)).await,
        at = reached(dir.path(), wanted, Duration::from_secs(60)) => at,
    };
    let ledger = Ledger::open_read_only(dir.path().join("ledger.sqlite")).unwrap();
    Acted {
        started,
        at: at.unwrap_or_else(|| panic!("the watchdog did not bring the instance to {wanted:?}")),
        said: budget_alerts(&log),
        guard: ledger.guard(&instance).unwrap().unwrap(),
        events: ledger.last_watchdog_events(&instance, 50).unwrap(),
    }
}

impl Acted {
    /// The deadline is set at the limit (whole seconds), then a second's grace.
    fn acted_after_the_grace(&self) {
        let earliest = Timestamp::from_second(self.started.as_second()).unwrap()
            + SignedDuration::from_secs(1);
        assert!(
            self.at >= earliest,
            "acted at {}, before the grace ended",
            self.at
        );
    }

    /// The index of the grace line and of the action, the action confirmed and naming the
    /// budget.
    fn grace_then_confirmed_action(&self) -> (usize, usize) {
        let events = &self.events;
        let grace = events
            .iter()
            .position(|e| e.text.contains("unless extended (any key in the cockpit"))
            .unwrap_or_else(|| panic!("no grace line: {events:#?}"));
        let action = events
            .iter()
            .position(|e| e.kind == "action")
            .expect("the action is an event");
        assert!(grace < action, "{events:#?}");
        assert!(events[grace].text.starts_with("budget: "), "{events:#?}");
        assert_eq!(events[action].outcome.as_deref(), Some("confirmed"));
        assert!(events[action].text.contains("(budget: "), "{events:#?}");
        (grace, action)
    }
}

#[tokio::test]
async fn on_budget_stop_stops_the_instance_after_the_grace_period() {
    let acted = act_on_budget(OnExpiry::Stop, InstanceState::Stopped).await;
    acted.acted_after_the_grace();
    let said = &acted.said;
    assert_eq!(said.len(), 1, "a jump past 80 says only 100: {said:?}");
    assert_eq!(said[0].0, "budget:100");
    assert!(
        said[0]
            .1
            .contains("on_budget: stop after the grace period unless extended"),
        "{said:?}"
    );
    assert_eq!(acted.guard.on_expiry, OnExpiry::Stop);
    assert!(
        acted.guard.updated_by.ends_with("(budget)"),
        "{:?}",
        acted.guard
    );
    let (grace, _) = acted.grace_then_confirmed_action();
    let crossed = acted
        .events
        .iter()
        .position(|e| e.text.contains("on_budget: stop"))
        .expect("the crossing is an event");
    assert!(crossed < grace, "{:#?}", acted.events);
}

/// `on_budget = "release"` goes the same confirmed way as a stop: the crossing, the grace
/// line, then a release the provider confirmed, each saying it was the budget.
#[tokio::test]
async fn on_budget_release_releases_the_instance_after_the_grace_period() {
    let acted = act_on_budget(OnExpiry::Release, InstanceState::Released).await;
    acted.acted_after_the_grace();
    assert_eq!(acted.said.len(), 1, "{:?}", acted.said);
    assert!(
        acted.said[0]
            .1
            .contains("on_budget: release after the grace period unless extended"),
        "{:?}",
        acted.said
    );
    assert_eq!(acted.guard.on_expiry, OnExpiry::Release);
    acted.grace_then_confirmed_action();
}

#[tokio::test]
async fn a_budget_that_stops_keeps_the_watchdog_when_its_cockpit_is_gone() {
    let Setup {
        dir,
        hooks,
        wall,
        spent,
        ..
    } = setup().await;
    // Far from the limit; no deadline, no idle rule that acts; the starter is gone.
    let limit = Money::new(spent.amount * Decimal::from(100), spent.currency);
    let alone = |on_budget| {
        let mut w = watchdog(dir.path(), wall.clone(), limit, on_budget, &hooks);
        w.started_by = Some(u32::MAX);
        w
    };
    let sim = demo_simulator("training");
    let ended = tokio::time::timeout(
        Duration::from_secs(10),
        watch(alone(OnExpiry::Alert), sim.clone(), sim.clone()),
    )
    .await;
    assert!(
        matches!(ended, Ok(Ok(Ended::Unwatched))),
        "a budget that only alerts is no duty: {ended:?}"
    );
    let ended = tokio::time::timeout(
        Duration::from_secs(2),
        watch(alone(OnExpiry::Stop), sim.clone(), sim),
    )
    .await;
    assert!(
        ended.is_err(),
        "the watchdog left a budget that stops: {ended:?}"
    );
}

/// `[budget] per_month` counts what the ledger recorded this month before the watchdog
/// started, plus the instance's spend since: at about 95 % of the month the hook gets the
/// month's 80 % once, saying the level and the month, and a watchdog started again does not
/// send it again.
#[tokio::test]
async fn the_month_budget_counts_the_month_before_and_says_80_once() {
    let Setup {
        dir,
        log,
        hooks,
        wall,
        spent,
        ..
    } = setup().await;
    let tz = jiff::tz::TimeZone::UTC;
    let now = Timestamp::now();
    // The month had spent 900 before; the limit puts 900 at 95 % of it.
    let before = Money::new(Decimal::from(900), spent.currency);
    let limit = Money::new(
        (before.amount / Decimal::new(95, 2)).round_dp(2),
        spent.currency,
    );
    let budget = || {
        let month = MonthSpend::new(before, now, &tz).unwrap();
        WatchBudget::new(demo_pricing().unwrap(), OnExpiry::Alert).per_month(
            limit,
            month,
            tz.clone(),
        )
    };
    let label = month_of(now, &tz).unwrap().0;
    let sim = demo_simulator("training");
    let w = watchdog_with(dir.path(), wall.clone(), budget(), &hooks);
    let said = tokio::select! {
        ended = watch(w, sim.clone(), sim.clone()) => panic!("the watchdog ended first: {ended:?}"),
        said = until_alerts(&log, 1) => said,
    };
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, format!("budget:80:{label}"));
    assert!(said[0].1.starts_with("budget this month: "), "{said:?}");
    assert!(
        (94..=95).contains(&level_in(&said[0].1.replace(" this month", ""))),
        "{said:?}"
    );
    assert!(
        said[0].1.contains("(900.00 USD of"),
        "the month before counts: {said:?}"
    );
    assert!(said[0].1.contains(&format!("of {limit})")), "{said:?}");

    let again = watchdog_with(dir.path(), wall, budget(), &hooks);
    tokio::select! {
        ended = watch(again, sim.clone(), sim) => panic!("the watchdog ended first: {ended:?}"),
        () = tokio::time::sleep(Duration::from_secs(2)) => {}
    }
    assert_eq!(budget_alerts(&log).len(), 1, "{:?}", budget_alerts(&log));
}

/// A stopped instance past its limit with `on_budget = "stop"`: the crossing is said, but
/// there is nothing to stop, so no deadline is set and no action is taken.
#[tokio::test]
async fn on_budget_stop_leaves_a_stopped_instance_alone() {
    let Setup {
        dir,
        log,
        hooks,
        wall,
        spent,
        ..
    } = setup().await;
    let cloud = DemoCloud::new(dir.path(), Arc::new(Timestamp::now)).with_delay(Duration::ZERO);
    cloud
        .perform(&gpumeter::provider::Action::Stop)
        .await
        .unwrap();
    let limit = already_past(spent);
    let w = watchdog(dir.path(), wall, limit, OnExpiry::Stop, &hooks);
    let instance = w.instance.clone();
    let sim = demo_simulator("training");
    let said = tokio::select! {
        ended = watch(w, sim.clone(), sim) => panic!("the watchdog ended first: {ended:?}"),
        said = async {
            let said = until_alerts(&log, 1).await;
            // Checks enough for a deadline's grace to pass, were one set.
            tokio::time::sleep(Duration::from_secs(2)).await;
            said
        } => said,
    };
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(!said[0].1.contains("on_budget"), "{said:?}");
    let ledger = Ledger::open_read_only(dir.path().join("ledger.sqlite")).unwrap();
    let guard = ledger.guard(&instance).unwrap().unwrap();
    assert_eq!(guard.deadline, None, "{guard:?}");
    let events = ledger.last_watchdog_events(&instance, 50).unwrap();
    assert!(!events.iter().any(|e| e.kind == "action"), "{events:#?}");
}
