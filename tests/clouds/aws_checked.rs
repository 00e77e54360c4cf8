//! moto's launcher: it refuses, as AWS does, a request that botocore's model of the service does
//! not allow, and records it; and it answers listings in pages, which the adapter follows to the
//! end.

use std::time::Duration;

use gpumeter::meter::ResourceKind;
use gpumeter::provider::Provider;
use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::{AwsEnv, AwsSettings, Credentials};
use gpumeter::provider::aws::query::Ec2;
use gpumeter::provider::http::{Http, HttpPolicy, Repeat};

use crate::common::moto::moto;

fn policy() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_secs(10),
        connect_timeout: Duration::from_secs(2),
        retries: 0,
        throttled_retries: 0,
        backoff_base: Duration::from_millis(20),
        backoff_max: Duration::from_millis(100),
    }
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn env(url: &str) -> AwsEnv {
    AwsEnv::from_pairs([
        ("AWS_ACCESS_KEY_ID", "AKIDCHECKEDTEST"),
        ("AWS_SECRET_ACCESS_KEY", "checked-secret-never-shown-7a1e"),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ENDPOINT_URL", url),
        ("AWS_EC2_METADATA_SERVICE_ENDPOINT", url),
    ])
}

/// A hand-made Query request to `service`: the status and the body.
async fn post(url: &str, service: &str, form: &str) -> (u16, String) {
    let response = Http::new(policy())
        .unwrap()
        .client()
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .header(
            "authorization",
            format!(
                "AWS4-HMAC-SHA256 Credential=AKIDCHECKEDTEST/20260101/us-east-1/{service}/aws4_request, \
                 SignedHeaders=host, Signature=0"
            ),
        )
        .body(form.to_string())
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[test]
fn moto_refuses_and_records_what_botocore_s_model_does_not_allow() {
    let Some(moto) = moto() else { return };
    let ec2 = "Version=2016-11-15";
    let refused = [
        // boto's name for the list, not the wire's (`InstanceId.N`).
        (
            "ec2",
            format!("Action=TerminateInstances&{ec2}&InstanceIds.1=i-1"),
            "UnknownParameter",
        ),
        // The one required member, absent.
        (
            "ec2",
            format!("Action=TerminateInstances&{ec2}"),
            "MissingParameter",
        ),
        // An integer that is not one.
        (
            "ec2",
            format!("Action=DescribeVolumes&{ec2}&MaxResults=many"),
            "InvalidParameterValue",
        ),
        // A value outside the model's enum.
        (
            "ec2",
            format!("Action=CreateVolume&{ec2}&AvailabilityZone=us-east-1a&Size=8&VolumeType=gp9"),
            "InvalidParameterValue",
        ),
        // A Query-protocol list sent the EC2 way (`Name.N`, not `Name.member.N`).
        (
            "iam",
            "Action=ListPolicies&Version=2010-05-08&PolicyUsageFilter.1=PermissionsPolicy".into(),
            "UnknownParameter",
        ),
    ];
    let rt = rt();
    for (service, form, code) in &refused {
        let (status, body) = rt.block_on(post(&moto.url, service, form));
        assert_eq!(status, 400, "{form}: {body}");
        assert!(
            body.contains(&format!("<Code>{code}</Code>")),
            "{form}: {body}"
        );
    }
    let recorded = moto.take_violations();
    assert_eq!(recorded.len(), refused.len(), "{recorded:?}");
    for ((service, form, code), line) in refused.iter().zip(&recorded) {
        let action = form
            .split('&')
            .next()
            .unwrap()
            .trim_start_matches("Action=");
        assert!(
            line.starts_with(&format!("{service} {action}: {code}")),
            "{line}"
        );
    }

    let fine = format!(
        "Action=DescribeVolumes&{ec2}&Filter.1.Name=size&Filter.1.Value.1=8&Filter.1.Value.2=9&MaxResults=5"
    );
    let (status, body) = rt.block_on(post(&moto.url, "ec2", &fine));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("<volumeSet"), "{body}");
    assert!(moto.violations().is_empty(), "{:?}", moto.violations());
}

fn grab(body: &str, tag: &str) -> String {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    let (_, rest) = body.split_once(&open).unwrap_or_else(|| panic!("{body}"));
    rest.split_once(&close).unwrap().0.to_string()
}

async fn call(ec2: &Ec2, action: &str, params: &[(&str, &str)]) -> String {
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    ec2.call(action, &params, Repeat::Once)
        .await
        .unwrap_or_else(|e| panic!("{action}: {e}"))
}

const EACH: usize = 4;

#[test]
fn the_adapter_follows_every_page_of_every_listing_against_moto() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    let creds = Credentials::from_env(&env(&moto.url)).unwrap();
    let ec2 = Ec2::new(&moto.url, "us-east-1", creds, policy()).unwrap();
    let (instance, volumes, snapshots, images) = rt.block_on(async {
        let run = call(
            &ec2,
            "RunInstances",
            &[
                ("ImageId", "ami-12345678"),
                ("MinCount", "1"),
                ("MaxCount", "1"),
                ("InstanceType", "g5.xlarge"),
            ],
        )
        .await;
        let instance = grab(&run, "instanceId");
        let zone = grab(&run, "availabilityZone");
        let mut volumes = Vec::new();
        let mut snapshots = Vec::new();
        let mut images = Vec::new();
        for n in 0..EACH {
            let vol = call(
                &ec2,
                "CreateVolume",
                &[("AvailabilityZone", &zone), ("Size", "50")],
            )
            .await;
            let volume = grab(&vol, "volumeId");
            let device = format!("/dev/sd{}", ['f', 'g', 'h', 'i', 'j'][n]);
            let attach = [
                ("VolumeId", volume.as_str()),
                ("InstanceId", instance.as_str()),
                ("Device", device.as_str()),
            ];
            call(&ec2, "AttachVolume", &attach).await;
            let snap = call(&ec2, "CreateSnapshot", &[("VolumeId", &volume)]).await;
            snapshots.push(grab(&snap, "snapshotId"));
            let name = format!("image-{n}");
            let image = call(
                &ec2,
                "CreateImage",
                &[("InstanceId", &instance), ("Name", &name)],
            )
            .await;
            images.push(grab(&image, "imageId"));
            volumes.push(volume);
        }
        (instance, volumes, snapshots, images)
    });

    let settings = AwsSettings::resolve(&env(&moto.url), Some(instance), None);
    let inventory = rt
        .block_on(Aws::with_policy(settings, policy(), policy()).inventory())
        .unwrap();
    let listed = |kind: ResourceKind| -> Vec<String> {
        let mut ids: Vec<String> = inventory
            .resources
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| r.id.clone())
            .collect();
        ids.sort();
        ids
    };
    let sorted = |mut ids: Vec<String>| {
        ids.sort();
        ids
    };
    assert_eq!(listed(ResourceKind::DataDisk), sorted(volumes));
    assert_eq!(listed(ResourceKind::Snapshot), sorted(snapshots));
    assert_eq!(listed(ResourceKind::Image), sorted(images));

    // Every listing the adapter made came in pages, and it read at least three of each.
    let pages = moto.pages();
    for action in ["DescribeVolumes", "DescribeSnapshots", "DescribeImages"] {
        let most = pages.get(action).copied().unwrap_or(0);
        assert!(most >= 3, "{action}: {most} page(s); all: {pages:?}");
    }
    assert!(pages.values().all(|&n| n >= 3), "{pages:?}");
}
