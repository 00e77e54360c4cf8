//! `gpumeter status|checklist|stop|fleet` on AutoDL through the binary, pointed at the loopback
//! peer: the balance in `status` (JSON and text), the images that keep billing, a stop read
//! back, an AutoDL account in `fleet`, and the token never in stdout or stderr.

use std::process::{Output, Stdio};

use serde_json::Value;

use crate::autodl_peer::{INSTANCE, OTHERS, Peer, TOKEN};
use crate::gpu_clouds_cli::Run;

fn gpumeter(run: &Run, peer: &Peer, instance: bool, args: &[&str]) -> (Output, String) {
    let mut cmd = crate::common::gpumeter();
    if instance {
        cmd.args(["--provider", "autodl", "--instance", INSTANCE]);
    }
    cmd.args(args)
        .arg("--config")
        .arg(run.dir.join("config.toml"))
        .env("GPUMETER_DATA_DIR", &run.dir)
        .env("HOME", &run.dir)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("AUTODL_CREDENTIALS_FILE")
        .stdin(Stdio::null());
    for (k, v) in peer.env_pairs() {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains(TOKEN), "the token was shown: {all}");
    (out, all)
}

#[test]
fn status_shows_the_balance_in_yuan_in_json_and_text() {
    let peer = Peer::start();
    let run = Run::new("autodl-status");
    let (out, said) = gpumeter(&run, &peer, true, &["status", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["balance"]["available"], "29.29", "{said}");
    assert_eq!(json["balance"]["vouchers"], "1.5", "{said}");
    assert_eq!(json["balance"]["currency"], "CNY", "{said}");
    assert_eq!(json["instance"]["id"], INSTANCE, "{said}");
    assert!(
        json["forced_release"].is_null(),
        "a running instance counts nothing down"
    );
    let (out, said) = gpumeter(&run, &peer, true, &["status"]);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains("balance   29.29 CNY (vouchers 1.50 CNY)"),
        "{said}"
    );
}

#[test]
fn the_no_gpu_mode_bills_its_own_rate_and_expects_no_gpu() {
    let peer = Peer::start();
    peer.cloud(|c| c.run_without_gpus(INSTANCE));
    let run = Run::new("autodl-no-gpu");
    // The bundled sheet has no price for the Pro API's spec ids: the user's own gives one.
    let sheet = run.dir.join("mine.toml");
    std::fs::write(
        &sheet,
        "extends = \"autodl\"\nid = \"autodl-mine\"\n\n[[sku]]\nname = \"pro6000-p\"\n\
         gpu_model = \"RTX PRO 6000\"\ngpu_count = 1\ngpu_memory_gib = 96\non_demand_per_hour = \"5.98\"\n",
    )
    .unwrap();
    std::fs::write(
        run.dir.join("config.toml"),
        format!("[pricing]\nsheet = {:?}\n", sheet.display().to_string()),
    )
    .unwrap();
    let (out, said) = gpumeter(&run, &peer, true, &["status", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["instance"]["state"], "no_gpu", "{said}");
    // The sheet's no-GPU price (pricing/autodl.toml), not the card's.
    assert_eq!(json["cost"]["burn_per_hour"], "0.10", "{said}");
    assert_eq!(json["gpus_expected"], false, "{said}");
    let (out, said) = gpumeter(&run, &peer, true, &["status"]);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains("GPU   none, as expected: the instance runs without its GPUs"),
        "{said}"
    );
    // Powered on again with its GPUs: the card's price, and a GPU expected.
    peer.cloud(|c| c.instances[0].start_mode = "gpu");
    let (out, said) = gpumeter(&run, &peer, true, &["status", "--json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["cost"]["burn_per_hour"], "5.98",
        "with its GPUs again: {said}"
    );
    assert_eq!(json["gpus_expected"], true, "{said}");
}

#[test]
fn the_balance_runs_out_at_the_whole_accounts_burn() {
    let peer = Peer::start();
    let run = Run::new("autodl-account-burn");
    let sheet = run.dir.join("mine.toml");
    let sku = |name: &str, price: &str| {
        format!(
            "[[sku]]\nname = \"{name}\"\ngpu_model = \"GPU\"\ngpu_count = 1\n\
             gpu_memory_gib = 48\non_demand_per_hour = \"{price}\"\n"
        )
    };
    let head = "extends = \"autodl\"\nid = \"autodl-mine\"\n";
    std::fs::write(
        run.dir.join("config.toml"),
        format!("[pricing]\nsheet = {:?}\n", sheet.display().to_string()),
    )
    .unwrap();
    // This instance priced, the other one running (two v-48g cards) not: a bound, said so.
    std::fs::write(&sheet, format!("{head}{}", sku("pro6000-p", "5.98"))).unwrap();
    let (out, said) = gpumeter(&run, &peer, true, &["status", "--json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let burn = &json["balance_burn_per_hour"];
    assert_eq!(burn["amount"], "5.98", "{said}");
    assert_eq!(burn["scope"], "this_instance", "{said}");
    assert_eq!(burn["uncounted_instances"], 1, "{said}");
    let (_, said) = gpumeter(&run, &peer, true, &["status"]);
    assert!(
        said.contains("at ≥ 5.98 CNY/h (1 other running instance not priced, not counted)"),
        "{said}"
    );
    // Both priced: the account's burn, and the balance runs out sooner.
    let both = format!(
        "{head}{}{}",
        sku("pro6000-p", "5.98"),
        sku("2xv-48g", "4.40")
    );
    std::fs::write(&sheet, both).unwrap();
    let (out, said) = gpumeter(&run, &peer, true, &["status", "--json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let burn = &json["balance_burn_per_hour"];
    assert_eq!(burn["amount"], "10.38", "{said}");
    assert_eq!(burn["scope"], "account", "{said}");
    assert_eq!(burn["uncounted_instances"], 0, "{said}");
    let (_, said) = gpumeter(&run, &peer, true, &["status"]);
    assert!(said.contains("runs out in 2h49m at 10.38 CNY/h"), "{said}");
}

#[test]
fn status_json_has_a_null_balance_where_the_provider_keeps_none() {
    let run = Run::new("autodl-demo-balance");
    let out = crate::common::gpumeter()
        .args(["--demo", "status", "--json", "--config"])
        .arg(run.dir.join("config.toml"))
        .env("GPUMETER_DATA_DIR", &run.dir)
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["balance"].is_null(), "{json}");
    assert!(json.get("balance_error").is_none(), "{json}");
}

#[test]
fn checklist_names_the_private_images_and_stop_is_read_back() {
    let peer = Peer::start();
    let run = Run::new("autodl-checklist");
    let (out, said) = gpumeter(&run, &peer, true, &["checklist"]);
    assert_eq!(out.status.code(), Some(3), "{said}");
    assert!(said.contains("image-db8346e037"), "{said}");
    let (out, said) = gpumeter(&run, &peer, true, &["stop", "--yes"]);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert_eq!(
        peer.cloud(|c| c.status(INSTANCE).map(str::to_string))
            .as_deref(),
        Some("shutdown"),
        "{said}"
    );
    // Shut down, AutoDL releases it in 15 days and erases it: status counts down from the
    // shutdown the platform reports.
    let (out, said) = gpumeter(&run, &peer, true, &["status", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let forced = &json["forced_release"];
    assert_eq!(forced["after_days"], 15, "{said}");
    let left = forced["remaining_s"].as_i64().expect("seconds left");
    assert!((15 * 86_400 - 120..=15 * 86_400).contains(&left), "{said}");
    assert_eq!(forced["erases"][0], INSTANCE, "{said}");
    let (_, said) = gpumeter(&run, &peer, true, &["status"]);
    assert!(said.contains("released  by autodl in 14d23h"), "{said}");
    assert!(said.contains("a start resets the clock"), "{said}");
    let (out, said) = gpumeter(&run, &peer, true, &["checklist", "--json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["forced_release"]["after_days"], 15, "{said}");
    let (_, said) = gpumeter(&run, &peer, true, &["checklist"]);
    assert!(said.starts_with("released  by autodl in 14d23h"), "{said}");
    let (out, said) = gpumeter(&run, &peer, true, &["release", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("/api/v1/dev/instance/pro/release"), "{said}");
    assert!(
        peer.cloud(|c| c.status(INSTANCE).is_some()),
        "a dry run released it"
    );
}

#[test]
fn sweep_counts_down_to_the_release_of_each_shut_down_instance() {
    let peer = Peer::start();
    let run = Run::new("autodl-sweep");
    // Shut down twelve days ago, as AutoDL's list says it in China's time: three days left.
    let twelve_days_ago = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(12 * 24);
    let shanghai = jiff::tz::TimeZone::fixed(jiff::tz::offset(8));
    let local = shanghai.to_datetime(twelve_days_ago);
    let stopped_at = format!("{}+08:00", local.strftime("%Y-%m-%dT%H:%M:%S"));
    peer.cloud(|c| c.instances[1].stopped_at = stopped_at);
    let (out, said) = gpumeter(&run, &peer, true, &["sweep", "--json"]);
    assert_eq!(out.status.code(), Some(3), "the images bill: {said}");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let pending = json["forced_releases"].as_array().expect("a list");
    assert_eq!(pending.len(), 1, "only the shut-down one: {said}");
    assert_eq!(pending[0]["id"], OTHERS[0], "{said}");
    assert_eq!(pending[0]["after_days"], 15, "{said}");
    let left = pending[0]["remaining_s"].as_i64().expect("seconds left");
    assert!((3 * 86_400 - 120..=3 * 86_400).contains(&left), "{said}");
    assert_eq!(pending[0]["erases"][0], OTHERS[0], "{said}");
    let (_, said) = gpumeter(&run, &peer, true, &["sweep"]);
    assert!(
        said.contains("Shut down, and autodl releases them on its own"),
        "{said}"
    );
    assert!(said.contains(&format!("  {} ", OTHERS[0])), "{said}");
    assert!(said.contains("released in 2d23h"), "{said}");
    assert!(said.contains(&format!("erases {}", OTHERS[0])), "{said}");
    let (_, said) = gpumeter(&run, &peer, true, &["--lang", "zh-CN", "sweep"]);
    assert!(said.contains("将自动释放"), "{said}");
}

#[test]
fn fleet_lists_an_autodl_account() {
    let peer = Peer::start();
    let run = Run::new("autodl-fleet");
    let table = format!(
        "[[fleet]]\nprovider = \"autodl\"\naccount = \"lab\"\nenv = {{ GPUMETER_AUTODL_ENDPOINT = \"{}\" }}\n",
        peer.url()
    );
    std::fs::write(run.dir.join("config.toml"), table).unwrap();
    let (out, said) = gpumeter(&run, &peer, false, &["fleet", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = rows
        .iter()
        .filter_map(|r| r["instance_id"].as_str())
        .collect();
    for id in [INSTANCE, OTHERS[0], OTHERS[1]] {
        assert!(ids.contains(&id), "{id} missing: {said}");
    }
}

#[test]
fn a_missing_token_names_the_variable_and_the_file() {
    let run = Run::new("autodl-no-token");
    let out = crate::common::gpumeter()
        .args([
            "--provider",
            "autodl",
            "--instance",
            INSTANCE,
            "status",
            "--config",
        ])
        .arg(run.dir.join("config.toml"))
        .env("GPUMETER_DATA_DIR", &run.dir)
        .env("HOME", &run.dir)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("AUTODL_TOKEN")
        .env_remove("AUTODL_CREDENTIALS_FILE")
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("AUTODL_TOKEN"), "{said}");
    assert!(
        said.contains("AUTODL_CREDENTIALS_FILE") && said.contains("autodl-token"),
        "{said}"
    );
}
