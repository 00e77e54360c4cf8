//! How often a view that lives for hours (the watchdog, the cockpit) asks the cloud. The
//! deadline is a clock and the idle rule local telemetry: neither needs the cloud until it is
//! time to act, and a checker that asks every few seconds meets rate limits, fills the
//! account's audit trail, and can cost more than it saves. So the full inventory is read at
//! start, right after an action (its read-back) and when asked for; otherwise, once an
//! inventory interval, a look at the instance's state alone (one call where the cloud has one),
//! and the full inventory again only when that state is not the one last read. The idle-shutdown
//! guides advise ten minutes for such a checker.

use std::time::Duration;

use super::{Balance, InstanceInfo, Inventory, Provider, ProviderError};
use crate::meter::InstanceState;

/// What a look at the instance found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// The cloud has no call for the state alone: only the full inventory tells.
    OnlyByInventory,
    /// The instance's state, `None` where the cloud does not list it (which proves nothing:
    /// the full inventory judges that).
    State(Option<InstanceState>),
}

/// What to ask the cloud now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    Nothing,
    Look,
    Full,
}

/// When the inventory is due, counted on the monotonic clock.
#[derive(Debug, Clone)]
pub struct InventoryDue {
    every: Duration,
    full_every: Option<Duration>,
    last: Option<Duration>,
    last_full: Option<Duration>,
}

impl InventoryDue {
    pub fn new(every: Duration) -> Self {
        InventoryDue {
            every,
            full_every: None,
            last: None,
            last_full: None,
        }
    }

    /// Reads the full inventory at least this often too (a budget prices the disks as well as
    /// the instance, and a disk can be added without the instance's state changing).
    #[must_use]
    pub fn with_full_every(mut self, full_every: Option<Duration>) -> Self {
        self.full_every = full_every;
        self
    }

    /// What to ask at `mono` (time since the view started); `fresh` when the full inventory is
    /// wanted now (an action was just sent, the user asked). What is due counts as asked.
    pub fn take(&mut self, mono: Duration, fresh: bool) -> Ask {
        let since = |last: Option<Duration>| last.map(|l| mono.saturating_sub(l));
        let full_due = fresh
            || self.last_full.is_none()
            || self
                .full_every
                .is_some_and(|f| since(self.last_full).is_some_and(|s| s >= f));
        if full_due {
            self.last = Some(mono);
            self.last_full = Some(mono);
            return Ask::Full;
        }
        if since(self.last).is_none_or(|s| s >= self.every) {
            self.last = Some(mono);
            return Ask::Look;
        }
        Ask::Nothing
    }
}

/// Asks what `ask` says, knowing `last` (the last full inventory read); `None` when nothing
/// was asked or the look found the instance as `last` left it.
pub async fn ask(
    provider: &dyn Provider,
    ask: Ask,
    last: Option<&Inventory>,
) -> Option<Result<Inventory, ProviderError>> {
    let last_state = last.map(|i| i.instance.as_ref().map(|x| x.state));
    match ask {
        Ask::Nothing => None,
        Ask::Look if last_state.is_some() => match provider.look().await {
            Ok(Look::State(state)) if Some(state) == last_state => None,
            Ok(_) => Some(provider.inventory().await),
            Err(e) => Some(Err(e)),
        },
        Ask::Look | Ask::Full => Some(provider.inventory().await),
    }
}

/// The last full inventory read, kept so that a look can tell whether to read it all again:
/// the one place the watchdog, the cockpit and `serve` remember it. A prepaid balance is read
/// with each full inventory and never between: the balance guard sees it at the same pace.
/// Where there is one, the account's instances are listed with it, since every instance up
/// draws on the same balance.
#[derive(Debug, Default)]
pub struct LastRead {
    inventory: Option<Inventory>,
    balance: Option<Balance>,
    account: Option<Vec<InstanceInfo>>,
}

impl LastRead {
    pub fn inventory(&self) -> Option<&Inventory> {
        self.inventory.as_ref()
    }

    /// The balance read with the last full inventory; `None` where the provider keeps none.
    /// A read that failed leaves the one before it (one inventory interval older).
    pub fn balance(&self) -> Option<&Balance> {
        self.balance.as_ref()
    }

    /// The account's instances as listed with the last balance; `None` where the provider
    /// keeps no balance or the list was never read. A list that failed leaves the one before.
    pub fn account(&self) -> Option<&[InstanceInfo]> {
        self.account.as_deref()
    }

    /// [`ask`] against the last read, which a fresh read replaces; with a fresh read, the
    /// balance too.
    pub async fn ask(
        &mut self,
        provider: &dyn Provider,
        what: Ask,
    ) -> Option<Result<Inventory, ProviderError>> {
        let read = ask(provider, what, self.inventory.as_ref()).await?;
        if let Ok(inventory) = &read {
            self.inventory = Some(inventory.clone());
            if let Ok(balance) = provider.balance().await {
                self.balance = balance;
            }
            if self.balance.is_some()
                && let Ok(listed) = provider.instances().await
            {
                self.account = Some(listed.into_iter().map(|d| d.instance).collect());
            }
        }
        Some(read)
    }
}

#[cfg(test)]
#[path = "refresh_tests.rs"]
mod tests;
