//! The platform's own release of a stopped instance as the watchdog keeps it: three days and
//! one day before it (AutoDL releases an instance shut down for 15 days and erases it), an
//! alert to the webhooks and the event log, each once per shutdown. Worked out from the
//! inventory last read: the clock runs on without asking the cloud.

use std::collections::BTreeSet;

use jiff::Timestamp;

use super::run::{Watch, notify, record};
use crate::app::Level;
use crate::ledger::{EventLevel, EventRecord};
use crate::notify::Queue;
use crate::provider::{ForcedRelease, Inventory};

/// The alerts sent, by key.
#[derive(Debug, Default)]
pub(super) struct ForcedReleaseAlerts {
    sent: BTreeSet<String>,
}

impl ForcedReleaseAlerts {
    /// Sends the alert due at `now`, if it was not sent.
    pub(super) fn check(
        &mut self,
        w: &mut Watch,
        alerts: Option<&Queue>,
        inventory: &Inventory,
        now: Timestamp,
    ) {
        if let Some((key, text)) = self.due(inventory, w.released_after_stopped_days, now) {
            record(w, EventRecord::alert(now, EventLevel::Warn, text.clone()));
            notify(w, alerts, Level::Warn, &key, &text);
        }
    }

    /// The alert's key and words, the first time its threshold is crossed. `sheet_days` is the
    /// sheet's `released_after_stopped_days`, which wins over the platform's own rule.
    fn due(
        &mut self,
        inventory: &Inventory,
        sheet_days: Option<u32>,
        now: Timestamp,
    ) -> Option<(String, String)> {
        let instance = inventory.instance.as_ref()?;
        let forced = ForcedRelease::of(instance, sheet_days)?;
        let alert = forced.alert(now)?;
        if !self.sent.insert(alert.key.clone()) {
            return None;
        }
        let left = crate::ui::text::short_duration(forced.remaining(now));
        let text = crate::t!(
            "wd-forced-release",
            provider = instance.provider.as_str(),
            id = instance.id.as_str(),
            left = left,
            at = forced.at.to_string(),
            days = forced.after.as_hours() / 24
        );
        Some((alert.key, text))
    }
}

#[cfg(test)]
mod tests {
    use gpumeter_core::demo::fixture_now;
    use jiff::SignedDuration;

    use super::*;
    use crate::meter::{BillingMode, InstanceState};
    use crate::provider::InstanceInfo;

    fn stopped_at(at: Timestamp) -> Inventory {
        Inventory {
            instance: Some(InstanceInfo {
                id: "pro-1".into(),
                name: "train".into(),
                provider: "autodl".into(),
                region: None,
                sku: "rtx-4090".into(),
                mode: BillingMode::OnDemand,
                state: InstanceState::Stopped,
                created: at - SignedDuration::from_hours(5),
                live_price_per_hour: None,
                history: vec![
                    (at - SignedDuration::from_hours(5), InstanceState::Running),
                    (at, InstanceState::Stopped),
                ],
            }),
            resources: Vec::new(),
            deadline: None,
        }
    }

    #[test]
    fn three_days_and_one_day_before_each_once() {
        let stop = fixture_now();
        let inventory = stopped_at(stop);
        let day = SignedDuration::from_hours(24);
        let mut alerts = ForcedReleaseAlerts::default();
        assert_eq!(alerts.due(&inventory, None, stop + day * 11), None);
        let (three, text) = alerts
            .due(&inventory, None, stop + day * 12)
            .expect("three days left");
        assert!(text.contains("autodl releases pro-1 in 3d0h"), "{text}");
        assert_eq!(
            alerts.due(&inventory, None, stop + day * 12 + day / 2),
            None,
            "sent once"
        );
        let (one, _) = alerts
            .due(&inventory, None, stop + day * 14)
            .expect("a day left");
        assert_ne!(three, one);
        assert_eq!(
            alerts.due(&inventory, None, stop + day * 14 + day / 4),
            None
        );
        // Started and shut down again: a new shutdown, a new countdown and its alerts.
        let again = stopped_at(stop + day * 14 + day / 2);
        assert!(alerts.due(&again, None, stop + day * 27).is_some());
    }

    #[test]
    fn a_sheet_that_states_other_days_wins_over_the_platform_rule() {
        let stop = fixture_now();
        let inventory = stopped_at(stop);
        let day = SignedDuration::from_hours(24);
        let mut alerts = ForcedReleaseAlerts::default();
        // Seven days kept: three days before is day four, where the platform's 15 say nothing.
        assert_eq!(alerts.due(&inventory, None, stop + day * 4), None);
        let (_, text) = alerts
            .due(&inventory, Some(7), stop + day * 4)
            .expect("three days left of seven");
        assert!(text.contains("in 3d0h"), "{text}");
        assert!(text.contains("7 days after its shutdown"), "{text}");
    }
}
