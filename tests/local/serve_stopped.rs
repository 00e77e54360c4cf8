//! A scrape of a stopped or released instance: a stopped one reports no idle time (it is
//! stopped, not idle) and a released one no deadline left to count down.

use std::time::Duration;

use gpumeter::demo::{demo_pricing, demo_simulator, fixture_now};
use gpumeter::meter::InstanceState;
use gpumeter::provider::Inventory;
use gpumeter::provider::demo::DemoState;
use gpumeter::serve::{Collector, Input, Target, render};
use gpumeter::spend::Spend;
use gpumeter::telemetry::{Stamped, Telemetry};
use jiff::SignedDuration;
use jiff::tz::TimeZone;

/// The metric names a scrape holds with the instance in `state` and a deadline 90 minutes on;
/// `forgotten`: the provider then stops listing it, as many do once it is released.
fn names(state: InstanceState, forgotten: bool) -> Vec<String> {
    let now = fixture_now();
    let target = Target {
        instance_id: "i-1".into(),
        provider: "demo".into(),
    };
    let spend = Spend::new(demo_pricing(), None, TimeZone::UTC);
    let deadline = now + SignedDuration::from_mins(90);
    let mut collector = Collector::new(target, spend, Some(deadline));
    let mut demo = DemoState::fresh(now);
    demo.instance.state = state;
    collector.feed(Input::Inventory(
        Ok(Inventory {
            instance: Some(demo.instance),
            resources: demo.resources.clone(),
            deadline: None,
        }),
        now - SignedDuration::from_mins(1),
    ));
    if forgotten {
        collector.feed(Input::Inventory(
            Ok(Inventory {
                instance: None,
                resources: demo.resources,
                deadline: None,
            }),
            now,
        ));
    }
    let sim = demo_simulator("training");
    for s in 0..=60u64 {
        let at = Duration::from_secs(s);
        let time = now - SignedDuration::from_secs(60 - i64::try_from(s).unwrap());
        collector.feed(Input::Telemetry(Telemetry::Gpu(Stamped {
            at,
            time,
            value: Ok(sim.gpus_at(at)),
        })));
    }
    render(&collector.snapshot(now))
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(['{', ' ']).next().map(str::to_string))
        .collect()
}

#[test]
fn a_stopped_instance_is_not_idle_and_a_released_one_has_no_deadline() {
    let has = |names: &[String], name: &str| names.iter().any(|n| n == name);
    let running = names(InstanceState::Running, false);
    assert!(has(&running, "gpumeter_idle_seconds"), "{running:?}");
    assert!(has(&running, "gpumeter_deadline_remaining_seconds"));
    assert!(has(&running, "gpumeter_deadline_enforced"));
    let stopped = names(InstanceState::Stopped, false);
    assert!(!has(&stopped, "gpumeter_idle_seconds"), "{stopped:?}");
    assert!(has(&stopped, "gpumeter_deadline_remaining_seconds"));
    // Released as listed, or listed running and then no longer listed at all.
    for released in [
        names(InstanceState::Released, false),
        names(InstanceState::Running, true),
    ] {
        assert!(!has(&released, "gpumeter_idle_seconds"), "{released:?}");
        assert!(!has(&released, "gpumeter_deadline_remaining_seconds"));
        assert!(!has(&released, "gpumeter_deadline_enforced"));
    }
}
