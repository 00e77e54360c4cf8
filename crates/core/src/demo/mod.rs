//! The demo: a cockpit in a known state at a fixed instant, with the demo cloud ([`cloud`]),
//! eight simulated A100s in the training scenario and the demo's price sheet. `--demo`, the
//! screen tests and the README capture use it, so the same seed and instant always draw the
//! same screen.

pub mod cloud;
#[cfg(test)]
mod enforced_tests;
pub mod prepaid;

use std::time::Duration;

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use crate::app::{App, CloudView, Deadline, Event, Level, Settings, update};
use crate::cloud::{Capabilities, Inventory, ProviderKind};
use crate::guard::{GuardState, OnExpiry, Watchdog};
use crate::meter::{BillingMode, ComputeTerms};
use crate::spend::{PriceSource, Pricing, Spend};
use crate::telemetry::{Scenario, SimConfig, Simulator, Stamped, Telemetry};
use cloud::{DEMO_SHEET, DEMO_SKU, DemoState};

/// The instant fixtures are drawn at: 2026-11-29 14:00:00 UTC.
pub fn fixture_now() -> Timestamp {
    Timestamp::from_second(1_795_960_800).expect("a valid instant")
}

/// The demo's pricing: the bundled sheet and SKU the demo instance is billed by.
pub fn demo_pricing() -> Option<Pricing> {
    let sheet = crate::pricing::bundled_sheet(DEMO_SHEET)?.clone();
    let sku = sheet.sku(DEMO_SKU)?.clone();
    let terms = ComputeTerms::from_sheet(&sheet, &sku, BillingMode::OnDemand, 1).ok()?;
    Some(Pricing {
        source: PriceSource::Sheet(sheet.id.clone()),
        sheet,
        sku,
        mode: BillingMode::OnDemand,
        terms,
        licenses: None,
        bandwidth_mbps: None,
    })
}

pub fn demo_capabilities() -> Capabilities {
    cloud::CAPABILITIES
}

/// The demo simulator: eight A100-SXM4-80GB in `scenario`, seeded.
pub fn demo_simulator(scenario: &str) -> Simulator {
    let scenario = Scenario::bundled(scenario).expect("a bundled scenario");
    let mut config = SimConfig::new(scenario);
    config.gpu_count = 8;
    Simulator::new(config).expect("eight GPUs are within the simulator's range")
}

/// The demo cockpit as it looks `uptime` after start, at [`fixture_now`], in UTC.
pub fn demo_app(uptime: Duration) -> App {
    let now = fixture_now();
    let start = now - SignedDuration::try_from(uptime).unwrap_or(SignedDuration::ZERO);
    let cloud = CloudView::new(ProviderKind::Demo.id(), demo_capabilities());
    let spend = Spend::new(demo_pricing(), None, TimeZone::UTC);
    let mut app = App::new(start, Settings::default(), cloud, spend);
    let state = DemoState::fresh(now);
    let inventory = Inventory {
        instance: Some(state.instance),
        resources: state.resources,
        deadline: None,
    };
    update(&mut app, Event::Inventory(Ok(inventory)));
    app.deadline = Some(Deadline::new(
        now + SignedDuration::from_mins(135),
        OnExpiry::Alert,
        start,
    ));
    // The ledger holds no guard row for the instance yet: the cockpit's deadline is saved.
    update(&mut app, Event::GuardFound(None));
    let sim = demo_simulator("training");
    let seconds = uptime.as_secs();
    // Feed a sample a second, as the samplers would, for the last ten minutes.
    for s in seconds.saturating_sub(600)..=seconds {
        let at = Duration::from_secs(s);
        let time = start + SignedDuration::from_secs(i64::try_from(s).unwrap_or(0));
        update(&mut app, Event::Tick(time));
        let gpus = Telemetry::Gpu(Stamped {
            at,
            time,
            value: Ok(sim.gpus_at(at)),
        });
        let host = Telemetry::Host(Stamped {
            at,
            time,
            value: sim.host_at(at),
        });
        update(&mut app, Event::Telemetry(gpus));
        update(&mut app, Event::Telemetry(host));
    }
    update(&mut app, Event::Tick(now));
    app.log(
        Level::Info,
        crate::t!("demo-ready", id = "i-0demo4a100f00d", name = "llm-finetune"),
    );
    app.log(Level::Warn, crate::t!("demo-outlive"));
    app
}

/// The demo instance's guard row as the ledger keeps it: release on expiry after 2 minutes, a
/// watchdog (pid 4242) whose heart beat at `beat`, last changed then by `by`.
pub fn guard_state(
    deadline: Option<Timestamp>,
    revision: i64,
    by: &str,
    beat: Timestamp,
) -> GuardState {
    GuardState {
        instance: "i-0demo4a100f00d".into(),
        deadline,
        on_expiry: OnExpiry::Release,
        grace: Duration::from_secs(120),
        provider_held: None,
        snooze_until: None,
        watchdog: Some(Watchdog::beat(4242, beat)),
        idle: None,
        revision,
        updated: beat,
        updated_by: by.into(),
    }
}
