//! The snapshot-clean plan: which of the instance's snapshots `snapshot-clean --keep N` deletes
//! and which it keeps, and why. The dialog, `--dry-run`, the command line's prompt and every
//! adapter's execution read this one plan, so what is promised is what is deleted.
//!
//! Survivors are the newest `keep` by (created, id), newest first, so snapshots taken at the
//! same second (a multi-volume snapshot, a backup service) are ordered the same way everywhere.
//! A snapshot that backs an image ([`LinkedResource::backs_image`]; an adapter may also leave
//! such snapshots out of the inventory) is never deleted and does not count toward `keep`. With
//! a final snapshot, that new snapshot is the newest and counts as one of the `keep` (at least
//! one is kept).

use std::cmp::Reverse;

use super::LinkedResource;
use crate::meter::ResourceKind;

/// Why a snapshot survives the clean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kept {
    /// One of the newest `keep`.
    Newest,
    /// An image uses it (the image's id): it is never deleted.
    BacksImage(String),
}

/// What snapshot-clean will do to the snapshots an inventory lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotPlan {
    /// The ids deleted, newest first.
    pub deleted: Vec<String>,
    /// The ids kept and why: the newest first, then those behind an image.
    pub kept: Vec<(String, Kept)>,
}

/// A snapshot plan that no longer deletes what its confirmation promised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanChanged {
    /// Deleted now, not promised.
    pub extra: Vec<String>,
    /// Promised, no longer deleted.
    pub spared: Vec<String>,
}

impl std::fmt::Display for PlanChanged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::t!("err-snapshots-changed"))?;
        if !self.extra.is_empty() {
            let ids = self.extra.join(", ");
            f.write_str(&crate::t!("err-snapshots-also", ids = ids))?;
        }
        if !self.spared.is_empty() {
            let ids = self.spared.join(", ");
            f.write_str(&crate::t!("err-snapshots-no-longer", ids = ids))?;
        }
        f.write_str(&crate::t!("err-snapshots-nothing-deleted"))
    }
}

impl std::error::Error for PlanChanged {}

impl SnapshotPlan {
    /// The plan for `resources` (an inventory's): keep the newest `keep` snapshots not behind an
    /// image, one fewer when a final snapshot is taken first (it is the newest, and kept).
    pub fn new(resources: &[LinkedResource], keep: usize, final_snapshot: bool) -> SnapshotPlan {
        let mut free: Vec<&LinkedResource> = resources
            .iter()
            .filter(|r| r.kind == ResourceKind::Snapshot && r.backs_image.is_none())
            .collect();
        free.sort_by_key(|r| Reverse((r.created, r.id.as_str())));
        let existing = if final_snapshot {
            keep.max(1) - 1
        } else {
            keep
        };
        let mut kept: Vec<(String, Kept)> = free
            .iter()
            .take(existing)
            .map(|r| (r.id.clone(), Kept::Newest))
            .collect();
        kept.extend(
            resources
                .iter()
                .filter(|r| r.kind == ResourceKind::Snapshot)
                .filter_map(|r| Some((r.id.clone(), Kept::BacksImage(r.backs_image.clone()?)))),
        );
        SnapshotPlan {
            deleted: free.iter().skip(existing).map(|r| r.id.clone()).collect(),
            kept,
        }
    }

    /// `Err` saying what changed when this plan (from a fresh inventory) would delete other
    /// snapshots than the confirmation `promised`; `Ok` when nothing was promised.
    pub fn check_promise(&self, promised: Option<&[String]>) -> Result<(), PlanChanged> {
        let Some(promised) = promised else {
            return Ok(());
        };
        let extra: Vec<String> = self
            .deleted
            .iter()
            .filter(|id| !promised.contains(id))
            .cloned()
            .collect();
        let spared: Vec<String> = promised
            .iter()
            .filter(|id| !self.deleted.contains(id))
            .cloned()
            .collect();
        if extra.is_empty() && spared.is_empty() {
            return Ok(());
        }
        Err(PlanChanged { extra, spared })
    }

    /// Whether the plan keeps snapshot `id`.
    pub fn keeps(&self, id: &str) -> bool {
        self.kept.iter().any(|(k, _)| k == id)
    }
}

/// A completed 1 GiB snapshot `id`, taken at `second`, behind `image` if given: for the tests
/// of the plan and of the dialog that shows it.
#[cfg(test)]
pub(crate) fn test_snapshot(id: &str, second: i64, image: Option<&str>) -> LinkedResource {
    LinkedResource {
        id: id.into(),
        name: id.into(),
        kind: ResourceKind::Snapshot,
        class: None,
        size_gib: rust_decimal::Decimal::ONE,
        state: "completed".into(),
        created: jiff::Timestamp::from_second(second).unwrap(),
        deleted_with_instance: false,
        backs_image: image.map(str::to_string),
        attached_to: None,
        exposure: crate::cloud::Exposure::default(),
        origin: None,
        tags: std::collections::BTreeMap::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::test_snapshot as snap;

    #[test]
    fn ties_break_by_id_and_a_snapshot_behind_an_image_is_kept_without_counting() {
        // Listed in an order that is neither the time nor the id order.
        let resources = vec![
            snap("snap-b", 100, None),
            snap("snap-img", 300, Some("ami-1")),
            snap("snap-old", 50, None),
            snap("snap-c", 100, None),
            snap("snap-a", 100, None),
        ];
        let plan = SnapshotPlan::new(&resources, 2, false);
        assert_eq!(
            plan.kept,
            vec![
                ("snap-c".to_string(), Kept::Newest),
                ("snap-b".to_string(), Kept::Newest),
                ("snap-img".to_string(), Kept::BacksImage("ami-1".into())),
            ]
        );
        assert_eq!(plan.deleted, vec!["snap-a", "snap-old"]);
        let mut reversed = resources.clone();
        reversed.reverse();
        assert_eq!(SnapshotPlan::new(&reversed, 2, false), plan, "order-free");
    }

    #[test]
    fn a_final_snapshot_is_one_of_the_kept() {
        let resources = vec![snap("snap-a", 10, None), snap("snap-b", 20, None)];
        let plan = SnapshotPlan::new(&resources, 2, true);
        assert_eq!(plan.kept, vec![("snap-b".to_string(), Kept::Newest)]);
        assert_eq!(plan.deleted, vec!["snap-a"]);
        let none_kept = SnapshotPlan::new(&resources, 0, true);
        assert_eq!(none_kept.deleted, vec!["snap-b", "snap-a"]);
        assert!(none_kept.kept.is_empty());
    }

    #[test]
    fn a_plan_that_deletes_anything_else_than_promised_is_refused() {
        let resources = vec![snap("snap-a", 10, None), snap("snap-b", 20, None)];
        let plan = SnapshotPlan::new(&resources, 1, false);
        assert!(plan.check_promise(None).is_ok());
        assert!(plan.check_promise(Some(&["snap-a".into()])).is_ok());
        let why = plan
            .check_promise(Some(&["snap-b".into()]))
            .unwrap_err()
            .to_string();
        assert!(why.contains("also delete snap-a"), "{why}");
        assert!(why.contains("no longer delete snap-b"), "{why}");
    }
}
