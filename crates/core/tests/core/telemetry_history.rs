//! History rings stay bounded however long the program runs, and windows compute the right stats.

use std::time::Duration;

use gpumeter_core::telemetry::{
    GpuUnavailable, GpuUnavailableKind, HistoryConfig, Scenario, Series, SimConfig, Simulator,
    TelemetryHistory,
};
use proptest::prelude::*;

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[test]
fn default_history_is_ten_minutes_at_one_second() {
    assert_eq!(HistoryConfig::default().capacity(), 601);
    let c = HistoryConfig {
        span: secs(60),
        interval: Duration::from_millis(500),
    };
    assert_eq!(c.capacity(), 121);
}

#[test]
fn a_series_never_grows_past_its_capacity() {
    let mut s = Series::new(600);
    for t in 0..600 {
        s.push(secs(t), Some(1.0));
    }
    let reserved = s.allocated();
    for t in 600..60_000 {
        s.push(secs(t), Some(2.0));
    }
    assert_eq!(s.len(), 600);
    assert_eq!(s.allocated(), reserved, "the ring reallocated");
    assert_eq!(
        s.iter().next().unwrap().0,
        secs(59_400),
        "oldest points were dropped"
    );
}

#[test]
fn telemetry_history_stays_bounded_over_a_simulated_day() {
    let mut config = SimConfig::new(Scenario::bundled("training").unwrap());
    config.gpu_count = 8;
    let sim = Simulator::new(config).unwrap();
    let mut h = TelemetryHistory::new(HistoryConfig {
        span: secs(60),
        interval: secs(1),
    });
    // A day sampled every 10 s is far more samples than the 61-point rings hold.
    for t in (0..86_400).step_by(10) {
        h.record_gpus(secs(t), &Ok(sim.gpus_at(secs(t))));
        h.record_host(secs(t), &sim.host_at(secs(t)));
    }
    assert_eq!(h.gpus().len(), 8);
    for g in h.gpus() {
        assert_eq!(g.util_pct.len(), h.capacity());
        assert!(g.util_pct.allocated() <= 2 * h.capacity());
    }
    assert_eq!(h.host().cpu_pct.len(), h.capacity());
}

#[test]
fn window_stats_cover_only_the_last_span() {
    let mut s = Series::new(1000);
    for t in 0..100 {
        // 0 for the first 90 s, 10 for the last 10 s.
        s.push(secs(t), Some(if t < 90 { 0.0 } else { 10.0 }));
    }
    let w = s.window(secs(99), secs(9));
    assert_eq!(w.samples, 10);
    assert_eq!(w.mean, Some(10.0));
    assert_eq!(w.max, Some(10.0));
    assert_eq!(w.covered, secs(9));
    assert!(w.is_complete(secs(9)));
    let all = s.window(secs(99), secs(1000));
    assert_eq!(all.samples, 100);
    assert_eq!(all.min, Some(0.0));
    assert!((all.mean.unwrap() - 1.0).abs() < 1e-9);
    assert!(
        !all.is_complete(secs(1000)),
        "history shorter than the window"
    );
}

#[test]
fn failed_readings_are_missing_not_zero() {
    let mut s = Series::new(10);
    s.push(secs(0), Some(50.0));
    s.push(secs(1), None);
    s.push(secs(2), Some(f64::NAN));
    let w = s.window(secs(2), secs(5));
    assert_eq!((w.samples, w.missing), (3, 2));
    assert_eq!(w.mean, Some(50.0));
    assert!(!w.is_complete(secs(2)));
}

#[test]
fn a_failed_gpu_round_records_every_known_gpu_as_missing() {
    let sim = Simulator::new(SimConfig::new(Scenario::bundled("idle").unwrap())).unwrap();
    let mut h = TelemetryHistory::new(HistoryConfig::default());
    h.record_gpus(secs(0), &Ok(sim.gpus_at(secs(0))));
    let lost = GpuUnavailable {
        kind: GpuUnavailableKind::DriverNotLoaded,
        detail: "gone".into(),
    };
    h.record_gpus(secs(1), &Err(lost));
    let w = h.gpus()[0].util_pct.window(secs(1), secs(10));
    assert_eq!((w.samples, w.missing), (2, 1));
}

proptest! {
    #[test]
    fn rings_are_bounded_and_means_lie_between_min_and_max(
        capacity in 1_usize..64,
        values in proptest::collection::vec(proptest::option::of(-1e6_f64..1e6), 0..400),
        span in 0_u64..500,
    ) {
        let mut s = Series::new(capacity);
        for (t, v) in values.iter().enumerate() {
            s.push(secs(t as u64), *v);
            prop_assert!(s.len() <= capacity);
        }
        let now = secs(values.len() as u64);
        let w = s.window(now, secs(span));
        prop_assert!(w.samples <= capacity);
        prop_assert!(w.missing <= w.samples);
        if let (Some(mean), Some(min), Some(max)) = (w.mean, w.min, w.max) {
            prop_assert!(min <= mean + 1e-6 && mean <= max + 1e-6);
        } else {
            prop_assert_eq!(w.samples, w.missing);
        }
    }
}
