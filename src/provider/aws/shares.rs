//! Who may use the account's snapshots and images, found in listings rather than a call each.
//!
//! A listing says which are public: the snapshots `DescribeSnapshots` answers for `Owner=self`
//! with `RestorableBy=all`, and the images whose `isPublic` the owner's `DescribeImages` sets.
//! Whether one that is not public is shared with other accounts no listing says without naming
//! those accounts in advance (`RestorableBy` and `ExecutableBy` take ids, not "any"), so that
//! takes its attribute (`createVolumePermission`, `launchPermission`): read once and kept by id
//! until the listings show the resource changed ([`Shares`]). A round that finds nothing new
//! reads no attribute, and one that may not read them ([`Reads::KeptOnly`]) leaves the new ones
//! unknown.

use std::collections::{BTreeSet, HashMap};
use std::sync::Mutex;

use super::fetch::{Session, owned_by_self};
use super::inventory::Seen;
use super::query::{Ec2Error, Params, param as p};
use super::xml::{self, Image, Snapshot};
use crate::provider::Sharing;
use crate::provider::http::Repeat;

/// `MaxResults` of DescribeSnapshots and DescribeImages: the most either takes (5 to 1,000).
pub const MOST_PER_PAGE: &str = "1000";

/// Whether a round may read the attribute of a resource [`Shares`] does not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reads {
    #[default]
    Ask,
    /// The listings and what was kept alone (`gpumeter fleet`, which shows no exposure).
    KeptOnly,
}

/// The sharing read of each snapshot and image, by id, with what the listings said of the
/// resource when it was read: its state, its time and whether it was public. A resource whose
/// listing says otherwise now is read again. Sharing with an account changes nothing a listing
/// shows, so a grant made since the read shows at the next change, or in a new process; a
/// public grant always shows, since the listing that finds public ones is read every round.
#[derive(Debug, Default)]
pub struct Shares(Mutex<HashMap<String, (String, Sharing)>>);

impl Shares {
    fn get(&self, id: &str, seen: &str) -> Option<Sharing> {
        let kept = self.0.lock().ok()?;
        kept.get(id)
            .filter(|(then, _)| then == seen)
            .map(|(_, sharing)| sharing.clone())
    }

    fn keep(&self, id: &str, seen: String, sharing: Sharing) {
        if let Ok(mut kept) = self.0.lock() {
            kept.insert(id.to_string(), (seen, sharing));
        }
    }

    /// Forgets every id but `listed`: after a listing of every one the account owns.
    pub fn retain(&self, listed: &BTreeSet<&str>) {
        if let Ok(mut kept) = self.0.lock() {
            kept.retain(|id, _| listed.contains(id.as_str()));
        }
    }
}

/// With `MaxResults` at its most, for a listing of the account's own snapshots or images.
pub fn paged(mut params: Params) -> Params {
    params.push(p("MaxResults", MOST_PER_PAGE));
    params
}

/// The account's snapshots that `params` (filters, a page size) keep, every page, and the ids
/// of those of them anyone may use (`None` when that listing could not be read: their sharing
/// is then read as the rest's).
pub async fn snapshots(
    s: &mut Session<'_>,
    params: &Params,
) -> Result<(Vec<Snapshot>, Option<BTreeSet<String>>), Ec2Error> {
    let owned = owned_by_self(params.clone());
    let snapshots = s.list("DescribeSnapshots", &owned, xml::snapshots).await?;
    if snapshots.is_empty() {
        return Ok((snapshots, Some(BTreeSet::new())));
    }
    let mut public = owned_by_self(vec![p("RestorableBy.1", "all")]);
    public.extend(params.iter().cloned());
    let public = s
        .list("DescribeSnapshots", &public, xml::snapshots)
        .await
        .ok()
        .map(|found| found.into_iter().map(|snap| snap.id).collect());
    Ok((snapshots, public))
}

fn snapshot_seen(snap: &Snapshot, public: Option<bool>) -> String {
    let time = snap.start_time.as_deref().unwrap_or("");
    format!("{}|{time}|{public:?}", snap.status)
}

fn image_seen(image: &Image) -> String {
    let time = image.creation_date.as_deref().unwrap_or("");
    format!("{}|{time}|{:?}", image.state, image.public)
}

impl Session<'_> {
    /// Who may use each snapshot and image of `seen`, into `seen.shared`, given the ids of its
    /// public snapshots (`public`; `None` where that listing was not read): a public one is
    /// public; for the rest, what [`Shares`] kept while the resource is unchanged, else (with
    /// [`Reads::Ask`]) its `createVolumePermission` or `launchPermission` (group `all` is
    /// everyone, user ids are other accounts, none is the owner alone). One that cannot be read
    /// is left out, so it stays unknown.
    pub async fn sharing(&mut self, seen: &mut Seen, public: Option<&BTreeSet<String>>) {
        for snap in &seen.snapshots {
            let listed_public = public.map(|ids| ids.contains(&snap.id));
            if listed_public == Some(true) {
                seen.shared.insert(snap.id.clone(), Sharing::Public);
                continue;
            }
            let id = ("SnapshotId", "snapshotId", snap.id.as_str());
            let read = ("DescribeSnapshotAttribute", "createVolumePermission");
            let now = snapshot_seen(snap, listed_public);
            if let Some(sharing) = self.kept_or_read(id, read, now).await {
                seen.shared.insert(snap.id.clone(), sharing);
            }
        }
        for image in &seen.images {
            if image.public == Some(true) {
                seen.shared.insert(image.id.clone(), Sharing::Public);
                continue;
            }
            let id = ("ImageId", "imageId", image.id.as_str());
            let read = ("DescribeImageAttribute", "launchPermission");
            // Private only when DescribeImages said `isPublic` false as well.
            match self.kept_or_read(id, read, image_seen(image)).await {
                Some(Sharing::Private) if image.public != Some(false) => {}
                Some(sharing) => {
                    seen.shared.insert(image.id.clone(), sharing);
                }
                None => {}
            }
        }
    }

    /// What [`Shares`] holds for the resource seen as `now`, else its attribute read (and kept).
    async fn kept_or_read(
        &mut self,
        (param, tag, id): (&str, &str, &str),
        (action, attribute): (&str, &str),
        now: String,
    ) -> Option<Sharing> {
        if let Some(sharing) = self.shares.and_then(|kept| kept.get(id, &now)) {
            return Some(sharing);
        }
        if self.reads == Reads::KeptOnly {
            return None;
        }
        let params = vec![p(param, id), p("Attribute", attribute)];
        let body = self.call(action, &params, Repeat::Safe).await.ok()?;
        let doc = xml::parse_answer(&body, action).ok()?;
        let (groups, users) = xml::permissions(&doc, (tag, id), attribute)?;
        let sharing = if groups.iter().any(|g| g == "all") {
            Sharing::Public
        } else if users.is_empty() {
            Sharing::Private
        } else {
            Sharing::Accounts(users)
        };
        if let Some(kept) = self.shares {
            kept.keep(id, now, sharing.clone());
        }
        Some(sharing)
    }
}
