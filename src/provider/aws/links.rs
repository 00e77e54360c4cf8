//! What of the account's sweep belongs to a released instance. EC2 forgets an instance's links
//! when it terminates (a surviving volume shows no attachment, an elastic IP no instance), so
//! the leftovers are picked from the sweep by what survives: the links EC2 keeps, and the ids
//! recorded while the instance was listed (the ledger's inventories, the adapter's own file).
//!
//! The links EC2 keeps after termination:
//! - an image made from the instance names it (`sourceInstanceId`; or its description);
//! - a snapshot CreateImage made says so (`Created by CreateImage(i-...) for ami-...`), and its
//!   `volumeId` is the instance's volume it was taken of;
//! - a snapshot of one of the instance's volumes keeps that `volumeId`;
//! - the snapshots behind an image are in its block device mapping.
//!
//! A volume or an elastic IP keeps none of its own: only a recorded id, or a snapshot of the
//! volume that CreateImage made, ties it. Pure, so it is tested on plain data.

use std::collections::BTreeSet;

use super::inventory::Seen;
use super::xml::{Image, Snapshot};

/// Whether `text` names instance `id` as a whole word (`i-0abc` is not named by `i-0abcd`).
pub fn names(text: &str, id: &str) -> bool {
    if id.is_empty() {
        return false;
    }
    let part = |c: char| c.is_ascii_alphanumeric() || c == '-';
    text.match_indices(id).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

/// The instance CreateImage took `snapshot` of, by the description EC2 gives those snapshots
/// (`Created by CreateImage(i-...) for ami-...`).
pub fn create_image_source(snapshot: &Snapshot) -> Option<&str> {
    let after = snapshot
        .description
        .as_deref()?
        .split_once("CreateImage(")?
        .1;
    let (id, _) = after.split_once(')')?;
    (id.starts_with("i-") && id.len() > 2 && id[2..].chars().all(|c| c.is_ascii_alphanumeric()))
        .then_some(id)
}

/// Whether `snapshot` is one CreateImage took of instance `id`'s volumes, by the description
/// EC2 gives those snapshots.
fn made_by_create_image(snapshot: &Snapshot, id: &str) -> bool {
    snapshot
        .description
        .as_deref()
        .is_some_and(|d| d.contains(&format!("CreateImage({id})")))
}

/// Whether `image` says it was made from instance `id`.
fn made_from(image: &Image, id: &str) -> bool {
    image.source_instance.as_deref() == Some(id)
        || image.description.as_deref().is_some_and(|d| names(d, id))
}

fn backing(image: &Image) -> impl Iterator<Item = &str> {
    image.snapshots.iter().filter_map(|(s, _)| s.as_deref())
}

/// What of `all` (the sweep, before sharing is read) belongs to instance `id`, given the ids
/// `recorded` for it. A volume attached to another instance is that instance's now, and an
/// address associated with another instance is too.
pub fn belonging(all: Seen, id: &str, recorded: &BTreeSet<String>) -> Seen {
    let images_made: BTreeSet<&str> = all
        .images
        .iter()
        .filter(|i| made_from(i, id) || recorded.contains(&i.id))
        .map(|i| i.id.as_str())
        .collect();
    let behind_made: BTreeSet<&str> = all
        .images
        .iter()
        .filter(|i| images_made.contains(i.id.as_str()))
        .flat_map(backing)
        .collect();
    // The instance's volumes: recorded, or named by a snapshot CreateImage took of them.
    let mut volumes: BTreeSet<&str> = recorded.iter().map(String::as_str).collect();
    volumes.extend(
        all.snapshots
            .iter()
            .filter(|s| made_by_create_image(s, id) || behind_made.contains(s.id.as_str()))
            .filter_map(|s| s.volume_id.as_deref()),
    );
    let mut snapshots: BTreeSet<&str> = all
        .snapshots
        .iter()
        .filter(|s| {
            recorded.contains(&s.id)
                || made_by_create_image(s, id)
                || behind_made.contains(s.id.as_str())
                || s.volume_id.as_deref().is_some_and(|v| volumes.contains(v))
        })
        .map(|s| s.id.as_str())
        .collect();
    let images: BTreeSet<&str> = all
        .images
        .iter()
        .filter(|i| {
            images_made.contains(i.id.as_str()) || backing(i).any(|s| snapshots.contains(s))
        })
        .map(|i| i.id.as_str())
        .collect();
    snapshots.extend(
        all.images
            .iter()
            .filter(|i| images.contains(i.id.as_str()))
            .flat_map(backing),
    );
    let mine = |other: Option<&str>| other.is_none_or(|o| o == id);
    Seen {
        instance: None,
        volumes: all
            .volumes
            .iter()
            .filter(|v| volumes.contains(v.id.as_str()))
            .filter(|v| v.attachments.iter().all(|a| mine(Some(&a.0))))
            .cloned()
            .collect(),
        snapshots: all
            .snapshots
            .iter()
            .filter(|s| snapshots.contains(s.id.as_str()))
            .cloned()
            .collect(),
        images: all
            .images
            .iter()
            .filter(|i| images.contains(i.id.as_str()))
            .cloned()
            .collect(),
        addresses: all
            .addresses
            .iter()
            .filter(|a| {
                a.instance_id.as_deref() == Some(id)
                    || (mine(a.instance_id.as_deref())
                        && a.allocation_id
                            .as_ref()
                            .is_some_and(|x| recorded.contains(x)))
            })
            .cloned()
            .collect(),
        shared: all.shared,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::super::xml::{Address, Volume};
    use super::*;

    fn volume(id: &str, attached: Option<&str>) -> Volume {
        super::super::xml::test_volume(id, 10, "available", attached)
    }

    fn snapshot(id: &str, volume: &str, description: Option<&str>) -> Snapshot {
        Snapshot {
            id: id.into(),
            volume_id: Some(volume.into()),
            status: "completed".into(),
            start_time: None,
            size_gib: 10,
            description: description.map(str::to_string),
            encrypted: None,
            tags: BTreeMap::new(),
        }
    }

    fn image(id: &str, source: Option<&str>, snapshots: &[&str]) -> Image {
        Image {
            id: id.into(),
            name: None,
            state: "available".into(),
            creation_date: None,
            source_instance: source.map(str::to_string),
            snapshots: snapshots
                .iter()
                .map(|s| (Some((*s).to_string()), 10))
                .collect(),
            description: None,
            public: None,
            encrypted: None,
            tags: BTreeMap::new(),
        }
    }

    fn address(allocation: &str, instance: Option<&str>) -> Address {
        Address {
            public_ip: "198.51.100.7".into(),
            allocation_id: Some(allocation.into()),
            instance_id: instance.map(str::to_string),
            association_id: None,
            network_interface_id: None,
            tags: BTreeMap::new(),
        }
    }

    fn ids(seen: &Seen) -> Vec<&str> {
        let mut out: Vec<&str> = seen.volumes.iter().map(|v| v.id.as_str()).collect();
        out.extend(seen.snapshots.iter().map(|s| s.id.as_str()));
        out.extend(seen.images.iter().map(|i| i.id.as_str()));
        out.extend(
            seen.addresses
                .iter()
                .filter_map(|a| a.allocation_id.as_deref()),
        );
        out
    }

    /// The account after `i-1` terminated: its data volume and a snapshot of it, an image of
    /// it with the snapshots CreateImage took, an idle address; and another instance's
    /// leftovers of each kind beside them.
    fn account() -> Seen {
        Seen {
            volumes: vec![
                volume("vol-data", None),
                volume("vol-other", None),
                volume("vol-moved", Some("i-2")),
            ],
            snapshots: vec![
                snapshot("snap-data", "vol-data", None),
                snapshot(
                    "snap-root",
                    "vol-root",
                    Some("Created by CreateImage(i-1) for ami-1"),
                ),
                snapshot(
                    "snap-img-data",
                    "vol-data",
                    Some("Created by CreateImage(i-1) for ami-1"),
                ),
                snapshot("snap-other", "vol-other", None),
                snapshot(
                    "snap-other-img",
                    "vol-x",
                    Some("Created by CreateImage(i-10) for ami-2"),
                ),
            ],
            images: vec![
                image("ami-1", Some("i-1"), &["snap-root", "snap-img-data"]),
                image("ami-2", Some("i-10"), &["snap-other-img"]),
            ],
            addresses: vec![address("eipalloc-1", None), address("eipalloc-2", None)],
            ..Seen::default()
        }
    }

    #[test]
    fn the_links_ec2_keeps_tie_images_their_snapshots_and_the_volumes_they_were_taken_of() {
        let mine = belonging(account(), "i-1", &BTreeSet::new());
        // The data volume is tied by the snapshot CreateImage took of it, and so is the
        // user's own snapshot of it; the address has no link left.
        assert_eq!(
            ids(&mine),
            [
                "vol-data",
                "snap-data",
                "snap-root",
                "snap-img-data",
                "ami-1"
            ]
        );
    }

    #[test]
    fn recorded_ids_tie_what_has_no_link_and_never_what_another_instance_uses() {
        let recorded: BTreeSet<String> = ["vol-other", "vol-moved", "eipalloc-2", "vol-gone"]
            .map(String::from)
            .into();
        let mut all = account();
        all.images.clear();
        all.snapshots.retain(|s| s.description.is_none());
        let mine = belonging(all, "i-1", &recorded);
        assert_eq!(ids(&mine), ["vol-other", "snap-other", "eipalloc-2"]);
    }

    #[test]
    fn nothing_ties_without_a_link_or_a_record() {
        let mut all = account();
        all.images.clear();
        all.snapshots.retain(|s| s.description.is_none());
        assert!(ids(&belonging(all, "i-1", &BTreeSet::new())).is_empty());
    }

    #[test]
    fn the_instance_create_image_took_a_snapshot_of_is_read_from_its_description() {
        let of = |d: Option<&str>| {
            create_image_source(&snapshot("snap-1", "vol-1", d)).map(str::to_string)
        };
        assert_eq!(
            of(Some("Created by CreateImage(i-0abc12) for ami-1")).as_deref(),
            Some("i-0abc12")
        );
        assert_eq!(of(Some("Created by CreateImage(i-) for ami-1")), None);
        assert_eq!(of(Some("Created by CreateImage(i-0a b) for ami-1")), None);
        assert_eq!(of(Some("my own snapshot")), None);
        assert_eq!(of(None), None);
    }

    #[test]
    fn an_instance_is_named_as_a_whole_word() {
        assert!(names("copy of i-0abc for training", "i-0abc"));
        assert!(names("(i-0abc)", "i-0abc"));
        assert!(!names("copy of i-0abcd", "i-0abc"));
        assert!(!names("xi-0abc", "i-0abc"));
        assert!(!names("anything", ""));
    }
}
