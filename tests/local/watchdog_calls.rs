//! How often the watchdog asks the cloud while nothing happens: its deadline is a clock and
//! its idle rule local telemetry, so the inventory is read at start and then once an
//! inventory interval, whatever the check interval. Counted on a cloud that counts its calls.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use gpumeter::config::OnExpiry;
use gpumeter::demo::demo_simulator;
use gpumeter::guard::{IdleRule, IdleTracker};
use gpumeter::ledger::Ledger;
use gpumeter::provider::demo::DemoCloud;
use gpumeter::provider::{Action, ActionReport, Capabilities, Inventory, Provider, ProviderError};
use gpumeter::watchdog::{Watch, watch};
use jiff::Timestamp;

/// The demo cloud, counting its inventory reads and the watchdog's checks (each check asks
/// for a spot notice).
struct Counting {
    cloud: DemoCloud,
    inventories: AtomicUsize,
    checks: AtomicUsize,
}

#[async_trait]
impl Provider for Counting {
    fn name(&self) -> &str {
        self.cloud.name()
    }
    fn capabilities(&self) -> Capabilities {
        self.cloud.capabilities()
    }
    fn plan_instance(&self, action: &Action) -> Vec<String> {
        self.cloud.plan_instance(action)
    }
    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        self.inventories.fetch_add(1, Ordering::SeqCst);
        self.cloud.inventory().await
    }
    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        self.cloud.act(action).await
    }
    async fn interruption_notice(&self) -> Result<Option<Timestamp>, ProviderError> {
        self.checks.fetch_add(1, Ordering::SeqCst);
        Ok(None)
    }
}

/// Runs a watchdog that checks every 100 ms, with no deadline and no budget, for `run`; the
/// inventory reads and the checks it made.
async fn calls(dir: &Path, inventory_every: Duration, run: Duration) -> (usize, usize) {
    let cloud = DemoCloud::new(dir, Arc::new(Timestamp::now)).with_delay(Duration::ZERO);
    let instance = cloud.reset().unwrap().instance.id;
    let counting = Arc::new(Counting {
        cloud,
        inventories: AtomicUsize::new(0),
        checks: AtomicUsize::new(0),
    });
    let w = Watch {
        notifier: None,
        instance,
        provider: counting.clone(),
        ledger: Ledger::open(dir.join("ledger.sqlite")).unwrap(),
        interval: Duration::from_millis(100),
        inventory_every,
        idle: IdleTracker::new(IdleRule::default()),
        on_idle: OnExpiry::Alert,
        hooks: gpumeter::config::HooksConfig::default(),
        started_by: None,
        wall: Arc::new(Timestamp::now),
        budget: None,
        balance: None,
        released_after_stopped_days: None,
        stopped_release: None,
    };
    let sim = demo_simulator("training");
    let ended = tokio::time::timeout(run, watch(w, sim.clone(), sim)).await;
    assert!(ended.is_err(), "the watchdog kept watching: {ended:?}");
    let count = |c: &AtomicUsize| c.load(Ordering::SeqCst);
    (count(&counting.inventories), count(&counting.checks))
}

#[tokio::test]
async fn while_nothing_happens_the_cloud_is_asked_once_an_inventory_interval() {
    let dir = tempfile::tempdir().unwrap();
    let (inventories, checks) =
        calls(dir.path(), Duration::from_secs(600), Duration::from_secs(2)).await;
    assert!(checks >= 5, "the watchdog checked {checks} times");
    assert_eq!(
        inventories, 1,
        "{checks} checks read the inventory {inventories} times"
    );
    // The same watchdog told to read more often than it checks reads at every check: the
    // count above is the rule's, not the counter's.
    let dir = tempfile::tempdir().unwrap();
    let every = Duration::from_millis(50);
    let (inventories, checks) = calls(dir.path(), every, Duration::from_secs(2)).await;
    assert!(
        checks >= 5 && inventories >= checks - 1,
        "{inventories} reads in {checks} checks"
    );
}
