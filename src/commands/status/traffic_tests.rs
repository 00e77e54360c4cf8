//! `status` while an upload to the internet runs and after traffic to the intranet: the JSON's
//! split and warning, and the text's lines, from what the ledger recorded.

use std::time::Duration;

use gpumeter_core::cloud::Inventory;
use gpumeter_core::demo::cloud::DemoState;
use gpumeter_core::demo::{demo_pricing, demo_simulator, fixture_now};
use gpumeter_core::meter::Traffic;
use gpumeter_core::traffic::EgressSplit;
use jiff::SignedDuration;
use jiff::tz::TimeZone;

use super::{StatusReport, cloud, output};

const GIB: u64 = 1 << 30;

/// The demo instance, as if it ran on Alibaba in Hangzhou, after a day that sent 200 GiB to the
/// OSS intranet and, in the last ten minutes, 150 GiB to the internet.
fn report() -> StatusReport {
    let now = fixture_now();
    let sim = demo_simulator("training");
    let at = Duration::from_secs(600);
    let mut report = StatusReport::new(now, "demo", Ok(sim.gpus_at(at)), sim.host_at(at), vec![]);
    let mut state = DemoState::fresh(now);
    state.instance.provider = "alibaba".into();
    state.instance.region = Some("cn-hangzhou".into());
    let inventory = Inventory {
        instance: Some(state.instance),
        resources: state.resources,
        deadline: None,
    };
    let mut recorded = crate::spend::Recorded::default();
    recorded.traffic.push(Traffic {
        at: now - SignedDuration::from_hours(3),
        egress_bytes: 200 * GIB,
        ingress_bytes: 0,
        split: EgressSplit {
            intranet: 200 * GIB,
            cross_region: 0,
        },
    });
    for m in 0..10 {
        recorded.traffic.push(Traffic {
            at: now - SignedDuration::from_mins(9 - m),
            egress_bytes: 15 * GIB,
            ingress_bytes: 0,
            split: EgressSplit::default(),
        });
    }
    report.cloud = cloud::describe(
        &inventory,
        demo_pricing().as_ref(),
        &recorded,
        (None, None),
        now,
    );
    report
}

#[test]
fn the_json_splits_egress_by_destination_and_names_the_upload_and_its_free_route() {
    let json = output(&report(), true, &TimeZone::UTC).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let egress = &v["cost"]["egress"];
    assert_eq!(egress["intranet"]["bytes"], 200 * GIB);
    assert_eq!(egress["intranet"]["cost"], "0.00");
    assert_eq!(egress["internet"]["bytes"], 150 * GIB);
    let upload = &v["public_upload"];
    assert_eq!(upload["bytes"], 150 * GIB);
    assert_eq!(
        upload["free_route"],
        "oss-cn-hangzhou-internal.aliyuncs.com"
    );
    // The upload's cost is the internet egress line: nothing else went to the internet.
    assert_eq!(upload["cost"], egress["internet"]["cost"]);
    assert_ne!(upload["cost"], "0.00", "beyond the allowance it costs");
}

#[test]
fn the_text_says_the_split_and_the_warning() {
    let text = output(&report(), false, &TimeZone::UTC).unwrap();
    let split = text.lines().find(|l| l.starts_with("egress")).unwrap();
    assert!(split.contains("intranet 200.0 GiB (0.00)"), "{split}");
    assert!(split.contains("internet 150.0 GiB"), "{split}");
    let upload = text.lines().find(|l| l.starts_with("upload")).unwrap();
    assert!(
        upload.contains("uploading to the internet: 150.0 GiB since")
            && upload.contains("through oss-cn-hangzhou-internal.aliyuncs.com"),
        "{upload}"
    );
}
