//! `gpumeter sweep --all-regions` on Alibaba Cloud and Tencent Cloud, through the binary against
//! their peers: the regions come from DescribeRegions (asked once), each is swept by an adapter
//! built for it, the leftovers are listed with their region, and a region whose calls are
//! refused is listed as not checked, with the provider's code, and the exit is 3.

use serde_json::Value;

use crate::common::cn_bin::CnBin as Bin;
use crate::{alibaba_peer, tencent_peer};

/// Each item's id and region.
fn rows(doc: &Value) -> Vec<(String, String)> {
    doc["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items: {doc}"))
        .iter()
        .map(|i| {
            (
                i["id"].as_str().unwrap_or_default().to_string(),
                i["region"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// The regions swept, in the document's order.
fn swept(doc: &Value) -> Vec<String> {
    let mut out: Vec<String> = doc["regions"]
        .as_array()
        .unwrap_or_else(|| panic!("not swept by region: {doc}"))
        .iter()
        .map(|r| r["region"].as_str().unwrap_or_default().to_string())
        .collect();
    out.sort();
    out
}

fn sorted(regions: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = regions.iter().map(ToString::to_string).collect();
    out.sort();
    out
}

/// `(region, why)` of each region not checked.
fn not_checked(doc: &Value) -> Vec<(String, String)> {
    doc["not_checked"]
        .as_array()
        .unwrap_or_else(|| panic!("no not_checked: {doc}"))
        .iter()
        .map(|r| {
            (
                r["region"].as_str().unwrap_or_default().to_string(),
                r["why"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn alibaba_every_region_is_swept_and_a_refused_one_is_not_checked() {
    use alibaba_peer::cloud::{IMAGE, REGION, REGIONS, SNAPSHOTS};
    let Some(peer) = alibaba_peer::Peer::start() else {
        return;
    };
    let bin = Bin::alibaba("alibaba", &peer);
    let (code, doc) = bin.sweep_doc(&["--all-regions"]);
    assert_eq!(code, Some(3), "the snapshots and the image bill: {doc:#}");
    let mut want: Vec<(String, String)> = SNAPSHOTS
        .iter()
        .chain([&IMAGE])
        .map(|id| ((*id).to_string(), REGION.to_string()))
        .collect();
    want.sort();
    let mut got = rows(&doc);
    got.sort();
    assert_eq!(got, want, "the leftovers, each with its region: {doc:#}");
    assert_eq!(swept(&doc), sorted(&REGIONS), "{doc:#}");
    assert_eq!(not_checked(&doc), [], "{doc:#}");
    assert_eq!(peer.count("DescribeRegions"), 1, "the regions asked once");
    // Each region's own adapter asked in its own region.
    let asked: Vec<String> = peer
        .calls()
        .iter()
        .filter(|c| c.action == "DescribeSnapshots")
        .filter_map(|c| c.params.get("RegionId").cloned())
        .collect();
    for region in REGIONS {
        assert!(asked.iter().any(|r| r == region), "{region}: {asked:?}");
    }

    peer.cloud(|c| c.refused_region = Some(REGIONS[2].into()));
    let (code, doc) = bin.sweep_doc(&["--all-regions"]);
    assert_eq!(code, Some(3), "{doc:#}");
    let refused = not_checked(&doc);
    assert_eq!(refused.len(), 1, "{doc:#}");
    assert_eq!(refused[0].0, REGIONS[2], "{doc:#}");
    assert!(refused[0].1.contains("Forbidden.RAM"), "{refused:?}");
    let mut got = rows(&doc);
    got.sort();
    assert_eq!(got, want, "the other regions still swept: {doc:#}");
}

#[test]
fn tencent_every_region_is_swept_and_a_refused_one_is_not_checked() {
    use tencent_peer::{REGION, REGIONS};
    let Some(peer) = tencent_peer::Peer::start() else {
        return;
    };
    peer.cloud(|c| {
        c.snapshots.push(tencent_peer::cloud::Snapshot {
            id: "snap-keep".into(),
            disk: "disk-keep".into(),
            size: 500,
        });
    });
    let bin = Bin::tencent("tencent", &peer);
    let (code, doc) = bin.sweep_doc(&["--all-regions"]);
    assert_eq!(code, Some(3), "the snapshot bills: {doc:#}");
    assert_eq!(
        rows(&doc),
        [("snap-keep".to_string(), REGION.to_string())],
        "{doc:#}"
    );
    assert_eq!(swept(&doc), sorted(&REGIONS), "{doc:#}");
    assert_eq!(not_checked(&doc), [], "{doc:#}");
    assert_eq!(peer.count("DescribeRegions"), 1, "the regions asked once");

    peer.cloud(|c| c.refused_region = Some(REGIONS[1].into()));
    let (code, doc) = bin.sweep_doc(&["--all-regions"]);
    assert_eq!(code, Some(3), "{doc:#}");
    let refused = not_checked(&doc);
    assert_eq!(refused.len(), 1, "{doc:#}");
    assert_eq!(refused[0].0, REGIONS[1], "{doc:#}");
    assert!(refused[0].1.contains("UnsupportedRegion"), "{refused:?}");
    assert_eq!(
        rows(&doc).len(),
        1,
        "the other regions still swept: {doc:#}"
    );
}
