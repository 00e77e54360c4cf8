//! The watchdog's loop in process, on the demo cloud, with webhooks on loopback receivers:
//! hooks that never answer do not hold up the release, and the warnings before the deadline
//! reach the hooks. The webhooks' queue on its own: it returns at once and keeps the newest.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gpumeter::config::{NotifyConfig, OnExpiry};
use gpumeter::demo::demo_simulator;
use gpumeter::guard::{IdleRule, IdleTracker};
use gpumeter::ledger::{Change, GuardPolicy, Ledger};
use gpumeter::meter::InstanceState;
use gpumeter::notify::{Notifier, Queue, Report};
use gpumeter::provider::demo::DemoCloud;
use gpumeter::watchdog::{Watch, watch};
use jiff::{SignedDuration, Timestamp};

use crate::notify_peer::{Reply, alert, hook, notifier, notify_config, receiver, requests, t};

/// How late after the deadline's grace a release may come on a loaded machine: well under
/// what one hanging hook used to cost (three attempts of ten seconds).
const ON_TIME: Duration = Duration::from_secs(12);

/// A demo cloud in `dir` whose guard row says `deadline`, `policy` after a second's grace, and
/// a watchdog for it that checks five times a second and tells `hooks`.
fn watchdog(dir: &Path, deadline: Timestamp, policy: OnExpiry, hooks: &NotifyConfig) -> Watch {
    let cloud = DemoCloud::new(dir, Arc::new(Timestamp::now)).with_delay(Duration::ZERO);
    let instance = cloud.reset().unwrap().instance.id;
    let path = dir.join("ledger.sqlite");
    let mut ledger = Ledger::open(&path).unwrap();
    let policy = GuardPolicy {
        deadline: Some(deadline),
        on_expiry: policy,
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
        balance: None,
        released_after_stopped_days: None,
        stopped_release: None,
    }
}

/// When the demo cloud recorded the release, polled for at most `limit`.
async fn released_at(dir: &Path, limit: Duration) -> Option<Timestamp> {
    let cloud = DemoCloud::new(dir, Arc::new(Timestamp::now));
    let start = Instant::now();
    while start.elapsed() < limit {
        let state = cloud.load().unwrap();
        if let Some((at, _)) = state
            .instance
            .history
            .iter()
            .find(|(_, s)| *s == InstanceState::Released)
        {
            return Some(*at);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

#[tokio::test]
async fn hooks_that_never_answer_do_not_delay_the_release() {
    let dir = tempfile::tempdir().unwrap();
    // Two receivers that read every request and never answer, at the default timeouts.
    let (first, _) = receiver(vec![Reply::Hang; 50]);
    let (second, _) = receiver(vec![Reply::Hang; 50]);
    let hooks = notify_config(&format!(
        "{}{}",
        hook("json", &first),
        hook("slack", &second)
    ));
    // The ledger keeps whole seconds.
    let deadline = Timestamp::from_second(Timestamp::now().as_second() + 3).unwrap();
    let w = watchdog(dir.path(), deadline, OnExpiry::Release, &hooks);
    let sim = demo_simulator("training");
    let at = tokio::select! {
        ended = watch(w, sim.clone(), sim) => panic!("the watchdog ended first: {ended:?}"),
        at = released_at(dir.path(), Duration::from_secs(90)) => at,
    };
    let at = at.expect("the watchdog released the instance");
    let due = deadline + SignedDuration::from_secs(1);
    let late = at.duration_since(due);
    assert!(
        late < SignedDuration::try_from(ON_TIME).unwrap(),
        "released {late:#} after the grace period ended"
    );
}

#[tokio::test]
async fn the_warnings_before_the_deadline_reach_the_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let (base, log) = receiver(vec![]);
    let hooks = notify_config(&hook("json", &base));
    // Just over a minute ahead: the one-minute warning is a second or two away.
    let deadline = Timestamp::from_second(Timestamp::now().as_second() + 62).unwrap();
    let w = watchdog(dir.path(), deadline, OnExpiry::Alert, &hooks);
    let sim = demo_simulator("training");
    let key = format!("deadline:1m@{}", deadline.as_second());
    let warned = async {
        let start = Instant::now();
        loop {
            let keys: Vec<String> = requests(&log)
                .iter()
                .map(|r| r.json()["key"].as_str().unwrap_or_default().to_string())
                .collect();
            if keys.contains(&key) || start.elapsed() > Duration::from_secs(30) {
                return keys;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let keys = tokio::select! {
        ended = watch(w, sim.clone(), sim) => panic!("the watchdog ended first: {ended:?}"),
        keys = warned => keys,
    };
    assert_eq!(keys, [key], "one warning, sent once");
    let body = requests(&log)[0].json();
    assert_eq!(body["level"], "warn");
    assert!(
        body["body"]
            .as_str()
            .unwrap()
            .starts_with("1 minute left before the deadline"),
        "{body}"
    );
}

#[tokio::test]
async fn the_queue_returns_at_once_and_keeps_the_newest() {
    // The first alert hangs; the next ones wait behind it, four at most.
    let (base, log) = receiver(vec![Reply::Hang]);
    let config = notify_config(&hook("json", &base));
    let (tx, mut reports) = tokio::sync::mpsc::unbounded_channel();
    let queue = Queue::start(notifier(&config, 0), 4, move |r: Report| {
        let _ = tx.send(r);
    });
    queue.push(alert("a0", t(0)));
    let start = Instant::now();
    while requests(&log).is_empty() && start.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let started = Instant::now();
    for i in 1..10 {
        queue.push(alert(&format!("a{i}"), t(i)));
    }
    assert!(
        started.elapsed() < Duration::from_millis(100),
        "push waited {:?}",
        started.elapsed()
    );
    // Ten in, one in flight, four kept: the five oldest after the first are dropped.
    let mut dropped = Vec::new();
    let mut sent = Vec::new();
    let until = Instant::now() + Duration::from_secs(20);
    while sent.len() < 5 && Instant::now() < until {
        match tokio::time::timeout(Duration::from_secs(20), reports.recv()).await {
            Ok(Some(Report::Dropped { key })) => dropped.push(key),
            Ok(Some(Report::Outcome(o))) => sent.push(o),
            Ok(Some(other)) => panic!("{other:?}"),
            Ok(None) | Err(_) => break,
        }
    }
    assert_eq!(dropped, ["a1", "a2", "a3", "a4", "a5"]);
    assert!(
        sent[0].is_failure(),
        "the hanging one times out: {:?}",
        sent[0]
    );
    assert!(sent[1..].iter().all(|o| !o.is_failure()), "{sent:?}");
    let keys: Vec<String> = requests(&log)
        .iter()
        .map(|r| r.json()["key"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(keys, ["a0", "a6", "a7", "a8", "a9"]);
    queue.close(Duration::from_secs(5)).await;
}
