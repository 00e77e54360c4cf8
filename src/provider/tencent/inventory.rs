//! Reading the instance, its disks and public addresses, and the release deadline the provider
//! holds (the earliest pending TerminateInstances action timer).
//!
//! DescribeInstances shows the system disk, the data disks with `DeleteWithInstance`, and the
//! public addresses; VPC DescribeAddresses says which of those are elastic IPs and of what type.
//! TerminateInstances is called with `ReleaseAddress`, which frees only some EIP types (see
//! [`RELEASED_EIP_TYPES`]): any other EIP stays and bills while idle. Once the instance is gone,
//! CVM no longer lists its disks: what was last seen with it (kept in the data directory when the
//! adapter is `remembering`) is read again from CBS and VPC, so the leftovers are what the
//! provider still lists; where that read fails, they are marked as not read again.

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde_json::json;

use super::TencentCloud;
use super::api::ApiError;
use super::model::{self, parse_time};
use crate::meter::{BillingMode, InstanceState, ResourceKind};
use crate::provider::http::Repeat;
use crate::provider::rpc_cloud::InstanceApi as _;
use crate::provider::{HeldDeadline, InstanceInfo, Inventory, LinkedResource, ProviderError};
use crate::subscription::Reported;

/// The state given to leftovers that were not read again after the instance went.
pub fn not_reread() -> String {
    crate::t!("tencent-not-reread").into_owned()
}

/// The EIP types `TerminateInstances` frees with `ReleaseAddress=true`. CVM 2017-03-12,
/// TerminateInstancesRequest.ReleaseAddress (tencentcloud-sdk models): under EIP 2.0 only the
/// first EIP of the primary network interface is released, and only if it is HighQualityEIP,
/// AntiDDoSEIP, EIPv6 or HighQualityEIPv6. An ordinary `EIP` (or `AnycastEIP`) stays.
pub const RELEASED_EIP_TYPES: [&str; 4] =
    ["HighQualityEIP", "AntiDDoSEIP", "EIPv6", "HighQualityEIPv6"];

/// VPC DescribeAddresses' `address-type` filter defaults to `EIP` alone (VPC 2017-03-12,
/// DescribeAddressesRequest.Filters), so the types are named: `WanIP` is an ordinary public IP.
pub(super) const ADDRESS_TYPES: [&str; 4] = ["WanIP", "EIP", "AnycastEIP", "HighQualityEIP"];

impl TencentCloud {
    /// The instance's pending TerminateInstances timers, earliest first.
    pub(super) async fn timers(&self, id: &str) -> Result<Vec<model::ActionTimer>, ApiError> {
        let reply: model::TimersReply = self
            .api
            .call(
                "DescribeInstancesActionTimer",
                &timer_filter(id),
                Repeat::Safe,
            )
            .await?;
        let mut timers: Vec<model::ActionTimer> = reply
            .action_timers
            .unwrap_or_default()
            .into_iter()
            .filter(|t| {
                t.instance_id == id && t.status == "UNDO" && t.timer_action == "TerminateInstances"
            })
            .collect();
        timers.sort_by_key(|t| model::parse_action_time(&t.action_time).instant());
        Ok(timers)
    }

    /// The addresses VPC lists as bound to instance `id`.
    pub(super) async fn addresses_of(
        &self,
        id: &str,
    ) -> Result<Vec<model::Address>, ProviderError> {
        let filter = json!({"Filters": [
            {"Name": "instance-id", "Values": [id]},
            {"Name": "address-type", "Values": ADDRESS_TYPES},
        ]});
        self.pages::<model::AddressesReply>("DescribeAddresses", &filter)
            .await
    }

    /// What survives of `known` once the instance is gone, read again from CBS (disks, and the
    /// snapshots taken of them) and VPC (addresses): what the provider lists stays, with its
    /// state now; what it no longer lists is gone. Where a read fails, what was last seen that
    /// does not go with the instance is kept, marked as not read again.
    async fn reread(&self, known: Vec<LinkedResource>, now: Timestamp) -> Vec<LinkedResource> {
        let is_disk = |r: &LinkedResource| {
            matches!(r.kind, ResourceKind::SystemDisk | ResourceKind::DataDisk)
        };
        let (disks, rest): (Vec<_>, Vec<_>) = known.into_iter().partition(is_disk);
        let (ips, rest): (Vec<_>, Vec<_>) = rest
            .into_iter()
            .partition(|r| r.kind == ResourceKind::PublicIp);
        let mut out = Vec::new();
        if !disks.is_empty() {
            let disk_ids: Vec<&str> = disks.iter().map(|r| r.id.as_str()).collect();
            let listed = self.cbs_disks(&disk_ids).await;
            out.extend(reread_from(&disks, listed, |r, listed| {
                let d = listed.iter().find(|d| d.disk_id == r.id)?;
                let mut now =
                    listed_now(r, d.disk_state.clone(), d.instance_id.as_deref(), &d.tags);
                now.size_gib = Decimal::from(d.disk_size);
                now.exposure.encrypted = d.encrypt;
                Some(now)
            }));
            // A snapshot outlives its disk and bills on its own.
            if let Ok(snapshots) = self.cbs_snapshots(&disk_ids).await {
                out.extend(snapshots.iter().map(|s| super::sweep::snapshot(s, now)));
            }
        }
        if !ips.is_empty() {
            let wanted: Vec<&str> = ips.iter().map(|r| r.id.as_str()).collect();
            let listed = self.addresses_at(&wanted).await;
            out.extend(reread_from(&ips, listed, |r, listed| {
                let a = listed.iter().find(|a| a.address_ip == r.id)?;
                let state = format!("{} ({})", a.address_status, a.address_type);
                Some(listed_now(r, state, a.instance_id.as_deref(), &a.tags))
            }));
        }
        out.extend(kept_unread(&rest));
        out
    }

    /// CBS DescribeDisks for `ids` (CBS 2017-03-12: `DiskIds`, not with `Filters`).
    async fn cbs_disks(&self, ids: &[&str]) -> Result<Vec<model::CbsDisk>, ProviderError> {
        self.pages::<model::DisksReply>("DescribeDisks", &json!({ "DiskIds": ids }))
            .await
    }

    /// CBS DescribeSnapshots of the disks `ids` (the `disk-id` filter, CBS 2017-03-12).
    async fn cbs_snapshots(&self, ids: &[&str]) -> Result<Vec<model::Snapshot>, ProviderError> {
        let filter = json!({"Filters": [{"Name": "disk-id", "Values": ids}]});
        self.pages::<model::SnapshotsReply>("DescribeSnapshots", &filter)
            .await
    }

    /// The addresses VPC lists at the IPs `ips`, whatever they are bound to now.
    async fn addresses_at(&self, ips: &[&str]) -> Result<Vec<model::Address>, ProviderError> {
        let filter = json!({"Filters": [
            {"Name": "address-ip", "Values": ips},
            {"Name": "address-type", "Values": ADDRESS_TYPES},
        ]});
        self.pages::<model::AddressesReply>("DescribeAddresses", &filter)
            .await
    }

    pub(super) async fn read_inventory(&self) -> Result<Inventory, ProviderError> {
        let id = self.instance_id().await?;
        let state = ProviderError::from;
        let now = self.common.now();
        let instance = self.describe_instance(&id).await.map_err(state)?;
        self.common
            .note_term(instance.as_ref().and_then(prepaid_term));
        let Some(instance) = instance else {
            self.absent(&id)?;
            let known = self.known(&id);
            let resources = if known.is_empty() {
                self.recorded_leftovers(&id).await?
            } else {
                self.reread(known, now).await
            };
            return Ok(Inventory {
                instance: None,
                resources,
                deadline: None,
            });
        };
        let timers = self.timers(&id).await.map_err(state)?;
        let addresses = self.addresses_of(&id).await?;
        let created = parse_time(&instance.created_time).unwrap_or(now);
        let resources = linked(&instance, &addresses, created);
        self.remember(&id, resources.clone());
        Ok(Inventory {
            instance: Some(instance_info(&instance, self.region(), now)),
            resources,
            deadline: earliest(&timers).map(|at| HeldDeadline { at }),
        })
    }
}

/// The body that asks for `id`'s pending release timers.
pub(super) fn timer_filter(id: &str) -> serde_json::Value {
    json!({"InstanceIds": [id], "TimerAction": "TerminateInstances", "StatusList": ["UNDO"]})
}

/// The earliest pending release time that is an instant: a time read back without its zone
/// holds no deadline that can be trusted.
pub(super) fn earliest(timers: &[model::ActionTimer]) -> Option<Timestamp> {
    timers
        .iter()
        .filter_map(|t| model::parse_action_time(&t.action_time).instant())
        .min()
}

/// The action times read back without a zone, as the provider wrote them.
pub(super) fn zoneless(timers: &[model::ActionTimer]) -> Vec<String> {
    timers
        .iter()
        .filter(|t| {
            matches!(
                model::parse_action_time(&t.action_time),
                model::ActionTime::NoZone(_)
            )
        })
        .map(|t| t.action_time.trim().to_string())
        .collect()
}

pub(super) fn map_state(state: &str) -> InstanceState {
    match state {
        "STOPPING" | "STOPPED" | "SHUTDOWN" => InstanceState::Stopped,
        // PENDING, RUNNING, STARTING, REBOOTING, TERMINATING and anything new: count it as
        // billing until it is gone.
        _ => InstanceState::Running,
    }
}

/// A PREPAID instance's term: its `ExpiredTime` and whether `RenewFlag` renews it.
pub(super) fn prepaid_term(i: &model::Instance) -> Option<Reported> {
    if i.instance_charge_type != "PREPAID" {
        return None;
    }
    let ends = parse_time(i.expired_time.as_deref()?)?;
    let renews = i.renew_flag.as_deref().and_then(|flag| match flag {
        "NOTIFY_AND_AUTO_RENEW" => Some(true),
        "NOTIFY_AND_MANUAL_RENEW" | "DISABLE_NOTIFY_AND_MANUAL_RENEW" => Some(false),
        _ => None,
    });
    Some(Reported { ends, renews })
}

pub(super) fn instance_info(i: &model::Instance, region: &str, now: Timestamp) -> InstanceInfo {
    let created = parse_time(&i.created_time).unwrap_or(now);
    let state = map_state(&i.instance_state);
    let mode = match i.instance_charge_type.as_str() {
        "SPOTPAID" => BillingMode::Spot,
        "PREPAID" => BillingMode::Monthly,
        _ => BillingMode::OnDemand,
    };
    let names = [i.instance_id.as_str(), &i.instance_name, &i.instance_type];
    let (kind, how) = (
        crate::provider::ProviderKind::Tencent,
        (mode, state, created),
    );
    crate::provider::rpc_cloud::info::instance_info(kind, names, region, how, now)
}

/// Whether the public address `ip` goes with the instance, and what to call its state.
fn address_fate(ip: &str, addresses: &[model::Address]) -> (bool, String) {
    let eips = addresses
        .iter()
        .filter(|a| a.address_type != "WanIP")
        .count();
    match addresses.iter().find(|a| a.address_ip == ip) {
        // An ordinary public IP, not an EIP: it is the instance's own.
        Some(a) if a.address_type == "WanIP" => (true, "bound".into()),
        // Only the first EIP of the primary interface goes; with one EIP that is the one.
        Some(a) if RELEASED_EIP_TYPES.contains(&a.address_type.as_str()) && eips == 1 => {
            (true, format!("bound ({})", a.address_type))
        }
        Some(a) => (
            false,
            crate::t!("tencent-eip-stays", kind = a.address_type.as_str()),
        ),
        // Not listed as any known type: count it as staying, so the checklist warns.
        None => (false, crate::t!("tencent-eip-type-unknown").into_owned()),
    }
}

pub(super) fn linked(
    i: &model::Instance,
    addresses: &[model::Address],
    created: Timestamp,
) -> Vec<LinkedResource> {
    let disk = |d: &model::Disk, kind, with: bool| {
        let size = Decimal::from(d.disk_size);
        let mut r = LinkedResource::new(
            d.disk_id.clone(),
            d.disk_id.clone(),
            kind,
            size,
            "attached".into(),
            created,
        );
        r.class = Some(d.disk_type.clone()).filter(|c| !c.is_empty());
        r.deleted_with_instance = with;
        r.attached_to = Some(i.instance_id.clone());
        r
    };
    let mut out = Vec::new();
    if let Some(system) = i.system_disk.as_ref().filter(|d| !d.disk_id.is_empty()) {
        out.push(disk(system, ResourceKind::SystemDisk, true));
    }
    for d in i.data_disks.iter().flatten() {
        // Unset means unknown: count it as staying, so the checklist warns rather than hides.
        let with = d.delete_with_instance.unwrap_or(false);
        out.push(disk(d, ResourceKind::DataDisk, with));
    }
    for ip in i.public_ip_addresses.iter().flatten() {
        let (with, state) = address_fate(ip, addresses);
        let kind = ResourceKind::PublicIp;
        let mut r =
            LinkedResource::new(ip.clone(), ip.clone(), kind, Decimal::ZERO, state, created);
        r.deleted_with_instance = with;
        r.attached_to = Some(i.instance_id.clone());
        out.push(r);
    }
    out
}

/// `known` as a fresh listing shows it: `now` gives each one's state today, `None` where the
/// listing no longer has it (gone); where the read failed, [`kept_unread`].
fn reread_from<T, E>(
    known: &[LinkedResource],
    listed: Result<Vec<T>, E>,
    now: impl Fn(&LinkedResource, &[T]) -> Option<LinkedResource>,
) -> Vec<LinkedResource> {
    match listed {
        Ok(listed) => known.iter().filter_map(|r| now(r, &listed)).collect(),
        Err(_) => kept_unread(known),
    }
}

/// What of `known` does not go with the instance, as last seen, marked as not read again.
fn kept_unread(known: &[LinkedResource]) -> Vec<LinkedResource> {
    known
        .iter()
        .filter(|r| !r.deleted_with_instance)
        .map(|r| LinkedResource {
            state: not_reread(),
            ..r.clone()
        })
        .collect()
}

/// `r` as listed now, with the instance gone: in `state`, on `on` where it is bound to
/// something, with the tags it has now.
fn listed_now(
    r: &LinkedResource,
    state: String,
    on: Option<&str>,
    tags: &crate::provider::tag_lists::Tags,
) -> LinkedResource {
    LinkedResource {
        state,
        deleted_with_instance: false,
        attached_to: on.filter(|i| !i.is_empty()).map(str::to_string),
        tags: tags.clone(),
        ..r.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prepaid_instance_reports_its_end_and_renewal() {
        let instance = |charge: &str, expired: serde_json::Value, flag: serde_json::Value| {
            serde_json::from_value::<model::Instance>(json!({
                "InstanceId": "ins-1", "InstanceChargeType": charge,
                "ExpiredTime": expired, "RenewFlag": flag
            }))
            .unwrap()
        };
        let prepaid = instance(
            "PREPAID",
            json!("2027-01-01T00:00:00Z"),
            json!("NOTIFY_AND_AUTO_RENEW"),
        );
        let term = prepaid_term(&prepaid).unwrap();
        assert_eq!(term.ends, "2027-01-01T00:00:00Z".parse().unwrap());
        assert_eq!(term.renews, Some(true));
        let manual = instance(
            "PREPAID",
            json!("2027-01-01T00:00:00Z"),
            json!("DISABLE_NOTIFY_AND_MANUAL_RENEW"),
        );
        assert_eq!(prepaid_term(&manual).unwrap().renews, Some(false));
        // Pay-as-you-go: `null` for both, and no term.
        let hourly = instance("POSTPAID_BY_HOUR", json!(null), json!(null));
        assert_eq!(prepaid_term(&hourly), None);
    }

    #[test]
    fn disks_and_addresses_are_linked_with_their_fate() {
        let i: model::Instance = serde_json::from_value(json!({
            "InstanceId": "ins-1", "InstanceType": "GN7.2XLARGE32", "InstanceState": "RUNNING",
            "InstanceChargeType": "POSTPAID_BY_HOUR", "CreatedTime": "2026-01-01T00:00:00Z",
            "SystemDisk": {"DiskType": "CLOUD_PREMIUM", "DiskId": "disk-sys", "DiskSize": 50},
            "DataDisks": [
                {"DiskType": "CLOUD_SSD", "DiskId": "disk-keep", "DiskSize": 500, "DeleteWithInstance": false},
                {"DiskType": "CLOUD_SSD", "DiskId": "disk-go", "DiskSize": 100, "DeleteWithInstance": true}
            ],
            "PublicIpAddresses": ["203.0.113.9"]
        }))
        .unwrap();
        let created = parse_time(&i.created_time).unwrap();
        let eip = |ip: &str, kind: &str| model::Address {
            address_ip: ip.into(),
            address_type: kind.into(),
            ..model::Address::default()
        };
        let r = linked(&i, &[eip("203.0.113.9", "HighQualityEIP")], created);
        let fate: Vec<(&str, bool)> = r
            .iter()
            .map(|r| (r.id.as_str(), r.deleted_with_instance))
            .collect();
        assert_eq!(
            fate,
            [
                ("disk-sys", true),
                ("disk-keep", false),
                ("disk-go", true),
                ("203.0.113.9", true)
            ]
        );
        assert_eq!(r[1].size_gib, Decimal::from(500));
        assert_eq!(r[1].class.as_deref(), Some("CLOUD_SSD"));
        let info = instance_info(&i, "ap-guangzhou", created);
        assert_eq!(info.sku, "GN7.2XLARGE32");
        assert_eq!(info.mode, BillingMode::OnDemand);
        assert_eq!(map_state("STOPPED"), InstanceState::Stopped);
        assert_eq!(map_state("TERMINATING"), InstanceState::Running);
    }

    #[test]
    fn only_the_eip_types_terminate_releases_go_with_the_instance() {
        let eip = |ip: &str, kind: &str| model::Address {
            address_ip: ip.into(),
            address_type: kind.into(),
            ..model::Address::default()
        };
        let ip = "203.0.113.9";
        for kind in RELEASED_EIP_TYPES {
            assert!(address_fate(ip, &[eip(ip, kind)]).0, "{kind}");
        }
        assert!(address_fate(ip, &[eip(ip, "WanIP")]).0);
        for kind in ["EIP", "AnycastEIP"] {
            assert!(!address_fate(ip, &[eip(ip, kind)]).0, "{kind}");
        }
        // Unknown, or one of several EIPs (only the primary interface's first goes): stays.
        assert!(!address_fate(ip, &[]).0);
        let two = [eip(ip, "HighQualityEIP"), eip("203.0.113.10", "EIP")];
        assert!(!address_fate(ip, &two).0);
    }
}
