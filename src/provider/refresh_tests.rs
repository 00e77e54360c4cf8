use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use async_trait::async_trait;

use super::*;
use crate::provider::{Action, ActionReport, Capabilities};

fn at(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[test]
fn a_full_read_at_start_then_a_look_once_an_interval_and_a_full_one_after_an_action() {
    let mut due = InventoryDue::new(at(600));
    // A day of 5 s ticks with nothing happening: one full read at start, then a look an interval.
    let asks: Vec<Ask> = (0..17_280).map(|i| due.take(at(i * 5), false)).collect();
    let count = |a: Ask| asks.iter().filter(|&&x| x == a).count();
    assert_eq!((count(Ask::Full), count(Ask::Look)), (1, 24 * 6 - 1));
    let mut due = InventoryDue::new(at(600));
    assert_eq!(due.take(at(0), false), Ask::Full);
    assert_eq!(due.take(at(599), false), Ask::Nothing);
    assert_eq!(
        due.take(at(300), true),
        Ask::Full,
        "an action is read back at once"
    );
    assert_eq!(
        due.take(at(899), false),
        Ask::Nothing,
        "the interval counts from the read-back"
    );
    assert_eq!(due.take(at(900), false), Ask::Look);
}

#[test]
fn with_a_full_interval_the_full_inventory_comes_that_often_and_looks_between() {
    let mut due = InventoryDue::new(at(600)).with_full_every(Some(at(3600)));
    let asks: Vec<Ask> = (0..17_280).map(|i| due.take(at(i * 5), false)).collect();
    let count = |a: Ask| asks.iter().filter(|&&x| x == a).count();
    assert_eq!((count(Ask::Full), count(Ask::Look)), (24, 24 * 5));
}

/// A cloud that answers a look with `look` and counts what it was asked.
struct Counted {
    inventory: Inventory,
    look: Mutex<Look>,
    looks: AtomicUsize,
    reads: AtomicUsize,
    balances: AtomicUsize,
    listings: AtomicUsize,
}

#[async_trait]
impl Provider for Counted {
    fn name(&self) -> &'static str {
        "counted"
    }
    fn capabilities(&self) -> Capabilities {
        crate::provider::ProviderKind::Demo.capabilities()
    }
    fn plan_instance(&self, _action: &Action) -> Vec<String> {
        Vec::new()
    }
    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        self.reads.fetch_add(1, Ordering::SeqCst);
        Ok(self.inventory.clone())
    }
    async fn look(&self) -> Result<Look, ProviderError> {
        self.looks.fetch_add(1, Ordering::SeqCst);
        Ok(*self.look.lock().unwrap())
    }
    async fn act(&self, _action: &Action) -> Result<ActionReport, ProviderError> {
        Err(ProviderError::unsupported("counted", "act"))
    }
    async fn instances(&self) -> Result<Vec<crate::provider::Discovered>, ProviderError> {
        self.listings.fetch_add(1, Ordering::SeqCst);
        let instance = self.inventory.instance.clone().expect("the demo instance");
        Ok(vec![crate::provider::Discovered {
            instance,
            resources: Vec::new(),
            deadline: None,
            tags: std::collections::BTreeMap::new(),
        }])
    }
    async fn balance(&self) -> Result<Option<Balance>, ProviderError> {
        let n = self.balances.fetch_add(1, Ordering::SeqCst);
        let cash = rust_decimal::Decimal::from(100 - i64::try_from(n).unwrap());
        Ok(Some(Balance {
            available: crate::money::Money::new(cash, crate::money::Currency::CNY),
            vouchers: None,
        }))
    }
}

async fn counted(look: Look) -> Counted {
    let dir = tempfile::tempdir().unwrap();
    let clock = std::sync::Arc::new(jiff::Timestamp::now);
    let demo = crate::provider::demo::DemoCloud::new(dir.path(), clock).with_delay(Duration::ZERO);
    demo.reset().unwrap();
    let inventory = demo.inventory().await.unwrap();
    Counted {
        inventory,
        look: Mutex::new(look),
        looks: AtomicUsize::new(0),
        reads: AtomicUsize::new(0),
        balances: AtomicUsize::new(0),
        listings: AtomicUsize::new(0),
    }
}

#[tokio::test]
async fn a_look_that_finds_the_state_last_read_reads_nothing_more_and_any_other_reads_it_all() {
    let cloud = counted(Look::State(Some(InstanceState::Running))).await;
    let last = cloud.inventory.clone();
    assert_eq!(
        last.instance.as_ref().map(|i| i.state),
        Some(InstanceState::Running)
    );
    assert!(ask(&cloud, Ask::Look, Some(&last)).await.is_none());
    assert!(ask(&cloud, Ask::Nothing, Some(&last)).await.is_none());
    assert_eq!(cloud.reads.load(Ordering::SeqCst), 0);
    for changed in [
        Look::State(Some(InstanceState::Stopped)),
        Look::State(None),
        Look::OnlyByInventory,
    ] {
        *cloud.look.lock().unwrap() = changed;
        let before = cloud.reads.load(Ordering::SeqCst);
        assert!(
            ask(&cloud, Ask::Look, Some(&last)).await.is_some(),
            "{changed:?}"
        );
        assert_eq!(
            cloud.reads.load(Ordering::SeqCst),
            before + 1,
            "{changed:?}"
        );
    }
    // Nothing read yet, or a full read asked for: no look, the inventory.
    let looks = cloud.looks.load(Ordering::SeqCst);
    assert!(ask(&cloud, Ask::Look, None).await.is_some());
    assert!(ask(&cloud, Ask::Full, Some(&last)).await.is_some());
    assert_eq!(cloud.looks.load(Ordering::SeqCst), looks);
}

#[tokio::test]
async fn the_last_read_is_remembered_so_the_next_look_needs_no_read() {
    let cloud = counted(Look::State(Some(InstanceState::Running))).await;
    let mut last = LastRead::default();
    assert!(last.inventory().is_none());
    assert!(
        last.ask(&cloud, Ask::Look).await.is_some(),
        "nothing read yet"
    );
    assert_eq!(last.inventory(), Some(&cloud.inventory));
    assert!(
        last.ask(&cloud, Ask::Look).await.is_none(),
        "the same state"
    );
    assert_eq!(cloud.reads.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn the_wrapper_every_command_uses_passes_a_look_on_rather_than_reading_everything() {
    let cloud = std::sync::Arc::new(counted(Look::State(Some(InstanceState::Running))).await);
    let last = cloud.inventory.clone();
    let wrapped = crate::provider::one_line::OneLine(cloud.clone());
    assert!(ask(&wrapped, Ask::Look, Some(&last)).await.is_none());
    assert_eq!(cloud.looks.load(Ordering::SeqCst), 1);
    assert_eq!(cloud.reads.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn the_balance_is_read_with_each_full_inventory_and_never_at_a_look() {
    let cloud = counted(Look::State(Some(InstanceState::Running))).await;
    let mut last = LastRead::default();
    assert!(last.balance().is_none());
    last.ask(&cloud, Ask::Full).await;
    assert_eq!(last.balance().map(|b| b.available.amount), Some(100.into()));
    for _ in 0..5 {
        assert!(last.ask(&cloud, Ask::Look).await.is_none());
    }
    assert_eq!(cloud.balances.load(Ordering::SeqCst), 1);
    *cloud.look.lock().unwrap() = Look::State(Some(InstanceState::Stopped));
    assert!(last.ask(&cloud, Ask::Look).await.is_some());
    assert_eq!(cloud.balances.load(Ordering::SeqCst), 2);
    assert_eq!(last.balance().map(|b| b.available.amount), Some(99.into()));
    assert_eq!(
        cloud.reads.load(Ordering::SeqCst),
        cloud.balances.load(Ordering::SeqCst)
    );
    // The account is listed with each balance, for the burn of every instance that draws on it.
    assert_eq!(cloud.listings.load(Ordering::SeqCst), 2);
    assert_eq!(last.account().map(<[_]>::len), Some(1));
}
