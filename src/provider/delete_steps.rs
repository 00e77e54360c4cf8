//! Deleting one resource that an instance may use, the same way on every provider that
//! detaches: read it again just before the destructive call, free it (detach, disassociate)
//! only from the stopped instance the confirmed plan showed, delete it, and call it gone only on
//! proof. Proof is the provider's not-found answer for the id, a state that says deleted in so
//! many words, or [`EMPTY_READS`] reads in a row that do not list it: eventually consistent
//! listings answer one empty page now and then, and one empty page proves nothing.

use std::fmt::Display;

use async_trait::async_trait;

use super::ProviderError;
pub use super::readback::EMPTY_READS;
use super::readback::Readback;

/// A resource as one read lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Now {
    /// The provider's word for its state.
    pub state: String,
    /// The instance (or, with none, the interface) it is attached to or associated with now.
    pub on: Option<String>,
    /// What the freeing call names besides the resource (EC2's association id).
    pub link: Option<String>,
}

/// What one read by id found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    Listed(Now),
    /// Not in the answer: alone, this proves nothing.
    Absent,
    /// The provider's own not-found answer for this id: proof it is gone.
    NotFound,
}

/// What came of sending one call that the provider did not refuse.
#[derive(Debug)]
pub enum Sent<E> {
    Accepted,
    /// The provider's not-found answer for the id.
    NotFound(E),
    /// No answer, or one that cannot say (a timeout, a 5xx): it may or may not have been done.
    Unanswered(E),
}

/// Which call of the sequence is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Detach the disk or disassociate the address, from the instance the read found.
    Free,
    Delete,
}

/// One provider's calls for one resource.
#[async_trait]
pub trait Deleting: Send {
    type Failed: Display + Send;
    type Unread: Display + Send;
    /// One read of the resource by id.
    async fn read(&mut self) -> Result<Found, Self::Unread>;
    /// Whether a failed read is one that waiting cannot mend (a refused key).
    fn stops(&self, e: &Self::Unread) -> bool;
    /// The state instance `id` is in now; `None` when the provider does not list it.
    async fn instance_state(&mut self, id: &str) -> Result<Option<String>, Self::Unread>;
    /// Sends `step`, with what the last read found; the provider's refusal is the outer error.
    async fn send(
        &mut self,
        step: Step,
        now: Option<&Now>,
    ) -> Result<Sent<Self::Failed>, ProviderError>;
}

/// What the confirmed plan showed, and the calls' names for the summaries.
#[derive(Debug, Clone, Copy)]
pub struct Plan<'a> {
    /// The resource in words: `disk d-1`.
    pub what: &'a str,
    /// The instance the plan showed it attached to.
    pub shown_on: Option<&'a str>,
    /// The freeing call, where this kind has one; a kind with none is deleted without a
    /// read before.
    pub free: Option<&'a str>,
    /// The state it reads once freed.
    pub freed: &'a str,
    pub delete: &'a str,
    /// A state that says gone in so many words (EC2's `deleted`).
    pub gone_state: Option<&'a str>,
}

/// Whether `what`, now on instance `on` in `state` (`None`: not listed), may be freed. Only
/// from a stopped instance the plan showed, or a terminated one: never from an instance that
/// runs, starts or stops, and never from one the user did not see in the plan.
// A `String` error: the refusal, shown as the resource's outcome; no caller matches on it.
pub fn may_free(plan: &Plan<'_>, on: &str, state: Option<&str>) -> Result<(), String> {
    let what = plan.what;
    let Some(state) = state else {
        return Err(crate::t!("prov-free-unlisted-user", what = what, on = on));
    };
    let is = |s: &str| state.eq_ignore_ascii_case(s);
    if is("terminated") || (is("stopped") && plan.shown_on == Some(on)) {
        return Ok(());
    }
    if is("stopped") {
        let shown = plan.shown_on.map_or_else(
            || crate::t!("prov-free-shown-free").into_owned(),
            |i| crate::t!("prov-free-shown-on", instance = i),
        );
        return Err(crate::t!(
            "prov-free-moved",
            what = what,
            on = on,
            state = state,
            shown = shown
        ));
    }
    Err(crate::t!(
        "prov-free-in-use",
        what = what,
        on = on,
        state = state
    ))
}

/// How a watch of the resource ended.
enum Seen<U> {
    Listed(Now),
    /// Gone, and how that was proved.
    Gone(String),
    Unread(U),
}

/// Reads until `ends` holds for what is listed, or it is proved gone, at most `attempts` reads
/// (at least one) `interval` apart; a run of empty reads under way may finish past that bound.
async fn watch<D: Deleting>(
    d: &mut D,
    plan: &Plan<'_>,
    readback: &Readback,
    attempts: u32,
    ends: impl Fn(&Now) -> bool + Send,
) -> Seen<D::Unread> {
    let mut empty = 0;
    let mut read = 1;
    loop {
        let last = match d.read().await {
            Ok(Found::NotFound) => {
                return Seen::Gone(crate::t!("prov-gone-not-found").into_owned());
            }
            Ok(Found::Absent) => {
                empty += 1;
                if empty >= EMPTY_READS {
                    return Seen::Gone(crate::t!("prov-gone-unlisted", reads = empty.to_string()));
                }
                None
            }
            Ok(Found::Listed(now)) => {
                empty = 0;
                if plan.gone_state.is_some_and(|g| now.state == g) {
                    return Seen::Gone(crate::t!("prov-gone-state", state = now.state.as_str()));
                }
                if ends(&now) {
                    return Seen::Listed(now);
                }
                Some(Seen::Listed(now))
            }
            Err(e) => {
                empty = 0;
                if d.stops(&e) {
                    return Seen::Unread(e);
                }
                Some(Seen::Unread(e))
            }
        };
        if read >= attempts.max(1)
            && let Some(last) = last
        {
            return last;
        }
        read += 1;
        tokio::time::sleep(readback.interval).await;
    }
}

fn said<U: Display>(seen: &Seen<U>) -> String {
    match seen {
        Seen::Listed(now) => crate::t!("prov-said-listed", state = now.state.as_str()),
        Seen::Gone(how) => crate::t!("prov-said-gone", how = how.as_str()),
        Seen::Unread(e) => crate::t!("prov-said-unread", error = e.to_string()),
    }
}

/// The whole sequence. Returns `(confirmed, summary)`; a refusal by the provider is the error.
pub async fn run<D: Deleting>(
    d: &mut D,
    plan: &Plan<'_>,
    readback: &Readback,
) -> Result<(bool, String), ProviderError> {
    let what = plan.what;
    let mut last = None;
    if let Some(free) = plan.free {
        match watch(d, plan, readback, 1, |_| true).await {
            Seen::Unread(e) => {
                return Ok((
                    false,
                    crate::t!("prov-delete-unread", what = what, error = e.to_string()),
                ));
            }
            // Not listed, even on several reads: the delete is sent anyway, and its answer says.
            Seen::Gone(_) => {}
            Seen::Listed(now) => {
                if let Some(on) = now.on.clone() {
                    let state = match d.instance_state(&on).await {
                        Ok(state) => state,
                        Err(e) => {
                            return Ok((
                                false,
                                crate::t!(
                                    "prov-delete-user-unread",
                                    what = what,
                                    on = on.as_str(),
                                    error = e.to_string()
                                ),
                            ));
                        }
                    };
                    if let Err(refused) = may_free(plan, &on, state.as_deref()) {
                        return Ok((false, refused));
                    }
                    let sent = d.send(Step::Free, Some(&now)).await?;
                    let attempts = match sent {
                        Sent::Accepted => readback.attempts,
                        _ => 1,
                    };
                    let freed = |n: &Now| n.state == plan.freed && n.on.is_none();
                    match watch(d, plan, readback, attempts, freed).await {
                        Seen::Listed(now) if freed(&now) => last = Some(now),
                        Seen::Gone(_) => {}
                        seen => {
                            let outcome = match sent {
                                Sent::Accepted => {
                                    crate::t!("prov-free-accepted", free = free, on = on.as_str())
                                }
                                Sent::NotFound(e) | Sent::Unanswered(e) => crate::t!(
                                    "prov-free-failed",
                                    free = free,
                                    on = on.as_str(),
                                    error = e.to_string()
                                ),
                            };
                            return Ok((
                                false,
                                crate::t!(
                                    "prov-free-not-freed",
                                    outcome = outcome,
                                    said = said(&seen),
                                    what = what
                                ),
                            ));
                        }
                    }
                } else {
                    last = Some(now);
                }
            }
        }
    }
    delete(d, plan, readback, last.as_ref()).await
}

/// The delete call, with what the last read found, and the watch for its proof.
async fn delete<D: Deleting>(
    d: &mut D,
    plan: &Plan<'_>,
    readback: &Readback,
    last: Option<&Now>,
) -> Result<(bool, String), ProviderError> {
    let (what, delete) = (plan.what, plan.delete);
    Ok(match d.send(Step::Delete, last).await? {
        Sent::NotFound(e) => (
            true,
            crate::t!(
                "prov-delete-not-found",
                what = what,
                delete = delete,
                error = e.to_string()
            ),
        ),
        Sent::Accepted => match watch(d, plan, readback, readback.attempts, |_| false).await {
            Seen::Gone(how) => (true, crate::t!("prov-deleted", what = what, how = how)),
            seen => (
                false,
                crate::t!(
                    "prov-delete-accepted-but",
                    delete = delete,
                    said = said(&seen)
                ),
            ),
        },
        Sent::Unanswered(e) => match watch(d, plan, readback, 1, |_| false).await {
            Seen::Gone(how) => (
                true,
                crate::t!(
                    "prov-deleted-unclear",
                    what = what,
                    delete = delete,
                    error = e.to_string(),
                    how = how
                ),
            ),
            seen => (
                false,
                crate::t!(
                    "prov-delete-failed",
                    delete = delete,
                    error = e.to_string(),
                    said = said(&seen)
                ),
            ),
        },
    })
}

#[cfg(test)]
#[path = "delete_steps_tests.rs"]
mod tests;
