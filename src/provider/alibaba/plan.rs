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
                        .unwrap_or_else(|| "<the system disk>".into());
                    calls.push(self.line(
                        Product::Ecs,
                        "CreateSnapshot",
                        &[
                            ("DiskId", disk),
                            ("SnapshotName", "gpumeter-final".into()),
                            ("ClientToken", "<token>".into()),
                        ],
                    ));
                    calls.push(
                        self.line(
                            Product::Ecs,
                            "DescribeSnapshots",
                            &[("SnapshotIds", "[<the new one>]".into())],
                        ) + " (until accomplished)",
                    );
                    (*keep).max(1) - 1
                } else {
                    *keep
                };
                calls.push(self.line(Product::Ecs, "DescribeSnapshots", &[("InstanceId", id)]));
                if known.resources.is_empty() {
                    calls.push(self.line(
                        Product::Ecs,
                        "DeleteSnapshot",
                        &[("SnapshotId", format!("<each beyond the newest {keep}>"))],
                    ));
                }
                for snap in &plan.deleted {
                    calls.push(self.line(
                        Product::Ecs,
                        "DeleteSnapshot",
                        &[("SnapshotId", snap.clone())],
                    ));
                }
                calls.push(
                    self.line(
                        Product::Ecs,
                        "DescribeSnapshots",
                        &[("SnapshotIds", "[the deleted ones]".into())],
                    ) + " (read back)",
                );
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
                    self.readback_line(&id, "AutoReleaseTime shows it"),
                ]
            }
        }
    }
}
