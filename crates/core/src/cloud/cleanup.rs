//! The cleanup plan: which of the resources a sweep (or an inventory) found `cleanup` deletes,
//! in the order the providers require, and which it refuses and why. The dialog, `--dry-run`
//! and the deletes read this one plan, so what is promised is what is deleted.
//!
//! Order: load balancers, then images (deregistering one frees the snapshots behind it), then
//! addresses, disks and volumes, then snapshots. A snapshot behind an image that is not deleted
//! with it is refused, and so is anything attached to a running instance.

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use super::LinkedResource;
use crate::meter::ResourceKind;

/// What the user asked to delete. Every part narrows the choice; `ids` names resources exactly.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CleanupFilter {
    pub ids: Vec<String>,
    pub kinds: Vec<CleanupKind>,
    /// Only what was created at least this long ago.
    pub older_than: Option<SignedDuration>,
    /// Only what is attached to or associated with nothing.
    pub unattached: bool,
    /// Only what carries every one of these tags: a key with its value, or a key alone for
    /// any value.
    pub tags: Vec<(String, Option<String>)>,
}

impl CleanupFilter {
    /// Whether `r` is chosen at `now`.
    #[must_use]
    pub fn matches(&self, r: &LinkedResource, now: Timestamp) -> bool {
        (self.ids.is_empty() || self.ids.contains(&r.id))
            && (self.kinds.is_empty() || self.kinds.iter().any(|k| k.matches(r.kind)))
            && self
                .older_than
                .is_none_or(|age| now.duration_since(r.created) >= age)
            && (!self.unattached || r.attached_to.is_none())
            && self.tags.iter().all(|(key, value)| {
                r.tags
                    .get(key)
                    .is_some_and(|v| value.as_ref().is_none_or(|want| want == v))
            })
    }
}

/// The kinds as the command line names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CleanupKind {
    Disk,
    Snapshot,
    Image,
    Ip,
    Lb,
    Volume,
}

impl CleanupKind {
    #[must_use]
    pub fn matches(self, kind: ResourceKind) -> bool {
        match self {
            CleanupKind::Disk => kind.is_disk(),
            CleanupKind::Snapshot => kind == ResourceKind::Snapshot,
            CleanupKind::Image => kind == ResourceKind::Image,
            CleanupKind::Ip => kind == ResourceKind::PublicIp,
            CleanupKind::Lb => kind == ResourceKind::LoadBalancer,
            CleanupKind::Volume => kind == ResourceKind::NetworkVolume,
        }
    }
}

/// Why a chosen resource is not deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub id: String,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanupPlan {
    /// What is deleted, in the order it is deleted.
    pub delete: Vec<LinkedResource>,
    /// What was chosen but is not deleted, and why.
    pub refused: Vec<Refusal>,
    /// Everything else that was found: it keeps billing.
    pub stays: Vec<LinkedResource>,
}

/// The place of a kind in the delete order.
fn rank(kind: ResourceKind) -> u8 {
    match kind {
        ResourceKind::LoadBalancer => 0,
        ResourceKind::Image => 1,
        ResourceKind::PublicIp => 2,
        ResourceKind::SystemDisk | ResourceKind::DataDisk | ResourceKind::NetworkVolume => 3,
        ResourceKind::Snapshot => 4,
        // Never deleted here: refused by the plan.
        ResourceKind::StoppedInstance => 5,
    }
}

/// Ids a cleanup names that the provider does not list now: deleting by a guess is not done.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", crate::t!("err-cleanup-not-listed", ids = .0.join(", ")))]
pub struct NotFound(pub Vec<String>);

impl CleanupPlan {
    /// The plan for `found` under `filter` at `now`. `running` names the instances that run
    /// now: what is attached to one is refused. An id in `filter.ids` that `found` does not
    /// hold is an error naming it, since deleting by a guess is not done.
    pub fn new(
        found: &[LinkedResource],
        filter: &CleanupFilter,
        running: &[String],
        now: Timestamp,
    ) -> Result<CleanupPlan, NotFound> {
        let missing: Vec<String> = filter
            .ids
            .iter()
            .filter(|id| !found.iter().any(|r| &r.id == *id))
            .cloned()
            .collect();
        if !missing.is_empty() {
            return Err(NotFound(missing));
        }
        let (mut picked, stays): (Vec<LinkedResource>, Vec<LinkedResource>) =
            found.iter().cloned().partition(|r| filter.matches(r, now));
        let deleted_images: Vec<String> = picked
            .iter()
            .filter(|r| r.kind == ResourceKind::Image)
            .map(|r| r.id.clone())
            .collect();
        let mut refused = Vec::new();
        picked.retain(|r| {
            let why = match (&r.attached_to, &r.backs_image) {
                _ if r.kind == ResourceKind::StoppedInstance => {
                    Some(crate::t!("err-cleanup-an-instance", id = r.id.as_str()))
                }
                (Some(on), _) if running.contains(on) => {
                    Some(crate::t!("err-cleanup-attached-running", on = on.as_str()))
                }
                (_, Some(image))
                    if r.kind == ResourceKind::Snapshot && !deleted_images.contains(image) =>
                {
                    Some(crate::t!("err-cleanup-image-uses", image = image.as_str()))
                }
                _ => None,
            };
            match why {
                Some(why) => {
                    refused.push(Refusal {
                        id: r.id.clone(),
                        why,
                    });
                    false
                }
                None => true,
            }
        });
        picked.sort_by_key(|r| rank(r.kind));
        let mut stays = stays;
        stays.extend(
            found
                .iter()
                .filter(|r| refused.iter().any(|x| x.id == r.id))
                .cloned(),
        );
        Ok(CleanupPlan {
            delete: picked,
            refused,
            stays,
        })
    }

    /// The ids deleted, in order.
    #[must_use]
    pub fn ids(&self) -> Vec<String> {
        self.delete.iter().map(|r| r.id.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use rust_decimal::Decimal;

    use super::*;

    fn res(id: &str, kind: ResourceKind, days_old: i64, now: Timestamp) -> LinkedResource {
        let created = now - SignedDuration::from_hours(24 * days_old);
        let size = Decimal::from(10);
        LinkedResource::new(
            id.into(),
            String::new(),
            kind,
            size,
            "available".into(),
            created,
        )
    }

    fn now() -> Timestamp {
        "2026-12-01T00:00:00Z".parse().unwrap()
    }

    #[test]
    fn images_go_before_their_snapshots_and_addresses_before_disks() {
        let now = now();
        let mut snap = res("snap-1", ResourceKind::Snapshot, 30, now);
        snap.backs_image = Some("ami-1".into());
        let found = vec![
            snap,
            res("vol-1", ResourceKind::DataDisk, 3, now),
            res("eip-1", ResourceKind::PublicIp, 3, now),
            res("ami-1", ResourceKind::Image, 30, now),
            res("lb-1", ResourceKind::LoadBalancer, 1, now),
        ];
        let plan = CleanupPlan::new(&found, &CleanupFilter::default(), &[], now).unwrap();
        assert_eq!(plan.ids(), ["lb-1", "ami-1", "eip-1", "vol-1", "snap-1"]);
        assert!(plan.refused.is_empty() && plan.stays.is_empty());
    }

    #[test]
    fn a_snapshot_behind_a_kept_image_is_refused_and_stays() {
        let now = now();
        let mut snap = res("snap-1", ResourceKind::Snapshot, 30, now);
        snap.backs_image = Some("ami-1".into());
        let found = vec![snap, res("ami-1", ResourceKind::Image, 30, now)];
        let filter = CleanupFilter {
            kinds: vec![CleanupKind::Snapshot],
            ..CleanupFilter::default()
        };
        let plan = CleanupPlan::new(&found, &filter, &[], now).unwrap();
        assert!(plan.delete.is_empty());
        assert_eq!(plan.refused[0].id, "snap-1");
        assert!(
            plan.refused[0].why.contains("--id ami-1"),
            "{:?}",
            plan.refused
        );
        let stays: Vec<&str> = plan.stays.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(stays, ["ami-1", "snap-1"]);
        let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || {
            CleanupPlan::new(&found, &filter, &[], now).unwrap().refused[0]
                .why
                .clone()
        });
        assert_eq!(
            chinese,
            "镜像 ami-1 使用它：请连同镜像一起删除（--id ami-1），或保留它"
        );
    }

    #[test]
    fn filters_narrow_by_id_kind_age_and_attachment() {
        let now = now();
        let mut on_running = res("vol-run", ResourceKind::DataDisk, 90, now);
        on_running.attached_to = Some("i-run".into());
        let mut on_stopped = res("vol-stop", ResourceKind::DataDisk, 90, now);
        on_stopped.attached_to = Some("i-stop".into());
        let found = vec![
            on_running,
            on_stopped,
            res("vol-new", ResourceKind::DataDisk, 1, now),
            res("vol-old", ResourceKind::DataDisk, 40, now),
            res("snap-old", ResourceKind::Snapshot, 40, now),
        ];
        let running = vec!["i-run".to_string()];
        let old_disks = CleanupFilter {
            kinds: vec![CleanupKind::Disk],
            older_than: Some(SignedDuration::from_hours(24 * 30)),
            ..CleanupFilter::default()
        };
        let plan = CleanupPlan::new(&found, &old_disks, &running, now).unwrap();
        assert_eq!(plan.ids(), ["vol-stop", "vol-old"]);
        assert_eq!(plan.refused[0].id, "vol-run");
        let unattached = CleanupFilter {
            unattached: true,
            ..old_disks
        };
        let plan = CleanupPlan::new(&found, &unattached, &running, now).unwrap();
        assert_eq!(plan.ids(), ["vol-old"]);
        let by_id = CleanupFilter {
            ids: vec!["snap-old".into(), "vol-new".into()],
            ..CleanupFilter::default()
        };
        let plan = CleanupPlan::new(&found, &by_id, &running, now).unwrap();
        assert_eq!(plan.ids(), ["vol-new", "snap-old"]);
        assert_eq!(plan.stays.len(), 3);
    }

    #[test]
    fn an_id_nobody_lists_is_an_error_not_a_guess() {
        let now = now();
        let found = vec![res("vol-1", ResourceKind::DataDisk, 1, now)];
        let filter = CleanupFilter {
            ids: vec!["vol-1".into(), "vol-gone".into()],
            ..CleanupFilter::default()
        };
        let err = CleanupPlan::new(&found, &filter, &[], now)
            .unwrap_err()
            .to_string();
        assert!(err.contains("vol-gone") && !err.contains("vol-1"), "{err}");
    }

    #[test]
    fn every_tag_asked_for_must_be_there() {
        let now = now();
        let mut llm = res("vol-llm", ResourceKind::DataDisk, 3, now);
        llm.tags = BTreeMap::from([
            ("project".to_string(), "llm".to_string()),
            ("owner".to_string(), "ana".to_string()),
        ]);
        let mut other = res("vol-cv", ResourceKind::DataDisk, 3, now);
        other.tags = BTreeMap::from([("project".to_string(), "cv".to_string())]);
        let found = vec![llm, other, res("vol-bare", ResourceKind::DataDisk, 3, now)];
        let ids = |tags: &[(&str, Option<&str>)]| {
            let filter = CleanupFilter {
                tags: tags
                    .iter()
                    .map(|(k, v)| ((*k).to_string(), v.map(str::to_string)))
                    .collect(),
                ..CleanupFilter::default()
            };
            CleanupPlan::new(&found, &filter, &[], now).unwrap().ids()
        };
        assert_eq!(ids(&[("project", Some("llm"))]), ["vol-llm"]);
        assert_eq!(ids(&[("project", None)]), ["vol-llm", "vol-cv"]);
        assert_eq!(
            ids(&[("project", None), ("owner", Some("ana"))]),
            ["vol-llm"]
        );
        assert!(ids(&[("project", Some("llm")), ("owner", Some("bo"))]).is_empty());
        assert!(
            ids(&[("Project", Some("llm"))]).is_empty(),
            "keys are exact"
        );
        assert!(ids(&[("project", Some(""))]).is_empty());
        assert_eq!(ids(&[]).len(), 3);
    }
}
