//! A made-up week for `gpumeter report --demo`: a training instance that idles every night and
//! was released yesterday with snapshots, an image, a data disk and an IP still billing, and a
//! spot instance that overlapped it. Written through the public API, so it is what the cockpit
//! would have recorded.

use jiff::{SignedDuration, Timestamp};
use rust_decimal::{Decimal, dec};

use super::error::LedgerError;
use super::insert::Batch;
use super::record::{
    BillingStep, EventLevel, EventRecord, GpuMinute, MinuteBucket, SessionId, SessionStart,
};
use super::store::Ledger;
use crate::meter::{BillingMode, Breakdown, InstanceState};
use crate::money::Currency;
use crate::provider::demo::{DEMO_SKU, DemoState};
use crate::provider::{Action, ActionReport, Inventory, ProviderKind};

const TRAINING: &str = "i-0demo4a100f00d";
const SPOT: &str = "i-0demo8spot5eed";

/// Fills an empty ledger with six days of history ending at `now`.
pub fn seed(ledger: &mut Ledger, now: Timestamp) -> Result<(), LedgerError> {
    let start = floor_minute(now - SignedDuration::from_hours(6 * 24));
    let released = floor_minute(now - SignedDuration::from_hours(24));
    let spot_start = released - SignedDuration::from_hours(12);

    let rate = training_rate();
    let training = session(ledger, TRAINING, BillingMode::OnDemand, rate, start)?;
    let mut batch = minutes(training, start, released, rate, true);
    let mut state = DemoState::fresh(released);
    // The listing says what the sessions say: running, and its disks there, since the start.
    let created = state.instance.created;
    state.instance.created = start;
    state.instance.history = vec![(start, InstanceState::Running)];
    for r in state.resources.iter_mut().filter(|r| r.created == created) {
        r.created = start;
    }
    batch.inventories.push((
        training,
        Inventory {
            instance: Some(state.instance.clone()),
            resources: state.resources.clone(),
            deadline: None,
        },
        start,
    ));
    let mut gone = state.instance;
    gone.state = InstanceState::Released;
    let survivors = state
        .resources
        .into_iter()
        .filter(|r| !r.deleted_with_instance && r.id != "lb-0api")
        .map(|mut r| {
            if r.state == "in-use" || r.state == "associated" {
                r.state = "available".into();
            }
            r
        })
        .collect();
    batch.inventories.push((
        training,
        Inventory {
            instance: Some(gone),
            resources: survivors,
            deadline: None,
        },
        released,
    ));
    for day in 0..5 {
        let at = start + SignedDuration::from_hours(24 * day + 14);
        let text = "idle: all GPUs below 3% for 30 minutes";
        batch
            .events
            .push(EventRecord::alert(at, EventLevel::Warn, text).in_session(training, TRAINING));
    }
    let clean = Action::SnapshotClean {
        keep: 1,
        final_snapshot: false,
        delete: None,
    };
    batch.events.push(action(
        training,
        released - SignedDuration::from_mins(30),
        &clean,
    ));
    batch
        .events
        .push(action(training, released, &Action::Release));
    ledger.write(&batch)?;
    ledger.end_session(training, released)?;

    let spot = session(ledger, SPOT, BillingMode::Spot, dec!(16.00), spot_start)?;
    ledger.write(&minutes(
        spot,
        spot_start,
        floor_minute(now),
        dec!(16.00),
        false,
    ))?;
    Ok(())
}

/// The training instance's hourly rate: the demo sheet's, which the cockpit prices the demo
/// instance at, so the week and the cockpit agree.
pub fn training_rate() -> Decimal {
    crate::demo::demo_pricing()
        .and_then(|p| p.sku.on_demand_per_hour)
        .unwrap_or_default()
}

fn session(
    ledger: &mut Ledger,
    instance: &str,
    mode: BillingMode,
    rate: Decimal,
    at: Timestamp,
) -> Result<SessionId, LedgerError> {
    ledger.start_session(&SessionStart {
        instance: instance.into(),
        provider: ProviderKind::Demo.id().into(),
        region: None,
        sku: DEMO_SKU.into(),
        mode,
        rate_per_hour: Some(rate),
        currency: Currency::USD,
        at,
        // The demo bills as its sheet (AWS) does: per second, a minute at least.
        billing: Some(BillingStep {
            step_seconds: 1,
            minimum_seconds: 60,
        }),
    })
}

/// One bucket a minute; with `nights`, the hours from 02:00 to 08:00 UTC are idle.
fn minutes(
    session: SessionId,
    from: Timestamp,
    to: Timestamp,
    rate: Decimal,
    nights: bool,
) -> Batch {
    let mut batch = Batch::default();
    let mut at = from;
    while at < to {
        let hour = at.as_second().rem_euclid(86_400) / 3600;
        let idle = nights && (2..8).contains(&hour);
        let util = if idle { 0.0 } else { 93.0 };
        let power = if idle { 62.0 } else { 380.0 };
        batch.minutes.push(MinuteBucket {
            session,
            start: at,
            cost: Breakdown {
                currency: Currency::USD,
                compute: rate / dec!(60),
                bandwidth: if idle { Decimal::ZERO } else { dec!(0.0015) },
                storage: dec!(0.0037),
                extras: dec!(0.0001),
            },
            idle,
            gpu: GpuMinute {
                util_samples: 480,
                util_mean_pct: Some(util),
                util_max_pct: Some(if idle { 0.0 } else { 100.0 }),
                power_samples: 480,
                power_mean_w: Some(power),
                energy_j: power * 8.0 * 60.0,
            },
            egress_bytes: if idle { 0 } else { 16 << 20 },
            // Three quarters of it to the object store's intranet endpoint, free.
            egress_split: gpumeter_core::traffic::EgressSplit {
                intranet: if idle { 0 } else { 12 << 20 },
                cross_region: 0,
            },
            split_cost: crate::ledger::SplitCost::default(),
        });
        at += SignedDuration::from_mins(1);
    }
    batch
}

fn action(session: SessionId, at: Timestamp, action: &Action) -> EventRecord {
    let report = ActionReport {
        action: action.clone(),
        confirmed: true,
        summary: format!("{} confirmed by the provider's read-back", action.label()),
        calls: Vec::new(),
    };
    EventRecord::action(at, action, &Ok(report)).in_session(session, TRAINING)
}

fn floor_minute(t: Timestamp) -> Timestamp {
    Timestamp::from_second(t.as_second().div_euclid(60) * 60).unwrap_or(t)
}

#[cfg(test)]
mod tests {
    use rust_decimal::dec;

    #[test]
    fn the_week_prices_the_instance_as_the_cockpit_does() {
        let cockpit = crate::demo::demo_app(std::time::Duration::from_secs(3600));
        let reading = cockpit.spend.reading.as_ref().expect("a reading");
        let burn = reading.accrual.burn_per_hour.compute;
        assert_eq!(super::training_rate(), burn);
        assert_eq!(burn, dec!(27.44705));
        // What the seeded week records: the training session at that rate.
        let dir = tempfile::tempdir().unwrap();
        let mut ledger = crate::ledger::Ledger::open(dir.path().join("ledger.sqlite")).unwrap();
        let now = jiff::Timestamp::from_second(1_800_000_000).unwrap();
        super::seed(&mut ledger, now).unwrap();
        let rows = ledger
            .report_rows(now - jiff::SignedDuration::from_hours(8 * 24), now)
            .unwrap();
        let training = rows
            .sessions
            .iter()
            .find(|s| s.instance == super::TRAINING)
            .expect("the training session");
        let rate: rust_decimal::Decimal = training.rate.as_deref().unwrap().parse().unwrap();
        assert_eq!(rate, burn);
    }
}
