//! `--release-at` read in the user's zone, in a real terminal (tmux): under `TZ`, and under the
//! config's `timezone`, which wins over `TZ`. The instant is read back from `status --json`,
//! which stays UTC, after `e` hands the deadline to the demo cloud.

use std::process::Command;
use std::time::{Duration, Instant};

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use crate::e2e_tmux::Tmux;

/// Three hours ahead on a clock in `zone`, to the minute: the `HH:MM` to ask for and the
/// instant it must mean. Neither zone keeps daylight saving, so the clock time is never
/// skipped or repeated.
fn three_hours_ahead(zone: &str) -> (String, Timestamp) {
    let tz = TimeZone::get(zone).expect("the tz database (tzdata) is installed");
    let local = (Timestamp::now() + SignedDuration::from_hours(3)).to_zoned_datetime(tz);
    let whole_minute = local.timestamp().as_second().div_euclid(60) * 60;
    (
        local.strftime("%H:%M").to_string(),
        Timestamp::from_second(whole_minute).unwrap(),
    )
}

/// The deadline the demo cloud holds, as `status --json` reports it, once it holds one.
fn held_deadline(t: &Tmux, env: &[(&str, &str)]) -> Timestamp {
    let start = Instant::now();
    loop {
        let out = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
            .args(["status", "--demo", "--json", "--gpus", "1"])
            .env("GPUMETER_DATA_DIR", &t.data_dir)
            .env("GPUMETER_DEMO_DELAY_MS", "0")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        if let Some(at) = v["deadline"]["at"].as_str() {
            assert!(at.ends_with('Z'), "JSON stays UTC: {at}");
            return at.parse().unwrap();
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the demo cloud never held the deadline: {v:#}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn release_at_under_tz_is_that_zones_clock_and_says_so() {
    let (hhmm, expected) = three_hours_ahead("Asia/Shanghai");
    let flags = format!("--release-at {hhmm} --on-expiry release");
    let Some(t) = Tmux::start_with("zone-tz", "TZ=Asia/Shanghai", &flags) else {
        return;
    };
    t.wait_for(&format!("{hhmm} CST (Asia/Shanghai)"));
    t.wait_for("read in Asia/Shanghai");
    t.keys(&["e"]);
    t.wait_for("deadline extended by 1h");
    let held = held_deadline(&t, &[("TZ", "America/New_York")]);
    assert_eq!(held, expected + SignedDuration::from_hours(1));
}

#[test]
fn the_timezone_setting_wins_over_tz() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "timezone = \"Asia/Kolkata\"\n").unwrap();
    let (hhmm, expected) = three_hours_ahead("Asia/Kolkata");
    let flags = format!(
        "--config '{}' --release-at {hhmm} --on-expiry release",
        config.display()
    );
    let Some(t) = Tmux::start_with("zone-setting", "TZ=Asia/Shanghai", &flags) else {
        return;
    };
    t.wait_for(&format!("{hhmm} IST (Asia/Kolkata)"));
    t.wait_for("the config's `timezone`");
    t.keys(&["e"]);
    t.wait_for("deadline extended by 1h");
    let held = held_deadline(&t, &[]);
    assert_eq!(held, expected + SignedDuration::from_hours(1));
}
