//! Cloud providers: one adapter per provider behind the [`Provider`] trait.
//!
//! Every action reads the provider's state back and reports what the provider says: an action is
//! `confirmed` only when the read-back shows it happened, never on hope.

use async_trait::async_trait;
use jiff::Timestamp;

pub use gpumeter_core::cloud::*;

pub mod alibaba;
pub mod autodl;
pub mod aws;
pub mod bearer;
mod bearer_held;
pub mod by_instance;
pub mod cleanup;
pub mod command;
pub mod delete_steps;
pub mod demo;
pub mod env;
pub mod http;
pub mod identity;
pub mod ini;
pub mod key_cache;
pub mod key_pair_settings;
pub mod lambda;
pub mod left_by;
#[cfg(test)]
pub(crate) mod metadata_stub;
pub mod none;
pub mod one_line;
pub mod readback;
pub mod refresh;
pub mod role_keys;
pub mod rpc_cloud;
pub mod runpod;
pub mod seen;
mod setters;
pub mod signing;
pub mod tag_lists;
pub mod tencent;
pub mod vast;

/// The longest any action may take, its calls and read-back included, from the command line
/// and the cockpit alike. Release and stop end well within it on their own (their read-back is
/// bounded); a provider whose calls hang must not leave the user waiting without a word longer.
pub const ACTION_DEADLINE: std::time::Duration = std::time::Duration::from_secs(180);

#[async_trait]
pub trait Provider: Send + Sync {
    /// The adapter's name (`demo`, `aws`, `alibaba`, ...).
    fn name(&self) -> &str;

    fn capabilities(&self) -> Capabilities;

    /// What this data directory has seen exist (from the ledger), for the rule that an instance
    /// the provider does not list counts as released only if it was seen ([`Seen::absent`]).
    /// Adapters that never read "absent" as "done" ignore it.
    fn add_seen(&self, _seen: &Seen) {}

    /// The calls `action` would make, without making them (`--dry-run`): a cleanup's deletes
    /// in its order, else [`Provider::plan_instance`].
    fn plan(&self, action: &Action) -> Vec<String> {
        match action {
            Action::Cleanup { delete } => cleanup::plan(self, delete),
            _ => self.plan_instance(action),
        }
    }

    /// The calls an action on the instance would make (any action but a cleanup).
    fn plan_instance(&self, action: &Action) -> Vec<String>;

    /// The instance and every linked billable resource.
    async fn inventory(&self) -> Result<Inventory, ProviderError>;

    /// The instance's state alone, in one call where the cloud has one: what a long-running
    /// view asks between full inventories ([`refresh`]). Where a cloud has none, only the
    /// full inventory tells.
    async fn look(&self) -> Result<refresh::Look, ProviderError> {
        Ok(refresh::Look::OnlyByInventory)
    }

    /// Runs `action`, then reads the state back and reports what the provider says: a cleanup
    /// deletes each resource through [`Provider::delete`], anything else is
    /// [`Provider::act`].
    async fn perform(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        match action {
            Action::Cleanup { delete } => Ok(cleanup::perform(self, delete).await),
            _ => self.act(action).await,
        }
    }

    /// Runs an action on the instance (any action but a cleanup), then reads the state back
    /// and reports what the provider says.
    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError>;

    /// `base` with the rates the provider reported for this instance (a Vast.ai host sets its
    /// own storage and bandwidth prices), after an inventory; `None` keeps `base`.
    fn own_sheet(&self, _base: &crate::pricing::Sheet) -> Option<crate::pricing::Sheet> {
        None
    }

    /// What the last inventory could not read, one line each (a listing the key may not make):
    /// the inventory stands without it, but may leave out something that bills. Empty when it
    /// read everything.
    fn gaps(&self) -> Vec<String> {
        Vec::new()
    }

    /// Everything in the region that bills with no running instance using it: unattached disks,
    /// unassociated addresses, the account's snapshots and images, the disks of stopped
    /// instances. Independent of this adapter's instance, so it works after a release and for
    /// an account no instance of this data directory ever ran in.
    async fn sweep(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        Err(ProviderError::unsupported(
            self.name(),
            crate::t!("prov-unsupported-sweep"),
        ))
    }

    /// What [`Provider::sweep`] finds, for a caller that prices it and shows none of its
    /// exposure (`gpumeter fleet`): an adapter that reads who may use a resource one call at a
    /// time may leave unknown here what its listings and what it kept do not say.
    async fn sweep_listed(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        self.sweep().await
    }

    /// Every GPU instance the account holds in this adapter's region, whatever its state, with
    /// the resources the provider ties to it and its tags: every page of every listing read to
    /// its end (`gpumeter fleet` over an account, no instance id needed). Instances without a GPU
    /// are left out.
    async fn instances(&self) -> Result<Vec<Discovered>, ProviderError> {
        Err(ProviderError::unsupported(
            self.name(),
            crate::t!("prov-unsupported-instances"),
        ))
    }

    /// The regions a sweep of the whole account visits one by one (`sweep --all-regions`): those
    /// enabled for the account. `None` when this adapter's [`Provider::sweep`] already covers
    /// the whole account, as for clouds without regions in their API.
    async fn regions(&self) -> Result<Option<Vec<String>>, ProviderError> {
        Ok(None)
    }

    /// The calls deleting `resource` would make, in order (`--dry-run`); empty where this
    /// adapter cannot delete it.
    fn delete_plan(&self, _resource: &LinkedResource) -> Vec<String> {
        Vec::new()
    }

    /// Deletes `resource` (a disk detached, an address disassociated, first), then reads it
    /// back: `confirmed` only when the provider no longer lists it or shows it deleted. The
    /// provider's own refusal comes back as it is.
    async fn delete(&self, resource: &LinkedResource) -> Result<ActionReport, ProviderError> {
        Err(ProviderError::unsupported(
            self.name(),
            crate::t!("prov-unsupported-delete", kind = resource.kind.shown()),
        ))
    }

    /// What a prepaid account holds now, for a provider that bills from a balance; `None`
    /// where the provider keeps none (it bills a card) or this adapter does not read it.
    async fn balance(&self) -> Result<Option<Balance>, ProviderError> {
        Ok(None)
    }

    /// When the provider will reclaim this spot instance, once it has said so; `None` while
    /// there is no notice (and always for providers without spot interruptions).
    async fn interruption_notice(&self) -> Result<Option<Timestamp>, ProviderError> {
        Ok(None)
    }

    /// When the keys this adapter acts with stop working, with nothing here able to renew them
    /// (AWS keys exported with `AWS_CREDENTIAL_EXPIRATION`): a deadline past it cannot be acted
    /// on. `None` for keys without an end, or that renew themselves.
    fn keys_expire(&self) -> Option<Timestamp> {
        None
    }

    /// The prepaid term (包年包月) the last inventory read reported: its end and, where the
    /// cloud says, its auto-renew switch. `None` for a pay-as-you-go instance, before the
    /// first read, and for clouds whose listing does not report one.
    fn subscription(&self) -> Option<crate::subscription::Reported> {
        None
    }
}
