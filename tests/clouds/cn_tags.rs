//! Tags on Alibaba Cloud and Tencent Cloud, against their peers: each sweep row carries the tags
//! its Describe reply gave (in that API's own shape), a cleanup filter by tag picks exactly the
//! tagged rows, a tag that would act on the terminal reaches it as one plain line, and through
//! the binary `sweep --tag` lists only the tagged and `cleanup --tag` deletes only them.

use std::collections::{BTreeMap, BTreeSet};

use gpumeter::meter::ResourceKind;
use gpumeter::provider::one_line::OneLine;
use gpumeter::provider::{Action, CleanupFilter, CleanupPlan, LinkedResource, Provider};
use jiff::Timestamp;
use serde_json::Value;

use crate::common::cn_bin::{CnBin as Bin, text};
use crate::{alibaba_peer, tencent_peer};

fn pairs(tags: &[(&str, &str)]) -> Vec<(String, String)> {
    tags.iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect()
}

fn map(tags: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs(tags).into_iter().collect()
}

fn tags_of<'a>(found: &'a [LinkedResource], id: &str) -> &'a BTreeMap<String, String> {
    &found
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("{id} is listed"))
        .tags
}

/// The ids a cleanup by `tags` deletes, nothing running.
fn picked(found: &[LinkedResource], tags: &[(&str, Option<&str>)]) -> BTreeSet<String> {
    let only = CleanupFilter {
        tags: tags
            .iter()
            .map(|(k, v)| ((*k).to_string(), v.map(str::to_string)))
            .collect(),
        ..CleanupFilter::default()
    };
    let plan = CleanupPlan::new(found, &only, &[], Timestamp::now()).unwrap();
    plan.ids().into_iter().collect()
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| (*s).to_string()).collect()
}

fn item_ids(items: &[Value]) -> BTreeSet<String> {
    items
        .iter()
        .map(|i| i["id"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// `sweep --tag project=llm` lists `tagged` only, each with its tag; `cleanup --tag
/// project=llm --yes` deletes and reads back each; a sweep then lists `untagged`, all of it.
fn sweep_and_clean_by_tag(bin: &Bin, tagged: &[&str], untagged: &[&str]) {
    let (_, all) = bin.sweep();
    let every: Vec<&str> = tagged.iter().chain(untagged).copied().collect();
    assert_eq!(item_ids(&all), set(&every), "{all:#?}");
    let (code, doc) = bin.sweep_doc(&["--tag", "project=llm"]);
    let items = doc["items"].as_array().cloned().unwrap_or_default();
    assert_eq!(code, Some(3), "the tagged bill: {doc:#}");
    assert_eq!(item_ids(&items), set(tagged), "{items:#?}");
    for i in &items {
        assert_eq!(i["tags"]["project"], "llm", "{i}");
    }
    let out = bin.run(&["cleanup", "--tag", "project=llm", "--yes"]);
    assert!(out.status.success(), "{}", text(&out));
    let shown = text(&out);
    assert!(
        shown.contains(&format!("{0} of {0} deleted", tagged.len())),
        "{shown}"
    );
    let (_, left) = bin.sweep();
    assert_eq!(item_ids(&left), set(untagged), "{left:#?}");
}

mod alibaba {
    use super::*;
    use alibaba_peer::cloud::{DATA_DISK, EIP, IMAGE, SLB, SNAPSHOTS};
    use alibaba_peer::{INSTANCE, Peer};

    /// The data disk (two tags), the newest snapshot, the EIP (VPC's shape) and the load
    /// balancer carry `project=llm`; the image `project=cv`; the rest nothing.
    fn tag(peer: &Peer) {
        peer.cloud(|c| {
            let llm = ("project", "llm");
            c.tags
                .insert(DATA_DISK.into(), pairs(&[llm, ("owner", "ana")]));
            for id in [SNAPSHOTS[2], EIP, SLB] {
                c.tags.insert(id.into(), pairs(&[llm]));
            }
            c.tags.insert(IMAGE.into(), pairs(&[("project", "cv")]));
        });
    }

    #[tokio::test]
    async fn the_sweep_carries_each_tag_and_a_tag_picks_exactly_the_tagged() {
        let Some(peer) = Peer::start() else {
            return;
        };
        tag(&peer);
        let adapter = peer.adapter(Some(INSTANCE));
        assert!(adapter.perform(&Action::Release).await.unwrap().confirmed);
        let found = adapter.sweep().await.unwrap();
        let llm = map(&[("project", "llm")]);
        assert_eq!(
            tags_of(&found, DATA_DISK),
            &map(&[("owner", "ana"), ("project", "llm")])
        );
        for id in [SNAPSHOTS[2], EIP, SLB] {
            assert_eq!(tags_of(&found, id), &llm, "{id}");
        }
        assert_eq!(tags_of(&found, IMAGE), &map(&[("project", "cv")]));
        assert!(tags_of(&found, SNAPSHOTS[1]).is_empty());
        let tagged = [DATA_DISK, SNAPSHOTS[2], EIP, SLB];
        assert_eq!(picked(&found, &[("project", Some("llm"))]), set(&tagged));
        assert_eq!(
            picked(&found, &[("project", Some("llm")), ("owner", None)]),
            set(&[DATA_DISK])
        );
        let any_project = picked(&found, &[("project", None)]);
        assert_eq!(
            any_project,
            set(&[DATA_DISK, SNAPSHOTS[2], EIP, SLB, IMAGE])
        );
        assert!(picked(&found, &[("project", Some("LLM"))]).is_empty());
    }

    #[tokio::test]
    async fn a_stopped_instance_that_bills_carries_its_tags() {
        let Some(peer) = Peer::start() else {
            return;
        };
        peer.cloud(|c| {
            c.tags.insert(INSTANCE.into(), pairs(&[("project", "llm")]));
            c.economical = false;
        });
        let adapter = peer.adapter(Some(INSTANCE));
        assert!(adapter.perform(&Action::Stop).await.unwrap().confirmed);
        let found = adapter.sweep().await.unwrap();
        let stopped = found
            .iter()
            .find(|r| r.kind == ResourceKind::StoppedInstance)
            .unwrap_or_else(|| panic!("the stopped instance bills: {found:#?}"));
        assert_eq!(stopped.tags, map(&[("project", "llm")]));
    }

    #[test]
    fn sweep_and_cleanup_by_tag_through_the_binary() {
        let Some(peer) = Peer::start() else {
            return;
        };
        tag(&peer);
        let bin = Bin::alibaba("tags", &peer);
        let out = bin.run(&["release", "--yes"]);
        assert!(out.status.success(), "{}", text(&out));
        let tagged = [DATA_DISK, SNAPSHOTS[2], EIP, SLB];
        sweep_and_clean_by_tag(&bin, &tagged, &[SNAPSHOTS[0], SNAPSHOTS[1], IMAGE]);
        peer.cloud(|c| {
            assert!(c.eip_released && c.lbs_deleted.contains(SLB));
            assert!(!c.image_gone);
            assert!(c.disks.iter().all(|d| d.id != DATA_DISK), "{:?}", c.disks);
        });
    }
}

mod tencent {
    use super::*;
    use tencent_peer::cloud::{Clb, Snapshot};
    use tencent_peer::{INSTANCE, Peer};

    const IDLE_LB: &str = "lb-idle1";

    /// After a release: disk-keep and its snapshot, the address, and an idle load balancer.
    /// disk-keep, the address (VPC's `TagSet`) and the load balancer (CLB's `TagKey`) carry
    /// `project=llm`; the snapshot `project=cv`.
    async fn released() -> Option<Peer> {
        let peer = Peer::start()?;
        let adapter = peer.adapter(Some(INSTANCE));
        assert!(adapter.perform(&Action::Release).await.unwrap().confirmed);
        leftovers(&peer);
        Some(peer)
    }

    fn leftovers(peer: &Peer) {
        peer.cloud(|c| {
            c.snapshots.push(Snapshot {
                id: "snap-keep".into(),
                disk: "disk-keep".into(),
                size: 500,
            });
            c.lbs.push(Clb {
                id: IDLE_LB.into(),
                healthy: false,
            });
            for id in ["disk-keep", "eip-loop1", IDLE_LB] {
                c.tags.insert(id.into(), pairs(&[("project", "llm")]));
            }
            c.tags
                .insert("snap-keep".into(), pairs(&[("project", "cv")]));
        });
    }

    #[tokio::test]
    async fn the_sweep_carries_each_tag_and_a_tag_picks_exactly_the_tagged() {
        let Some(peer) = released().await else {
            return;
        };
        let found = peer.adapter(Some(INSTANCE)).sweep().await.unwrap();
        for id in ["disk-keep", "eip-loop1", IDLE_LB] {
            assert_eq!(tags_of(&found, id), &map(&[("project", "llm")]), "{id}");
        }
        assert_eq!(tags_of(&found, "snap-keep"), &map(&[("project", "cv")]));
        let tagged = set(&["disk-keep", "eip-loop1", IDLE_LB]);
        assert_eq!(picked(&found, &[("project", Some("llm"))]), tagged);
        assert_eq!(picked(&found, &[("project", None)]).len(), 4);
        assert!(picked(&found, &[("owner", None)]).is_empty());
    }

    #[tokio::test]
    async fn a_tag_that_would_act_on_the_terminal_arrives_as_one_plain_line() {
        let Some(peer) = released().await else {
            return;
        };
        peer.cloud(|c| {
            let hostile = pairs(&[("team\u{1b}[2J", "a\nforged: line\u{7}")]);
            c.tags.insert("disk-keep".into(), hostile);
        });
        let wrapped = OneLine(std::sync::Arc::new(peer.adapter(Some(INSTANCE))));
        let found = wrapped.sweep().await.unwrap();
        let tags = tags_of(&found, "disk-keep");
        assert_eq!(tags.len(), 1, "{tags:?}");
        for (k, v) in tags {
            assert!(!k.contains(char::is_control), "{k:?}");
            assert!(!v.contains(char::is_control), "{v:?}");
            assert!(
                k.starts_with("team") && v.contains("forged: line"),
                "{k:?}={v:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_stopped_instance_that_bills_carries_its_tags() {
        let Some(peer) = Peer::start() else {
            return;
        };
        peer.cloud(|c| {
            c.tags.insert(INSTANCE.into(), pairs(&[("project", "llm")]));
            c.stop_charging_supported = false;
        });
        let adapter = peer.adapter(Some(INSTANCE));
        assert!(adapter.perform(&Action::Stop).await.unwrap().confirmed);
        let found = adapter.sweep().await.unwrap();
        let stopped = found
            .iter()
            .find(|r| r.kind == ResourceKind::StoppedInstance)
            .unwrap_or_else(|| panic!("the stopped instance bills: {found:#?}"));
        assert_eq!(stopped.tags, map(&[("project", "llm")]));
    }

    #[test]
    fn sweep_and_cleanup_by_tag_through_the_binary() {
        let Some(peer) = Peer::start() else {
            return;
        };
        let bin = Bin::tencent("tags", &peer);
        let out = bin.run(&["release", "--yes"]);
        assert!(out.status.success(), "{}", text(&out));
        leftovers(&peer);
        sweep_and_clean_by_tag(&bin, &["disk-keep", "eip-loop1", IDLE_LB], &["snap-keep"]);
        peer.cloud(|c| {
            assert!(c.lbs.is_empty() && c.addresses.is_empty());
            assert_eq!(c.snapshots.len(), 1, "{:?}", c.snapshots);
        });
    }
}
