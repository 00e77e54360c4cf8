//! The simulator: deterministic, bounded, and each scenario behaves as its name says.

use std::time::Duration;

use gpumeter::telemetry::{Metric, Scenario, SimConfig, Simulator, Unavailable};

fn sim(scenario: &str, gpus: u32, seed: u64) -> Simulator {
    let mut config = SimConfig::new(Scenario::bundled(scenario).unwrap());
    config.gpu_count = gpus;
    config.seed = seed;
    Simulator::new(config).unwrap()
}

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn mean_util(sim: &Simulator, from: u64, to: u64) -> f64 {
    let mut sum = 0.0;
    let mut n = 0.0;
    for t in from..to {
        for g in sim.gpus_at(secs(t)).gpus {
            sum += f64::from(g.util_pct.get().unwrap());
            n += 1.0;
        }
    }
    sum / n
}

#[test]
fn same_seed_and_time_give_the_same_sample() {
    let a = sim("training", 8, 7);
    let b = sim("training", 8, 7);
    for t in [0, 1, 59, 3600, 86_400] {
        assert_eq!(a.gpus_at(secs(t)), b.gpus_at(secs(t)));
        assert_eq!(a.host_at(secs(t)), b.host_at(secs(t)));
    }
    // Order of reads does not matter: there is no hidden state.
    let later = a.gpus_at(secs(500));
    let _ = a.gpus_at(secs(3));
    assert_eq!(a.gpus_at(secs(500)), later);
}

#[test]
fn different_seeds_give_different_noise() {
    let a = sim("training", 1, 1).host_at(secs(10));
    let b = sim("training", 1, 2).host_at(secs(10));
    assert_ne!(a.cpu_pct, b.cpu_pct);
}

#[test]
fn gpu_count_is_one_to_eight() {
    let scenario = Scenario::bundled("idle").unwrap();
    for n in [0, 9, 100] {
        let mut c = SimConfig::new(scenario.clone());
        c.gpu_count = n;
        assert!(Simulator::new(c).is_err(), "{n} GPUs accepted");
    }
    assert_eq!(sim("idle", 8, 1).gpus_at(secs(0)).gpus.len(), 8);
}

#[test]
fn training_is_busy_with_data_loader_dips() {
    let s = sim("training", 2, 3);
    assert!(mean_util(&s, 0, 300) > 80.0);
    let dips = (0..300)
        .filter(|t| s.gpus_at(secs(*t)).gpus[0].util_pct.get().unwrap() < 30)
        .count();
    assert!((20..=60).contains(&dips), "{dips} dip seconds in 5 minutes");
}

#[test]
fn idle_gpus_draw_idle_power_and_show_low_load() {
    let s = sim("idle", 1, 3);
    let g = &s.gpus_at(secs(100)).gpus[0];
    assert_eq!(g.util_pct, Metric::Value(0));
    assert!(g.power_w.get().unwrap() < 80.0);
    assert!(g.power_weighted_load_pct.get().unwrap() < 1.0);
    assert_eq!(g.processes.value().unwrap().len(), 1);
}

#[test]
fn cpu_bound_keeps_gpus_idle_and_cores_busy() {
    let s = sim("cpu-bound", 4, 3);
    assert!(mean_util(&s, 0, 60) < 1.0);
    let host = s.host_at(secs(60));
    assert!(host.cpu_pct.get().unwrap() > 90.0);
    assert_eq!(host.cpu_per_core_pct.value().unwrap().len(), 32);
}

#[test]
fn memory_leak_grows_until_the_card_is_full() {
    let s = sim("memory-leak", 1, 3);
    let used = |t| s.gpus_at(secs(t)).gpus[0].mem_used_mib.get().unwrap();
    let total = s.gpus_at(secs(0)).gpus[0].mem_total_mib.get().unwrap();
    assert!(used(600) > used(0) + 5_000);
    assert!(used(60) >= used(0));
    assert_eq!(used(100_000), total);
}

#[test]
fn egress_bursts_raise_the_rate_and_the_counter_only_grows() {
    let s = sim("egress-burst", 1, 3);
    let rates: Vec<f64> = (0..600)
        .map(|t| s.host_at(secs(t)).tx_bytes_per_s().get().unwrap())
        .collect();
    let high = rates.iter().filter(|r| **r > 100.0 * 1_048_576.0).count();
    assert_eq!(high, 120, "two one-minute bursts in ten minutes");
    let mut last = 0;
    for t in 0..900 {
        let tx = s.host_at(secs(t)).tx_bytes_total();
        assert!(tx >= last, "egress counter went back at t={t}");
        last = tx;
    }
    // 10 minutes at 0.05 MiB/s plus two bursts of 60 s at 200 MiB/s: 24 030 MiB.
    let expected: u64 = 24_030 * 1_048_576;
    let got = s.host_at(secs(600)).tx_bytes_total();
    assert!(
        got.abs_diff(expected) < expected / 100,
        "{got} vs {expected}"
    );
}

#[test]
fn energy_counter_is_monotonic() {
    let s = sim("training", 1, 3);
    let mut last = 0.0;
    for t in (0..3600).step_by(7) {
        let e = s.gpus_at(secs(t)).gpus[0].energy_j.get().unwrap();
        assert!(e >= last);
        last = e;
    }
}

#[test]
fn data_centre_cards_have_no_fan_reading_and_json_says_null() {
    let g = &sim("training", 1, 3).gpus_at(secs(0)).gpus[0];
    assert_eq!(g.fan_pct, Metric::Unavailable(Unavailable::Unsupported));
    let json = serde_json::to_value(g).unwrap();
    assert!(json["fan_pct"].is_null());
    assert!(json["util_pct"].is_number());
}

#[test]
fn scenario_files_load_from_disk_and_report_bad_keys_with_a_position() {
    let dir = std::env::temp_dir().join(format!("gpumeter-scenario-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("mine.toml");
    std::fs::write(&good, "name = \"mine\"\n[gpu]\nutil_pct = 50\n").unwrap();
    let s = gpumeter::telemetry::scenario_file::resolve(good.to_str().unwrap()).unwrap();
    assert!((s.gpu.util_pct - 50.0).abs() < f64::EPSILON);
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "name = \"bad\"\n\n[host]\ncpu = 3\n").unwrap();
    let err = gpumeter::telemetry::scenario_file::resolve(bad.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("bad.toml:4:1"), "{err}");
    let missing = gpumeter::telemetry::scenario_file::resolve("/nonexistent/x.toml")
        .unwrap_err()
        .to_string();
    assert!(missing.contains("cannot read"), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn temperature_follows_the_load_with_a_lag_not_second_by_second() {
    let temp =
        |sim: &Simulator, t: u64| f64::from(sim.gpus_at(secs(t)).gpus[0].temp_c.get().unwrap());
    let training = sim("training", 1, 3);
    let steps: Vec<f64> = (600..900)
        .map(|t| (temp(&training, t + 1) - temp(&training, t)).abs())
        .collect();
    let mean_step = steps.iter().sum::<f64>() / 300.0;
    // White noise of ±1.5 °C a second would move it about 1 °C a second on average.
    assert!(mean_step < 0.5, "mean change {mean_step:.2} °C a second");
    assert!(steps.iter().all(|s| *s <= 3.0), "{steps:?}");
    // A busy card runs hotter than an idle one.
    let idle = sim("idle", 1, 3);
    assert!(temp(&training, 900) > temp(&idle, 900) + 20.0);
}
