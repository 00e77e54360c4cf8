//! Running a cleanup: each resource of a [`CleanupPlan`](super::CleanupPlan) deleted in the
//! plan's order through [`Provider::delete`], which reads it back. A snapshot behind an image
//! whose delete failed is not tried, since the provider would refuse it. The command line prints
//! each outcome; the cockpit gets them as one report.

use super::{Action, ActionReport, LinkedResource, Provider, ProviderError};
use crate::meter::ResourceKind;

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

/// Deletes each of `delete` in order, one after another.
pub async fn run<P: Provider + ?Sized>(provider: &P, delete: &[LinkedResource]) -> Vec<Outcome> {
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
                format!("not tried: image {image} that uses it was not deleted"),
            )),
            _ => provider.delete(resource).await,
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
                    failures.push(format!(
                        "{}: NOT confirmed: {}",
                        o.resource.id, report.summary
                    ));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", o.resource.id)),
        }
    }
    calls.extend(failures.iter().cloned());
    let mut summary = format!("{done} of {} deleted and read back", outcomes.len());
    if let Some(first) = failures.first() {
        summary.push_str("; ");
        summary.push_str(first);
        if failures.len() > 1 {
            summary.push_str(&format!(" (and {} more)", failures.len() - 1));
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
    let outcomes = run(provider, delete).await;
    report(delete, &outcomes)
}

/// What an adapter's own action code answers if a cleanup reaches it: its `perform` hands a
/// cleanup to [`perform`] before anything else, so this is never the path a user sees.
pub fn not_here(provider: &str) -> ProviderError {
    ProviderError::unsupported(
        provider,
        "a cleanup as one call (it runs one delete at a time)",
    )
}
