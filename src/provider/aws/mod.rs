//! AWS EC2 through its Query API (2016-11-15), signed with SigV4 ([`sigv4`]), answers read with
//! roxmltree ([`xml`]). The instance comes from the flags or config, else from the instance
//! metadata service ([`imds`], IMDSv2). EC2 holds no release deadline, so that capability is off.
//!
//! Settings come from the standard AWS credential and region chain ([`credentials`]): the
//! environment, the shared files ([`profile`]), the instance role; secrets never reach an error,
//! a report or a `Debug` output.

pub mod actions;
pub mod chain;
pub mod container;
pub mod credentials;
pub mod delete;
pub mod discover;
pub mod elb;
mod elb_xml;
pub mod fetch;
pub mod imds;
pub mod inventory;
pub mod keys;
pub mod known;
mod links;
pub mod process;
pub mod profile;
pub mod query;
mod regions;
pub mod shares;
pub mod sigv4;
pub mod sts;
mod sweep;
pub mod xml;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use async_trait::async_trait;
use jiff::Timestamp;

use self::credentials::AwsSettings;
use self::fetch::{Session, filter, instance_param, owned_by_self};
use self::imds::{Imds, SpotNotice};
use self::known::Known;
use self::query::{Ec2, describe_call};
use self::shares::{Reads, Shares};
use super::ProviderKind;
use super::http::HttpPolicy;
use super::readback::Readback;
use super::seen::Sightings;
use super::{
    Action, ActionReport, Asked, Capabilities, Discovered, Inventory, LinkedResource, Provider,
    ProviderError, Seen, SnapshotPlan,
};
use crate::meter::InstanceState;

/// The adapter's id, in its errors and sightings.
const ID: &str = ProviderKind::Aws.id();

/// What the last inventory saw, so `--dry-run` can name the exact ids it would touch.
#[derive(Debug, Clone, Default)]
struct Last {
    instance: Option<String>,
    root_volume: Option<String>,
    /// The resources it listed, for the snapshot-clean plan.
    resources: Vec<LinkedResource>,
    /// What it could not know, one line each.
    gaps: Vec<String>,
}

pub struct Aws {
    settings: AwsSettings,
    ec2: Result<Ec2, ProviderError>,
    /// Elastic Load Balancing, for the sweep and the delete of load balancers.
    elb: Result<Ec2, ProviderError>,
    imds: Option<Imds>,
    memory: Option<PathBuf>,
    /// The resource ids recorded for each instance (the ledger's inventories), by instance id.
    recorded: BTreeMap<String, BTreeSet<String>>,
    /// The instances recorded with a resource deleted with them: listed before their release.
    recorded_live: BTreeSet<String>,
    last: Mutex<Last>,
    sightings: Sightings,
    readback: Readback,
    /// `MaxResults` of the account listings ([`discover`]).
    per_page: u32,
    /// Who may use each snapshot and image, as read before ([`shares`]).
    shares: Shares,
}

impl Aws {
    pub fn new(settings: AwsSettings) -> Self {
        Self::with_policy(settings, HttpPolicy::default(), imds::policy())
    }

    /// With the given patience for EC2 and for the metadata service (tests shorten both).
    pub fn with_policy(settings: AwsSettings, ec2: HttpPolicy, imds: HttpPolicy) -> Self {
        let client = match (&settings.credentials, &settings.region, &settings.endpoint) {
            (Err(e), _, _) | (_, Err(e), _) => Err(e.clone()),
            (Ok(keys), Ok(region), Some(endpoint)) => {
                Ec2::with_keys(endpoint, region, keys.clone(), ec2)
            }
            (Ok(_), Ok(_), None) => Err(ProviderError::missing(
                ID,
                credentials::ENDPOINT_EC2,
                &[credentials::ENDPOINT_EC2, credentials::ENDPOINT],
            )),
        };
        let elb = match (
            &settings.credentials,
            &settings.region,
            settings.elb_endpoint(),
        ) {
            (Err(e), _, _) | (_, Err(e), _) => Err(e.clone()),
            (Ok(keys), Ok(region), Some(at)) => {
                Ec2::for_service(elb::ELB, &at, region, keys.clone(), ec2)
            }
            (Ok(_), Ok(_), None) => Err(ProviderError::missing(
                ID,
                credentials::ENDPOINT_ELB,
                &[credentials::ENDPOINT_ELB, credentials::ENDPOINT],
            )),
        };
        let imds = settings
            .imds_endpoint
            .as_deref()
            .and_then(|e| Imds::new(e, imds).ok());
        Aws {
            settings,
            ec2: client,
            elb,
            imds,
            memory: None,
            recorded: BTreeMap::new(),
            recorded_live: BTreeSet::new(),
            last: Mutex::new(Last::default()),
            sightings: Sightings::default(),
            readback: Readback::default(),
            per_page: discover::MOST_PER_PAGE,
            shares: Shares::default(),
        }
    }

    super::setters::with_setters! {
        /// How long a final snapshot is waited for before anything is deleted, and a deleted
        /// resource (or a detached disk) is read back.
        with_readback(readback: Readback);
    }

    /// Asks the account listings for `per_page` items a page (default and most 500, fewest 5:
    /// what DescribeInstances and DescribeVolumes both take; a number outside is brought within).
    #[must_use]
    pub fn with_page_size(mut self, per_page: u32) -> Self {
        self.per_page = per_page;
        self
    }

    /// Remembers linked resources in `dir`, so they are found again after the release.
    #[must_use]
    pub fn remembering(mut self, dir: &Path) -> Self {
        self.memory = Some(dir.to_path_buf());
        self
    }

    /// Knows the resource ids recorded for each instance, as `(instance, resource, deleted with
    /// the instance)` (the ledger's inventories): after a release they tie the leftovers EC2 no
    /// longer links. One deleted with the instance (its root volume) was recorded while the
    /// instance was listed, so the records hold its volumes and addresses of that time.
    #[must_use]
    pub fn recalling(mut self, ids: impl IntoIterator<Item = (String, String, bool)>) -> Self {
        for (instance, id, with_instance) in ids {
            if with_instance {
                self.recorded_live.insert(instance.clone());
            }
            self.recorded.entry(instance).or_default().insert(id);
        }
        self
    }

    fn ec2(&self) -> Result<&Ec2, ProviderError> {
        self.ec2.as_ref().map_err(Clone::clone)
    }

    fn region(&self) -> &str {
        self.settings.region.as_deref().unwrap_or("")
    }

    fn endpoint(&self) -> &str {
        self.settings.endpoint.as_deref().unwrap_or("")
    }

    /// The core's rule for instance `id` when EC2 does not list it: seen by this data directory
    /// (the ledger, this process, or the links remembered for it), or an error naming where
    /// EC2 was asked.
    fn absent(&self, id: &str) -> Result<(), ProviderError> {
        let known = self.known(id);
        if !known.transitions.is_empty() {
            self.sightings.saw(ID, known.region.as_deref(), id);
        }
        self.sightings.absent(&Asked {
            provider: ID,
            instance: id,
            region: Some(self.region()),
            endpoint: self.endpoint(),
        })
    }

    fn imds(&self) -> Result<&Imds, ProviderError> {
        self.imds.as_ref().ok_or_else(|| {
            ProviderError::state(ID, crate::t!("aws-no-instance-imds-off"))
                .with_fix(&imds::no_instance_fix())
        })
    }

    /// The instance to act on: the configured one, else this machine's, from IMDS.
    pub async fn instance_id(&self) -> Result<String, ProviderError> {
        if let Some(id) = &self.settings.instance_id {
            return Ok(id.clone());
        }
        if let Some(id) = self.last().instance {
            return Ok(id);
        }
        let id = self.imds()?.instance_id().await?;
        self.update_last(|l| l.instance = Some(id.clone()));
        Ok(id)
    }

    /// Deregisters one of the account's images and reads it back: `(confirmed, what EC2 says)`.
    /// Not an [`Action`] yet: the checklist names images, the user decides.
    pub async fn deregister_image(
        &self,
        image: &str,
        delete_snapshots: bool,
    ) -> Result<(bool, String), ProviderError> {
        let mut session = Session::new(self.ec2()?);
        actions::deregister_image(&mut session, image, delete_snapshots)
            .await
            .map_err(ProviderError::from)
    }

    /// Releases an elastic IP and reads it back: `(confirmed, what EC2 says)`.
    pub async fn release_address(&self, allocation: &str) -> Result<(bool, String), ProviderError> {
        let mut session = Session::new(self.ec2()?);
        actions::release_address(&mut session, allocation)
            .await
            .map_err(ProviderError::from)
    }

    /// The spot interruption notice from IMDS; `None` while there is none.
    pub async fn spot_notice(&self) -> Result<Option<SpotNotice>, ProviderError> {
        self.imds()?.spot_notice().await
    }

    fn last(&self) -> Last {
        self.last.lock().map(|l| l.clone()).unwrap_or_default()
    }

    fn update_last(&self, f: impl FnOnce(&mut Last)) {
        if let Ok(mut last) = self.last.lock() {
            f(&mut last);
        }
    }

    fn known(&self, id: &str) -> Known {
        self.memory
            .as_deref()
            .map(|dir| known::load(&known::path(dir, id)))
            .unwrap_or_default()
    }

    /// Every id recorded for instance `id`: the ledger's and the memory file's.
    fn recorded_for(&self, id: &str, known: &Known) -> BTreeSet<String> {
        let mut ids = self.recorded.get(id).cloned().unwrap_or_default();
        ids.extend(known.volumes.iter().cloned());
        ids.extend(known.images.iter().cloned());
        ids.extend(known.allocations.iter().cloned());
        ids
    }

    fn remember(&self, id: &str, known: &Known) {
        if let Some(dir) = &self.memory {
            // Not remembering only costs the leftovers' discovery after a release.
            let _ = known::save(&known::path(dir, id), known);
        }
    }

    async fn swept(&self, reads: Reads) -> Result<Vec<LinkedResource>, ProviderError> {
        let mut session = Session::new(self.ec2()?)
            .with_elb(self.elb.as_ref().map_err(Clone::clone))
            .with_shares(&self.shares, reads);
        let now = Timestamp::now();
        sweep::sweep(&mut session, self.region(), self.per_page, now).await
    }

    fn secret_free(&self, e: impl std::fmt::Display) -> String {
        let text = e.to_string();
        match &self.settings.credentials {
            Ok(creds) => creds.redact(&text),
            Err(_) => text,
        }
    }
}

#[async_trait]
impl Provider for Aws {
    async fn interruption_notice(&self) -> Result<Option<jiff::Timestamp>, ProviderError> {
        Ok(self.spot_notice().await?.map(|n| n.time))
    }

    fn keys_expire(&self) -> Option<jiff::Timestamp> {
        self.settings.credentials.as_ref().ok()?.hard_expiry()
    }

    fn name(&self) -> &'static str {
        ID
    }

    fn add_seen(&self, seen: &Seen) {
        self.sightings.add(seen);
    }

    fn gaps(&self) -> Vec<String> {
        self.last().gaps
    }

    fn capabilities(&self) -> Capabilities {
        ProviderKind::Aws.capabilities()
    }

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        let last = self.last();
        let id = self
            .settings
            .instance_id
            .clone()
            .or_else(|| last.instance.clone())
            .unwrap_or_else(|| crate::t!("aws-plan-this-instance").into_owned());
        let describe = describe_call("DescribeInstances", &instance_param(&id));
        match action {
            Action::Release => vec![
                describe.clone(),
                describe_call("TerminateInstances", &instance_param(&id)),
                read_back(&describe),
            ],
            Action::Stop => vec![
                describe.clone(),
                describe_call("StopInstances", &instance_param(&id)),
                read_back(&describe),
            ],
            Action::Start => vec![
                describe.clone(),
                describe_call("StartInstances", &instance_param(&id)),
                read_back(&describe),
            ],
            Action::SnapshotClean {
                keep,
                final_snapshot,
                ..
            } => plan_clean(&last, *keep, *final_snapshot),
            Action::SetDeadline { .. } | Action::Cleanup { .. } => Vec::new(),
        }
    }

    fn delete_plan(&self, resource: &LinkedResource) -> Vec<String> {
        delete::plan(resource)
    }

    async fn delete(&self, resource: &LinkedResource) -> Result<ActionReport, ProviderError> {
        let mut session =
            Session::new(self.ec2()?).with_elb(self.elb.as_ref().map_err(Clone::clone));
        let (confirmed, summary) = delete::delete(&mut session, resource, self.readback).await?;
        Ok(ActionReport {
            action: Action::Cleanup {
                delete: vec![resource.clone()],
            },
            confirmed,
            summary: self.secret_free(summary),
            calls: delete::once_each(session.calls),
        })
    }

    async fn regions(&self) -> Result<Option<Vec<String>>, ProviderError> {
        regions::enabled(&mut Session::new(self.ec2()?))
            .await
            .map(Some)
    }

    async fn sweep(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        self.swept(Reads::Ask).await
    }

    async fn sweep_listed(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        self.swept(Reads::KeptOnly).await
    }

    async fn instances(&self) -> Result<Vec<Discovered>, ProviderError> {
        let mut session = Session::new(self.ec2()?);
        discover::instances(&mut session, self.region(), self.per_page, Timestamp::now()).await
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        let ec2 = self.ec2()?;
        let id = self.instance_id().await?;
        let mut known = self.known(&id);
        let mut session = Session::new(ec2).with_shares(&self.shares, Reads::Ask);
        let instance = session.instance(&id).await?;
        if instance.is_some() {
            self.sightings.saw(ID, Some(self.region()), &id);
        } else {
            self.absent(&id)?;
        }
        let mut gaps = Vec::new();
        let seen = if instance.as_ref().is_none_or(|i| i.state == "terminated") {
            // EC2 no longer links what survived: the sweep, by what still ties it.
            let recorded = self.recorded_for(&id, &known);
            // What was found after the release (by the links alone) is recorded too, and
            // proves nothing about what had no link.
            let live = self.recorded_live.contains(&id)
                || known
                    .transitions
                    .iter()
                    .any(|t| t.1 != InstanceState::Released);
            if !live {
                gaps.push(crate::t!(
                    "aws-gap-released-unrecorded",
                    id = id.as_str(),
                    region = self.region()
                ));
            }
            sweep::of_released(&mut session, (&id, instance), &recorded, self.per_page).await?
        } else {
            session.linked(&id, instance, &known).await?
        };
        let now = Timestamp::now();
        seen.remember(&mut known);
        if let Some(s) = seen
            .instance
            .as_ref()
            .and_then(|i| inventory::state(&i.state))
        {
            known.saw_state(s, now);
            known.region = Some(self.region().to_string());
        }
        self.remember(&id, &known);
        self.update_last(|l| {
            l.instance = Some(id.clone());
            l.root_volume = seen.root_volume().map(str::to_string);
            l.gaps = gaps;
        });
        let inventory = inventory::assemble(&id, self.region(), &seen, &known, now)?;
        self.update_last(|l| l.resources.clone_from(&inventory.resources));
        Ok(inventory)
    }

    /// One `DescribeInstances` for the one id.
    async fn look(&self) -> Result<crate::provider::refresh::Look, ProviderError> {
        let ec2 = self.ec2()?;
        let id = self.instance_id().await?;
        let instance = Session::new(ec2).instance(&id).await?;
        let state = instance.and_then(|i| inventory::state(&i.state));
        Ok(crate::provider::refresh::Look::State(state))
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        let ec2 = self.ec2()?;
        let id = self.instance_id().await?;
        let mut session = Session::new(ec2);
        let absent = || self.absent(&id);
        let outcome = match action {
            Action::Release => actions::release(&mut session, (&id, self.readback), &absent).await,
            Action::Stop | Action::Start => {
                let to = if matches!(action, Action::Stop) {
                    actions::STOP
                } else {
                    actions::START
                };
                actions::change_state(&mut session, (&id, self.readback), &absent, to).await
            }
            Action::Cleanup { .. } => return Err(crate::provider::cleanup::not_here(ID)),
            Action::SnapshotClean {
                keep,
                final_snapshot,
                delete,
            } => {
                let known = self.known(&id);
                let seen = session.seen(&id, &known).await?;
                if seen.instance.is_none() {
                    absent()?;
                }
                // The plan from this fresh read, by the same rule the confirmation used.
                let fresh =
                    inventory::assemble(&id, self.region(), &seen, &known, Timestamp::now())?;
                let plan = SnapshotPlan::new(&fresh.resources, *keep, *final_snapshot);
                plan.check_promise(delete.as_deref())
                    .map_err(|why| ProviderError::state(ID, why))?;
                actions::snapshot_clean(&mut session, &seen, &plan, *final_snapshot, self.readback)
                    .await
                    .map_err(ProviderError::from)
            }
            Action::SetDeadline { .. } => {
                return Err(ProviderError::unsupported(
                    ID,
                    crate::t!("aws-unsupported-deadline"),
                ));
            }
        };
        // Every EC2 error is redacted where it is read (`Ec2::call`).
        let (confirmed, summary) = outcome?;
        Ok(ActionReport {
            action: action.clone(),
            confirmed,
            summary: format!("{id}: {}", self.secret_free(summary)),
            calls: session.calls,
        })
    }
}

/// A call of a plan, marked as the read-back.
fn read_back(call: &str) -> String {
    crate::t!("aws-plan-read-back", call = call)
}

fn plan_clean(last: &Last, keep: usize, take_final: bool) -> Vec<String> {
    let mut calls = Vec::new();
    if take_final {
        let root = crate::t!("aws-plan-root-volume");
        let volume = last.root_volume.as_deref().unwrap_or(&root);
        calls.push(format!(
            "ec2 CreateSnapshot VolumeId={volume} Description=gpumeter final snapshot"
        ));
    }
    let plan = SnapshotPlan::new(&last.resources, keep, take_final);
    let doomed: Vec<&str> = plan.deleted.iter().map(String::as_str).collect();
    for id in &doomed {
        calls.push(format!("ec2 DeleteSnapshot SnapshotId={id}"));
    }
    if !doomed.is_empty() {
        calls.push(read_back(&describe_call(
            "DescribeSnapshots",
            &owned_by_self(filter("snapshot-id", &doomed)),
        )));
    }
    calls
}
