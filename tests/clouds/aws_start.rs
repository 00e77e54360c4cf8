//! `start` against moto: a stopped instance is started and read back running; a running one
//! is left alone and said to be running.

use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::AwsSettings;
use gpumeter::provider::{Action, Provider};

use crate::aws_moto::{call, env, grab, moto_ec2, policy, run_instance};
use crate::common::moto::moto;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_instance_is_started_and_read_back_running_against_moto() {
    let Some(moto) = moto() else { return };
    let ec2 = moto_ec2(&moto.url);
    let (id, _) = run_instance(&ec2).await;
    let settings = AwsSettings::resolve(&env(&moto.url), Some(id.clone()), None);
    let aws = Aws::with_policy(settings, policy(), policy());
    let running = aws.perform(&Action::Start).await.unwrap();
    assert!(running.summary.contains("already running"), "{running:?}");
    let stopped = aws.perform(&Action::Stop).await.unwrap();
    assert!(stopped.confirmed, "{stopped:?}");
    let started = aws.perform(&Action::Start).await.unwrap();
    assert!(started.confirmed, "{started:?}");
    assert!(
        started.calls.iter().any(|c| c.contains("StartInstances")),
        "{started:?}"
    );
    let described = call(&ec2, "DescribeInstances", &[("InstanceId.1", &id)]).await;
    let state = grab(
        described
            .split("<instanceState>")
            .nth(1)
            .unwrap_or_default(),
        "name",
    );
    assert!(matches!(state.as_str(), "pending" | "running"), "{state}");
}
