//! moto behind the fault proxy. One moto serves every world; a world is an instance of its own
//! with a root volume that goes with it and a data volume with two snapshots. The truth is
//! asked of moto directly with signed Query calls.

use std::time::Duration;

use async_trait::async_trait;
use gpumeter::meter::ResourceKind;
use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::{AwsEnv, AwsSettings, Credentials, Keys};
use gpumeter::provider::aws::elb::ELB;
use gpumeter::provider::aws::query::Ec2;
use gpumeter::provider::http::{HttpPolicy, Repeat};
use gpumeter::provider::readback::Readback;
use gpumeter::provider::{Action, LinkedResource, Provider, Seen};

use super::cleanup::{Cleaning, Leftover, found};
use super::{Cloud, Target, Truth, run, with_snapshots};
use crate::common::moto::{Moto, all_pages, moto};

const SECRET: &str = "proxy-moto-secret-never-shown-41d7";
const REGION: &str = "us-east-1";

struct MotoCloud {
    moto: Moto,
    /// Builds worlds and reads the truth: patient, unlike the adapter.
    ec2: Ec2,
    /// Elastic Load Balancing, for the load balancer a cleanup finds.
    elb: Ec2,
}

pub struct World {
    instance: String,
    root: String,
    data: String,
    snapshots: Vec<String>,
}

fn env(endpoint: &str, metadata: &str) -> AwsEnv {
    AwsEnv::from_pairs([
        ("AWS_ACCESS_KEY_ID", "AKIDPROXYTEST"),
        ("AWS_SECRET_ACCESS_KEY", SECRET),
        ("AWS_REGION", REGION),
        ("AWS_ENDPOINT_URL", endpoint),
        ("AWS_EC2_METADATA_SERVICE_ENDPOINT", metadata),
    ])
}

/// 1.5 s per call, two retries: moto on a busy machine is slower than a loopback peer.
fn policy() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_millis(1500),
        connect_timeout: Duration::from_millis(1500),
        retries: 2,
        throttled_retries: 2,
        backoff_base: Duration::from_millis(10),
        backoff_max: Duration::from_millis(50),
    }
}

/// Every `<tag>` text in `body`.
fn all(body: &str, tag: &str) -> Vec<String> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    body.split(&open)
        .skip(1)
        .filter_map(|rest| rest.split_once(&close).map(|(text, _)| text.to_string()))
        .collect()
}

fn first(body: &str, tag: &str) -> String {
    all(body, tag)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no <{tag}> in {body}"))
}

impl MotoCloud {
    async fn call(&self, action: &str, params: &[(&str, &str)]) -> String {
        Self::call_to(&self.ec2, action, params).await
    }

    async fn call_to(client: &Ec2, action: &str, params: &[(&str, &str)]) -> String {
        let params: Vec<(String, String)> = params
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect();
        client
            .call(action, &params, Repeat::Once)
            .await
            .unwrap_or_else(|e| panic!("{action}: {e}"))
    }

    /// An application load balancer whose one target group has `instance` registered: no
    /// healthy target once the instance is stopped, so a sweep lists it and a cleanup deletes it.
    async fn load_balancer(&self, instance: &str) {
        let vpc = first(
            &self
                .call("CreateVpc", &[("CidrBlock", "10.0.0.0/16")])
                .await,
            "vpcId",
        );
        let mut subnets = Vec::new();
        for (cidr, zone) in [("10.0.1.0/24", "us-east-1a"), ("10.0.2.0/24", "us-east-1b")] {
            let params = [
                ("VpcId", vpc.as_str()),
                ("CidrBlock", cidr),
                ("AvailabilityZone", zone),
            ];
            subnets.push(first(&self.call("CreateSubnet", &params).await, "subnetId"));
        }
        let elb = |action, params| Self::call_to(&self.elb, action, params);
        let name = format!("lb-{}", instance.trim_start_matches("i-"));
        let name = &name[..name.len().min(32)];
        let lb = [
            ("Name", name),
            ("Subnets.member.1", subnets[0].as_str()),
            ("Subnets.member.2", subnets[1].as_str()),
        ];
        let lb = first(&elb("CreateLoadBalancer", &lb).await, "LoadBalancerArn");
        let group = [
            ("Name", name),
            ("Protocol", "HTTP"),
            ("Port", "80"),
            ("VpcId", vpc.as_str()),
        ];
        let group = first(&elb("CreateTargetGroup", &group).await, "TargetGroupArn");
        let register = [
            ("TargetGroupArn", group.as_str()),
            ("Targets.member.1.Id", instance),
        ];
        elb("RegisterTargets", &register).await;
        let listener = [
            ("LoadBalancerArn", lb.as_str()),
            ("Protocol", "HTTP"),
            ("Port", "80"),
            ("DefaultActions.member.1.Type", "forward"),
            ("DefaultActions.member.1.TargetGroupArn", group.as_str()),
        ];
        elb("CreateListener", &listener).await;
    }
}

impl MotoCloud {
    /// The adapter asking `region` at `endpoint`, having seen the instance in us-east-1.
    fn aws(&self, world: &World, endpoint: &str, region: &str) -> Aws {
        let env = env(endpoint, &self.moto.url);
        let settings =
            AwsSettings::resolve(&env, Some(world.instance.clone()), Some(region.to_string()));
        let aws = Aws::with_policy(settings, policy(), policy()).with_readback(Readback {
            attempts: 5,
            interval: Duration::from_millis(50),
        });
        let seen: Seen = [("aws", Some(REGION), world.instance.as_str())]
            .into_iter()
            .collect();
        aws.add_seen(&seen);
        aws
    }
}

#[async_trait]
impl Cloud for MotoCloud {
    type World = World;

    fn name(&self) -> &'static str {
        "aws"
    }

    fn targets(&self) -> Vec<Target> {
        with_snapshots([
            "TerminateInstances",
            "StopInstances",
            "DeleteSnapshot",
            "CreateSnapshot",
        ])
    }

    async fn fresh(&self) -> World {
        let run = self
            .call(
                "RunInstances",
                &[
                    ("ImageId", "ami-12345678"),
                    ("MinCount", "1"),
                    ("MaxCount", "1"),
                    ("InstanceType", "g5.xlarge"),
                    ("BlockDeviceMapping.1.DeviceName", "/dev/sda1"),
                    ("BlockDeviceMapping.1.Ebs.VolumeSize", "100"),
                    ("BlockDeviceMapping.1.Ebs.DeleteOnTermination", "true"),
                ],
            )
            .await;
        let (instance, zone) = (first(&run, "instanceId"), first(&run, "availabilityZone"));
        let root = first(&run, "volumeId");
        let volume = self
            .call(
                "CreateVolume",
                &[("AvailabilityZone", &zone), ("Size", "50")],
            )
            .await;
        let data = first(&volume, "volumeId");
        let attach = [
            ("VolumeId", data.as_str()),
            ("InstanceId", instance.as_str()),
            ("Device", "/dev/sdf"),
        ];
        self.call("AttachVolume", &attach).await;
        let mut snapshots = Vec::new();
        for _ in 0..2 {
            let snap = self.call("CreateSnapshot", &[("VolumeId", &data)]).await;
            snapshots.push(first(&snap, "snapshotId"));
        }
        World {
            instance,
            root,
            data,
            snapshots,
        }
    }

    async fn litter(&self, world: &World) {
        let instance = world.instance.as_str();
        self.call(
            "CreateImage",
            &[("InstanceId", instance), ("Name", instance)],
        )
        .await;
        let eip = self.call("AllocateAddress", &[("Domain", "vpc")]).await;
        let allocation = first(&eip, "allocationId");
        let assoc = [
            ("AllocationId", allocation.as_str()),
            ("InstanceId", instance),
        ];
        self.call("AssociateAddress", &assoc).await;
        self.load_balancer(instance).await;
    }

    fn upstream(&self, _world: &World) -> String {
        self.moto.url.clone()
    }

    fn adapter(&self, world: &World, endpoint: &str) -> Box<dyn Provider> {
        Box::new(self.aws(world, endpoint, REGION))
    }

    fn misplaced(&self, world: &World) -> Option<Box<dyn Provider>> {
        Some(Box::new(self.aws(world, &self.moto.url, "eu-west-1")))
    }

    async fn truth(&self, world: &World, action: &Action) -> Truth {
        let instance = self
            .call("DescribeInstances", &[("InstanceId.1", &world.instance)])
            .await;
        let state = all(&instance, "name");
        let has = |s: &str| state.iter().any(|n| n == s);
        let snapshots = all_pages(
            &self.ec2,
            "DescribeSnapshots",
            &[
                ("Filter.1.Name", "volume-id"),
                ("Filter.1.Value.1", &world.data),
                ("Filter.1.Value.2", &world.root),
            ],
        )
        .await;
        let ids = all(&snapshots, "snapshotId");
        let old_left = world.snapshots.iter().filter(|s| ids.contains(s)).count();
        let final_taken = ids.iter().any(|s| !world.snapshots.contains(s));
        match action {
            Action::Release => Truth {
                done: has("shutting-down") || has("terminated"),
                backup_lost: false,
            },
            Action::Stop => Truth {
                done: has("stopping") || has("stopped"),
                backup_lost: false,
            },
            Action::Start => Truth {
                done: has("pending") || has("running"),
                backup_lost: false,
            },
            Action::SnapshotClean { final_snapshot, .. } => Truth {
                done: old_left == 0 && (!final_snapshot || final_taken),
                backup_lost: *final_snapshot && old_left < world.snapshots.len() && !final_taken,
            },
            Action::SetDeadline { .. } | Action::Cleanup { .. } => Truth {
                done: false,
                backup_lost: false,
            },
        }
    }

    fn ids(&self, world: &World) -> Vec<String> {
        let mut ids = vec![
            world.instance.clone(),
            world.root.clone(),
            world.data.clone(),
        ];
        ids.extend(world.snapshots.iter().cloned());
        ids
    }

    fn secret(&self) -> &'static str {
        SECRET
    }

    fn concurrency(&self) -> usize {
        16
    }

    fn hang(&self) -> Duration {
        Duration::from_secs(2)
    }
}

/// A running instance beside a volume and an address that nothing uses.
pub struct Leftovers {
    instance: String,
    volume: String,
    address: String,
}

#[async_trait]
impl Cleaning for MotoCloud {
    type World = Leftovers;

    fn name(&self) -> &'static str {
        "aws"
    }

    async fn fresh(&self) -> Leftovers {
        let run = self
            .call(
                "RunInstances",
                &[
                    ("ImageId", "ami-12345678"),
                    ("MinCount", "1"),
                    ("MaxCount", "1"),
                    ("InstanceType", "g5.xlarge"),
                ],
            )
            .await;
        let (instance, zone) = (first(&run, "instanceId"), first(&run, "availabilityZone"));
        let volume = self
            .call(
                "CreateVolume",
                &[("AvailabilityZone", &zone), ("Size", "20")],
            )
            .await;
        let eip = self.call("AllocateAddress", &[("Domain", "vpc")]).await;
        Leftovers {
            instance,
            volume: first(&volume, "volumeId"),
            address: first(&eip, "allocationId"),
        }
    }

    fn upstream(&self, _world: &Leftovers) -> String {
        self.moto.url.clone()
    }

    fn adapter(&self, _world: &Leftovers, endpoint: &str) -> Box<dyn Provider> {
        let env = env(endpoint, &self.moto.url);
        let settings = AwsSettings::resolve(&env, None, Some(REGION.to_string()));
        Box::new(
            Aws::with_policy(settings, policy(), policy()).with_readback(Readback {
                attempts: 5,
                interval: Duration::from_millis(50),
            }),
        )
    }

    fn leftovers(&self, world: &Leftovers) -> Vec<Leftover> {
        vec![
            Leftover {
                resource: found(&world.volume, ResourceKind::DataDisk, None),
                change: "DeleteVolume",
            },
            Leftover {
                resource: found(&world.address, ResourceKind::PublicIp, None),
                change: "ReleaseAddress",
            },
        ]
    }

    async fn attach(&self, world: &Leftovers, r: &LinkedResource) {
        let instance = world.instance.as_str();
        if r.kind == ResourceKind::PublicIp {
            let params = [("AllocationId", r.id.as_str()), ("InstanceId", instance)];
            self.call("AssociateAddress", &params).await;
        } else {
            let params = [
                ("VolumeId", r.id.as_str()),
                ("InstanceId", instance),
                ("Device", "/dev/sdf"),
            ];
            self.call("AttachVolume", &params).await;
        }
    }

    async fn holds(&self, _world: &Leftovers, r: &LinkedResource) -> (bool, Option<String>) {
        if r.kind == ResourceKind::PublicIp {
            let body = self
                .call(
                    "DescribeAddresses",
                    &[
                        ("Filter.1.Name", "allocation-id"),
                        ("Filter.1.Value.1", &r.id),
                    ],
                )
                .await;
            let held = all(&body, "allocationId").contains(&r.id);
            (held, all(&body, "instanceId").into_iter().next())
        } else {
            let params = vec![("VolumeId.1".to_string(), r.id.clone())];
            match self
                .ec2
                .call("DescribeVolumes", &params, Repeat::Once)
                .await
            {
                Err(e) if e.code() == Some("InvalidVolume.NotFound") => (false, None),
                Err(e) => panic!("DescribeVolumes: {e}"),
                Ok(body) => (
                    !body.contains("<status>deleted</status>"),
                    all(&body, "instanceId").into_iter().next(),
                ),
            }
        }
    }

    fn running(&self, world: &Leftovers) -> String {
        world.instance.clone()
    }

    fn secret(&self) -> &'static str {
        SECRET
    }

    fn concurrency(&self) -> usize {
        16
    }

    fn hang(&self) -> Duration {
        Duration::from_secs(2)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moto_behind_the_fault_proxy_is_never_falsely_done() {
    let Some(moto) = moto() else { return };
    let creds = Credentials::from_env(&env(&moto.url, &moto.url)).unwrap();
    let patient = HttpPolicy {
        timeout: Duration::from_secs(30),
        ..policy()
    };
    let (ec2, elb) = clients(&moto, creds, patient);
    run(&MotoCloud { moto, ec2, elb }).await.check("aws");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_iam_policy_allows_every_call_and_nothing_more() {
    let Some(moto) = moto() else { return };
    let creds = Credentials::from_env(&env(&moto.url, &moto.url)).unwrap();
    let patient = HttpPolicy {
        timeout: Duration::from_secs(30),
        ..policy()
    };
    let (ec2, elb) = clients(&moto, creds, patient);
    // Start needs a stopped instance: stop, then start it again. A cleanup of everything the
    // stopped instance leaves detaches its disks and disassociates its address first.
    let more = vec![
        vec![Action::Stop, Action::Start],
        vec![Action::Stop, Action::Cleanup { delete: Vec::new() }],
    ];
    super::policies::check(&MotoCloud { moto, ec2, elb }, more, "aws-iam.json").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cleanup_on_moto_behind_the_fault_proxy_deletes_only_what_the_plan_showed() {
    let Some(moto) = moto() else { return };
    let creds = Credentials::from_env(&env(&moto.url, &moto.url)).unwrap();
    let patient = HttpPolicy {
        timeout: Duration::from_secs(30),
        ..policy()
    };
    let (ec2, elb) = clients(&moto, creds, patient);
    super::cleanup::run(&MotoCloud { moto, ec2, elb })
        .await
        .check("aws");
}

/// EC2 and Elastic Load Balancing clients of `moto`.
fn clients(moto: &Moto, creds: Credentials, policy: HttpPolicy) -> (Ec2, Ec2) {
    let keys = std::sync::Arc::new(Keys::fixed(creds.clone()));
    let elb = Ec2::for_service(ELB, &moto.url, REGION, keys, policy).unwrap();
    (Ec2::new(&moto.url, REGION, creds, policy).unwrap(), elb)
}
