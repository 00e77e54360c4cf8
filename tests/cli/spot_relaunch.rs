//! The README's `on_interrupt` recipe (`examples/hooks/relaunch-from-checkpoint`) run by the
//! real watchdog on the demo's spot notice: it keeps the newest checkpoint and launches the job
//! again from it. `sky` is a stand-in on PATH that writes down how it was called.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpumeter-relaunch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Waits up to 30 s for `path` to exist.
fn wait_for(path: &Path) -> bool {
    let start = Instant::now();
    while !path.exists() {
        if start.elapsed() > Duration::from_secs(30) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    true
}

#[test]
fn the_recipe_keeps_the_newest_checkpoint_and_relaunches_from_it_on_the_demo_notice() {
    let home = fresh("home");
    let data = home.join("data");
    let checkpoints = home.join("ckpt");
    let store = home.join("kept");
    let bin = home.join("bin");
    for dir in [&data, &checkpoints, &bin] {
        std::fs::create_dir_all(dir).unwrap();
    }
    two_checkpoints(&checkpoints);
    let record = home.join("sky-called");
    executable(
        &bin.join("sky"),
        &format!(
            "#!/bin/sh\nenv | grep '^GPUMETER_' > '{record}.env'\nprintf '%s\\n' \"$@\" > '{record}.tmp'\nmv '{record}.tmp' '{record}'\n",
            record = record.display()
        ),
    );
    let recipe =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/hooks/relaunch-from-checkpoint");
    let config = home.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[hooks]\non_interrupt = [{:?}, {:?}, {:?}]\ntimeout = \"20s\"\n",
            recipe.display().to_string(),
            format!("{}/step-*.pt", checkpoints.display()),
            store.display().to_string(),
        ),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut watchdog = Command::new(env!("CARGO_BIN_EXE_gpumeter"))
        .args(["watchdog", "--foreground", "--demo", "--interval", "200ms"])
        .arg("--config")
        .arg(&config)
        .env("GPUMETER_DATA_DIR", &data)
        .env("GPUMETER_DEMO_DELAY_MS", "0")
        .env("PATH", path)
        .env("RELAUNCH_TASK", home.join("train.yaml"))
        .env_remove("GPUMETER_WATCHDOG_INTERVAL")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (instance, at) = announce_reclaim(&data);

    let called = wait_for(&record);
    let _ = watchdog.kill();
    let out = watchdog.wait_with_output().unwrap();
    assert!(
        called,
        "sky was never called; the watchdog said:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let args = std::fs::read_to_string(&record).unwrap();
    let kept = store.join("step-1000.pt");
    assert_eq!(
        std::fs::read(&kept).unwrap(),
        b"newer",
        "the newest checkpoint is kept"
    );
    assert!(!store.join("step-0900.pt").exists());
    let args: Vec<&str> = args.lines().collect();
    assert_eq!(
        &args[..4],
        ["jobs", "launch", "--yes", "--use-spot"],
        "{args:?}"
    );
    assert!(
        args.contains(&format!("resume-{instance}").as_str()),
        "{args:?}"
    );
    assert!(
        args.contains(&format!("RESUME_FROM={}", kept.display()).as_str()),
        "{args:?}"
    );
    assert_eq!(
        args.last(),
        Some(&home.join("train.yaml").to_str().unwrap())
    );
    let env = std::fs::read_to_string(format!("{}.env", record.display())).unwrap();
    assert!(env.contains("GPUMETER_HOOK=on_interrupt"), "{env}");
    assert!(
        env.contains(&format!("GPUMETER_INSTANCE={instance}")),
        "{env}"
    );
    assert!(
        env.contains(&format!("GPUMETER_INTERRUPT_AT={at}")),
        "{env}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// Once the demo cloud's state exists (the watchdog makes it), the provider announces a reclaim
/// two minutes ahead: the instance's id and when.
fn announce_reclaim(data: &Path) -> (String, jiff::Timestamp) {
    let state = data.join("demo-cloud.json");
    assert!(wait_for(&state), "no demo cloud state");
    std::thread::sleep(Duration::from_millis(300));
    let mut cloud: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    let at = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(120);
    cloud["interruption"] = serde_json::Value::String(at.to_string());
    let instance = cloud["instance"]["id"].as_str().unwrap().to_string();
    let tmp = data.join("demo-cloud.json.tmp");
    std::fs::write(&tmp, serde_json::to_vec(&cloud).unwrap()).unwrap();
    std::fs::rename(&tmp, &state).unwrap();
    (instance, at)
}

/// Two checkpoints in `dir`, the second newer by a minute.
fn two_checkpoints(dir: &Path) {
    let older = dir.join("step-0900.pt");
    std::fs::write(&older, b"older").unwrap();
    std::fs::write(dir.join("step-1000.pt"), b"newer").unwrap();
    let minute_ago = SystemTime::now() - Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&older)
        .unwrap()
        .set_modified(minute_ago)
        .unwrap();
}
