//! One account of an instance on every surface, run as a user runs it: random steps against
//! the file-backed cloud of tests/command_scripts (a provider that forgets a released instance,
//! or keeps listing it) and on the demo cloud (start, stop, release, cleanup, extend, hours
//! passing, a `serve` started and scraped), each followed by `status --json`,
//! `checklist --json`, `report --json` and `fleet --json`, fresh processes reading the same
//! ledger, as after a restart of the program. They agree on what it cost by line, what keeps
//! billing and what is unknown; the released instance stays released with what it cost, and
//! the total never falls.

use std::cell::Cell;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::account_surfaces::{dec, fleet_agrees, later, scrape, scrape_agrees};

/// The script's SKU priced; its snapshots are not, so what keeps billing is never complete.
const SHEET: &str = r#"
id = "cmd-cloud"
provider = "command"
currency = "USD"
as_of = 2026-11-01
source = "made up for the tests"
[billing]
step_seconds = 1
minimum_seconds = 0
stop_policy = "stop-charging"
[[sku]]
name = "A100-80G"
gpu_model = "A100"
gpu_count = 1
gpu_memory_gib = 80
on_demand_per_hour = "1.89"
[network]
egress_per_unit = "0"
[storage.disk]
default = "0.10"
"#;

struct Cloud {
    dir: PathBuf,
    /// How many hours have passed: every process runs this much later than now.
    hours: Cell<u32>,
}

impl Cloud {
    fn new(case: u32, keeps_released: bool) -> Cloud {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-account-{}-{case}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("cloud")).unwrap();
        if keeps_released {
            std::fs::write(dir.join("cloud/keeps_released"), "").unwrap();
        }
        let cloud = format!(
            "{}/tests/command_scripts/cloud.sh",
            env!("CARGO_MANIFEST_DIR")
        );
        let state = dir.join("cloud").display().to_string();
        let config = format!(
            "[pricing]\nsheet = \"sheet.toml\"\nsku = \"A100-80G\"\n\n\
             [instance]\nprovider = \"command\"\nid = \"i-cmd\"\n\n[command]\n\
             release = [{cloud:?}, \"release\", {state:?}]\n\
             stop = [{cloud:?}, \"stop\", {state:?}]\n\
             inventory = [{cloud:?}, \"inventory\", {state:?}]\n\
             extend = [{cloud:?}, \"extend\", {state:?}, \"{{deadline}}\"]\ntimeout = \"20s\"\n"
        );
        std::fs::write(dir.join("sheet.toml"), SHEET).unwrap();
        std::fs::write(dir.join("config.toml"), config).unwrap();
        Cloud {
            dir,
            hours: Cell::new(0),
        }
    }

    /// `--config` and `--data-dir`, as every command here is given them.
    fn args(&self) -> [std::ffi::OsString; 4] {
        [
            "--config".into(),
            self.dir.join("config.toml").into(),
            "--data-dir".into(),
            self.dir.join("data").into(),
        ]
    }

    fn run(&self, args: &[&str]) -> (Option<i32>, Value) {
        let (code, text) = self.text(args);
        (code, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    fn text(&self, args: &[&str]) -> (Option<i32>, String) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
        let out = later(&mut command, self.hours.get())
            .args(self.args())
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (
            out.status.code(),
            text + &String::from_utf8_lossy(&out.stderr),
        )
    }

    fn state(&self) -> String {
        std::fs::read_to_string(self.dir.join("cloud/state"))
            .map_or_else(|_| "running".into(), |s| s.trim().to_string())
    }

    fn set(&self, file: &str, value: &str) {
        std::fs::write(self.dir.join("cloud").join(file), value).unwrap();
    }
}

impl Drop for Cloud {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[derive(Debug, Clone)]
enum Step {
    Release,
    Stop,
    Start,
    /// A snapshot deleted: the cloud lists one fewer.
    Cleanup,
    /// `gpumeter extend 2h`: the provider holds a later deadline; what it cost stays.
    Extend,
    /// Hours pass: every later process runs that much later.
    Hours(u32),
    /// `gpumeter serve` started now and scraped once.
    Serve,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        Just(Step::Release),
        Just(Step::Stop),
        Just(Step::Start),
        Just(Step::Cleanup),
        Just(Step::Extend),
        (1..30u32).prop_map(Step::Hours),
        Just(Step::Serve),
    ]
}

/// `report --json`'s account of the instance `status --json` describes, read `elapsed` after
/// that status at most: the same release, what still bills and what is unknown exactly, and a
/// total no lower and no higher than the burn rate adds in that time (a cent of rounding).
/// After a release compute no longer grows: within a cent, which the rounding may move
/// between lines.
fn report_agrees(
    report: &Value,
    status: &Value,
    elapsed: std::time::Duration,
) -> Result<(), TestCaseError> {
    let id = &status["instance"]["id"];
    let entry = report["accounts"]
        .as_array()
        .and_then(|a| a.iter().find(|e| &e["instance"] == id))
        .unwrap_or_else(|| panic!("no account of {id} in {report}"));
    let account = &entry["account"];
    let cost = &status["cost"];
    prop_assert!(account.is_object(), "{}", entry);
    prop_assert_eq!(
        &account["still_billing_monthly"],
        &status["still_billing_monthly"]
    );
    prop_assert_eq!(&account["unknown"], &cost["unknown"]);
    prop_assert_eq!(&account["incomplete"], &cost["incomplete"]);
    prop_assert_eq!(&account["released_at"], &status["instance"]["released_at"]);
    let (before, after) = (dec(&cost["total"]), dec(&account["total"]));
    let hours = Decimal::try_from(elapsed.as_secs_f64() / 3600.0).unwrap();
    let cent = Decimal::new(1, 2);
    let most = before + dec(&cost["burn_per_hour"]) * hours + cent;
    prop_assert!(
        before <= after && after <= most,
        "{} outside {} .. {}",
        after,
        before,
        most
    );
    if !status["instance"]["released_at"].is_null() {
        let drift = (dec(&account["compute"]) - dec(&cost["compute"])).abs();
        prop_assert!(drift <= cent, "{} / {}", account, cost);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_surface_gives_the_same_account_after_each_step(
        keeps in any::<bool>(),
        steps in proptest::collection::vec(step(), 1..5),
    ) {
        static CASE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let cloud = Cloud::new(CASE.fetch_add(1, std::sync::atomic::Ordering::Relaxed), keeps);
        let (_, first) = cloud.run(&["status", "--json"]);
        let mut last_total = dec(&first["cost"]["total"]);
        let mut snapshots = 3;
        for step in steps {
            let released = cloud.state() == "released";
            match step {
                Step::Release => {
                    let (code, _) = cloud.run(&["release", "--provider", "command", "--yes"]);
                    prop_assert!(released || code == Some(0), "release: {code:?}");
                }
                Step::Stop if !released => cloud.set("state", "stopped"),
                Step::Start if !released => cloud.set("state", "running"),
                Step::Cleanup => {
                    snapshots = (snapshots - 1).max(0);
                    cloud.set("snapshots", &snapshots.to_string());
                }
                Step::Extend if !released => {
                    let (code, said) = cloud.text(&["extend", "2h", "--yes"]);
                    prop_assert_eq!(code, Some(0), "extend: {}", said);
                }
                Step::Hours(n) => cloud.hours.set(cloud.hours.get() + n),
                Step::Serve => {
                    let (_, status) = cloud.run(&["status", "--json"]);
                    let args = cloud.args();
                    let args: Vec<_> = args.iter().map(std::ffi::OsString::as_os_str).collect();
                    let body = scrape(&args, cloud.hours.get());
                    let (_, after) = cloud.run(&["status", "--json"]);
                    scrape_agrees(&body, &status, &after)?;
                }
                _ => {}
            }
            let read = std::time::Instant::now();
            let (_, status) = cloud.run(&["status", "--json"]);
            let (_, checklist) = cloud.run(&["checklist", "--provider", "command", "--json"]);
            let (_, report) = cloud.run(&["report", "--json"]);
            let (_, fleet) = cloud.run(&["fleet", "--json"]);
            let (_, after) = cloud.run(&["status", "--json"]);
            report_agrees(&report, &status, read.elapsed())?;
            fleet_agrees(&fleet, &status, &after)?;
            // A deadline is never shown without who enforces it, or why nothing does; after
            // a release there is none to show.
            let deadline = &status["deadline"];
            if cloud.state() == "released" {
                prop_assert!(deadline.is_null(), "{}", deadline);
            } else if !deadline.is_null() {
                prop_assert!(
                    deadline["enforced_by"].is_string()
                        || deadline["not_enforced_reason"].is_string(),
                    "{}", deadline
                );
            }
            // What keeps billing, and what of it has no price: the same on both.
            prop_assert_eq!(
                &status["still_billing_monthly"],
                &checklist["still_billing_monthly"],
                "{} / {}", status, checklist
            );
            prop_assert_eq!(&status["leftover_monthly_cost"], &checklist["leftover_monthly_cost"]);
            let cost = &status["cost"];
            let parts: Decimal = ["compute", "bandwidth", "storage", "extras"]
                .iter()
                .map(|k| dec(&cost[*k]))
                .sum();
            prop_assert_eq!(parts, dec(&cost["total"]));
            let total = dec(&cost["total"]);
            prop_assert!(total >= last_total, "{} -> {}", last_total, total);
            last_total = total;
            if cloud.state() == "released" {
                // Still the instance, released, whether the provider lists it or not; no
                // compute after the release, nothing unknown about what it cost.
                prop_assert_eq!(&status["instance"]["state"], "released", "{}", status);
                prop_assert_eq!(&checklist["instance_state"], "released");
                let unknown = cost["unknown"].as_array().unwrap();
                prop_assert!(
                    unknown.iter().all(|u| u.as_str().unwrap().starts_with("snapshot")),
                    "{}", cost
                );
                prop_assert!(dec(&cost["burn_per_hour"]) < "1.89".parse().unwrap());
                // No second release: the command says it is done and calls nothing.
                let (code, again) = cloud.text(&["release", "--provider", "command", "--yes"]);
                prop_assert_eq!(code, Some(0), "{}", again);
                prop_assert!(again.contains("already released"), "{}", again);
                prop_assert_eq!(ids(&report, "still_billing"), ids(&checklist, "would_keep_billing"));
            }
        }
    }
}

/// The demo cloud, run as `gpumeter --demo`: its own ledger and cloud state in a fresh folder.
struct Demo {
    dir: tempfile::TempDir,
    /// How many hours have passed: every process runs this much later than now.
    hours: Cell<u32>,
}

impl Demo {
    fn run(&self, args: &[&str]) -> (Option<i32>, String, Value) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
        let out = later(&mut command, self.hours.get())
            .arg("--demo")
            .arg("--data-dir")
            .arg(self.dir.path())
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        (
            out.status.code(),
            text + &String::from_utf8_lossy(&out.stderr),
            json,
        )
    }
}

fn ids(v: &Value, key: &str) -> Vec<String> {
    let mut ids: Vec<String> = v[key]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|r| r["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    ids.sort();
    ids
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, failure_persistence: None, ..ProptestConfig::default() })]

    /// The same on the demo cloud, which keeps listing a released instance: status and
    /// checklist agree on what keeps billing and what has no price, the total never falls,
    /// compute stops at the release, and report names what outlived it.
    #[test]
    fn the_demo_gives_the_same_account_on_every_surface(
        steps in proptest::collection::vec(
            prop_oneof![Just("release"), Just("stop"), Just("start"), Just("hours")],
            1..5,
        ),
    ) {
        let demo = Demo { dir: tempfile::tempdir().unwrap(), hours: Cell::new(0) };
        let (_, _, first) = demo.run(&["status", "--json"]);
        let mut last_total = dec(&first["cost"]["total"]);
        let mut compute_at_release: Option<Decimal> = None;
        for step in steps {
            if step == "hours" {
                demo.hours.set(demo.hours.get() + 7);
            } else {
                let _ = demo.run(&[step, "--yes"]);
            }
            let read = std::time::Instant::now();
            let (_, _, status) = demo.run(&["status", "--json"]);
            let (_, _, checklist) = demo.run(&["checklist", "--json"]);
            let (_, _, report) = demo.run(&["report", "--json"]);
            let (_, _, fleet) = demo.run(&["fleet", "--json"]);
            let (_, _, after) = demo.run(&["status", "--json"]);
            report_agrees(&report, &status, read.elapsed())?;
            fleet_agrees(&fleet, &status, &after)?;
            prop_assert_eq!(
                &status["still_billing_monthly"],
                &checklist["still_billing_monthly"],
                "{} / {}", status, checklist
            );
            // The demo's load balancer has no price: never a total, always named.
            prop_assert!(status["leftover_monthly_cost"].is_null(), "{}", status);
            prop_assert_eq!(&status["still_billing_monthly"]["incomplete"], true);
            let cost = &status["cost"];
            let total = dec(&cost["total"]);
            prop_assert!(total >= last_total, "{} -> {}", last_total, total);
            last_total = total;
            if status["instance"]["state"] == "released" {
                prop_assert_eq!(&checklist["instance_state"], "released");
                // Compute stops at the release; the cents the total shares out by largest
                // remainder may move one between lines as the disks accrue.
                let compute = dec(&cost["compute"]);
                let at_release = *compute_at_release.get_or_insert(compute);
                prop_assert!((compute - at_release).abs() <= Decimal::new(1, 2), "{} -> {}", at_release, compute);
                let (code, again, _) = demo.run(&["release", "--yes"]);
                prop_assert_eq!(code, Some(0), "{}", again);
                prop_assert!(again.contains("already released"), "{}", again);
                prop_assert_eq!(ids(&report, "still_billing"), ids(&checklist, "would_keep_billing"));
            }
        }
    }
}

/// `serve` started after a release the provider no longer lists exports the account `status`
/// gives: what the released instance and its root disk cost, to the cent, and what has no price.
#[test]
fn serve_started_after_a_forgotten_release_exports_the_account_status_gives() {
    let cloud = Cloud::new(10_000, false);
    let _ = cloud.run(&["status", "--json"]);
    let (code, _) = cloud.run(&["release", "--provider", "command", "--yes"]);
    assert_eq!(code, Some(0));
    let (_, status) = cloud.run(&["status", "--json"]);
    assert_eq!(status["instance"]["state"], "released", "{status}");
    let args = cloud.args();
    let args: Vec<_> = args.iter().map(std::ffi::OsString::as_os_str).collect();
    let body = scrape(&args, 0);
    let (_, after) = cloud.run(&["status", "--json"]);
    scrape_agrees(&body, &status, &after).unwrap();
}

/// A deadline set before the release is nothing to enforce after it: status shows none, says
/// why, and does not ask for a watchdog to guard a released instance.
#[test]
fn after_a_release_status_shows_no_deadline_to_enforce() {
    let cloud = Cloud::new(10_001, false);
    let (code, said) = cloud.text(&["extend", "2h", "--yes"]);
    assert_eq!(code, Some(0), "{said}");
    let (_, before) = cloud.run(&["status", "--json"]);
    assert!(before["deadline"].is_object(), "{before}");
    let (code, _) = cloud.run(&["release", "--provider", "command", "--yes"]);
    assert_eq!(code, Some(0));
    let (_, after) = cloud.run(&["status", "--json"]);
    assert_eq!(after["instance"]["state"], "released", "{after}");
    assert!(after["deadline"].is_null(), "{after}");
    let (_, text) = cloud.text(&["status"]);
    assert!(
        text.contains("deadline  none: the instance is released"),
        "{text}"
    );
    assert!(!text.contains("NOT ENFORCED"), "{text}");
}
