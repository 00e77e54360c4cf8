//! What a released instance left, picked from what the region still bills for: a provider
//! forgets which disks and addresses were an instance's once it is gone, so what ties them is
//! the ids recorded while it ran (the ledger's inventories, the adapter's memory) and the links
//! the provider keeps: a snapshot names the disk it was taken of (`origin`), and says which
//! custom image it backs (`backs_image`). Each link is followed from what is already tied, so
//! the snapshot of a recorded disk is the instance's, and so is the image made from that
//! snapshot.

use std::collections::BTreeSet;

use crate::meter::ResourceKind;

use super::LinkedResource;

/// The rows of `found` that `instance` left: the instance itself (stopped, still billing),
/// what is still attached to it, what `recorded` names, and what links lead to from those.
pub fn left_by(
    found: Vec<LinkedResource>,
    instance: &str,
    recorded: &BTreeSet<String>,
) -> Vec<LinkedResource> {
    let mut tied: BTreeSet<String> = recorded.clone();
    tied.insert(instance.to_string());
    for r in &found {
        if r.attached_to.as_deref() == Some(instance) {
            tied.insert(r.id.clone());
        }
    }
    loop {
        let before = tied.len();
        for r in &found {
            let of_tied_disk = r.kind == ResourceKind::Snapshot
                && r.origin.as_deref().is_some_and(|o| tied.contains(o));
            if of_tied_disk {
                tied.insert(r.id.clone());
            }
            if tied.contains(&r.id)
                && let Some(image) = &r.backs_image
            {
                tied.insert(image.clone());
            }
        }
        if tied.len() == before {
            break;
        }
    }
    found.into_iter().filter(|r| tied.contains(&r.id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn row(id: &str, kind: ResourceKind) -> LinkedResource {
        LinkedResource {
            id: id.into(),
            name: id.into(),
            kind,
            class: None,
            size_gib: rust_decimal::Decimal::ONE,
            state: "available".into(),
            created: jiff::Timestamp::UNIX_EPOCH,
            deleted_with_instance: false,
            backs_image: None,
            attached_to: None,
            exposure: super::super::Exposure::default(),
            origin: None,
            tags: BTreeMap::new(),
        }
    }

    fn snapshot(id: &str, of: &str, image: Option<&str>) -> LinkedResource {
        LinkedResource {
            origin: Some(of.into()),
            backs_image: image.map(str::to_string),
            ..row(id, ResourceKind::Snapshot)
        }
    }

    /// The region after `i-1` was released, with another instance's leftovers beside its own.
    fn region() -> Vec<LinkedResource> {
        vec![
            row("d-data", ResourceKind::DataDisk),
            row("d-other", ResourceKind::DataDisk),
            row("eip-1", ResourceKind::PublicIp),
            row("eip-other", ResourceKind::PublicIp),
            // Of the system disk, gone with the instance; it backs an image.
            snapshot("s-sys", "d-sys", Some("m-1")),
            snapshot("s-data", "d-data", None),
            // Another instance's snapshot and the image made from it.
            snapshot("s-other", "d-other", Some("m-other")),
            row("m-1", ResourceKind::Image),
            row("m-other", ResourceKind::Image),
            row("lb-1", ResourceKind::LoadBalancer),
        ]
    }

    fn ids(rows: &[LinkedResource]) -> Vec<&str> {
        rows.iter().map(|r| r.id.as_str()).collect()
    }

    fn recorded(ids: &[&str]) -> BTreeSet<String> {
        ids.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn recorded_ids_and_the_links_from_them_pick_the_instances_leftovers() {
        let left = left_by(
            region(),
            "i-1",
            &recorded(&["d-sys", "d-data", "eip-1", "lb-1"]),
        );
        assert_eq!(
            ids(&left),
            ["d-data", "eip-1", "s-sys", "s-data", "m-1", "lb-1"]
        );
    }

    #[test]
    fn nothing_recorded_and_nothing_attached_picks_nothing() {
        assert!(left_by(region(), "i-1", &BTreeSet::new()).is_empty());
    }

    #[test]
    fn what_is_still_attached_and_the_stopped_instance_itself_are_its() {
        let mut found = region();
        found[1].attached_to = Some("i-1".into());
        found.push(row("i-1", ResourceKind::StoppedInstance));
        found.push(row("i-2", ResourceKind::StoppedInstance));
        let left = left_by(found, "i-1", &BTreeSet::new());
        assert_eq!(ids(&left), ["d-other", "s-other", "m-other", "i-1"]);
    }

    #[test]
    fn a_recorded_snapshot_brings_its_image_but_not_its_disk() {
        let left = left_by(region(), "i-1", &recorded(&["s-other"]));
        assert_eq!(ids(&left), ["s-other", "m-other"]);
    }
}
