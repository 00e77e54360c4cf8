//! Load balancers against moto (Elastic Load Balancing v2 behind the same checker as EC2, every
//! request checked against botocore's `elbv2` model, listings in pages): the sweep lists each
//! load balancer with no healthy target (unpriced by the bundled sheet, priced by one that states
//! a price), and not one whose target moto reports
//! `healthy`; `cleanup --kind lb` deletes each, read back until the service no longer knows it,
//! with exactly the calls its plan named.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use gpumeter::meter::ResourceKind;
use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::{AwsSettings, Credentials, Keys};
use gpumeter::provider::aws::elb::ELB;
use gpumeter::provider::aws::query::Ec2;
use gpumeter::provider::readback::Readback;
use gpumeter::provider::{LinkedResource, Provider};
use serde_json::Value;

use crate::aws_moto::{SECRET, call, env, grab, moto_ec2, policy, rt};
use crate::common::moto::{Moto, moto};

fn elb(url: &str) -> Ec2 {
    let creds = Credentials::from_env(&env(url)).unwrap();
    Ec2::for_service(
        ELB,
        url,
        "us-east-1",
        Arc::new(Keys::fixed(creds)),
        policy(),
    )
    .unwrap()
}

fn adapter(url: &str) -> Aws {
    let settings = AwsSettings::resolve(&env(url), None, None);
    Aws::with_policy(settings, policy(), policy()).with_readback(Readback {
        attempts: 20,
        interval: Duration::from_millis(50),
    })
}

/// Three application load balancers in a VPC of two subnets: `idle`, whose target group's only
/// target is an instance since terminated; `bare`, with no target group at all; `healthy`,
/// whose target is a running instance moto reports `healthy`.
struct World {
    idle: String,
    bare: String,
    healthy: String,
}

async fn instance(ec2: &Ec2) -> String {
    let run = [
        ("ImageId", "ami-12345678"),
        ("MinCount", "1"),
        ("MaxCount", "1"),
        ("InstanceType", "g5.xlarge"),
    ];
    grab(&call(ec2, "RunInstances", &run).await, "instanceId")
}

async fn balancer(elb: &Ec2, name: &str, subnets: &[String]) -> String {
    let params = [
        ("Name", name),
        ("Subnets.member.1", subnets[0].as_str()),
        ("Subnets.member.2", subnets[1].as_str()),
    ];
    grab(
        &call(elb, "CreateLoadBalancer", &params).await,
        "LoadBalancerArn",
    )
}

/// A target group of `lb` (through an HTTP listener) with `target` registered; its ARN.
async fn forward(elb: &Ec2, lb: &str, name: &str, vpc: &str, target: &str) -> String {
    let group = [
        ("Name", name),
        ("Protocol", "HTTP"),
        ("Port", "80"),
        ("VpcId", vpc),
    ];
    let group = grab(
        &call(elb, "CreateTargetGroup", &group).await,
        "TargetGroupArn",
    );
    let register = [
        ("TargetGroupArn", group.as_str()),
        ("Targets.member.1.Id", target),
    ];
    call(elb, "RegisterTargets", &register).await;
    let listener = [
        ("LoadBalancerArn", lb),
        ("Protocol", "HTTP"),
        ("Port", "80"),
        ("DefaultActions.member.1.Type", "forward"),
        ("DefaultActions.member.1.TargetGroupArn", group.as_str()),
    ];
    call(elb, "CreateListener", &listener).await;
    group
}

async fn world(ec2: &Ec2, elb: &Ec2) -> World {
    let vpc = grab(
        &call(ec2, "CreateVpc", &[("CidrBlock", "10.0.0.0/16")]).await,
        "vpcId",
    );
    let mut subnets = Vec::new();
    for (cidr, zone) in [("10.0.1.0/24", "us-east-1a"), ("10.0.2.0/24", "us-east-1b")] {
        let params = [
            ("VpcId", vpc.as_str()),
            ("CidrBlock", cidr),
            ("AvailabilityZone", zone),
        ];
        subnets.push(grab(&call(ec2, "CreateSubnet", &params).await, "subnetId"));
    }
    let (gone, running) = (instance(ec2).await, instance(ec2).await);
    let idle = balancer(elb, "idle-lb", &subnets).await;
    forward(elb, &idle, "idle-tg", &vpc, &gone).await;
    call(ec2, "TerminateInstances", &[("InstanceId.1", &gone)]).await;
    let bare = balancer(elb, "bare-lb", &subnets).await;
    let healthy = balancer(elb, "healthy-lb", &subnets).await;
    let group = forward(elb, &healthy, "healthy-tg", &vpc, &running).await;
    // moto does report health: the running instance's target is `healthy`, so leaving that
    // load balancer out of the sweep is the rule at work, not an empty answer.
    let health = call(elb, "DescribeTargetHealth", &[("TargetGroupArn", &group)]).await;
    assert_eq!(grab(&health, "State"), "healthy", "{health}");
    World {
        idle,
        bare,
        healthy,
    }
}

/// The requests moto was sent since `from`, each run of one repeated read shown once.
fn sent_since(moto: &Moto, from: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for call in moto.calls().into_iter().skip(from) {
        if out.last() != Some(&call) {
            out.push(call);
        }
    }
    out
}

/// The load balancers moto lists now, every page.
fn listed(moto: &Moto) -> String {
    let elb = elb(&moto.url);
    let params = [("PageSize", "400")];
    rt().block_on(call(&elb, "DescribeLoadBalancers", &params))
}

#[test]
fn the_sweep_lists_load_balancers_with_no_healthy_target_and_deletes_each_read_back() {
    let Some(moto) = moto() else { return };
    let rt = rt();
    let w = rt.block_on(world(&moto_ec2(&moto.url), &elb(&moto.url)));
    let aws = adapter(&moto.url);
    let found = rt.block_on(aws.sweep()).unwrap();
    let lbs: Vec<&LinkedResource> = found
        .iter()
        .filter(|r| r.kind == ResourceKind::LoadBalancer)
        .collect();
    let ids: Vec<&str> = lbs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids.len(), 2, "{lbs:#?}");
    assert!(
        ids.contains(&w.idle.as_str()) && ids.contains(&w.bare.as_str()),
        "{ids:?}"
    );
    assert!(!ids.contains(&w.healthy.as_str()), "{ids:?}");
    let idle = lbs.iter().find(|r| r.id == w.idle).unwrap();
    assert_eq!(idle.name, "idle-lb");
    assert_eq!(idle.state, "active, no healthy target");
    assert_eq!(idle.attached_to, None);
    // The three listings were read in pages of one.
    let pages = moto.pages();
    assert_eq!(pages.get("DescribeLoadBalancers"), Some(&3), "{pages:?}");

    let from = moto.calls().len();
    let r = (*idle).clone();
    let report = rt.block_on(aws.delete(&r)).unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(report.summary.contains("no longer knows it"), "{report:?}");
    assert_eq!(report.calls, aws.delete_plan(&r));
    assert_eq!(sent_since(&moto, from), aws.delete_plan(&r));
    let now = listed(&moto);
    assert!(!now.contains(&w.idle), "{now}");
    assert!(now.contains(&w.healthy), "{now}");
}

/// `gpumeter ARGS --provider aws --region us-east-1` against moto, as a user runs it.
fn gpumeter(moto: &Moto, dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    crate::common::gpumeter()
        .args(args)
        .args(["--provider", "aws", "--region", "us-east-1"])
        .env("GPUMETER_DATA_DIR", dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .env("AWS_ACCESS_KEY_ID", "AKIDMOTOTEST")
        .env("AWS_SECRET_ACCESS_KEY", SECRET)
        .env("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
        .env("AWS_ENDPOINT_URL_EC2", &moto.url)
        .env("AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2", &moto.url)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("GPUMETER_ACTION_DEADLINE", "60s")
        .env_remove("AWS_PROFILE")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn lbs_swept(moto: &Moto, dir: &std::path::Path) -> Vec<Value> {
    let out = gpumeter(moto, dir, &["sweep", "--json"]);
    let doc: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    doc["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|i| i["kind"] == "load_balancer")
        .collect()
}

#[test]
fn the_cli_sweeps_load_balancers_priced_and_cleanup_kind_lb_deletes_them_against_moto() {
    let Some(moto) = moto() else { return };
    let w = rt().block_on(world(&moto_ec2(&moto.url), &elb(&moto.url)));
    let dir = tempfile::tempdir().unwrap();
    // Each service at its own variable, and AWS_ENDPOINT_URL nowhere: the overrides are read.
    let items = lbs_swept(&moto, dir.path());
    let ids: Vec<&str> = items.iter().filter_map(|i| i["id"].as_str()).collect();
    assert_eq!(ids.len(), 2, "{items:#?}");
    assert!(
        ids.contains(&w.idle.as_str()) && ids.contains(&w.bare.as_str()),
        "{ids:?}"
    );
    assert!(!ids.contains(&w.healthy.as_str()), "{ids:?}");
    // The bundled sheet states no load balancer price: unpriced, never 0.
    for item in &items {
        assert!(item["monthly_cost"].is_null(), "{item}");
    }
    // A sheet that states one prices each: 0.0225 USD an hour, 730 hours a month.
    let config = dir.path().join("gpumeter");
    std::fs::create_dir_all(&config).unwrap();
    let sheet = config.join("lb.toml");
    std::fs::write(
        &sheet,
        "id = \"aws-us-east-1-lb\"\nextends = \"aws-us-east-1\"\n\
         [extras]\nload_balancer_per_hour = \"0.0225\"\n",
    )
    .unwrap();
    std::fs::write(
        config.join("config.toml"),
        format!("[pricing]\nsheet = {:?}\n", sheet.display().to_string()),
    )
    .unwrap();
    let items = lbs_swept(&moto, dir.path());
    assert_eq!(items.len(), 2, "{items:#?}");
    for item in &items {
        assert_eq!(item["monthly_cost"], "16.43", "{item}");
    }

    let from = moto.calls().len();
    let out = gpumeter(&moto, dir.path(), &["cleanup", "--kind", "lb", "--yes"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("2 of 2 deleted and read back"), "{text}");
    // The calls after the cleanup's own sweep are the two deletes' plans.
    let sent = sent_since(&moto, from);
    let first_delete = sent
        .iter()
        .position(|c| c.contains(" DeleteLoadBalancer "))
        .unwrap_or_else(|| panic!("no delete sent: {sent:#?}"));
    // In the order the deletes went, each load balancer's plan, and nothing else.
    let aws = adapter(&moto.url);
    let mut order: Vec<&String> = vec![&w.idle, &w.bare];
    order.sort_by_key(|arn| {
        let delete = format!("DeleteLoadBalancer LoadBalancerArn={arn}");
        sent.iter().position(|c| c.ends_with(&delete))
    });
    assert_eq!(sent[first_delete..], w_plans(&aws, &order)[..], "{sent:#?}");

    let now = listed(&moto);
    assert!(!now.contains(&w.idle) && !now.contains(&w.bare), "{now}");
    assert!(now.contains(&w.healthy), "{now}");
    let again = lbs_swept(&moto, dir.path());
    assert!(again.is_empty(), "{again:#?}");
}

/// The delete plans of the load balancers `arns`.
fn w_plans(aws: &Aws, arns: &[&String]) -> Vec<String> {
    arns.iter()
        .flat_map(|arn| {
            aws.delete_plan(&LinkedResource {
                id: (*arn).clone(),
                name: String::new(),
                kind: ResourceKind::LoadBalancer,
                class: None,
                size_gib: rust_decimal::Decimal::ZERO,
                state: String::new(),
                created: jiff::Timestamp::now(),
                deleted_with_instance: false,
                backs_image: None,
                attached_to: None,
                exposure: gpumeter::provider::Exposure::default(),
                origin: None,
                tags: BTreeMap::new(),
            })
        })
        .collect()
}
