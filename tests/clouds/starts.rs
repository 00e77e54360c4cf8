//! `start` on Alibaba Cloud, Tencent Cloud, RunPod and Vast.ai against their peers: an instance
//! the adapter stopped is started and read back running, with the calls the plan lists; one
//! already running is left alone; a start the provider never finishes is not confirmed, and one
//! it refuses shows the provider's own error. Lambda Cloud has no start, and says so.

use gpumeter::provider::{Action, Provider};

use crate::alibaba_peer::{self, INSTANCE as ECS_INSTANCE};
use crate::gpu_peer::{self, Kind};
use crate::tencent_peer::{self, INSTANCE as CVM_INSTANCE};

/// Stops through `adapter`, which the test needs confirmed before it starts anything.
async fn stopped(adapter: &dyn Provider) {
    let stop = adapter.perform(&Action::Stop).await.unwrap();
    assert!(stop.confirmed, "the stop before the start: {stop:?}");
}

// --- Alibaba Cloud ------------------------------------------------------------------------

fn ecs_status(peer: &alibaba_peer::Peer) -> Option<String> {
    peer.cloud(|c| c.instance.as_ref().map(|i| i.status.clone()))
}

#[tokio::test]
async fn alibaba_starts_a_stopped_instance_and_reads_it_back_running() {
    let Some(peer) = alibaba_peer::Peer::start() else {
        return;
    };
    let ecs = peer.adapter(Some(ECS_INSTANCE));
    assert!(ecs.capabilities().start);
    let running = ecs.perform(&Action::Start).await.unwrap();
    assert!(
        running.confirmed && running.summary.contains("already running"),
        "{running:?}"
    );
    assert_eq!(peer.count("StartInstance"), 0, "nothing to start");
    stopped(&ecs).await;
    assert_eq!(ecs_status(&peer).as_deref(), Some("Stopped"));
    let report = ecs.perform(&Action::Start).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(report.summary.contains("Running"), "{}", report.summary);
    assert_eq!(ecs_status(&peer).as_deref(), Some("Running"));
    assert_eq!(report.calls, ecs.plan(&Action::Start));
    let start = peer
        .calls()
        .into_iter()
        .find(|c| c.action == "StartInstance")
        .unwrap();
    assert_eq!(start.params["InstanceId"], ECS_INSTANCE);
    assert!(
        !start.params.contains_key("RegionId"),
        "StartInstanceRequest has no RegionId"
    );
    assert_eq!(peer.count("StartInstance"), 1);
}

#[tokio::test]
async fn alibaba_a_start_that_never_reaches_running_is_not_confirmed() {
    let Some(peer) = alibaba_peer::Peer::start() else {
        return;
    };
    let ecs = peer.adapter(Some(ECS_INSTANCE));
    stopped(&ecs).await;
    peer.cloud(|c| {
        if let Some(i) = &mut c.instance {
            i.starting_reads = u32::MAX;
        }
    });
    let report = ecs.perform(&Action::Start).await.unwrap();
    assert!(!report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("accepted") && report.summary.contains("Starting"),
        "{}",
        report.summary
    );
}

#[tokio::test]
async fn alibaba_a_refused_start_shows_the_providers_error() {
    let Some(peer) = alibaba_peer::Peer::start() else {
        return;
    };
    let ecs = peer.adapter(Some(ECS_INSTANCE));
    stopped(&ecs).await;
    peer.fault(
        alibaba_peer::Fault::Answer(
            403,
            r#"{"RequestId":"r-7","HostId":"ecs.aliyuncs.com","Code":"OperationDenied.NoStock","Message":"The resource is out of stock in the specified zone."}"#,
        ),
        Some("StartInstance"),
        None,
    );
    let err = ecs.perform(&Action::Start).await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("OperationDenied.NoStock"), "{text}");
    assert_eq!(ecs_status(&peer).as_deref(), Some("Stopped"));
}

// --- Tencent Cloud ------------------------------------------------------------------------

fn cvm_state(peer: &tencent_peer::Peer) -> Option<String> {
    peer.cloud(|c| c.instance.as_ref().map(|i| i.state.clone()))
}

#[tokio::test]
async fn tencent_starts_a_stopped_instance_and_reads_it_back_running() {
    let Some(peer) = tencent_peer::Peer::start() else {
        return;
    };
    let cvm = peer.adapter(Some(CVM_INSTANCE));
    assert!(cvm.capabilities().start);
    let running = cvm.perform(&Action::Start).await.unwrap();
    assert!(
        running.confirmed && running.summary.contains("already running"),
        "{running:?}"
    );
    assert_eq!(peer.count("StartInstances"), 0, "nothing to start");
    stopped(&cvm).await;
    assert_eq!(cvm_state(&peer).as_deref(), Some("STOPPED"));
    let report = cvm.perform(&Action::Start).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(report.summary.contains("RUNNING"), "{}", report.summary);
    assert_eq!(cvm_state(&peer).as_deref(), Some("RUNNING"));
    assert_eq!(report.calls, cvm.plan(&Action::Start));
    let start = peer
        .calls()
        .into_iter()
        .find(|c| c.action == "StartInstances")
        .unwrap();
    assert_eq!(
        start.body,
        serde_json::json!({"InstanceIds": [CVM_INSTANCE]})
    );
    // STARTING was read once before RUNNING: the adapter waited for it.
    let reads_after = peer
        .calls()
        .iter()
        .skip_while(|c| c.action != "StartInstances")
        .filter(|c| c.action == "DescribeInstances")
        .count();
    assert!(reads_after >= 2, "{reads_after}");
}

#[tokio::test]
async fn tencent_a_start_that_never_reaches_running_is_not_confirmed() {
    let Some(peer) = tencent_peer::Peer::start() else {
        return;
    };
    let cvm = peer.adapter(Some(CVM_INSTANCE));
    stopped(&cvm).await;
    peer.cloud(|c| {
        if let Some(i) = &mut c.instance {
            i.starting_reads = usize::MAX;
        }
    });
    let report = cvm.perform(&Action::Start).await.unwrap();
    assert!(!report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("accepted") && report.summary.contains("STARTING"),
        "{}",
        report.summary
    );
}

#[tokio::test]
async fn tencent_a_refused_start_shows_the_providers_error() {
    let Some(peer) = tencent_peer::Peer::start() else {
        return;
    };
    let cvm = peer.adapter(Some(CVM_INSTANCE));
    stopped(&cvm).await;
    peer.fault(
        tencent_peer::Fault::Answer(
            200,
            r#"{"Response":{"Error":{"Code":"ResourceInsufficient.AvailabilityZoneSoldOut","Message":"The availability zone has been sold out."},"RequestId":"r-9"}}"#,
        ),
        Some("StartInstances"),
        None,
    );
    let err = cvm.perform(&Action::Start).await.unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("ResourceInsufficient.AvailabilityZoneSoldOut"),
        "{text}"
    );
    assert_eq!(cvm_state(&peer).as_deref(), Some("STOPPED"));
}

// --- RunPod -------------------------------------------------------------------------------

fn status(peer: &gpu_peer::Peer) -> Option<String> {
    peer.cloud(|c| c.status.clone())
}

const POD_ACTION: &str = "POST /v2/pods/pod7xq2kzq/action";

#[tokio::test]
async fn runpod_starts_an_exited_pod_and_reads_it_back_running() {
    let peer = gpu_peer::Peer::start(Kind::Runpod);
    let runpod = peer.runpod();
    assert!(runpod.capabilities().start);
    let running = runpod.perform(&Action::Start).await.unwrap();
    assert!(
        running.confirmed && running.summary.contains("already running"),
        "{running:?}"
    );
    assert_eq!(peer.count(POD_ACTION), 0, "nothing to start");
    stopped(&runpod).await;
    assert_eq!(status(&peer).as_deref(), Some("EXITED"));
    let report = runpod.perform(&Action::Start).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("start accepted") && report.summary.contains("RUNNING"),
        "{}",
        report.summary
    );
    assert_eq!(status(&peer).as_deref(), Some("RUNNING"));
    assert_eq!(report.calls, runpod.plan(&Action::Start));
    assert_eq!(
        report.calls[1],
        "POST /v2/pods/pod7xq2kzq/action {\"action\":\"start\"}"
    );
    assert_eq!(peer.count(POD_ACTION), 2, "one stop, one start");
}

#[tokio::test]
async fn runpod_a_start_that_never_reaches_running_is_not_confirmed() {
    let peer = gpu_peer::Peer::start(Kind::Runpod);
    let runpod = peer.runpod();
    stopped(&runpod).await;
    peer.cloud(|c| c.starting_reads = usize::MAX);
    let report = runpod.perform(&Action::Start).await.unwrap();
    assert!(!report.confirmed, "{report:?}");
    assert!(report.summary.contains("STARTING"), "{}", report.summary);
    assert_eq!(status(&peer).as_deref(), Some("STARTING"));
}

#[tokio::test]
async fn runpod_a_refused_start_shows_the_providers_error() {
    let peer = gpu_peer::Peer::start(Kind::Runpod);
    let runpod = peer.runpod();
    stopped(&runpod).await;
    peer.fault(
        gpu_peer::Fault::Answer(
            409,
            r#"{"title":"Conflict","status":409,"detail":"there are not enough free GPUs on the host machine to start this pod"}"#,
        ),
        Some(POD_ACTION),
        None,
    );
    let report = runpod.perform(&Action::Start).await.unwrap();
    assert!(!report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("HTTP 409") && report.summary.contains("not enough free GPUs"),
        "{}",
        report.summary
    );
    assert!(report.summary.contains("`EXITED`"), "{}", report.summary);
    assert_eq!(status(&peer).as_deref(), Some("EXITED"));
}

// --- Vast.ai ------------------------------------------------------------------------------

const VAST_PUT: &str = "PUT /api/v0/instances/4242/";

#[tokio::test]
async fn vast_starts_a_stopped_instance_and_reads_it_back_running() {
    let peer = gpu_peer::Peer::start(Kind::Vast);
    let vast = peer.vast();
    assert!(vast.capabilities().start);
    let running = vast.perform(&Action::Start).await.unwrap();
    assert!(
        running.confirmed && running.summary.contains("already running"),
        "{running:?}"
    );
    assert_eq!(peer.count(VAST_PUT), 0, "nothing to start");
    stopped(&vast).await;
    assert_eq!(status(&peer).as_deref(), Some("stopped"));
    let report = vast.perform(&Action::Start).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(
        report
            .summary
            .contains("start accepted; Vast reads back `running`"),
        "{}",
        report.summary
    );
    assert_eq!(status(&peer).as_deref(), Some("running"));
    assert_eq!(report.calls, vast.plan(&Action::Start));
    assert_eq!(
        report.calls[1],
        format!("{VAST_PUT} {{\"state\":\"running\"}}")
    );
    assert_eq!(peer.count(VAST_PUT), 2, "one stop, one start");
}

#[tokio::test]
async fn vast_a_start_left_scheduling_is_not_confirmed() {
    let peer = gpu_peer::Peer::start(Kind::Vast);
    let vast = peer.vast();
    stopped(&vast).await;
    peer.cloud(|c| c.starting_reads = usize::MAX);
    let report = vast.perform(&Action::Start).await.unwrap();
    assert!(!report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("`scheduling`"),
        "{}",
        report.summary
    );
}

#[tokio::test]
async fn vast_a_refused_start_shows_the_providers_error() {
    let peer = gpu_peer::Peer::start(Kind::Vast);
    let vast = peer.vast();
    stopped(&vast).await;
    peer.fault(
        gpu_peer::Fault::Answer(
            200,
            r#"{"success":false,"error":"resources_unavailable","msg":"Required resources are not available on this machine."}"#,
        ),
        Some(VAST_PUT),
        None,
    );
    let err = vast.perform(&Action::Start).await.unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("Required resources are not available"),
        "{text}"
    );
    assert_eq!(status(&peer).as_deref(), Some("stopped"));
}

// --- Lambda Cloud -------------------------------------------------------------------------

#[tokio::test]
async fn lambda_says_it_cannot_start_and_asks_nothing() {
    let peer = gpu_peer::Peer::start(Kind::Lambda);
    let lambda = peer.lambda();
    assert!(!lambda.capabilities().start);
    let err = lambda.perform(&Action::Start).await.unwrap_err();
    assert!(err.is_unsupported());
    let text = err.to_string();
    assert!(text.starts_with("lambda cannot stop or start"), "{text}");
    assert!(!text.contains("not built"), "{text}");
    assert!(lambda.plan(&Action::Start).is_empty());
    assert_eq!(peer.calls().len(), 0);
}
