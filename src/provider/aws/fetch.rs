//! The EC2 reads behind an inventory, made through a [`Session`] that records every call.

use std::collections::BTreeMap;

use roxmltree::Document;

use super::inventory::Seen;
use super::known::Known;
use super::query::{Ec2, Ec2Error, Params, describe_call, describe_service_call, param as p};
use super::shares::{self, Reads, Shares};
use super::xml;
use crate::provider::ProviderError;
use crate::provider::http::Repeat;

/// At most this many pages of one listing, as for Alibaba and Tencent; a listing longer than
/// that is an error, never a short list.
const MAX_PAGES: usize = 50;

/// A run of EC2 calls (and Elastic Load Balancing calls, where the run has that client),
/// remembered in order for the report.
pub struct Session<'a> {
    pub ec2: &'a Ec2,
    /// The Elastic Load Balancing client, or why there is none.
    pub elb: Result<&'a Ec2, ProviderError>,
    pub calls: Vec<String>,
    /// The sharing read before, kept across rounds; `None` reads it every round.
    pub shares: Option<&'a Shares>,
    pub reads: Reads,
}

/// `Filter.1.Name=name` with `Filter.1.Value.N` for each value.
pub fn filter(name: &str, values: &[&str]) -> Params {
    let mut out = vec![p("Filter.1.Name", name)];
    for (n, v) in values.iter().enumerate() {
        out.push(p(format!("Filter.1.Value.{}", n + 1), *v));
    }
    out
}

pub fn instance_param(id: &str) -> Params {
    vec![p("InstanceId.1", id)]
}

pub fn owned_by_self(mut params: Params) -> Params {
    params.insert(0, p("Owner.1", "self"));
    params
}

impl<'a> Session<'a> {
    pub fn new(ec2: &'a Ec2) -> Self {
        Session {
            ec2,
            elb: Err(ProviderError::unsupported(
                super::ID,
                crate::t!("aws-unsupported-elb"),
            )),
            calls: Vec::new(),
            shares: None,
            reads: Reads::Ask,
        }
    }

    /// Keeping what sharing it reads in `shares`, and reading what is not kept only with
    /// [`Reads::Ask`].
    #[must_use]
    pub fn with_shares(mut self, shares: &'a Shares, reads: Reads) -> Self {
        self.shares = Some(shares);
        self.reads = reads;
        self
    }

    /// With `elb` for the load balancer calls.
    #[must_use]
    pub fn with_elb(mut self, elb: Result<&'a Ec2, ProviderError>) -> Self {
        self.elb = elb;
        self
    }

    /// One call to `client` (another Query API than EC2's), remembered as its service names it.
    pub async fn call_to(
        &mut self,
        client: &Ec2,
        action: &str,
        params: &[(String, String)],
        repeat: Repeat,
    ) -> Result<String, Ec2Error> {
        self.calls
            .push(describe_service_call(client.service(), action, params));
        client.call(action, params, repeat).await
    }

    pub async fn call(
        &mut self,
        action: &str,
        params: &[(String, String)],
        repeat: Repeat,
    ) -> Result<String, Ec2Error> {
        self.calls.push(describe_call(action, params));
        self.ec2.call(action, params, repeat).await
    }

    /// A read, following `nextToken` across pages; `read` picks the items from each page.
    pub async fn list<T>(
        &mut self,
        action: &str,
        params: &[(String, String)],
        read: fn(&Document<'_>) -> Vec<T>,
    ) -> Result<Vec<T>, Ec2Error> {
        let mut out = Vec::new();
        let mut page_params = params.to_vec();
        for _ in 0..MAX_PAGES {
            let body = self.call(action, &page_params, Repeat::Safe).await?;
            let doc =
                xml::parse_answer(&body, action).map_err(|m| Ec2Error::malformed(action, &m))?;
            out.extend(read(&doc));
            match xml::next_token(&doc) {
                Some(token) => {
                    page_params = params.to_vec();
                    page_params.push(p("NextToken", token));
                }
                None => return Ok(out),
            }
        }
        // A list cut short would pass for the whole account: say so instead.
        Err(Ec2Error::Malformed {
            action: action.into(),
            what: crate::t!("aws-too-many-pages", most = MAX_PAGES.to_string()),
        })
    }

    /// The instance as EC2 describes it; `None` when EC2 does not know the id.
    pub async fn instance(&mut self, id: &str) -> Result<Option<xml::Instance>, Ec2Error> {
        match self
            .list("DescribeInstances", &instance_param(id), xml::instances)
            .await
        {
            Ok(found) => Ok(found.into_iter().find(|i| i.id == id)),
            Err(e) if e.code() == Some("InvalidInstanceID.NotFound") => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Every resource linked to instance `id` now, or remembered in `known` from before.
    pub async fn seen(&mut self, id: &str, known: &Known) -> Result<Seen, Ec2Error> {
        let instance = self.instance(id).await?;
        self.linked(id, instance, known).await
    }

    /// Every resource linked to `instance` (as EC2 described instance `id`, `None` when it
    /// does not list it), or remembered in `known`.
    pub async fn linked(
        &mut self,
        id: &str,
        instance: Option<xml::Instance>,
        known: &Known,
    ) -> Result<Seen, Ec2Error> {
        let mut volumes = self
            .list(
                "DescribeVolumes",
                &filter("attachment.instance-id", &[id]),
                xml::volumes,
            )
            .await?;
        let mut volume_ids: Vec<String> = known.volumes.iter().cloned().collect();
        if let Some(i) = &instance {
            volume_ids.extend(i.block_devices.iter().map(|(_, v, _)| v.clone()));
        }
        volume_ids.sort();
        volume_ids.dedup();
        let missing: Vec<&str> = volume_ids
            .iter()
            .map(String::as_str)
            .filter(|v| !volumes.iter().any(|have| have.id == *v))
            .collect();
        if !missing.is_empty() {
            let more = self
                .list(
                    "DescribeVolumes",
                    &filter("volume-id", &missing),
                    xml::volumes,
                )
                .await?;
            volumes.extend(more);
        }
        volume_ids.extend(volumes.iter().map(|v| v.id.clone()));
        volume_ids.sort();
        volume_ids.dedup();
        let (snapshots, public) = if volume_ids.is_empty() {
            (Vec::new(), None)
        } else {
            let ids: Vec<&str> = volume_ids.iter().map(String::as_str).collect();
            shares::snapshots(self, &filter("volume-id", &ids)).await?
        };
        let images = self
            .list("DescribeImages", &owned_by_self(Vec::new()), xml::images)
            .await?
            .into_iter()
            .filter(|image| {
                known.images.contains(&image.id)
                    || image.source_instance.as_deref() == Some(id)
                    || image.snapshots.iter().any(|(snap, _)| {
                        snap.as_ref()
                            .is_some_and(|s| snapshots.iter().any(|have| &have.id == s))
                    })
            })
            .collect();
        let addresses = self.addresses(id, known).await?;
        let mut seen = Seen {
            instance,
            volumes,
            snapshots,
            images,
            addresses,
            shared: BTreeMap::new(),
        };
        self.sharing(&mut seen, public.as_ref()).await;
        Ok(seen)
    }

    async fn addresses(&mut self, id: &str, known: &Known) -> Result<Vec<xml::Address>, Ec2Error> {
        let mut addresses = self
            .list(
                "DescribeAddresses",
                &filter("instance-id", &[id]),
                xml::addresses,
            )
            .await?;
        let missing: Vec<&str> = known
            .allocations
            .iter()
            .map(String::as_str)
            .filter(|a| {
                !addresses
                    .iter()
                    .any(|have| have.allocation_id.as_deref() == Some(*a))
            })
            .collect();
        if !missing.is_empty() {
            let more = self
                .list(
                    "DescribeAddresses",
                    &filter("allocation-id", &missing),
                    xml::addresses,
                )
                .await?;
            addresses.extend(more);
        }
        Ok(addresses)
    }
}
