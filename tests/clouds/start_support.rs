//! Which providers `start` supports, one answer in three places: the adapters' capabilities,
//! `gpumeter start --help`, and README's command table. Each adapter is built without a call
//! (a peer's environment pointing nowhere), so this runs in no time.

use std::sync::Arc;

use clap::CommandFactory as _;
use gpumeter::cli::Cli;
use gpumeter::config::CommandConfig;
use gpumeter::provider::Provider;
use gpumeter::provider::aws::Aws;
use gpumeter::provider::aws::credentials::{AwsEnv, AwsSettings};
use gpumeter::provider::demo::DemoCloud;

use crate::{alibaba_peer, autodl_peer, gpu_peer, tencent_peer};

const NOWHERE: &str = "http://127.0.0.1:9";

/// Every adapter, under the name the help and README give it.
fn adapters(dir: &std::path::Path) -> Vec<(&'static str, Box<dyn Provider>)> {
    let aws_env = AwsEnv::from_pairs([
        ("AWS_EC2_METADATA_DISABLED", "true"),
        ("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"),
        (
            "AWS_SECRET_ACCESS_KEY",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ENDPOINT_URL", NOWHERE),
    ]);
    let aws = AwsSettings::resolve(&aws_env, Some("i-0abc".into()), None);
    let alibaba = alibaba_peer::Peer::adapter_with(&alibaba_peer::env_at(NOWHERE), Some("i-1"));
    let tencent =
        tencent_peer::Peer::adapter_with(&tencent_peer::env_at(NOWHERE, "s"), Some("ins-1"));
    let clock: gpumeter::provider::demo::Clock = Arc::new(jiff::Timestamp::now);
    vec![
        ("AWS", Box::new(Aws::new(aws))),
        ("Alibaba", Box::new(alibaba)),
        ("Tencent", Box::new(tencent)),
        ("RunPod", Box::new(gpu_peer::runpod_at(NOWHERE))),
        ("Vast.ai", Box::new(gpu_peer::vast_at(NOWHERE))),
        (
            "AutoDL",
            Box::new(autodl_peer::adapter_at(NOWHERE, "pro-1")),
        ),
        ("Lambda Cloud", Box::new(gpu_peer::lambda_at(NOWHERE))),
        (
            "`command`",
            Box::new(gpumeter::provider::command::CommandProvider::new(
                CommandConfig::default(),
                None,
            )),
        ),
        ("the demo", Box::new(DemoCloud::new(dir, clock))),
    ]
}

/// `A, B and C` as the help and README write a list.
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[test]
fn start_help_and_readme_name_exactly_the_providers_whose_adapter_starts() {
    let dir = tempfile::tempdir().unwrap();
    let all = adapters(dir.path());
    let (can, cannot): (Vec<_>, Vec<_>) = all.iter().partition(|(_, p)| p.capabilities().start);
    let can: Vec<&str> = can.iter().map(|(n, _)| *n).collect();
    let cannot: Vec<&str> = cannot.iter().map(|(n, _)| *n).collect();
    let help = Cli::command()
        .find_subcommand("start")
        .and_then(|c| c.get_about().map(ToString::to_string))
        .expect("start has help");
    let said = format!("({}; not {})", listed(&can), cannot.join(" or "));
    assert!(help.starts_with("Start a stopped instance again"), "{help}");
    assert!(
        help.contains(&said),
        "`start --help` says {help:?}; the adapters say {said}"
    );
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let row = readme
        .lines()
        .find(|l| l.starts_with("| `gpumeter start"))
        .expect("README lists start");
    assert!(
        row.contains(&format!("again ({};", listed(&can))),
        "README's start row: {row}; the adapters say {}",
        listed(&can)
    );
    for name in &cannot {
        let plain = name.trim_matches('`');
        assert!(
            row.contains(plain),
            "README's start row leaves out {name}: {row}"
        );
    }
}
