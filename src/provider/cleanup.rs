//! Running a cleanup: each resource of a [`CleanupPlan`](super::CleanupPlan) deleted in the
//! plan's order through [`Provider::delete`], which reads it back. A snapshot behind an image
//! whose delete failed is not tried, since the provider would refuse it. The command line prints
//! each outcome; the cockpit gets them as one report.

use std::time::Duration;

use super::{Action, ActionReport, LinkedResource, Provider, ProviderError};
use crate::meter::ResourceKind;

/// How much sooner than the action's deadline a cleanup inside `perform` stops.
const REPORT_MARGIN: Duration = Duration::from_secs(5);

/// What came of deleting one resource.
#[derive(Debug)]
pub struct Outcome {
    pub resource: LinkedResource,
    /// The read-back report, or why it failed or was not tried.
    pub result: Result<ActionReport, ProviderError>,
}

impl Outcome {
    pub fn confirmed(&self) -> bool {
        self.result.as_ref().is_ok_and(|r| r.confirmed)
    }
}

/// The calls deleting `delete` would make, in order (`--dry-run`).
pub fn plan<P: Provider + ?Sized>(provider: &P, delete: &[LinkedResource]) -> Vec<String> {
    delete
        .iter()
        .flat_map(|r| provider.delete_plan(r))
        .collect()
}

/// Deletes each of `delete` in order, one after another, all within the
/// [`ACTION_DEADLINE`](super::ACTION_DEADLINE) every action has.
pub async fn run<P: Provider + ?Sized>(provider: &P, delete: &[LinkedResource]) -> Vec<Outcome> {
    run_within(provider, delete, super::ACTION_DEADLINE).await
}

/// [`run`], the whole run given at most `deadline` (every call and read-back together): a
/// delete under way when it runs out is reported as unanswered, and those not reached as not
/// tried, never as done.
pub async fn run_within<P: Provider + ?Sized>(
    provider: &P,
    delete: &[LinkedResource],
    deadline: Duration,
) -> Vec<Outcome> {
    let end = tokio::time::Instant::now() + deadline;
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(delete.len());
    for resource in delete {
        let failed_image = resource.backs_image.as_ref().filter(|image| {
            outcomes
                .iter()
                .any(|o| &o.resource.id == *image && !o.confirmed())
        });
        let result = match failed_image {
            Some(image) if resource.kind == ResourceKind::Snapshot => Err(ProviderError::state(
                provider.name(),
                crate::t!("prov-cleanup-image-stayed", image = image.as_str()),
            )),
            _ if tokio::time::Instant::now() >= end => Err(ProviderError::unreachable(
                provider.name(),
                crate::t!(
                    "prov-cleanup-ran-out",
                    seconds = deadline.as_secs().to_string(),
                    id = resource.id.as_str()
                ),
            )),
            _ => tokio::time::timeout_at(end, provider.delete(resource))
                .await
                .unwrap_or_else(|_| {
                    Err(ProviderError::unreachable(
                        provider.name(),
                        crate::t!(
                            "prov-cleanup-no-answer",
                            id = resource.id.as_str(),
                            seconds = deadline.as_secs().to_string()
                        ),
                    ))
                }),
        };
        outcomes.push(Outcome {
            resource: resource.clone(),
            result,
        });
    }
    outcomes
}

/// The outcomes as one report: confirmed only when every delete was read back.
pub fn report(delete: &[LinkedResource], outcomes: &[Outcome]) -> ActionReport {
    let done = outcomes.iter().filter(|o| o.confirmed()).count();
    let mut calls = Vec::new();
    let mut failures = Vec::new();
    for o in outcomes {
        match &o.result {
            Ok(report) => {
                calls.extend(report.calls.iter().cloned());
                if !report.confirmed {
                    failures.push(crate::t!(
                        "prov-cleanup-not-confirmed",
                        id = o.resource.id.as_str(),
                        summary = report.summary.as_str()
                    ));
                }
            }
            Err(e) => failures.push(crate::t!(
                "prov-cleanup-failed",
                id = o.resource.id.as_str(),
                error = e.shown()
            )),
        }
    }
    calls.extend(failures.iter().cloned());
    let mut summary = crate::t!(
        "prov-cleanup-summary",
        done = done.to_string(),
        total = outcomes.len().to_string()
    );
    if let Some(first) = failures.first() {
        summary = crate::t!(
            "prov-cleanup-summary-first",
            summary = summary,
            first = first.as_str()
        );
        if failures.len() > 1 {
            summary = crate::t!(
                "prov-cleanup-and-more",
                summary = summary,
                more = (failures.len() - 1).to_string()
            );
        }
    }
    ActionReport {
        action: Action::Cleanup {
            delete: delete.to_vec(),
        },
        confirmed: done == outcomes.len(),
        summary,
        calls,
    }
}

/// [`run`] and [`report`] together, for an adapter's `perform`.
pub async fn perform<P: Provider + ?Sized>(
    provider: &P,
    delete: &[LinkedResource],
) -> ActionReport {
    // The cockpit bounds the whole action by the same deadline; ending a little sooner lets
    // each delete's outcome reach it, where its own bound would report only "no answer".
    let bound = super::ACTION_DEADLINE.saturating_sub(REPORT_MARGIN);
    let outcomes = run_within(provider, delete, bound).await;
    report(delete, &outcomes)
}

/// What an adapter's own action code answers if a cleanup reaches it: its `perform` hands a
/// cleanup to [`perform`] before anything else, so this is never the path a user sees.
pub fn not_here(provider: &str) -> ProviderError {
    ProviderError::unsupported(provider, crate::t!("prov-cleanup-not-here"))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use std::sync::Mutex;

    use async_trait::async_trait;
    use jiff::Timestamp;
    use rust_decimal::Decimal;

    use super::*;
    use crate::provider::{Capabilities, Inventory};

    /// Refuses to delete `ami-1`; deletes anything else and remembers the order.
    struct Refusing(Mutex<Vec<String>>);

    #[async_trait]
    impl Provider for Refusing {
        fn name(&self) -> &'static str {
            "test"
        }
        fn capabilities(&self) -> Capabilities {
            Capabilities::NONE
        }
        fn plan_instance(&self, _: &Action) -> Vec<String> {
            Vec::new()
        }
        async fn inventory(&self) -> Result<Inventory, ProviderError> {
            Err(ProviderError::unsupported("test", "inventory"))
        }
        async fn act(&self, _: &Action) -> Result<ActionReport, ProviderError> {
            Err(ProviderError::unsupported("test", "perform"))
        }
        async fn delete(&self, r: &LinkedResource) -> Result<ActionReport, ProviderError> {
            self.0.lock().unwrap().push(r.id.clone());
            if r.id == "vol-slow" {
                std::future::pending::<()>().await;
            }
            if r.id == "ami-1" {
                return Err(
                    ProviderError::state("test", "image in use by a launch template")
                        .with_code("InvalidAMIID.InUse"),
                );
            }
            Ok(ActionReport {
                action: Action::Cleanup {
                    delete: vec![r.clone()],
                },
                confirmed: true,
                summary: format!("{} is gone", r.id),
                calls: vec![format!("Delete {}", r.id)],
            })
        }
    }

    fn res(id: &str, kind: ResourceKind, image: Option<&str>) -> LinkedResource {
        LinkedResource {
            id: id.into(),
            name: String::new(),
            kind,
            class: None,
            size_gib: Decimal::ONE,
            state: "available".into(),
            created: Timestamp::UNIX_EPOCH,
            deleted_with_instance: false,
            backs_image: image.map(str::to_string),
            attached_to: None,
            exposure: crate::provider::Exposure::default(),
            origin: None,
            tags: BTreeMap::new(),
        }
    }

    #[test]
    fn a_snapshot_behind_an_image_that_stayed_is_not_tried() {
        let provider = Refusing(Mutex::new(Vec::new()));
        let delete = vec![
            res("ami-1", ResourceKind::Image, None),
            res("vol-1", ResourceKind::DataDisk, None),
            res("snap-1", ResourceKind::Snapshot, Some("ami-1")),
        ];
        let outcomes = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(run(&provider, &delete));
        assert_eq!(*provider.0.lock().unwrap(), ["ami-1", "vol-1"]);
        let done: Vec<bool> = outcomes.iter().map(Outcome::confirmed).collect();
        assert_eq!(done, [false, true, false]);
        let report = report(&delete, &outcomes);
        assert!(!report.confirmed);
        assert!(
            report
                .summary
                .starts_with("1 of 3 deleted and read back; ami-1: ")
                && report.summary.contains("(and 1 more)"),
            "{}",
            report.summary
        );
        assert!(
            report
                .calls
                .iter()
                .any(|c| c.contains("snap-1") && c.contains("not tried")),
            "{:?}",
            report.calls
        );
    }

    #[test]
    fn the_report_is_said_in_chinese_with_its_counts_and_ids() {
        use crate::i18n::{self, Lang};
        let delete = vec![
            res("vol-1", ResourceKind::DataDisk, None),
            res("vol-2", ResourceKind::DataDisk, None),
        ];
        let done = Outcome {
            resource: delete[0].clone(),
            result: Ok(ActionReport {
                action: Action::Cleanup {
                    delete: vec![delete[0].clone()],
                },
                confirmed: true,
                summary: "gone".into(),
                calls: Vec::new(),
            }),
        };
        let failed = Outcome {
            resource: delete[1].clone(),
            result: Err(ProviderError::unsupported("test", "x")),
        };
        let report = i18n::scoped(Lang::ZhCn, || report(&delete, &[done, failed]));
        assert!(
            report
                .summary
                .starts_with("2 项中已删除并回读确认 1 项；vol-2：test 无法执行：x"),
            "{}",
            report.summary
        );
    }

    #[test]
    fn hanging_deletes_share_one_bound_and_what_is_not_reached_is_not_tried_never_done() {
        let provider = Refusing(Mutex::new(Vec::new()));
        let delete = vec![
            res("vol-1", ResourceKind::DataDisk, None),
            res("vol-slow", ResourceKind::DataDisk, None),
            res("vol-slow", ResourceKind::DataDisk, None),
            res("vol-2", ResourceKind::DataDisk, None),
        ];
        let bound = Duration::from_secs(180);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        let (outcomes, took) = rt.block_on(async {
            let start = tokio::time::Instant::now();
            let outcomes = run_within(&provider, &delete, bound).await;
            (outcomes, start.elapsed())
        });
        assert!(took <= bound, "the run took {took:?}, past its bound");
        let done: Vec<bool> = outcomes.iter().map(Outcome::confirmed).collect();
        assert_eq!(done, [true, false, false, false]);
        let said = |i: usize| outcomes[i].result.as_ref().unwrap_err().to_string();
        assert!(
            said(1).contains("no answer to deleting vol-slow within 180 s, the whole cleanup's"),
            "{}",
            said(1)
        );
        for i in [2, 3] {
            assert!(said(i).contains("not tried"), "{}", said(i));
        }
        assert_eq!(
            *provider.0.lock().unwrap(),
            ["vol-1", "vol-slow"],
            "nothing is sent once the bound ran out"
        );
    }
}
