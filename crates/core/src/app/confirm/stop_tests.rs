use jiff::Timestamp;

use super::*;
use crate::cloud::InstanceInfo;
use crate::meter::{BillingMode, InstanceState};

fn running_on(provider: &str) -> Inventory {
    Inventory {
        instance: Some(InstanceInfo {
            id: "pro-1".into(),
            name: "train".into(),
            provider: provider.into(),
            region: None,
            sku: "rtx-4090".into(),
            mode: BillingMode::OnDemand,
            state: InstanceState::Running,
            created: Timestamp::UNIX_EPOCH,
            live_price_per_hour: None,
            history: Vec::new(),
        }),
        resources: Vec::new(),
        deadline: None,
    }
}

#[test]
fn the_stop_dialog_says_when_a_platform_erases_a_stopped_instance_and_that_the_gpu_may_go() {
    let autodl = Confirm::build(Action::Stop, Some(&running_on("autodl")), None, None);
    assert!(
        autodl
            .note
            .contains("autodl releases an instance shut down 15 days and erases its disks"),
        "{}",
        autodl.note
    );
    assert!(
        autodl.note.contains("a start then waits"),
        "{}",
        autodl.note
    );
    let aws = Confirm::build(Action::Stop, Some(&running_on("aws")), None, None);
    assert!(!aws.note.contains("erases"), "{}", aws.note);
}
