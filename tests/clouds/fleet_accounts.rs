//! `gpumeter fleet --json` over four accounts that name no instance: two on the Alibaba peer,
//! one on the Tencent peer and one that answers nothing. It finds every GPU instance and every
//! orphan disk by listing, through pages and a rate limit that bites, never the instance
//! without a GPU; the unreadable account gets a row and a line on stderr naming it; `--tag` and
//! `--provider` narrow it.

use crate::alibaba_peer::{self, Peer as AliPeer};
use crate::common::cn_bin::text;
use crate::common::fleet_bin::{Account, FleetBin, instance_ids, orphan_ids};
use crate::tencent_peer::{self, Peer as TcPeer};

fn sorted<'a>(ids: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut ids: Vec<String> = ids.cloned().collect();
    ids.sort();
    ids
}

/// What the Alibaba peer with `fleet_world(n, orphans)` holds: its GPU instances (the main one
/// among them) and the disks attached to nothing. Pages of three items.
fn alibaba_world(peer: &AliPeer, n: usize, orphans: usize) -> (Vec<String>, Vec<String>) {
    peer.fleet_world(n, orphans);
    peer.cloud(|c| {
        c.page_cap = Some(3);
        let main = alibaba_peer::INSTANCE.to_string();
        let gpus = c.fleet.iter().filter(|f| f.gpus > 0).map(|f| &f.id);
        let loose = c
            .disks
            .iter()
            .filter(|d| d.instance.is_empty())
            .map(|d| &d.id);
        (sorted(gpus.chain([&main])), sorted(loose))
    })
}

/// The same for the Tencent peer.
fn tencent_world(peer: &TcPeer, n: usize, orphans: usize) -> (Vec<String>, Vec<String>) {
    peer.fleet_world(n, orphans);
    peer.cloud(|c| {
        c.page_cap = Some(3);
        let main = tencent_peer::INSTANCE.to_string();
        let gpus = c.fleet.iter().filter(|f| f.gpus > 0).map(|f| &f.id);
        let loose = c
            .fleet_disks
            .iter()
            .filter(|d| d.instance.is_empty())
            .map(|d| &d.id);
        (sorted(gpus.chain([&main])), sorted(loose))
    })
}

fn contains_all(have: &[String], want: &[String]) -> bool {
    want.iter().all(|w| have.contains(w))
}

#[test]
fn fleet_lists_every_instance_and_orphan_of_every_account_without_ids() {
    let Some(research) = AliPeer::start() else {
        return;
    };
    let Some(prod) = AliPeer::start() else {
        return;
    };
    let Some(lab) = TcPeer::start() else {
        return;
    };
    let (research_gpus, research_orphans) = alibaba_world(&research, 7, 5);
    let (prod_gpus, prod_orphans) = alibaba_world(&prod, 3, 2);
    let (lab_gpus, lab_orphans) = tencent_world(&lab, 5, 4);
    research.rate_limit(4);
    let bin = FleetBin::new(
        "accounts",
        &[
            Account::Alibaba("research", &research),
            Account::Alibaba("prod", &prod),
            Account::Tencent("lab", &lab),
            Account::Unreachable("broken"),
        ],
    );
    let run = bin.run(&[]);
    let said = text(&run.output);
    assert_eq!(run.output.status.code(), Some(0), "{said}");
    assert_eq!(instance_ids(&run.rows, "research"), research_gpus, "{said}");
    assert_eq!(instance_ids(&run.rows, "prod"), prod_gpus);
    assert_eq!(instance_ids(&run.rows, "lab"), lab_gpus);
    assert!(
        !said.contains("i-bp1cpu") && !said.contains("ins-cpu"),
        "{said}"
    );
    assert!(research.throttled() > 0, "the rate limit never bit");
    for (account, orphans) in [
        ("research", &research_orphans),
        ("prod", &prod_orphans),
        ("lab", &lab_orphans),
    ] {
        let listed = orphan_ids(&run.rows, account);
        assert!(
            contains_all(&listed, orphans),
            "{account}: {listed:?} lacks {orphans:?}: {said}"
        );
        // What an instance's row holds is not listed again among the orphans.
        let held: Vec<String> = run
            .rows
            .iter()
            .filter(|r| r["account"] == account && r["instance_id"] != "")
            .flat_map(|r| r["leftovers"].as_array().cloned().unwrap_or_default())
            .filter_map(|l| l["id"].as_str().map(str::to_string))
            .collect();
        assert!(
            held.iter().all(|id| !listed.contains(id)),
            "{account}: {held:?}"
        );
    }
    // Priced: every orphan disk has a monthly cost, and the running instances a burn.
    for r in run.rows.iter().filter(|r| r["account"] == "research") {
        if r["instance_id"] == "" {
            assert!(r["leftover_monthly"].as_str().is_some(), "{r}");
        } else if r["state"] == "running" {
            assert!(r["burn_per_hour"].as_str().is_some(), "{r}");
        }
    }
    let broken: Vec<_> = run
        .rows
        .iter()
        .filter(|r| r["account"] == "broken")
        .collect();
    assert_eq!(broken.len(), 1, "{said}");
    assert!(broken[0]["error"].as_str().is_some());
    assert!(broken[0]["flags"].to_string().contains("unreachable"));
    assert!(
        String::from_utf8_lossy(&run.output.stderr).contains("account broken on alibaba"),
        "{said}"
    );
}

#[test]
fn fleet_tag_and_provider_filters_narrow_what_is_listed() {
    let Some(research) = AliPeer::start() else {
        return;
    };
    let Some(lab) = TcPeer::start() else {
        return;
    };
    alibaba_world(&research, 6, 4);
    tencent_world(&lab, 4, 3);
    let bin = FleetBin::new(
        "filters",
        &[
            Account::Alibaba("research", &research),
            Account::Tencent("lab", &lab),
        ],
    );
    let vision = bin.run(&["--tag", "team=vision"]);
    let even = |prefix: &str, n: usize| -> Vec<String> {
        (1..=n)
            .filter(|i| i % 2 == 0)
            .map(|i| format!("{prefix}{i:04}"))
            .collect()
    };
    assert_eq!(
        instance_ids(&vision.rows, "research"),
        even("i-bp1fleet", 6)
    );
    assert_eq!(orphan_ids(&vision.rows, "research"), even("d-bp1orphan", 4));
    assert_eq!(
        instance_ids(&vision.rows, "lab"),
        (1..=4)
            .filter(|i| i % 2 == 0)
            .map(|i| tencent_peer::fleet::fleet_id("ins-fleet", i))
            .collect::<Vec<_>>()
    );
    let tencent = bin.run(&["--provider", "tencent"]);
    assert!(
        tencent.rows.iter().all(|r| r["account"] == "lab"),
        "{:?}",
        tencent.rows
    );
    assert!(!tencent.rows.is_empty());
}

/// An AWS account listed by the binary against moto: its GPU instances, never the CPU one,
/// and its unattached volume among the orphans.
#[test]
fn fleet_lists_an_aws_account_without_ids_against_moto() {
    use crate::aws_moto::{call, grab, moto_ec2, rt};
    let Some(moto) = crate::common::moto::moto() else {
        return;
    };
    let rt = rt();
    let ec2 = moto_ec2(&moto.url);
    let launch = |kind: &str| {
        let params = [
            ("ImageId", "ami-12345678"),
            ("MinCount", "1"),
            ("MaxCount", "1"),
            ("InstanceType", kind),
        ];
        grab(
            &rt.block_on(call(&ec2, "RunInstances", &params)),
            "instanceId",
        )
    };
    let mut gpus: Vec<String> = ["g5.xlarge", "p3.2xlarge", "g4dn.xlarge"]
        .into_iter()
        .map(launch)
        .collect();
    gpus.sort();
    let cpu = launch("t3.micro");
    let volume = [("AvailabilityZone", "us-east-1a"), ("Size", "300")];
    let loose = grab(
        &rt.block_on(call(&ec2, "CreateVolume", &volume)),
        "volumeId",
    );
    let bin = FleetBin::new("aws", &[Account::Aws("cloud", moto.url.clone())]);
    let run = bin.run(&[]);
    let said = text(&run.output);
    assert_eq!(instance_ids(&run.rows, "cloud"), gpus, "{said}");
    assert!(!said.contains(&cpu), "{said}");
    assert!(orphan_ids(&run.rows, "cloud").contains(&loose), "{said}");
}

/// One table with `regions` reads the account in each, and `--region` picks among them.
#[test]
fn a_table_with_regions_reads_the_account_in_each() {
    let Some(peer) = AliPeer::start() else {
        return;
    };
    let (gpus, _) = alibaba_world(&peer, 2, 1);
    let config = format!(
        "[[fleet]]\nprovider = \"alibaba\"\naccount = \"research\"\n\
         regions = [\"{}\", \"cn-shanghai\"]\nenv = {{ GPUMETER_ALIBABA_ENDPOINT = \"{}\" }}\n",
        alibaba_peer::cloud::REGION,
        peer.url()
    );
    let bin = FleetBin::with_config("regions", &config);
    let regions_asked = |peer: &AliPeer| {
        let mut asked: Vec<String> = peer
            .calls()
            .iter()
            .filter(|c| c.action == "DescribeInstances")
            .filter_map(|c| c.params.get("RegionId").cloned())
            .collect();
        asked.sort();
        asked.dedup();
        asked
    };
    let both = bin.run(&[]);
    assert_eq!(
        instance_ids(&both.rows, "research"),
        gpus,
        "{}",
        text(&both.output)
    );
    assert_eq!(
        regions_asked(&peer),
        [alibaba_peer::cloud::REGION, "cn-shanghai"]
    );
    let Some(shanghai) = AliPeer::start() else {
        return;
    };
    alibaba_world(&shanghai, 2, 1);
    let config = config.replace(&peer.url(), &shanghai.url());
    let bin = FleetBin::with_config("one-region", &config);
    let run = bin.run(&["--region", "cn-shanghai"]);
    assert!(
        instance_ids(&run.rows, "research").is_empty(),
        "{:?}",
        run.rows
    );
    assert_eq!(regions_asked(&shanghai), ["cn-shanghai"]);
}
