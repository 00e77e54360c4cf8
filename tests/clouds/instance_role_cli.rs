//! The `gpumeter` binary on an instance whose only credential is its role: no key variables, an
//! empty `HOME`, the metadata service and the API both the loopback peer. The checklist must
//! sign every call with the role's temporary key and token, and never print either.

use std::process::{Output, Stdio};

use serde_json::Value;

use crate::{alibaba_peer, tencent_peer};

/// Runs `checklist --json` for `provider` with only `vars` (and a fresh `HOME` and data
/// directory) in the environment.
fn checklist(provider: &str, instance: &str, region: &str, vars: &[(&str, String)]) -> Output {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.toml"), "").unwrap();
    crate::common::gpumeter()
        .args(["checklist", "--json", "--provider", provider])
        .args(["--instance", instance, "--region", region])
        .arg("--config")
        .arg(home.path().join("config.toml"))
        .env_clear()
        .env("HOME", home.path())
        .env("GPUMETER_DATA_DIR", home.path())
        .envs(vars.iter().map(|(k, v)| (*k, v.as_str())))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn alibaba_signs_with_the_ecs_ram_role_alone() {
    use alibaba_peer::{INSTANCE, Peer, ROLE_KEY_ID, ROLE_SECRET, ROLE_TOKEN};
    let Some(peer) = Peer::start() else {
        return;
    };
    let vars = [
        ("GPUMETER_ALIBABA_ENDPOINT", peer.url()),
        ("GPUMETER_ALIBABA_METADATA", peer.url()),
    ];
    let out = checklist("alibaba", INSTANCE, "cn-hangzhou", &vars);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(3), "{all}");
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list["instance"], INSTANCE);
    assert!(!list["would_keep_billing"].as_array().unwrap().is_empty());
    let signers = peer.signers();
    assert!(!signers.is_empty());
    // The peer takes the role's key only with its token, signed.
    assert!(signers.iter().all(|k| k == ROLE_KEY_ID), "{signers:?}");
    assert!(
        !all.contains(ROLE_SECRET) && !all.contains(ROLE_TOKEN),
        "{all}"
    );
}

#[test]
fn alibaba_with_the_metadata_service_disabled_names_every_place() {
    let Some(peer) = alibaba_peer::Peer::start() else {
        return;
    };
    let vars = [
        ("GPUMETER_ALIBABA_ENDPOINT", peer.url()),
        ("GPUMETER_ALIBABA_METADATA", peer.url()),
        ("ALIBABA_CLOUD_ECS_METADATA_DISABLED", "true".into()),
    ];
    let out = checklist("alibaba", alibaba_peer::INSTANCE, "cn-hangzhou", &vars);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{all}");
    for place in [
        "ALIBABA_CLOUD_ACCESS_KEY_ID/ALIBABA_CLOUD_ACCESS_KEY_SECRET",
        ".aliyun/config.json",
        ".alibabacloud/credentials.ini",
        "ALIBABA_CLOUD_ECS_METADATA_DISABLED=true",
    ] {
        assert!(all.contains(place), "{place} missing: {all}");
    }
    assert!(peer.signers().is_empty());
}

#[test]
fn tencent_signs_with_the_cvm_role_alone() {
    use tencent_peer::{INSTANCE, Peer, REGION, ROLE_KEY_ID, ROLE_SECRET, ROLE_TOKEN};
    let Some(peer) = Peer::start() else {
        return;
    };
    let vars = [
        ("GPUMETER_TENCENT_ENDPOINT", peer.url()),
        ("GPUMETER_TENCENT_METADATA", peer.url()),
    ];
    let out = checklist("tencent", INSTANCE, REGION, &vars);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(3), "{all}");
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list["instance"], INSTANCE);
    let signers = peer.signers();
    assert!(!signers.is_empty());
    // The peer takes the role's key only with its token.
    assert!(signers.iter().all(|k| k == ROLE_KEY_ID), "{signers:?}");
    assert!(peer.rejected().is_empty(), "{:?}", peer.rejected());
    assert!(
        !all.contains(ROLE_SECRET) && !all.contains(ROLE_TOKEN),
        "{all}"
    );
}
