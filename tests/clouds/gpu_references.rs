//! The loopback peers against the providers' published references: RunPod's replies and the
//! adapter's request bodies checked against RunPod's OpenAPI description, and Vast.ai's
//! instance list paged as the official `vastai` package pages it.

use gpumeter::provider::{Action, Provider};
use serde_json::{Value, json};

use crate::common::loopback::Request;
use crate::gpu_peer::cloud::{Cloud, POD_ID};
use crate::gpu_peer::schema::Spec;
use crate::gpu_peer::{self, KEY, Kind, Peer};

fn runpod_spec() -> Spec {
    Spec::parse(include_str!("gpu_peer/runpod-openapi-subset.json"))
}

fn get(path: &str) -> Request {
    Request {
        method: "GET".into(),
        target: path.into(),
        path: path.into(),
        query: String::new(),
        headers: Vec::new(),
        body: Vec::new(),
    }
}

/// The pod as the peer describes it.
fn peer_pod() -> Value {
    let (status, body) = Cloud::fresh(Kind::Runpod).answer(&get(&format!("/v2/pods/{POD_ID}")));
    assert_eq!(status, 200);
    serde_json::from_str(&body).unwrap()
}

#[test]
fn runpod_s_reference_refuses_a_field_a_type_or_a_nesting_it_does_not_describe() {
    let spec = runpod_spec();
    let path = format!("/v2/pods/{POD_ID}");
    let reply = |pod: &Value| spec.reply("GET", &path, 200, &pod.to_string());
    reply(&peer_pod()).unwrap();

    let mut unknown = peer_pod();
    unknown["volumeInGb"] = json!(50);
    let why = reply(&unknown).unwrap_err();
    assert!(why.contains("$.volumeInGb: not in the reference"), "{why}");

    let mut wrong_type = peer_pod();
    wrong_type["cost"] = json!("0.34");
    assert!(reply(&wrong_type).unwrap_err().contains("$.cost"));

    let mut nesting = peer_pod();
    nesting["mounts"]["network"] = json!({"volumeId": "nv-data", "path": "/data"});
    assert!(reply(&nesting).unwrap_err().contains("$.mounts.network"));

    let mut missing = peer_pod();
    missing.as_object_mut().unwrap().remove("runtime");
    assert!(
        reply(&missing)
            .unwrap_err()
            .contains("`runtime` is required")
    );

    let action = format!("{path}/action");
    let asked = |body: &str| spec.request("POST", &action, "", body);
    asked(r#"{"action":"stop"}"#).unwrap();
    assert!(asked(r#"{"action":"halt"}"#).is_err());
    assert!(asked(r#"{"action":"stop","force":true}"#).is_err());
    assert!(
        spec.request("POST", &format!("{path}/stop"), "", "{}")
            .is_err()
    );
    assert!(
        spec.request("GET", "/v2/pods", "includeClusterPods=true", "")
            .is_ok()
    );
    assert!(spec.request("GET", "/v2/pods", "page=2", "").is_err());
}

#[tokio::test]
async fn the_runpod_peer_records_a_request_its_reference_refuses() {
    let peer = Peer::start(Kind::Runpod);
    let client = reqwest::Client::new();
    let url = format!("{}/v2/pods/{POD_ID}/action", peer.url());
    let sent = client
        .post(&url)
        .bearer_auth(KEY)
        .header("content-type", "application/json")
        .body(r#"{"action":"stop","force":true}"#)
        .send()
        .await
        .unwrap();
    assert!(sent.status().is_success());
    let recorded = peer.take_violations();
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert!(
        recorded[0].contains("$.force: not in the reference"),
        "{recorded:?}"
    );

    // The adapter's own calls, through a whole stop and terminate, break nothing.
    let runpod = peer.runpod();
    runpod.inventory().await.unwrap();
    assert!(runpod.perform(&Action::Stop).await.unwrap().confirmed);
    assert!(runpod.perform(&Action::Release).await.unwrap().confirmed);
    assert!(peer.take_violations().is_empty());
}

const NOT_FOUND: &str = r#"{"success":false,"error":"no_such_instance","msg":"not found"}"#;

#[tokio::test]
async fn vast_reads_every_page_of_the_instance_list_before_calling_an_instance_gone() {
    let instance = format!("GET /api/v0/instances/{}/", gpu_peer::cloud::VAST_ID);
    // Gone from the list's every page: released, and all three pages were read.
    let peer = Peer::start(Kind::Vast);
    let vast = peer.vast();
    vast.inventory().await.unwrap();
    peer.cloud(|c| c.status = None);
    peer.fault(
        gpu_peer::Fault::Answer(404, NOT_FOUND),
        Some(&instance),
        None,
    );
    let report = vast.perform(&Action::Release).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(report.summary.contains("already"), "{report:?}");
    assert_eq!(
        peer.count("GET /api/v1/instances/"),
        3,
        "{:?}",
        peer.calls()
    );

    // On the last page: a 404 on the instance alone is an error, not a release.
    let peer = Peer::start(Kind::Vast);
    peer.fault(
        gpu_peer::Fault::Answer(404, NOT_FOUND),
        Some(&instance),
        None,
    );
    let err = peer.vast().perform(&Action::Release).await.unwrap_err();
    assert!(!err.to_string().is_empty());
    assert_eq!(
        peer.count("GET /api/v1/instances/"),
        3,
        "{:?}",
        peer.calls()
    );
}

#[test]
fn lambda_s_reference_refuses_what_its_instance_model_does_not_describe() {
    let spec = Spec::parse(include_str!("gpu_peer/lambda-api-v1-subset.json"));
    let path = format!("/api/v1/instances/{}", gpu_peer::cloud::LAMBDA_ID);
    let (status, body) = Cloud::fresh(Kind::Lambda).answer(&get(&path));
    spec.reply("GET", &path, status, &body).unwrap();
    let reply: Value = serde_json::from_str(&body).unwrap();

    let mut unknown = reply.clone();
    unknown["data"]["price_per_hour"] = json!(0.75);
    let why = spec
        .reply("GET", &path, 200, &unknown.to_string())
        .unwrap_err();
    assert!(
        why.contains("$.data.price_per_hour: not in the reference"),
        "{why}"
    );

    let mut missing = reply.clone();
    missing["data"].as_object_mut().unwrap().remove("actions");
    let why = spec
        .reply("GET", &path, 200, &missing.to_string())
        .unwrap_err();
    assert!(why.contains("`actions` is required"), "{why}");

    let mut status_word = reply;
    status_word["data"]["status"] = json!("running");
    assert!(
        spec.reply("GET", &path, 200, &status_word.to_string())
            .is_err()
    );

    let terminate = "/api/v1/instance-operations/terminate";
    assert!(
        spec.request("POST", terminate, "", r#"{"instance_ids":["a"]}"#)
            .is_ok()
    );
    assert!(
        spec.request("POST", terminate, "", r#"{"instance_id":"a"}"#)
            .is_err()
    );
    let error = r#"{"error":{"code":"global/object-does-not-exist","message":"gone"}}"#;
    assert!(spec.reply("GET", &path, 404, error).is_ok());
    assert!(
        spec.reply("GET", &path, 404, r#"{"detail":"gone"}"#)
            .is_err()
    );
}
