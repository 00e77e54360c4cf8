//! The `command` provider against small scripts in tests/command_scripts: a file-backed cloud
//! whose commands succeed, one that fails with a message, one that hangs, one that prints broken
//! JSON. Nothing is reported done unless the inventory command, run again, shows it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gpumeter::config::CommandConfig;
use gpumeter::meter::{InstanceState, ResourceKind};
use gpumeter::provider::command::{CommandProvider, Readback};
use gpumeter::provider::{Action, ErrorKind, Provider};
use jiff::{SignedDuration, Timestamp};

fn script(name: &str) -> String {
    format!(
        "{}/tests/command_scripts/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-command-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn s(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn argv(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_string()).collect()
}

/// Every command pointed at the file cloud in `dir`.
fn config(dir: &Dir) -> CommandConfig {
    let cloud = script("cloud.sh");
    let d = dir.s();
    CommandConfig {
        release: Some(argv(&[&cloud, "release", &d])),
        stop: Some(argv(&[&cloud, "stop", &d])),
        snapshot_clean: Some(argv(&[&cloud, "prune", &d, "{keep}"])),
        extend: Some(argv(&[&cloud, "extend", &d, "{deadline}"])),
        inventory: Some(argv(&[&cloud, "inventory", &d])),
        timeout: Duration::from_secs(10),
        ..CommandConfig::default()
    }
}

fn adapter(config: CommandConfig) -> CommandProvider {
    CommandProvider::new(config, Some("i-cmd".into())).with_readback(Readback {
        attempts: 3,
        interval: Duration::from_millis(10),
    })
}

#[tokio::test]
async fn inventory_reads_the_documented_json() {
    let dir = Dir::new("inventory");
    let inv = adapter(config(&dir)).inventory().await.unwrap();
    let instance = inv.instance.unwrap();
    assert_eq!(instance.id, "i-cmd");
    assert_eq!(instance.sku, "A100-80G");
    assert_eq!(instance.live_price_per_hour, Some("1.89".parse().unwrap()));
    assert_eq!(instance.state, InstanceState::Running);
    assert_eq!(inv.resources.len(), 4);
    assert_eq!(inv.resources[0].kind, ResourceKind::DataDisk);
    assert!(!inv.resources[0].deleted_with_instance);
    assert!(inv.deadline.is_none());
}

#[tokio::test]
async fn each_action_is_confirmed_by_the_inventory_command() {
    let dir = Dir::new("actions");
    let cloud = adapter(config(&dir));
    assert!(cloud.capabilities().stop && cloud.capabilities().snapshots);

    let stop = cloud.perform(&Action::Stop).await.unwrap();
    assert!(stop.confirmed, "{stop:?}");
    assert!(
        stop.calls[0].ends_with(&format!("stop {}", dir.s())),
        "{stop:?}"
    );

    let clean = Action::SnapshotClean {
        keep: 1,
        final_snapshot: false,
        delete: None,
    };
    let report = cloud.perform(&clean).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("1 snapshot(s)"),
        "{}",
        report.summary
    );

    let at = Timestamp::now() + SignedDuration::from_hours(3);
    let at = Timestamp::from_second(at.as_second()).unwrap();
    let extend = cloud.perform(&Action::SetDeadline { at: Some(at) }).await;
    let extend = extend.unwrap();
    assert!(extend.confirmed, "{extend:?}");
    assert_eq!(cloud.inventory().await.unwrap().deadline.unwrap().at, at);

    let release = cloud.perform(&Action::Release).await.unwrap();
    assert!(release.confirmed, "{release:?}");
    let after = cloud.inventory().await.unwrap();
    assert!(after.instance.is_none());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("state"))
            .unwrap()
            .trim(),
        "released"
    );
}

#[tokio::test]
async fn an_accepted_command_without_effect_is_not_confirmed() {
    let dir = Dir::new("noop");
    let mut config = config(&dir);
    config.release = Some(argv(&[&script("cloud.sh"), "noop", &dir.s()]));
    let report = adapter(config).perform(&Action::Release).await.unwrap();
    assert!(!report.confirmed);
    assert!(
        report
            .summary
            .contains("exited 0, but the inventory command shows i-cmd running"),
        "{}",
        report.summary
    );
}

#[tokio::test]
async fn a_failing_command_shows_its_stderr() {
    let dir = Dir::new("fail");
    let mut config = config(&dir);
    config.stop = Some(argv(&[&script("fail.sh")]));
    let report = adapter(config.clone())
        .perform(&Action::Stop)
        .await
        .unwrap();
    assert!(!report.confirmed);
    assert!(
        report.summary.contains("exit status 3"),
        "{}",
        report.summary
    );
    assert!(
        report.summary.contains("QuotaExceeded"),
        "{}",
        report.summary
    );
    assert!(
        report.summary.contains("i-cmd running"),
        "{}",
        report.summary
    );
    // Without an inventory to read back, the failure is the answer.
    config.inventory = None;
    let err = adapter(config).perform(&Action::Stop).await.unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("exit status 3") && text.contains("QuotaExceeded"),
        "{text}"
    );
    assert!(
        !text.contains("working..."),
        "stdout is not the error: {text}"
    );
}

#[tokio::test]
async fn a_hanging_command_is_killed_with_its_children() {
    let dir = Dir::new("hang");
    let pid_file = dir.path().join("child.pid");
    let mut config = config(&dir);
    config.release = Some(argv(&[&script("hang.sh"), &pid_file.display().to_string()]));
    config.timeout = Duration::from_millis(500);
    let started = Instant::now();
    let report = adapter(config).perform(&Action::Release).await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(!report.confirmed);
    assert!(report.summary.contains("was killed"), "{}", report.summary);
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let alive = || {
        std::process::Command::new("kill")
            .args(["-0", pid.trim()])
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
            .success()
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(), "the hanging script's child {pid} survived");
}

#[tokio::test]
async fn a_hanging_inventory_times_out() {
    let dir = Dir::new("hang-inv");
    let mut config = config(&dir);
    config.inventory = Some(argv(&[
        &script("hang.sh"),
        &dir.path().join("p").display().to_string(),
    ]));
    config.timeout = Duration::from_millis(300);
    let err = adapter(config).inventory().await.unwrap_err();
    assert!(err.to_string().contains("did not finish within"), "{err}");
}

#[tokio::test]
async fn malformed_inventory_json_is_an_error_not_an_empty_cloud() {
    let dir = Dir::new("garbled");
    let mut config = config(&dir);
    config.inventory = Some(argv(&[&script("garbled.sh")]));
    let cloud = adapter(config);
    let err = cloud.inventory().await.unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::State { .. }), "{err:?}");
    assert!(
        err.to_string().contains("does not follow the schema"),
        "{err}"
    );
    // The release runs, but the garbled read-back never confirms it.
    let report = cloud.perform(&Action::Release).await.unwrap();
    assert!(!report.confirmed);
    assert!(
        report.summary.contains("reading back failed"),
        "{}",
        report.summary
    );
}

#[tokio::test]
async fn without_an_inventory_command_actions_are_done_by_exit_status_only() {
    let dir = Dir::new("unverified");
    let mut config = config(&dir);
    config.inventory = None;
    let cloud = adapter(config);
    let err = cloud.inventory().await.unwrap_err();
    assert!(err.is_unsupported(), "{err:?}");
    let report = cloud.perform(&Action::Release).await.unwrap();
    assert!(!report.confirmed);
    assert!(
        report.summary.contains("done by exit status; not verified"),
        "{}",
        report.summary
    );
}

#[tokio::test]
async fn unconfigured_actions_are_unsupported_and_say_which_key() {
    let dir = Dir::new("unset");
    let mut config = config(&dir);
    config.stop = None;
    config.extend = Some(Vec::new());
    let cloud = adapter(config);
    assert!(!cloud.capabilities().stop);
    assert!(!cloud.capabilities().deadline);
    let err = cloud.perform(&Action::Stop).await.unwrap_err();
    assert!(err.to_string().contains("[command] stop"), "{err}");
    let cancel = cloud.perform(&Action::SetDeadline { at: None }).await;
    assert!(cancel.is_err_and(|e| e.is_unsupported()));
    assert!(cloud.plan(&Action::Stop).is_empty());
    let plan = cloud.plan(&Action::Release);
    assert_eq!(plan.len(), 2, "{plan:?}");
    assert!(
        plan[1].contains("inventory") && plan[1].contains("read back"),
        "{plan:?}"
    );
}

#[tokio::test]
async fn each_failure_of_the_command_comes_out_as_its_kind() {
    let dir = Dir::new("kinds");
    let mut config = config(&dir);
    config.inventory = None;
    config.stop = Some(argv(&[&script("fail.sh")]));
    config.release = Some(argv(&[&dir
        .path()
        .join("no-such-program")
        .display()
        .to_string()]));
    let cloud = adapter(config.clone());
    // A non-zero exit is the command's answer: a refusal, its status the code.
    let refused = cloud.perform(&Action::Stop).await.unwrap_err();
    assert_eq!(refused.kind_label(), "rejected", "{refused:?}");
    assert_eq!(refused.code(), Some("exit status 3"));
    assert!(refused.message().contains("QuotaExceeded"), "{refused:?}");
    // A program that cannot start is the setup's to fix.
    let missing = cloud.perform(&Action::Release).await.unwrap_err();
    assert_eq!(missing.kind_label(), "state", "{missing:?}");
    assert!(missing.fix().contains("[command]"), "{}", missing.fix());
    assert_eq!(
        cloud.inventory().await.unwrap_err().kind_label(),
        "unsupported"
    );
    config.inventory = Some(argv(&[&script("garbled.sh")]));
    let garbled = adapter(config).inventory().await.unwrap_err();
    assert_eq!(garbled.kind_label(), "state");
    assert!(
        garbled.fix().contains("[command] inventory"),
        "{}",
        garbled.fix()
    );
}
