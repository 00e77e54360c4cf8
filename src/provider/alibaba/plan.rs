//! `--dry-run`: the exact calls an action would make, from what the last inventory saw.

use super::AlibabaCloud;
use super::model;
use super::rpc::Product;
use crate::provider::rpc_cloud::{Call, InstanceApi, actions};
use crate::provider::{Action, SnapshotPlan};

impl AlibabaCloud {
    pub(super) fn plan_calls(&self, action: &Action) -> Vec<String> {
        let id = self.planned_instance();
        let known = self.known();
        match action {
            Action::Release => actions::plan(self, Call::Release, &id),
            Action::Stop => actions::plan(self, Call::Stop, &id),
            Action::SnapshotClean {
                keep,
                final_snapshot,
                ..
            } => {
                let mut calls = Vec::new();
                let plan = SnapshotPlan::new(&known.resources, *keep, *final_snapshot);
                let keep = if *final_snapshot {
                    let disk = known
                        .system_disk
                        .clone()
                        .unwrap_or_else(|| crate::t!("alibaba-plan-system-disk").into_owned());
                    calls.push(self.line(
                        Product::Ecs,
                        "CreateSnapshot",
                        &[
                            ("DiskId", disk),
                            ("SnapshotName", "gpumeter-final".into()),
                            ("ClientToken", "<token>".into()),
                        ],
                    ));
                    let new_one = crate::t!("alibaba-plan-new-snapshot").into_owned();
                    calls.push(crate::t!(
                        "alibaba-call-until-accomplished",
                        call = self.line(
                            Product::Ecs,
                            "DescribeSnapshots",
                            &[("SnapshotIds", new_one)]
                        )
                    ));
                    (*keep).max(1) - 1
                } else {
                    *keep
                };
                calls.push(self.line(Product::Ecs, "DescribeSnapshots", &[("InstanceId", id)]));
                if known.resources.is_empty() {
                    calls.push(self.line(
                        Product::Ecs,
                        "DeleteSnapshot",
                        &[(
                            "SnapshotId",
                            crate::t!("alibaba-plan-each-beyond", keep = keep.to_string()),
                        )],
                    ));
                }
                for snap in &plan.deleted {
                    calls.push(self.line(
                        Product::Ecs,
                        "DeleteSnapshot",
                        &[("SnapshotId", snap.clone())],
                    ));
                }
                let deleted = crate::t!("alibaba-plan-deleted-ones").into_owned();
                calls.push(crate::t!(
                    "rpc-call-read-back",
                    call = self.line(
                        Product::Ecs,
                        "DescribeSnapshots",
                        &[("SnapshotIds", deleted)]
                    )
                ));
                calls
            }
            Action::Cleanup { .. } => Vec::new(),
            Action::Start => actions::plan(self, Call::Start, &id),
            Action::SetDeadline { at } => {
                let mut params = vec![("InstanceId", id.clone())];
                if let Some(at) = at {
                    params.push((
                        "AutoReleaseTime",
                        model::format_time(super::actions::to_minute(*at)),
                    ));
                }
                vec![
                    self.line(Product::Ecs, "ModifyInstanceAutoReleaseTime", &params),
                    self.readback_line(&id, &crate::t!("alibaba-until-release-time")),
                ]
            }
        }
    }
}
