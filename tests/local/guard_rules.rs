//! The idle rule on simulated telemetry, with time injected: no test sleeps.

use std::time::Duration;

use gpumeter::guard::{IdleRule, IdleState, IdleTracker};
use gpumeter::telemetry::{
    GpuUnavailable, GpuUnavailableKind, Metric, Scenario, SimConfig, Simulator, Unavailable,
};
use jiff::{SignedDuration, Timestamp};

use gpumeter::demo::guard_state;

fn sim(scenario: &str) -> Simulator {
    let mut config = SimConfig::new(Scenario::bundled(scenario).unwrap());
    config.gpu_count = 4;
    Simulator::new(config).unwrap()
}

fn rule() -> IdleRule {
    IdleRule {
        window: Duration::from_secs(30 * 60),
        ..IdleRule::default()
    }
}

/// Feeds `minutes` of one-second samples and returns the first instant the rule fired.
fn first_fire(sim: &Simulator, tracker: &mut IdleTracker, minutes: u64) -> Option<u64> {
    let start = Timestamp::from_second(1_800_000_000).unwrap();
    for s in 0..minutes * 60 {
        let at = Duration::from_secs(s);
        let idle = tracker.sample_is_idle(&Ok(sim.gpus_at(at)), &sim.host_at(at));
        let now = start + SignedDuration::from_secs(i64::try_from(s).unwrap());
        if let IdleState::Fired(_) = tracker.observe(now, idle) {
            return Some(s);
        }
    }
    None
}

#[test]
fn an_idle_machine_fires_after_thirty_minutes() {
    let mut t = IdleTracker::new(rule());
    assert_eq!(first_fire(&sim("idle"), &mut t, 40), Some(30 * 60));
}

#[test]
fn training_and_a_cpu_bound_job_never_fire() {
    for scenario in ["training", "cpu-bound"] {
        let mut t = IdleTracker::new(rule());
        assert_eq!(first_fire(&sim(scenario), &mut t, 40), None, "{scenario}");
    }
}

#[test]
fn a_failed_reading_counts_as_active() {
    let s = sim("idle");
    let t = IdleTracker::new(rule());
    let host = s.host_at(Duration::ZERO);
    let no_gpu = Err(GpuUnavailable {
        kind: GpuUnavailableKind::DriverNotLoaded,
        detail: "gone".into(),
    });
    assert!(!t.sample_is_idle(&no_gpu, &host));
    let mut reading = s.gpus_at(Duration::ZERO);
    assert!(t.sample_is_idle(&Ok(reading.clone()), &host));
    reading.gpus[2].util_pct = Metric::Unavailable(Unavailable::Failed("gpu_lost"));
    assert!(
        !t.sample_is_idle(&Ok(reading.clone()), &host),
        "one GPU unreadable"
    );
    let mut blind_host = host.clone();
    blind_host.cpu_pct = Metric::Unavailable(Unavailable::Unsupported);
    reading = s.gpus_at(Duration::ZERO);
    assert!(
        !t.sample_is_idle(&Ok(reading), &blind_host),
        "CPU unreadable"
    );
}

#[test]
fn a_watchdog_left_alone_has_a_duty_only_with_a_rule_that_stops_or_releases() {
    use gpumeter::config::OnExpiry;
    use gpumeter::watchdog::has_duty;
    let now = Timestamp::from_second(1_780_000_000).unwrap();
    let guard = |deadline| guard_state(deadline, 1, "cockpit", now);
    assert!(!has_duty(None, OnExpiry::Alert));
    assert!(!has_duty(Some(&guard(None)), OnExpiry::Alert));
    assert!(has_duty(Some(&guard(Some(now))), OnExpiry::Alert));
    let mut alert_only = guard(Some(now));
    alert_only.on_expiry = OnExpiry::Alert;
    assert!(
        !has_duty(Some(&alert_only), OnExpiry::Alert),
        "a deadline that only alerts needs somebody to read it"
    );
    assert!(has_duty(Some(&guard(None)), OnExpiry::Stop));
    assert!(has_duty(None, OnExpiry::Release));
}
