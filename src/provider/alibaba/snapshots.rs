//! snapshot-clean: optionally a final snapshot of the system disk, then delete every snapshot
//! beyond the newest `keep`, except those a custom image still uses; and releasing an EIP the
//! instance left behind. Each read back by id.

use std::fmt::Write as _;

use super::AlibabaCloud;
use super::inventory::json_ids;
use super::model::{Ack, CreatedSnapshot};
use super::rpc::{Product, RpcError, client_token};
use crate::provider::rpc_cloud::CallError;
use crate::provider::{Kept, ProviderError, SnapshotPlan};

impl AlibabaCloud {
    pub(super) async fn clean_snapshots(
        &self,
        keep: usize,
        final_snapshot: bool,
        promised: Option<&[String]>,
    ) -> Result<(bool, String, Vec<String>), ProviderError> {
        // The plan from this fresh read, by the same rule the confirmation used; checked
        // before anything is made or deleted.
        let inventory = self.read_inventory().await?;
        let plan = SnapshotPlan::new(&inventory.resources, keep, final_snapshot);
        plan.check_promise(promised)
            .map_err(|why| ProviderError::state("alibaba", why))?;
        let mut calls = Vec::new();
        let mut final_id = None;
        if final_snapshot {
            match self.final_snapshot(&mut calls).await? {
                Ok(id) => final_id = Some(id),
                Err(why) => return Ok((false, why, calls)),
            }
        }
        let kept = plan
            .kept
            .iter()
            .filter(|(_, why)| *why == Kept::Newest)
            .count()
            + usize::from(final_id.is_some());
        let doomed = &plan.deleted;
        let mut failures = Vec::new();
        for snap in doomed {
            let params = [("SnapshotId", snap.clone())];
            calls.push(self.line(Product::Ecs, "DeleteSnapshot", &params));
            match self
                .rpc
                .call::<Ack>(Product::Ecs, "DeleteSnapshot", &params)
                .await
            {
                Ok(_) => {}
                Err(e) if e.is_not_found() => {}
                Err(e) => failures.push(e),
            }
        }
        let mut note = String::new();
        for (snap, why) in &plan.kept {
            if let Kept::BacksImage(image) = why {
                note.push_str(&crate::t!(
                    "alibaba-snap-kept-for-image",
                    snapshot = snap.as_str(),
                    image = image.as_str()
                ));
            }
        }
        if doomed.is_empty() {
            return Ok((
                true,
                crate::t!("alibaba-snap-nothing", kept = kept.to_string(), note = note),
                calls,
            ));
        }
        let params = [(
            "SnapshotIds",
            json_ids(&doomed.iter().map(String::as_str).collect::<Vec<_>>()),
        )];
        calls.push(crate::t!(
            "rpc-call-read-back",
            call = self.line(Product::Ecs, "DescribeSnapshots", &params)
        ));
        let read = self.doomed_left(&params, doomed).await;
        let left = match read {
            Ok(left) => left,
            // Every delete failed, and nothing can be read: the first refusal says why.
            Err(_) if failures.len() == doomed.len() => {
                return Err(failures.swap_remove(0).into());
            }
            Err(e) => {
                return Ok((
                    false,
                    crate::t!(
                        "alibaba-snap-unread",
                        count = doomed.len().to_string(),
                        error = e.to_string()
                    ),
                    calls,
                ));
            }
        };
        let deleted = doomed.len() - left.len();
        let mut summary = crate::t!(
            "alibaba-snap-deleted",
            deleted = deleted.to_string(),
            kept = kept.to_string()
        );
        if let Some(f) = &final_id {
            summary = crate::t!("alibaba-snap-final", summary = summary, id = f.as_str());
        }
        if !left.is_empty() {
            summary = crate::t!(
                "alibaba-snap-still-there",
                summary = summary,
                ids = left.join(", ")
            );
            if !failures.is_empty() {
                let said: Vec<String> = failures.iter().map(ToString::to_string).collect();
                let _ = write!(summary, " ({})", said.join("; "));
            }
        }
        summary.push_str(&note);
        Ok((left.is_empty(), summary, calls))
    }

    /// Which of `doomed` DescribeSnapshots still lists. Not listed counts only when several
    /// reads in a row agree; one listing ends it.
    async fn doomed_left(
        &self,
        params: &[(&str, String)],
        doomed: &[String],
    ) -> Result<Vec<String>, RpcError> {
        let listed = || async {
            let list = self.snapshots(params).await?;
            let left: Vec<String> = list
                .into_iter()
                .map(|s| s.snapshot_id)
                .filter(|id| doomed.contains(id))
                .collect();
            Ok((!left.is_empty()).then_some(left))
        };
        let read = self
            .common
            .readback
            .poll_listed(
                1,
                listed,
                |l: Option<&Vec<String>>| l.is_none(),
                |e: &RpcError| matches!(e, RpcError::Auth { .. }),
            )
            .await;
        read.map(Option::unwrap_or_default)
    }

    /// Takes a snapshot of the system disk and waits until it is accomplished. The outer error
    /// is a failure to call; the inner one says why nothing will be deleted.
    // The inner `String`: why nothing will be deleted, said in the report, never matched on.
    async fn final_snapshot(
        &self,
        calls: &mut Vec<String>,
    ) -> Result<Result<String, String>, ProviderError> {
        let Some(disk) = self.known().system_disk else {
            return Ok(Err(crate::t!("alibaba-snap-no-disk").into_owned()));
        };
        let params = [
            ("DiskId", disk),
            ("SnapshotName", "gpumeter-final".to_string()),
            ("ClientToken", client_token()),
        ];
        calls.push(self.line(Product::Ecs, "CreateSnapshot", &params));
        let created: CreatedSnapshot = self
            .rpc
            .call(Product::Ecs, "CreateSnapshot", &params)
            .await
            .map_err(ProviderError::from)?;
        let id = created.snapshot_id;
        let filter = [("SnapshotIds", json_ids(&[&id]))];
        calls.push(crate::t!(
            "alibaba-call-until-accomplished",
            call = self.line(Product::Ecs, "DescribeSnapshots", &filter)
        ));
        let mut status = crate::t!("alibaba-snap-not-listed").into_owned();
        for attempt in 0..self.common.readback.attempts.max(1) {
            if attempt > 0 {
                tokio::time::sleep(self.common.readback.interval).await;
            }
            if let Ok(list) = self.snapshots(&filter).await
                && let Some(s) = list.iter().find(|s| s.snapshot_id == id)
            {
                status.clone_from(&s.status);
            }
            if status == "accomplished" || status == "failed" {
                break;
            }
        }
        Ok(if status == "accomplished" {
            Ok(id)
        } else {
            Err(crate::t!(
                "alibaba-snap-final-not-done",
                id = id.as_str(),
                status = status
            ))
        })
    }
}

impl AlibabaCloud {
    /// Releases an elastic IP the instance left behind (it must be unbound), then reads it
    /// back: `true` only when DescribeEipAddresses no longer lists it.
    pub async fn release_eip(&self, allocation_id: &str) -> Result<(bool, String), ProviderError> {
        let params = [("AllocationId", allocation_id.to_string())];
        let call = self
            .rpc
            .call::<Ack>(Product::Vpc, "ReleaseEipAddress", &params)
            .await;
        let listed = self
            .rpc
            .call::<super::model::EipsReply>(Product::Vpc, "DescribeEipAddresses", &params)
            .await;
        match (call, listed) {
            (_, Ok(list)) => {
                let left = list
                    .eip_addresses
                    .items
                    .iter()
                    .find(|e| e.allocation_id == allocation_id)
                    .map(|e| e.status.clone());
                Ok(match left {
                    None => (true, crate::t!("alibaba-eip-released", id = allocation_id)),
                    Some(status) => (
                        false,
                        crate::t!(
                            "alibaba-eip-still-listed",
                            id = allocation_id,
                            status = status
                        ),
                    ),
                })
            }
            (Err(e), Err(_)) => Err(e.into()),
            (Ok(_), Err(e)) => Ok((
                false,
                crate::t!(
                    "alibaba-accepted-unread",
                    call = "ReleaseEipAddress",
                    error = e.to_string()
                ),
            )),
        }
    }
}
