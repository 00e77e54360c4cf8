//! Nothing left billing: for RunPod, Vast.ai, Lambda Cloud (against their peers) and the
//! `command` provider (against its file cloud), the sweep lists the orphan, a cleanup deletes it
//! and is confirmed only once the list no longer holds it, the next sweep is empty, the
//! provider's refusal comes back in its own words, and the dry run names the calls.

use std::time::Duration;

use gpumeter::config::CommandConfig;
use gpumeter::provider::cleanup::{self, Outcome};
use gpumeter::provider::command::{CommandProvider, Readback};
use gpumeter::provider::{ErrorKind, LinkedResource, Provider, ProviderError};

use crate::gpu_peer::cloud::{LAMBDA_ID, POD_ID, Storage, VAST_ID};
use crate::gpu_peer::{Fault, Kind, Peer};

fn ids(found: &[LinkedResource]) -> Vec<&str> {
    found.iter().map(|r| r.id.as_str()).collect()
}

fn find(found: &[LinkedResource], id: &str) -> LinkedResource {
    found
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("{id} is not listed: {:?}", ids(found)))
        .clone()
}

/// The one outcome of deleting `r` through the cleanup driver.
async fn clean(provider: &dyn Provider, r: &LinkedResource) -> Outcome {
    let mut outcomes = cleanup::run(provider, std::slice::from_ref(r)).await;
    assert_eq!(outcomes.len(), 1, "{outcomes:?}");
    outcomes.remove(0)
}

/// The refusal an outcome carries: the provider's own answer, not a local guess.
fn refusal(outcome: Outcome) -> ProviderError {
    let err = outcome
        .result
        .expect_err("the provider refused, so it is an error");
    assert_eq!(err.kind(), &ErrorKind::Rejected, "{err}");
    err
}

fn orphan(id: &str) -> Storage {
    Storage {
        id: id.into(),
        name: format!("old-{id}"),
        in_use: false,
    }
}

#[tokio::test]
async fn runpod_deletes_an_orphan_network_volume_and_reads_it_back() {
    let peer = Peer::start(Kind::Runpod);
    peer.cloud(|c| c.storage.push(orphan("nv-old")));
    let runpod = peer.runpod();
    let found = runpod.sweep().await.unwrap();
    assert_eq!(ids(&found), ["nv-old"], "nv-data is mounted: {found:?}");
    let volume = find(&found, "nv-old");
    assert_eq!(volume.attached_to, None);
    assert_eq!(
        cleanup::plan(&runpod, std::slice::from_ref(&volume)),
        [
            "DELETE /v2/network-volumes/nv-old",
            "GET /v2/network-volumes   (read back until nv-old is no longer listed)"
        ]
    );
    assert_eq!(
        peer.count("DELETE"),
        0,
        "a plan makes no call: {:?}",
        peer.calls()
    );
    let outcome = clean(&runpod, &volume).await;
    assert!(outcome.confirmed(), "{outcome:?}");
    let report = outcome.result.unwrap();
    assert!(report.summary.contains("no longer lists"), "{report:?}");
    assert_eq!(report.calls, runpod.delete_plan(&volume));
    assert!(peer.cloud(|c| c.storage.iter().all(|s| s.id != "nv-old")));
    assert_eq!(peer.count("DELETE /v2/network-volumes/nv-old"), 1);
    assert!(runpod.sweep().await.unwrap().is_empty());
}

#[tokio::test]
async fn runpod_refuses_a_volume_a_stopped_pod_still_mounts_in_its_words() {
    let peer = Peer::start(Kind::Runpod);
    let runpod = peer.runpod();
    let inv = runpod.inventory().await.unwrap();
    assert_eq!(
        find(&inv.resources, "nv-data").attached_to.as_deref(),
        Some(POD_ID)
    );
    let stop = runpod
        .perform(&gpumeter::provider::Action::Stop)
        .await
        .unwrap();
    assert!(stop.confirmed, "{stop:?}");
    let found = runpod.sweep().await.unwrap();
    let volume = find(&found, "nv-data");
    assert_eq!(
        volume.attached_to.as_deref(),
        Some(POD_ID),
        "the sweep says which pod mounts it"
    );
    let err = refusal(clean(&runpod, &volume).await);
    assert!(
        err.to_string().contains("is in use by pod") && err.to_string().contains("HTTP 400"),
        "{err}"
    );
    assert!(peer.cloud(|c| c.storage.iter().any(|s| s.id == "nv-data")));
    // A pod's own disk goes with the pod: no plan, and asking says so.
    let disk = found.iter().find(|r| r.id.ends_with("-volume")).unwrap();
    assert!(runpod.delete_plan(disk).is_empty());
    let err = runpod.delete(disk).await.unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported { .. }), "{err}");
}

#[tokio::test]
async fn runpod_does_not_confirm_a_delete_the_list_still_shows() {
    let peer = Peer::start(Kind::Runpod);
    peer.cloud(|c| c.storage.push(orphan("nv-old")));
    // Accepted, yet nothing is deleted.
    peer.fault(
        Fault::Answer(204, ""),
        Some("DELETE /v2/network-volumes/"),
        None,
    );
    let runpod = peer.runpod();
    let volume = find(&runpod.sweep().await.unwrap(), "nv-old");
    let outcome = clean(&runpod, &volume).await;
    assert!(!outcome.confirmed(), "{outcome:?}");
    let report = outcome.result.unwrap();
    assert!(report.summary.contains("still lists"), "{report:?}");
    // The bounded read-back: one list per attempt, no more.
    assert_eq!(
        peer.count("GET /v2/network-volumes"),
        1 + gpu_peer_attempts()
    );
}

#[tokio::test]
async fn runpod_does_not_confirm_a_delete_not_done_whose_first_list_is_empty() {
    use crate::common::fault_proxy::{Answer, Fault as ProxyFault, FaultProxy, On};
    let peer = Peer::start(Kind::Runpod);
    peer.cloud(|c| c.storage.push(orphan("nv-old")));
    let volume = find(&peer.runpod().sweep().await.unwrap(), "nv-old");
    // Accepted without being done, and the first list after it answers with no volume at all.
    let proxy = FaultProxy::start(&peer.url(), "DELETE /v2/network-volumes/");
    proxy
        .arm(ProxyFault::AcceptedThenEmpty, On::Change)
        .replay(Answer {
            status: 204,
            content_type: "application/json".into(),
            body: String::new(),
        });
    let runpod = crate::gpu_peer::runpod_at(&proxy.url());
    let outcome = clean(&runpod, &volume).await;
    assert!(!outcome.confirmed(), "{outcome:?}");
    assert!(
        peer.cloud(|c| c.storage.iter().any(|s| s.id == "nv-old")),
        "the volume is still there"
    );
}

fn gpu_peer_attempts() -> usize {
    crate::gpu_peer::readback().attempts as usize
}

fn vast_with_volumes(peer: &Peer) {
    peer.cloud(|c| {
        c.storage.push(Storage {
            id: "31".into(),
            name: "vol-31".into(),
            in_use: true,
        });
        c.storage.push(orphan("32"));
    });
}

#[tokio::test]
async fn vast_deletes_an_unused_volume_as_the_cli_does_and_reads_it_back() {
    let peer = Peer::start(Kind::Vast);
    vast_with_volumes(&peer);
    let vast = peer.vast();
    let found = vast.sweep().await.unwrap();
    assert_eq!(ids(&found), ["volume-32"], "31 is in use: {found:?}");
    let volume = find(&found, "volume-32");
    assert_eq!(
        vast.delete_plan(&volume),
        [
            "DELETE /api/v0/volumes/?id=32",
            "GET /api/v0/volumes?owner=me&type=all_volume   (read back until volume-32 is no \
             longer listed)"
        ]
    );
    let outcome = clean(&vast, &volume).await;
    assert!(outcome.confirmed(), "{outcome:?}");
    assert!(peer.cloud(|c| c.storage.iter().all(|s| s.id != "32")));
    assert_eq!(peer.count("DELETE /api/v0/volumes/"), 1);
    assert!(vast.sweep().await.unwrap().is_empty());
}

#[tokio::test]
async fn vast_refuses_a_volume_an_instance_uses_in_its_words() {
    let peer = Peer::start(Kind::Vast);
    vast_with_volumes(&peer);
    let vast = peer.vast();
    let inv = vast.inventory().await.unwrap();
    let used = find(&inv.resources, "volume-31");
    assert_eq!(used.attached_to.as_deref(), Some(VAST_ID));
    let err = refusal(clean(&vast, &used).await);
    assert!(
        err.to_string()
            .contains("volume 31 is in use by instance 4242"),
        "{err}"
    );
    assert!(peer.cloud(|c| c.storage.iter().any(|s| s.id == "31")));
    // Vast also refuses with 200 and `success: false`: that is no delete either.
    peer.fault(
        Fault::Answer(
            200,
            r#"{"success": false, "msg": "volume has an active contract"}"#,
        ),
        Some("DELETE /api/v0/volumes/"),
        Some(1),
    );
    let orphan = find(&inv.resources, "volume-32");
    let err = refusal(clean(&vast, &orphan).await);
    assert!(
        err.to_string().contains("volume has an active contract"),
        "{err}"
    );
    assert!(peer.cloud(|c| c.storage.iter().any(|s| s.id == "32")));
}

#[tokio::test]
async fn lambda_deletes_a_file_system_no_instance_uses_and_reads_it_back() {
    let peer = Peer::start(Kind::Lambda);
    let lambda = peer.lambda();
    let found = lambda.sweep().await.unwrap();
    assert_eq!(ids(&found), ["fs-old"]);
    let fs = find(&found, "fs-old");
    assert_eq!(
        lambda.delete_plan(&fs),
        [
            "DELETE /filesystems/fs-old",
            "GET /file-systems   (read back until fs-old is no longer listed)"
        ]
    );
    let outcome = clean(&lambda, &fs).await;
    assert!(outcome.confirmed(), "{outcome:?}");
    assert!(peer.cloud(|c| c.storage.iter().all(|s| s.id != "fs-old")));
    assert_eq!(peer.count("DELETE /api/v1/filesystems/fs-old"), 1);
    assert!(lambda.sweep().await.unwrap().is_empty());
}

#[tokio::test]
async fn lambda_refuses_a_mounted_file_system_in_its_words() {
    let peer = Peer::start(Kind::Lambda);
    let lambda = peer.lambda();
    let inv = lambda.inventory().await.unwrap();
    let mounted = find(&inv.resources, "fs-weights");
    assert_eq!(
        mounted.attached_to.as_deref(),
        Some(LAMBDA_ID),
        "the instance's file_system_names names it"
    );
    assert_eq!(find(&inv.resources, "fs-old").attached_to, None);
    let err = refusal(clean(&lambda, &mounted).await);
    assert!(
        err.to_string()
            .contains("filesystems/filesystem-in-use: File system is in use"),
        "{err}"
    );
    assert!(peer.cloud(|c| c.storage.iter().any(|s| s.id == "fs-weights")));
}

fn script() -> String {
    format!(
        "{}/tests/command_scripts/cloud.sh",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn argv(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_string()).collect()
}

struct Dir(std::path::PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir =
            std::env::temp_dir().join(format!("gpumeter-cleanup-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
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

/// The file cloud with `inventory`, `list_account` and `delete` set.
fn command_config(dir: &Dir) -> CommandConfig {
    let (cloud, d) = (script(), dir.s());
    CommandConfig {
        inventory: Some(argv(&[&cloud, "inventory", &d])),
        list_account: Some(argv(&[&cloud, "list_account", &d])),
        delete: Some(argv(&[&cloud, "delete", &d, "{id}", "{kind}"])),
        timeout: Duration::from_secs(10),
        ..CommandConfig::default()
    }
}

fn command(config: CommandConfig) -> CommandProvider {
    CommandProvider::new(config, Some("i-cmd".into())).with_readback(Readback {
        attempts: 3,
        interval: Duration::from_millis(10),
    })
}

#[tokio::test]
async fn command_deletes_what_list_account_lists_and_reads_it_back() {
    let dir = Dir::new("orphan");
    let cloud = command(command_config(&dir));
    let found = cloud.sweep().await.unwrap();
    assert_eq!(ids(&found), ["vol-orphan"]);
    let volume = find(&found, "vol-orphan");
    let d = dir.s();
    let s = script();
    assert_eq!(
        cloud.delete_plan(&volume),
        [
            format!("{s} delete {d} vol-orphan network_volume"),
            format!("{s} list_account {d} (read back until vol-orphan is no longer listed)"),
        ]
    );
    let outcome = clean(&cloud, &volume).await;
    assert!(outcome.confirmed(), "{outcome:?}");
    let report = outcome.result.unwrap();
    assert!(
        report
            .summary
            .contains("list_account command no longer lists it"),
        "{report:?}"
    );
    assert!(cloud.sweep().await.unwrap().is_empty());
}

#[tokio::test]
async fn command_refusal_is_the_clis_own_words() {
    let dir = Dir::new("refused");
    let cloud = command(command_config(&dir));
    let disk = find(&cloud.inventory().await.unwrap().resources, "vol-data");
    let err = refusal(clean(&cloud, &disk).await);
    let shown = err.to_string();
    assert!(
        shown.contains("vol-data is attached to i-cmd: detach it first")
            && shown.contains("exit status 1"),
        "{shown}"
    );
}

#[tokio::test]
async fn command_delete_without_a_list_to_read_is_not_confirmed() {
    let dir = Dir::new("unverified");
    let volume = find(
        &command(command_config(&dir)).sweep().await.unwrap(),
        "vol-orphan",
    );
    // No list at all: done by exit status, and it says it could not verify.
    let blind = command(CommandConfig {
        inventory: None,
        list_account: None,
        ..command_config(&dir)
    });
    let outcome = clean(&blind, &volume).await;
    assert!(!outcome.confirmed(), "{outcome:?}");
    let summary = outcome.result.unwrap().summary;
    assert!(summary.contains("could not verify"), "{summary}");
    // Only the inventory: it never listed the volume, so its silence proves nothing.
    std::fs::write(dir.0.join("volumes"), "vol-orphan").unwrap();
    let narrow = command(CommandConfig {
        list_account: None,
        ..command_config(&dir)
    });
    let outcome = clean(&narrow, &volume).await;
    assert!(!outcome.confirmed(), "{outcome:?}");
    let summary = outcome.result.unwrap().summary;
    assert!(summary.contains("could not verify"), "{summary}");
    // A delete that exits 0 but deletes nothing is read back as still there.
    std::fs::write(dir.0.join("volumes"), "vol-orphan").unwrap();
    let noop = command(CommandConfig {
        delete: Some(argv(&[&script(), "noop", &dir.s()])),
        ..command_config(&dir)
    });
    let outcome = clean(&noop, &volume).await;
    assert!(!outcome.confirmed(), "{outcome:?}");
    let summary = outcome.result.unwrap().summary;
    assert!(summary.contains("still lists it"), "{summary}");
}

#[tokio::test]
async fn command_list_account_is_checked_and_needs_its_keys() {
    let dir = Dir::new("schema");
    let bare = command(CommandConfig {
        list_account: Some(argv(&["sh", "-c", r#"echo '[{"id": "v"}]'"#])),
        ..command_config(&dir)
    });
    let err = bare.sweep().await.unwrap_err();
    assert!(
        err.to_string().contains(r#"expected {"resources": [...]}"#),
        "{err}"
    );
    let typo = command(CommandConfig {
        list_account: Some(argv(&[
            "sh",
            "-c",
            r#"echo '{"resources": [], "extra": 1}'"#,
        ])),
        ..command_config(&dir)
    });
    let err = typo.sweep().await.unwrap_err();
    assert!(err.to_string().contains("unknown field `extra`"), "{err}");
    let none = command(CommandConfig {
        list_account: None,
        delete: None,
        ..command_config(&dir)
    });
    let err = none.sweep().await.unwrap_err();
    assert!(err.to_string().contains("[command] list_account"), "{err}");
    let volume = find(
        &command(command_config(&dir)).sweep().await.unwrap(),
        "vol-orphan",
    );
    assert!(none.delete_plan(&volume).is_empty());
    let err = none.delete(&volume).await.unwrap_err();
    assert!(err.to_string().contains("[command] delete"), "{err}");
}

/// `sweep --json`, `cleanup --dry-run`, `cleanup --id ID --yes` and `sweep` through the binary,
/// as a user runs them: `run` runs gpumeter with `args`, `listed` says whether the cloud still
/// holds `id`.
fn cleanup_cli(
    run: &dyn Fn(&[&str]) -> (std::process::Output, String),
    listed: &dyn Fn() -> bool,
    id: &str,
    calls: &[&str],
) {
    let (out, text) = run(&["sweep", "--json"]);
    assert_eq!(out.status.code(), Some(3), "it bills: {text}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = doc["items"].as_array().unwrap();
    assert!(items.iter().any(|i| i["id"] == id), "{doc}");
    let (out, text) = run(&["cleanup", "--id", id, "--dry-run"]);
    assert!(out.status.success(), "{text}");
    for call in calls {
        assert!(text.contains(call), "the dry run names {call}: {text}");
    }
    assert!(listed(), "a dry run changes nothing: {text}");
    let (out, text) = run(&["cleanup", "--id", id, "--yes"]);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!("deleted network volume {id}"))
            && text.contains("1 of 1 deleted and read back"),
        "{text}"
    );
    assert!(!listed(), "{id} is gone from the cloud: {text}");
    let (out, text) = run(&["sweep"]);
    assert_eq!(out.status.code(), Some(0), "nothing bills now: {text}");
}

fn peer_cli(peer: &Peer, kind: Kind, name: &str, id: &str, calls: &[&str]) {
    let run = crate::gpu_clouds_cli::Run::new(name);
    let storage_id = id.trim_start_matches("volume-").to_string();
    cleanup_cli(
        &|args| run.gpumeter(peer, kind, args),
        &|| peer.cloud(|c| c.storage.iter().any(|s| s.id == storage_id)),
        id,
        calls,
    );
    assert_eq!(peer.count("DELETE"), 1, "{:?}", peer.calls());
}

#[test]
fn runpod_cleanup_through_the_binary_deletes_the_orphan_volume() {
    let peer = Peer::start(Kind::Runpod);
    peer.cloud(|c| c.storage.push(orphan("nv-old")));
    peer_cli(
        &peer,
        Kind::Runpod,
        "cleanup-runpod",
        "nv-old",
        &["DELETE /v2/network-volumes/nv-old"],
    );
}

#[test]
fn vast_cleanup_through_the_binary_deletes_the_unused_volume() {
    let peer = Peer::start(Kind::Vast);
    peer.cloud(|c| c.storage.push(orphan("32")));
    peer_cli(
        &peer,
        Kind::Vast,
        "cleanup-vast",
        "volume-32",
        &["DELETE /api/v0/volumes/?id=32"],
    );
}

#[test]
fn lambda_cleanup_through_the_binary_deletes_the_unused_file_system() {
    let peer = Peer::start(Kind::Lambda);
    peer_cli(
        &peer,
        Kind::Lambda,
        "cleanup-lambda",
        "fs-old",
        &["DELETE /filesystems/fs-old"],
    );
}

#[test]
fn command_cleanup_through_the_binary_deletes_what_list_account_lists() {
    let dir = Dir::new("cli");
    let (cloud, d) = (script(), dir.s());
    let quoted = |items: &[&str]| {
        let items: Vec<String> = items.iter().map(|i| format!("{i:?}")).collect();
        format!("[{}]", items.join(", "))
    };
    let config = format!(
        "[instance]\nprovider = \"command\"\nid = \"i-cmd\"\n\n[command]\ninventory = {}\n\
         list_account = {}\ndelete = {}\ntimeout = \"10s\"\n",
        quoted(&[&cloud, "inventory", &d]),
        quoted(&[&cloud, "list_account", &d]),
        quoted(&[&cloud, "delete", &d, "{id}", "{kind}"]),
    );
    let data = dir.0.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let path = dir.0.join("config.toml");
    std::fs::write(&path, config).unwrap();
    let run = |args: &[&str]| {
        let out = crate::common::gpumeter()
            .args(args)
            .arg("--config")
            .arg(&path)
            .env("GPUMETER_DATA_DIR", &data)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out, text)
    };
    let listed = || {
        let volumes = std::fs::read_to_string(dir.0.join("volumes"));
        volumes.map_or(true, |v| v.split_whitespace().any(|id| id == "vol-orphan"))
    };
    let delete = format!("{cloud} delete {d} vol-orphan network_volume");
    cleanup_cli(&run, &listed, "vol-orphan", &[&delete]);
}
