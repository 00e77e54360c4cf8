//! The watchdog's balance guard in process, on the demo cloud with a prepaid balance, with a
//! webhook on a loopback receiver: a balance under `[budget] balance_floor` is said once
//! (`balance:floor`), with the hours left, and `on_balance = "stop"` stops the instance
//! through the deadline's path, after the grace period, read back.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gpumeter::config::{NotifyConfig, OnExpiry};
use gpumeter::demo::{demo_pricing, demo_simulator};
use gpumeter::guard::{IdleRule, IdleTracker};
use gpumeter::ledger::{Change, GuardPolicy, Ledger};
use gpumeter::meter::InstanceState;
use gpumeter::notify::Notifier;
use gpumeter::provider::demo::DemoCloud;
use gpumeter::watchdog::{Watch, WatchBalance, watch};
use jiff::Timestamp;
use rust_decimal::Decimal;

use crate::notify_peer::{Log, hook, notify_config, receiver, requests};

/// A watchdog over the demo cloud in `dir`, whose account held `cash` at the instance's
/// creation, with a floor of `floor` and `on_balance`; a second's grace.
fn watchdog(dir: &Path, cash: Decimal, floor: Decimal, hooks: &NotifyConfig) -> Watch {
    let cloud = DemoCloud::new(dir, Arc::new(Timestamp::now))
        .with_delay(Duration::ZERO)
        .prepaid(Some(cash));
    let instance = cloud.reset().unwrap().instance.id;
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
        wall: Arc::new(Timestamp::now),
        budget: None,
        released_after_stopped_days: None,
        stopped_release: None,
        balance: Some(WatchBalance::new(
            Some((floor, None)),
            OnExpiry::Stop,
            demo_pricing(),
        )),
    }
}

/// The balance alerts the hook has received: key and body.
fn balance_alerts(log: &Log) -> Vec<(String, String)> {
    requests(log)
        .iter()
        .map(crate::notify_peer::Request::json)
        .filter(|j| j["key"].as_str().is_some_and(|k| k.starts_with("balance:")))
        .map(|j| {
            let text = |k: &str| j[k].as_str().unwrap_or_default().to_string();
            (text("key"), text("body"))
        })
        .collect()
}

/// When the demo instance first stopped, waiting up to `limit`.
async fn stopped(dir: &Path, limit: Duration) -> Option<Timestamp> {
    let cloud = DemoCloud::new(dir, Arc::new(Timestamp::now));
    let start = Instant::now();
    while start.elapsed() < limit {
        let state = cloud.load().unwrap();
        if let Some((at, _)) = state
            .instance
            .history
            .iter()
            .find(|(_, s)| *s == InstanceState::Stopped)
        {
            return Some(*at);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

#[tokio::test]
async fn the_floor_stops_the_instance_after_the_grace_and_the_stop_is_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let (base, log) = receiver(vec![]);
    let hooks = notify_config(&hook("json", &base));
    // The demo ran 3 h 20 min at about 27.45 USD an hour (91.49): 100 leaves about 8.51,
    // under a floor of 10 and under an hour of burn.
    let w = watchdog(dir.path(), Decimal::from(100), Decimal::from(10), &hooks);
    let instance = w.instance.clone();
    let sim = demo_simulator("training");
    let started = Timestamp::now();
    let at = tokio::select! {
        ended = watch(w, sim.clone(), sim) => panic!("the watchdog ended first: {ended:?}"),
        at = stopped(dir.path(), Duration::from_secs(60)) => at,
    };
    let at = at.expect("the floor did not stop the instance");
    assert!(
        at.as_second() > started.as_second(),
        "stopped at {at}, before the second's grace"
    );
    let said = balance_alerts(&log);
    let keys: Vec<&str> = said.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["balance:1h", "balance:floor"], "{said:?}");
    assert!(
        said[1].1.starts_with("balance: 8.")
            && said[1]
                .1
                .ends_with("USD, at or under the floor of 10.00 USD; on_balance: stop after the grace period unless extended"),
        "{said:?}"
    );
    let ledger = Ledger::open_read_only(dir.path().join("ledger.sqlite")).unwrap();
    let guard = ledger.guard(&instance).unwrap().unwrap();
    assert_eq!(guard.on_expiry, OnExpiry::Stop);
    assert!(guard.updated_by.ends_with("(balance)"), "{guard:?}");
    let events = ledger.last_watchdog_events(&instance, 50).unwrap();
    let action = events
        .iter()
        .find(|e| e.kind == "action")
        .unwrap_or_else(|| panic!("no action: {events:#?}"));
    assert_eq!(action.outcome.as_deref(), Some("confirmed"), "{events:#?}");
    assert!(action.text.contains("(balance: "), "{events:#?}");
}
