//! Text output in the user's zone, named; JSON in UTC whatever the zone: `extend`, `status`,
//! `audit` and a bad `timezone` setting, from the built binary.

use std::path::Path;
use std::process::{Command, Output};

fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(args)
        .env("GPUMETER_DATA_DIR", dir)
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .env("XDG_CONFIG_HOME", dir)
        .env_remove("TZ")
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn extend_and_status_say_the_deadline_in_the_zone_and_json_keeps_utc() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("release.toml");
    std::fs::write(&config, "[deadline]\non_expiry = \"release\"\n").unwrap();
    let config = config.to_str().unwrap();
    let said = stdout(&run(
        dir.path(),
        &["extend", "90m", "--yes", "--demo", "--config", config],
        &[("TZ", "Asia/Shanghai")],
    ));
    assert!(
        said.starts_with("deadline moved to ") && said.contains(" CST (Asia/Shanghai);"),
        "{said}"
    );
    let json = |tz: &str| {
        let out = stdout(&run(
            dir.path(),
            &["status", "--demo", "--json", "--gpus", "1"],
            &[("TZ", tz)],
        ));
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let (east, west) = (json("Asia/Shanghai"), json("America/New_York"));
    let at = east["deadline"]["at"].as_str().unwrap();
    assert!(at.ends_with('Z'), "{at}");
    assert_eq!(east["deadline"]["at"], west["deadline"]["at"]);
    assert!(east["time"].as_str().unwrap().ends_with('Z'));

    let deadline: jiff::Timestamp = at.parse().unwrap();
    for (tz, label) in [
        ("Asia/Shanghai", "CST (Asia/Shanghai)"),
        ("America/New_York", "(America/New_York)"),
        ("UTC", "UTC"),
    ] {
        let text = stdout(&run(
            dir.path(),
            &["status", "--demo", "--gpus", "1"],
            &[("TZ", tz)],
        ));
        let local = deadline
            .to_zoned_datetime(jiff::tz::TimeZone::get(tz).unwrap())
            .strftime("%H:%M")
            .to_string();
        let line = text.lines().find(|l| l.starts_with("deadline")).unwrap();
        assert!(
            line.contains(&local) && line.contains(label),
            "{tz}: {line}"
        );
        assert!(text.lines().next().unwrap().contains(label), "{tz}: {text}");
    }
}

#[test]
fn audit_text_gives_its_period_in_the_zone_of_the_setting() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("zone.toml");
    std::fs::write(&config, "timezone = \"Asia/Kolkata\"\n").unwrap();
    let bill = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/bills/focus-aws.csv"
    );
    let args = ["audit", "--demo", "--bill", bill];
    let out = run(dir.path(), &args, &[("TZ", "Asia/Shanghai")]);
    let shanghai = String::from_utf8_lossy(&out.stdout).into_owned();
    let first = shanghai.lines().next().unwrap_or_default();
    assert!(first.contains("CST (Asia/Shanghai)"), "{shanghai}");
    let mut with_setting: Vec<&str> = args.to_vec();
    with_setting.extend(["--config", config.to_str().unwrap()]);
    let out = run(dir.path(), &with_setting, &[("TZ", "Asia/Shanghai")]);
    let kolkata = String::from_utf8_lossy(&out.stdout).into_owned();
    let first = kolkata.lines().next().unwrap_or_default();
    assert!(first.contains("IST (Asia/Kolkata)"), "{kolkata}");
    assert!(!first.contains("Shanghai"), "{kolkata}");
}

#[test]
fn a_misspelt_zone_is_refused_with_its_position_and_where_names_are() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("bad.toml");
    std::fs::write(&config, "# mine\ntimezone = \"Europe/Berln\"\n").unwrap();
    let out = run(
        dir.path(),
        &["status", "--json", "--config", config.to_str().unwrap()],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml:2:12: timezone: `Europe/Berln` is not a time zone"),
        "{err}"
    );
    assert!(err.contains("timedatectl list-timezones"), "{err}");
}
