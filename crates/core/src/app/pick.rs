//! Which snapshots `C` deletes, picked by the user: every snapshot with its age, the ones the
//! plan ([`SnapshotPlan`]) would delete picked to begin with, Space to change that. A snapshot an
//! image uses cannot be picked, and says why.
//!
//! The confirmed action is the plan's own snapshot-clean while the pick is what the plan
//! proposes (the adapter checks its fresh plan against it), and otherwise a cleanup of exactly
//! the picked snapshots ([`Action::Cleanup`]): a snapshot-clean can only delete what its plan
//! deletes, so a pick that differs is carried as the list it is.

use std::cmp::Reverse;

use rust_decimal::Decimal;

use super::confirm::{ConfirmLine, describe};
use super::details::short_age;
use crate::cloud::{Action, CleanupFilter, CleanupPlan, Kept, LinkedResource, SnapshotPlan};
use crate::meter::{ResourceKind, monthly_after_release};
use crate::spend::Pricing;

/// One snapshot in the pick.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickRow {
    pub resource: LinkedResource,
    /// How long ago it was taken: `2d2h`.
    pub age: String,
    /// What it costs a month, from the sheet; `None` when unpriced.
    pub monthly: Option<Decimal>,
    pub picked: bool,
    /// Why it cannot be picked (an image uses it); `None` when it can.
    pub locked: Option<String>,
    /// One of the newest the plan keeps.
    pub newest: bool,
}

impl PickRow {
    /// The row as the dialog's deleted and kept lists show it.
    pub fn line(&self) -> ConfirmLine {
        ConfirmLine {
            label: describe(&self.resource),
            monthly: self.monthly,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotPick {
    /// Every snapshot, the newest first.
    pub rows: Vec<PickRow>,
    /// The row Space toggles.
    pub cursor: usize,
    /// What the plan deletes, as it ordered them: the pick to begin with.
    pub proposed: Vec<String>,
    pub keep: usize,
    /// The plan's note, said again while the pick is the plan's.
    pub proposed_note: String,
}

impl SnapshotPick {
    /// The pick over `resources` (an inventory's) for `plan`, priced by `pricing`, at `now`.
    pub fn new(
        resources: &[LinkedResource],
        plan: &SnapshotPlan,
        keep: usize,
        pricing: Option<&Pricing>,
        now: jiff::Timestamp,
        proposed_note: String,
    ) -> SnapshotPick {
        let mut snapshots: Vec<&LinkedResource> = resources
            .iter()
            .filter(|r| r.kind == ResourceKind::Snapshot)
            .collect();
        snapshots.sort_by_key(|r| Reverse((r.created, r.id.as_str())));
        let rows: Vec<PickRow> = snapshots
            .into_iter()
            .map(|r| {
                let locked = plan.kept.iter().find_map(|(id, why)| match why {
                    Kept::BacksImage(image) if *id == r.id => {
                        Some(crate::t!("pick-image-uses-it", image = image.clone()))
                    }
                    _ => None,
                });
                PickRow {
                    age: short_age(now, r.created),
                    monthly: pricing.and_then(|p| monthly_after_release(&p.sheet, &r.to_meter())),
                    picked: plan.deleted.contains(&r.id),
                    newest: plan
                        .kept
                        .iter()
                        .any(|(id, why)| *id == r.id && *why == Kept::Newest),
                    locked,
                    resource: r.clone(),
                }
            })
            .collect();
        let cursor = rows.iter().position(|r| r.locked.is_none()).unwrap_or(0);
        SnapshotPick {
            rows,
            cursor,
            proposed: plan.deleted.clone(),
            keep,
            proposed_note,
        }
    }

    /// Picks or unpicks the row under the cursor; `false` when it cannot be picked.
    pub fn toggle(&mut self) -> bool {
        match self.rows.get_mut(self.cursor) {
            Some(row) if row.locked.is_none() => {
                row.picked = !row.picked;
                true
            }
            _ => false,
        }
    }

    /// Moves the cursor by `by` rows, staying within the list.
    pub fn move_by(&mut self, by: isize) {
        if let Some(last) = self.rows.len().checked_sub(1) {
            self.cursor = self.cursor.saturating_add_signed(by).min(last);
        }
    }

    /// The picked ids, the newest first.
    pub fn picked(&self) -> Vec<String> {
        self.rows
            .iter()
            .filter(|r| r.picked)
            .map(|r| r.resource.id.clone())
            .collect()
    }

    /// Whether the pick is what the plan proposes.
    pub fn is_proposed(&self) -> bool {
        let picked = self.picked();
        picked.len() == self.proposed.len() && picked.iter().all(|id| self.proposed.contains(id))
    }

    /// The action that deletes exactly the picked snapshots: the plan's snapshot-clean while the
    /// pick is the plan's, a cleanup of the picked list otherwise.
    pub fn action(&self) -> Action {
        if self.is_proposed() {
            return Action::SnapshotClean {
                keep: self.keep,
                final_snapshot: false,
                delete: Some(self.proposed.clone()),
            };
        }
        let ids = self.picked();
        // An empty id list would choose everything: nothing picked deletes nothing.
        if ids.is_empty() {
            return Action::Cleanup { delete: Vec::new() };
        }
        let found: Vec<LinkedResource> = self.rows.iter().map(|r| r.resource.clone()).collect();
        let filter = CleanupFilter {
            ids,
            ..CleanupFilter::default()
        };
        // Never refused: no snapshot behind an image can be picked, and a snapshot is attached
        // to nothing.
        let delete = CleanupPlan::new(&found, &filter, &[], jiff::Timestamp::UNIX_EPOCH)
            .map(|plan| plan.delete)
            .unwrap_or_default();
        Action::Cleanup { delete }
    }

    /// How many rows are picked (or not) and what they cost a month, the priced ones.
    pub fn total(&self, picked: bool) -> (usize, Decimal) {
        let rows = self.rows.iter().filter(|r| r.picked == picked);
        let monthly = rows.clone().filter_map(|r| r.monthly).sum();
        (rows.count(), monthly)
    }

    /// What the dialog says about the pick.
    pub fn note(&self) -> String {
        if self.is_proposed() {
            return self.proposed_note.clone();
        }
        crate::t!("note-pick").into_owned()
    }
}
