//! `gpumeter doctor` and `gpumeter init` as a user runs them: doctor's lines and exit status on
//! a plain machine and with a config that asks for more, `--json`; init writing a private
//! config that loads and names what was picked, refusing to replace one, and `--force`.

use std::os::unix::fs::PermissionsExt as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use gpumeter::config::{Config, OnExpiry, ProviderKind, WebhookKind};

struct Home {
    dir: PathBuf,
}

impl Home {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-doctor-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Home { dir }
    }

    fn config(&self) -> PathBuf {
        self.dir.join("config/gpumeter/config.toml")
    }

    /// `gpumeter ARGS` with this home, no provider keys, and the metadata service off, so
    /// nothing waits on a network.
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_gpumeter"))
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.dir)
            .env("XDG_CONFIG_HOME", self.dir.join("config"))
            .env("GPUMETER_DATA_DIR", self.dir.join("data"))
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The line for `what`.
fn line<'a>(text: &'a str, what: &str) -> &'a str {
    text.lines()
        .find(|l| {
            l.split_once(' ')
                .is_some_and(|(_, rest)| rest.starts_with(&format!("{what} — ")))
        })
        .unwrap_or_else(|| panic!("no `{what}` line in:\n{text}"))
}

#[test]
fn doctor_on_a_plain_machine_says_what_is_missing_and_passes_an_alert_only_policy() {
    let home = Home::new("plain");
    let out = home.run(&["doctor"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    for l in text.lines() {
        assert!(
            l.starts_with("✓ ") || l.starts_with("✗ ") || l.starts_with("– "),
            "{l}"
        );
    }
    assert!(line(&text, "provider").starts_with("✗"));
    assert!(line(&text, "provider").contains("--provider"));
    assert!(line(&text, "policy").contains("alerts only"));
    assert!(line(&text, "watchdog service").contains("--install-service"));
    assert!(line(&text, "credentials").starts_with("–"));
    line(&text, "clock");
    line(&text, "time zone");
    line(&text, "NVML");
}

#[test]
fn doctor_fails_a_release_policy_without_a_key_and_says_where_it_looked() {
    let home = Home::new("release");
    std::fs::create_dir_all(home.config().parent().unwrap()).unwrap();
    std::fs::write(
        home.config(),
        "[instance]\nprovider = \"aws\"\nid = \"i-0abc\"\nregion = \"us-east-1\"\n\
         [pricing]\nsku = \"p4d.24xlarge\"\n[deadline]\nrelease_in = \"4h\"\non_expiry = \"release\"\n",
    )
    .unwrap();
    let out = home.run(&["doctor"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert_eq!(line(&text, "provider"), "✓ provider — aws (from config)");
    assert_eq!(line(&text, "SKU"), "✓ SKU — p4d.24xlarge (from config)");
    let credentials = line(&text, "credentials");
    assert!(credentials.starts_with("✗"), "{credentials}");
    assert!(credentials.contains("AWS_ACCESS_KEY_ID"), "{credentials}");
    assert!(credentials.contains(".aws/credentials"), "{credentials}");
    assert!(line(&text, "price sheet").contains("aws-us-east-1"));

    // A flag overrides the config, and says so.
    let out = home.run(&["--provider", "lambda", "doctor"]);
    let text = stdout(&out);
    assert_eq!(line(&text, "provider"), "✓ provider — lambda (from flag)");
    assert!(line(&text, "may release").contains("lambda has no dry run"));
}

#[test]
fn doctor_json_has_stable_keys_and_the_same_verdict() {
    let home = Home::new("json");
    let out = home.run(&["doctor", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], true);
    let checks = report["checks"].as_array().unwrap();
    let keys: Vec<&str> = checks.iter().map(|c| c["key"].as_str().unwrap()).collect();
    for key in [
        "policy",
        "nvml",
        "provider",
        "instance",
        "region",
        "sku",
        "credentials",
        "watchdog_service",
        "sheet",
        "clock",
        "timezone",
    ] {
        assert!(keys.contains(&key), "{key} missing from {keys:?}");
    }
    for c in checks {
        assert!(
            ["pass", "fail", "skip"].contains(&c["status"].as_str().unwrap()),
            "{c}"
        );
        assert!(c["blocking"].is_boolean(), "{c}");
    }
}

#[test]
fn init_writes_a_private_config_that_loads_with_the_picks_and_refuses_to_overwrite() {
    let home = Home::new("init");
    let out = home.run(&[
        "--provider",
        "aws",
        "--instance",
        "i-0abc",
        "--region",
        "eu-west-1",
        "init",
        "--deadline",
        "18:30",
        "--at-zero",
        "stop",
        "--idle",
        "45m",
        "--on-idle",
        "release",
        "--webhook",
        "https://oapi.dingtalk.com/robot/send?access_token=tok-secret-1",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !stdout(&out).contains("tok-secret-1"),
        "the webhook is a secret"
    );
    let mode = std::fs::metadata(home.config())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);
    let (config, from) = Config::load(Some(&home.config())).unwrap();
    assert_eq!(from, Some(home.config()));
    assert_eq!(config.instance.provider, Some(ProviderKind::Aws));
    assert_eq!(config.instance.id.as_deref(), Some("i-0abc"));
    assert_eq!(config.instance.region.as_deref(), Some("eu-west-1"));
    assert_eq!(
        config.deadline.release_at,
        Some(jiff::civil::time(18, 30, 0, 0))
    );
    assert_eq!(config.deadline.on_expiry, OnExpiry::Stop);
    assert_eq!(config.idle.after, std::time::Duration::from_secs(45 * 60));
    assert_eq!(config.idle.on_idle, OnExpiry::Release);
    assert_eq!(config.notify.webhook[0].kind, WebhookKind::Dingtalk);
    let text = std::fs::read_to_string(home.config()).unwrap();
    assert!(text.contains("# What happens at zero"), "{text}");

    // Again, without --force: refused with exit 2, the file untouched.
    let out = home.run(&["init", "--deadline", "2h", "--yes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(home.config()).unwrap(), text);

    // With --force: replaced; what the old file named of the instance is kept.
    let out = home.run(&["init", "--deadline", "2h", "--force"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let config = Config::from_file(&home.config()).unwrap();
    assert_eq!(
        config.deadline.release_in,
        Some(std::time::Duration::from_secs(2 * 3600))
    );
    assert_eq!(config.deadline.on_expiry, OnExpiry::Alert);
    assert_eq!(config.instance.id.as_deref(), Some("i-0abc"));

    // And doctor reads what init wrote.
    let text = stdout(&home.run(&["doctor"]));
    assert!(line(&text, "policy").contains("deadline in 2h"), "{text}");
}

#[test]
fn init_refuses_a_bad_pick_by_its_flag_and_writes_nothing() {
    let home = Home::new("bad");
    for (flag, value, said) in [
        ("--deadline", "soon", "--deadline"),
        ("--deadline", "25:99", "clock time"),
        ("--idle", "0s", "--idle"),
        ("--webhook", "ftp://x", "--webhook"),
    ] {
        let out = home.run(&["init", flag, value, "--yes"]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{flag} {value}: {err}");
        assert!(!home.config().exists());
    }
}
