use super::*;

fn plain_facts() -> Facts {
    Facts {
        config: None,
        policy: Policy {
            at_zero: OnExpiry::Alert,
            on_idle: OnExpiry::Alert,
            deadline: None,
        },
        nvml: Probe::Failed("NVIDIA library (libnvidia-ml.so.1) not found".into()),
        credentials: None,
        permissions: Vec::new(),
        service: None,
        service_installable: true,
        sheet: None,
        clock: Clock::Unknown,
        zone: Probe::Failed("no TZ and no /etc/localtime".into()),
    }
}

fn aws_detected() -> Detected {
    let found = |v: &str| Found {
        value: v.to_string(),
        from: "config".into(),
    };
    Detected {
        provider: Some(Found {
            value: ProviderKind::Aws,
            from: "flag".into(),
        }),
        instance: Some(found("i-0abc")),
        region: Some(found("us-east-1")),
        instance_type: Some(found("p4d.24xlarge")),
        problems: Vec::new(),
    }
}

fn line<'a>(checks: &'a [Check], key: &str) -> &'a Check {
    checks
        .iter()
        .find(|c| c.key == key)
        .unwrap_or_else(|| panic!("no {key} in {checks:?}"))
}

#[test]
fn a_plain_machine_that_only_alerts_is_healthy_and_says_what_is_missing() {
    let checks = checks(&Detected::default(), &plain_facts());
    assert!(healthy(&checks));
    assert_eq!(line(&checks, "nvml").mark, Mark::Fail);
    assert!(line(&checks, "nvml").detail.contains("libnvidia-ml.so.1"));
    assert_eq!(line(&checks, "provider").mark, Mark::Fail);
    assert!(line(&checks, "provider").detail.contains("--provider"));
    assert_eq!(line(&checks, "credentials").mark, Mark::Skip);
    assert!(line(&checks, "timezone").detail.contains("TZ="));
}

#[test]
fn a_release_policy_needs_the_provider_the_key_and_the_release_permission() {
    let mut facts = plain_facts();
    facts.policy.at_zero = OnExpiry::Release;
    assert!(
        !healthy(&checks(&Detected::default(), &facts)),
        "no provider"
    );

    facts.credentials = Some(Probe::Found("environment".into()));
    facts.permissions = vec![
        (Act::Read, Permission::Allowed("DryRun".into())),
        (
            Act::Stop,
            Permission::Denied("grant ec2:StopInstances".into()),
        ),
        (Act::Release, Permission::Allowed("DryRun".into())),
        (
            Act::Delete,
            Permission::Denied("grant ec2:DeleteVolume".into()),
        ),
    ];
    let ok = checks(&aws_detected(), &facts);
    // Stop and delete are refused, but the policy only releases.
    assert!(healthy(&ok), "{ok:?}");
    assert_eq!(line(&ok, "provider").detail, "aws (from flag)");
    assert_eq!(line(&ok, "permission.stop").mark, Mark::Fail);

    facts.permissions[2].1 = Permission::Denied("grant ec2:TerminateInstances".into());
    let refused = checks(&aws_detected(), &facts);
    assert!(!healthy(&refused));
    assert!(line(&refused, "permission.release").blocking);

    facts.permissions[2].1 = Permission::NotChecked("not checked: lambda has no dry run".into());
    assert!(healthy(&checks(&aws_detected(), &facts)));

    facts.credentials = Some(Probe::Failed(
        "no key: looked in AWS_ACCESS_KEY_ID, ~/.aws".into(),
    ));
    let keyless = checks(&aws_detected(), &facts);
    assert!(!healthy(&keyless));
    assert!(line(&keyless, "credentials").detail.contains("~/.aws"));
}

#[test]
fn a_watchdog_blocks_only_when_it_can_be_neither_found_nor_installed() {
    let mut facts = plain_facts();
    facts.policy.on_idle = OnExpiry::Stop;
    facts.nvml = Probe::Found("1 × NVIDIA H100".into());
    facts.credentials = Some(Probe::Found("environment".into()));
    assert!(healthy(&checks(&aws_detected(), &facts)));
    facts.service_installable = false;
    assert!(!healthy(&checks(&aws_detected(), &facts)));
    facts.service = Some("/home/u/.config/systemd/user/gpumeter-watchdog.service".into());
    assert!(healthy(&checks(&aws_detected(), &facts)));
}

#[test]
fn an_idle_rule_that_acts_needs_nvml_and_an_unsynchronised_clock_blocks_an_action() {
    let mut facts = plain_facts();
    facts.credentials = Some(Probe::Found("environment".into()));
    facts.policy.on_idle = OnExpiry::Stop;
    assert!(!healthy(&checks(&aws_detected(), &facts)), "no NVML");
    facts.nvml = Probe::Found("8 × NVIDIA A100".into());
    assert!(healthy(&checks(&aws_detected(), &facts)));
    facts.clock = Clock::NotSynchronised {
        from: "timedatectl".into(),
    };
    let checks = checks(&aws_detected(), &facts);
    assert!(!healthy(&checks));
    assert!(line(&checks, "clock").detail.contains("set-ntp"));
}

#[test]
fn a_stale_sheet_says_so_and_does_not_block() {
    let mut facts = plain_facts();
    facts.sheet = Some(("aws-us-east-1".into(), "2025-01-01".into(), 400));
    let checks = checks(&aws_detected(), &facts);
    assert_eq!(line(&checks, "sheet").mark, Mark::Fail);
    assert!(line(&checks, "sheet").detail.contains("400 days"));
    assert!(healthy(&checks));
}
