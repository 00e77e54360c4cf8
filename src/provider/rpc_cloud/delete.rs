//! Deleting one resource a sweep or an inventory found, the same way on every signed-API cloud:
//! through [`delete_steps`], read again just before, freed (detached, disassociated) only from
//! the stopped instance the plan showed, and confirmed only on proof that it is gone. Each cloud
//! names its calls and reads ([`DeleteApi`]); the order, the `--dry-run` lines and how each
//! answer counts are here, so `--dry-run` prints exactly what a delete makes.

use std::fmt::Display;

use async_trait::async_trait;

use super::{CallError, InstanceApi, Listed};
use crate::meter::ResourceKind;
use crate::provider::delete_steps::{self, Deleting, Found, Now, Plan, Sent, Step};
use crate::provider::{Action, ActionReport, LinkedResource, Provider, ProviderError};

/// One call: its action and what it sends.
pub struct Request<B> {
    pub action: &'static str,
    pub body: B,
}

pub fn request<B>(action: &'static str, body: B) -> Request<B> {
    Request { action, body }
}

/// What deleting one resource takes, in order.
pub struct Steps<B> {
    /// The freeing call (a detach, a disassociation), for a resource that may be attached to
    /// something.
    pub free: Option<&'static str>,
    /// The state the resource must reach after `free` before it can be deleted.
    pub freed: &'static str,
    pub delete: Request<B>,
}

impl<B> Steps<B> {
    /// A resource freed by the call `free` first, deleted by `delete` once it reads `freed`.
    pub fn freed_first(free: &'static str, freed: &'static str, delete: Request<B>) -> Self {
        Steps {
            free: Some(free),
            freed,
            delete,
        }
    }

    /// A resource deleted by one call, with nothing to free first.
    pub fn delete(action: &'static str, body: B) -> Self {
        Steps {
            free: None,
            freed: "",
            delete: request(action, body),
        }
    }
}

/// What one cloud fills in to delete resources.
#[async_trait]
pub trait DeleteApi: InstanceApi + Provider {
    type Body: Send + Sync;
    /// Why a resource could not be read.
    type Unread: Display + Send + From<Self::Error>;
    /// The calls deleting `r` takes; `None` for a kind this cloud does not delete.
    fn steps(r: &LinkedResource) -> Option<Steps<Self::Body>>;
    /// The listing a resource is read back from, by id.
    fn lookup(kind: ResourceKind, id: &str) -> Request<Self::Body>;
    /// The freeing call of `kind` from instance `on`, where it has one.
    fn free_call(kind: ResourceKind, id: &str, on: &str) -> Option<Request<Self::Body>>;
    /// `call` in the words `--dry-run` prints.
    fn request_line(&self, call: &Request<Self::Body>) -> String;
    /// Sends `call`.
    async fn send_request(&self, call: &Request<Self::Body>) -> Result<(), Self::Error>;
    /// One read of resource `id`.
    async fn read(&self, kind: ResourceKind, id: &str) -> Result<Found, Self::Unread>;
    /// Whether a failed read is one that waiting cannot mend (a refused key).
    fn stops(e: &Self::Unread) -> bool;
    /// Refuses, before any call, a resource named in a way the delete cannot use.
    fn check(&self, _r: &LinkedResource) -> Result<(), ProviderError> {
        Ok(())
    }
}

/// The calls deleting `r` makes, in order; empty where it cannot be deleted here. A disk or an
/// address is read first, and freed only where the plan showed it attached.
pub fn plan<C: DeleteApi>(c: &C, r: &LinkedResource) -> Vec<String> {
    let Some(steps) = C::steps(r) else {
        return Vec::new();
    };
    let read = c.request_line(&C::lookup(r.kind, &r.id));
    let mut calls = Vec::new();
    if steps.free.is_some() {
        calls.push(crate::t!("rpc-plan-read-again", call = read.as_str()));
    }
    let shown = r.attached_to.as_deref().filter(|on| !on.is_empty());
    if let Some((on, free)) = shown.and_then(|on| Some((on, C::free_call(r.kind, &r.id, on)?))) {
        calls.push(crate::t!(
            "rpc-plan-only-stopped",
            call = c.describe_line(on)
        ));
        calls.push(c.request_line(&free));
        calls.push(crate::t!(
            "rpc-plan-until",
            call = read.as_str(),
            state = steps.freed
        ));
    }
    calls.push(c.request_line(&steps.delete));
    calls.push(crate::t!("rpc-plan-read-back-gone", call = read));
    calls
}

/// Deletes `r` and reads it back; the provider's refusal is the error.
pub async fn delete<C: DeleteApi>(
    c: &C,
    r: &LinkedResource,
) -> Result<ActionReport, ProviderError> {
    let Some(steps) = C::steps(r) else {
        return Err(ProviderError::unsupported(
            c.name(),
            crate::t!("rpc-delete-not-built", kind = r.kind.label()),
        ));
    };
    c.check(r)?;
    let what = format!("{} {}", r.kind.label(), r.id);
    let steps_plan = Plan {
        what: &what,
        shown_on: r.attached_to.as_deref().filter(|on| !on.is_empty()),
        free: steps.free,
        freed: steps.freed,
        delete: steps.delete.action,
        gone_state: None,
    };
    let mut one = One {
        cloud: c,
        r,
        steps: &steps,
    };
    let (confirmed, summary) = delete_steps::run(&mut one, &steps_plan, c.readback()).await?;
    Ok(ActionReport {
        action: Action::Cleanup {
            delete: vec![r.clone()],
        },
        confirmed,
        summary,
        calls: plan(c, r),
    })
}

/// One resource being deleted.
struct One<'a, C: DeleteApi> {
    cloud: &'a C,
    r: &'a LinkedResource,
    steps: &'a Steps<C::Body>,
}

#[async_trait]
impl<C: DeleteApi> Deleting for One<'_, C> {
    type Failed = C::Error;
    type Unread = C::Unread;

    async fn read(&mut self) -> Result<Found, C::Unread> {
        self.cloud.read(self.r.kind, &self.r.id).await
    }

    fn stops(&self, e: &C::Unread) -> bool {
        C::stops(e)
    }

    async fn instance_state(&mut self, id: &str) -> Result<Option<String>, C::Unread> {
        let found = self.cloud.describe_instance(id).await?;
        Ok(found.map(|i| i.state().to_string()))
    }

    /// A refusal is the provider's answer and comes back as it is; a call that may or may not
    /// have been done is left to the read-back.
    async fn send(
        &mut self,
        step: Step,
        now: Option<&Now>,
    ) -> Result<Sent<C::Error>, ProviderError> {
        let freeing;
        let call = match step {
            Step::Free => {
                let on = now.and_then(|n| n.on.as_deref()).unwrap_or_default();
                freeing = C::free_call(self.r.kind, &self.r.id, on).ok_or_else(|| {
                    ProviderError::unsupported(self.cloud.name(), crate::t!("rpc-free-unsupported"))
                })?;
                &freeing
            }
            Step::Delete => &self.steps.delete,
        };
        match self.cloud.send_request(call).await {
            Ok(()) => Ok(Sent::Accepted),
            Err(e) if e.is_not_found() => Ok(Sent::NotFound(e)),
            Err(e) if e.is_refusal() => Err(e.into()),
            Err(e) => Ok(Sent::Unanswered(e)),
        }
    }
}
