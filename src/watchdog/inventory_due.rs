//! When the watchdog asks the cloud for the instance's inventory: at start, after it acted
//! (the read-back of what it did), and otherwise once an inventory interval. The deadline is a
//! clock and the idle rule local telemetry: neither needs the cloud until it is time to act,
//! and a checker that asks every few seconds meets rate limits, fills the account's audit
//! trail, and can cost more than it saves. Between reads the budget is priced on the last one.
//! The interval is `--inventory-interval`, ten minutes unless set, as the idle-shutdown guides
//! advise for a checker.

use std::time::Duration;

/// Whether an inventory read is due, counted on the monotonic clock.
#[derive(Debug, Clone)]
pub struct InventoryDue {
    every: Duration,
    last: Option<Duration>,
}

impl InventoryDue {
    pub fn new(every: Duration) -> Self {
        InventoryDue { every, last: None }
    }

    /// Whether to read at `mono` (time since the watchdog started); `acted` when it has just
    /// sent an action. A read that is due counts as made.
    pub fn take(&mut self, mono: Duration, acted: bool) -> bool {
        let due = acted
            || self
                .last
                .is_none_or(|last| mono.saturating_sub(last) >= self.every);
        if due {
            self.last = Some(mono);
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_at_start_then_once_an_interval_and_at_once_after_an_action() {
        let mut due = InventoryDue::new(Duration::from_secs(600));
        let at = |s| Duration::from_secs(s);
        // A day of 5 s ticks with nothing happening: one read at start, then one per interval.
        let reads = (0..17_280).filter(|i| due.take(at(i * 5), false)).count();
        assert_eq!(reads, 24 * 6);
        let mut due = InventoryDue::new(Duration::from_secs(600));
        assert!(due.take(at(0), false));
        assert!(!due.take(at(599), false));
        assert!(due.take(at(300), true), "an action is read back at once");
        assert!(
            !due.take(at(899), false),
            "the interval counts from the read-back"
        );
        assert!(due.take(at(900), false));
    }
}
