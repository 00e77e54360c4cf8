//! The collector: takes what the samplers, the provider and the ledger report, in any order,
//! and turns it into the [`Snapshot`] a scrape shows. Pure: time comes in with each call.

use std::time::Duration;

use jiff::Timestamp;

use super::snapshot::{BalanceFacts, CostFacts, GuardFacts, InstanceFacts, Snapshot, Target};
use crate::guard::{BalanceOutlook, BurnScope};
use crate::guard::{IdleRule, IdleTracker};
use crate::ledger::guard::GuardState;
use crate::meter::InstanceState;
use crate::provider::Inventory;
use crate::spend::Spend;
use crate::spend::burn_of_account;
use crate::telemetry::{
    GpuRound, HistoryConfig, HostSample, MemoryFullRule, Telemetry, TelemetryHistory, full_gpus,
};

/// A watchdog whose last heartbeat is older than this counts as dead.
pub const WATCHDOG_STALE_AFTER: Duration = Duration::from_secs(60);

/// Why an inventory read failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NoInventory {
    #[error(transparent)]
    Provider(#[from] crate::provider::ProviderError),
    #[error("the provider did not answer in time")]
    Timeout,
}

/// What the background tasks send the collector.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    Telemetry(Telemetry),
    /// An inventory read, or why it failed, and when it was read.
    Inventory(Result<Inventory, NoInventory>, Timestamp),
    /// A look at the instance found it as the last inventory left it, at this instant: the
    /// cloud answered, and nothing needed reading again.
    Unchanged(Timestamp),
    /// The instance's row in the ledger's guard table (`None`: no row, or no ledger).
    Guard(Option<GuardState>),
    /// A prepaid balance, read with a full inventory at this instant.
    Balance(crate::provider::Balance, Timestamp),
    /// The account's instances, listed with the balance: what else draws on it.
    Account(Vec<crate::provider::InstanceInfo>),
}

impl From<Telemetry> for Input {
    fn from(t: Telemetry) -> Self {
        Input::Telemetry(t)
    }
}

#[derive(Debug, Clone)]
pub struct Collector {
    target: Target,
    spend: Spend,
    inventory: Option<Inventory>,
    cloud_ok: Option<bool>,
    cloud_time: Option<Timestamp>,
    round: Option<(GpuRound, Timestamp)>,
    /// The GPU rounds of the memory rule's window, and when (on the samplers' clock) the last
    /// was taken: enough to tell memory climbing to full.
    memory: (TelemetryHistory, Duration),
    /// When the GPUs last answered: a failing NVML is stale, however often it is asked.
    gpu_read_at: Option<Timestamp>,
    host: Option<(HostSample, Timestamp)>,
    idle: IdleTracker,
    /// The deadline from the config, used when neither the ledger nor the provider holds one.
    config_deadline: Option<Timestamp>,
    guard: Option<GuardState>,
    balance: Option<(crate::provider::Balance, Timestamp)>,
    account: Option<Vec<crate::provider::InstanceInfo>>,
}

impl Collector {
    /// `target.instance_id` is replaced by the id the provider reports once it has.
    pub fn new(target: Target, spend: Spend, config_deadline: Option<Timestamp>) -> Self {
        Collector {
            target,
            spend,
            inventory: None,
            cloud_ok: None,
            cloud_time: None,
            round: None,
            memory: (
                TelemetryHistory::new(HistoryConfig {
                    span: MemoryFullRule::default().window + Duration::from_secs(10),
                    interval: Duration::from_secs(1),
                }),
                Duration::ZERO,
            ),
            gpu_read_at: None,
            host: None,
            idle: IdleTracker::new(IdleRule::default()),
            config_deadline,
            guard: None,
            balance: None,
            account: None,
        }
    }

    /// Judges idleness by `rule` (the config's `[idle]`) instead of the defaults.
    #[must_use]
    pub fn with_idle_rule(mut self, rule: IdleRule) -> Self {
        self.idle = IdleTracker::new(rule);
        self
    }

    /// The instance id the series are labelled with.
    pub fn instance_id(&self) -> &str {
        &self.target.instance_id
    }

    pub fn feed(&mut self, input: Input) {
        match input {
            Input::Telemetry(Telemetry::Gpu(s)) => {
                let idle = self
                    .host
                    .as_ref()
                    .is_some_and(|(h, _)| self.idle.sample_is_idle(&s.value, h));
                if s.value.is_ok() {
                    self.idle.observe(s.time, idle);
                    self.gpu_read_at = Some(s.time);
                }
                self.memory.0.record_gpus(s.at, &s.value);
                self.memory.1 = s.at;
                self.round = Some((s.value, s.time));
            }
            Input::Telemetry(Telemetry::Host(s)) => {
                self.spend.record_bytes(
                    s.time,
                    s.value.tx_bytes_total(),
                    rx_total(&s.value),
                    s.value.egress_split_total,
                );
                self.host = Some((s.value, s.time));
            }
            Input::Inventory(Ok(inventory), at) => {
                self.spend.record_inventory(&inventory, at);
                if let Some(i) = &inventory.instance {
                    self.target.instance_id.clone_from(&i.id);
                }
                self.inventory = Some(inventory);
                self.cloud_ok = Some(true);
                self.cloud_time = Some(at);
            }
            Input::Inventory(Err(_), at) => {
                self.cloud_ok = Some(false);
                self.cloud_time = Some(at);
            }
            Input::Unchanged(at) => {
                self.cloud_ok = Some(true);
                self.cloud_time = Some(at);
            }
            Input::Guard(guard) => self.guard = guard,
            Input::Balance(balance, at) => self.balance = Some((balance, at)),
            Input::Account(listed) => self.account = Some(listed),
        }
    }

    /// The snapshot at `now`: the cost is recomputed for that instant.
    pub fn snapshot(&mut self, now: Timestamp) -> Snapshot {
        let deadline = self
            .guard
            .as_ref()
            .and_then(|g| g.deadline)
            .or_else(|| {
                self.inventory
                    .as_ref()
                    .and_then(|i| i.deadline)
                    .map(|d| d.at)
            })
            .or(self.config_deadline);
        self.spend.recompute(self.inventory.as_ref(), now, deadline);
        // A stopped instance is not idle, and a released one has no deadline left to reach.
        // Released is the account's word (a listing that says so, or one that no longer lists
        // the instance), not only the listing's.
        let released = self.spend.released_at().is_some();
        let state = self
            .inventory
            .as_ref()
            .and_then(|i| i.instance.as_ref())
            .map(|i| i.state);
        let deadline = deadline.filter(|_| !released);
        let running = !released && state != Some(InstanceState::Stopped);
        let (gpus, memory_full) = match &self.round {
            Some((Ok(reading), _)) => {
                let (history, at) = &self.memory;
                let full = full_gpus(history, reading, *at, &MemoryFullRule::default());
                (reading.gpus.clone(), full.iter().map(|m| m.index).collect())
            }
            _ => (Vec::new(), Vec::new()),
        };
        let idle_s = match &self.round {
            Some((Ok(_), _)) if running => Some(self.idle.idle_since().map_or(0.0, |since| {
                now.duration_since(since).as_secs_f64().max(0.0)
            })),
            _ => None,
        };
        Snapshot {
            now: Some(now),
            target: self.target.clone(),
            gpus,
            gpu_time: self.gpu_read_at,
            host: self.host.as_ref().map(|(h, _)| h.clone()),
            host_time: self.host.as_ref().map(|(_, t)| *t),
            instance: self
                .inventory
                .as_ref()
                .and_then(|i| i.instance.as_ref())
                .map(|i| InstanceFacts {
                    sku: i.sku.clone(),
                    region: i.region.clone(),
                    state: i.state,
                }),
            cloud_ok: self.cloud_ok,
            cloud_time: self.cloud_time,
            cost: self.spend.reading.as_ref().map(CostFacts::from_reading),
            deadline,
            idle_s,
            guard: self.guard.as_ref().map(|g| guard_facts(g, now)),
            deadline_enforced: deadline.map(|at| self.enforced(at, now)),
            balance: self.balance_facts(now),
            memory_full,
        }
    }
}

impl Collector {
    /// The balance as last read, and the seconds it lasts from `now` at the account's burn
    /// (reckoned from when it was read).
    fn balance_facts(&self, now: Timestamp) -> Option<BalanceFacts> {
        let (balance, read_at) = self.balance.as_ref()?;
        let this_id = self.target.instance_id.as_str();
        let sheet = self.spend.pricing.as_ref().map(|p| &p.sheet);
        let burn = self.spend.reading.as_ref().map(|r| {
            burn_of_account(
                r.accrual.burn_per_hour.total(),
                this_id,
                sheet,
                self.account.as_deref(),
            )
        });
        let outlook = burn.and_then(|b| BalanceOutlook::new(balance.clone(), b, *read_at).ok());
        Some(BalanceFacts {
            currency: balance.available.currency.as_str().to_string(),
            available: super::snapshot::to_f64(balance.available.amount),
            seconds_left: outlook
                .as_ref()
                .and_then(|o| o.left(now))
                .map(|d| d.as_secs_f64()),
            scope: match outlook.as_ref().map(|o| o.burn.scope) {
                Some(BurnScope::Account) => "account",
                _ => "this_instance",
            },
        })
    }

    /// Whether a live watchdog or the provider, read back, holds the deadline at `at`.
    fn enforced(&self, at: Timestamp, now: Timestamp) -> bool {
        let held = self.inventory.as_ref().and_then(|i| i.deadline);
        let watchdog = self.guard.as_ref().and_then(|g| g.watchdog);
        crate::guard::enforcement(&crate::guard::Holders {
            provider: self.inventory.is_some(),
            provider_holds: held.is_some_and(|d| d.at <= at),
            watchdog: watchdog.map(|w| (w.pid, w.alive(now, WATCHDOG_STALE_AFTER))),
            down: None,
        })
        .is_enforced()
    }
}

fn rx_total(host: &HostSample) -> u64 {
    host.net.iter().map(|n| n.rx_bytes).sum()
}

fn guard_facts(guard: &GuardState, now: Timestamp) -> GuardFacts {
    GuardFacts {
        watchdog_alive: Some(
            guard
                .watchdog
                .is_some_and(|w| w.alive(now, WATCHDOG_STALE_AFTER)),
        ),
        heartbeat_age_s: guard
            .watchdog
            .map(|w| now.duration_since(w.heartbeat).as_secs_f64().max(0.0)),
    }
}
