//! The account sweep of each adapter that has one, against its peer: what bills with no running
//! instance using it is listed, before and after a release, and what a running instance uses
//! is not. (AWS's is against moto, in `aws_sweep`.)

use gpumeter::provider::{Action, Provider};

use crate::alibaba_peer::cloud::{DATA_DISK, EIP, IMAGE, SNAPSHOTS, SYSTEM_DISK};
use crate::alibaba_peer::{INSTANCE, Peer};

fn ids(found: &[gpumeter::provider::LinkedResource]) -> Vec<&str> {
    found.iter().map(|r| r.id.as_str()).collect()
}

#[tokio::test]
async fn alibaba_sweeps_disks_addresses_snapshots_and_images_before_and_after_release() {
    let Some(peer) = Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(INSTANCE));
    let running = adapter.sweep().await.unwrap();
    let listed = ids(&running);
    for snapshot in SNAPSHOTS {
        assert!(listed.contains(&snapshot), "{snapshot} bills: {listed:?}");
    }
    assert!(listed.contains(&IMAGE), "{listed:?}");
    for in_use in [SYSTEM_DISK, DATA_DISK, EIP] {
        assert!(!listed.contains(&in_use), "{in_use} is in use: {listed:?}");
    }
    let report = adapter.perform(&Action::Release).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    let after = adapter.sweep().await.unwrap();
    let listed = ids(&after);
    // The data disk outlives the release (DeleteWithInstance false); the system disk does not.
    assert!(listed.contains(&DATA_DISK), "{listed:?}");
    assert!(
        listed.contains(&EIP),
        "an EIP outlives its instance, unbound: {listed:?}"
    );
    assert!(!listed.contains(&SYSTEM_DISK), "{listed:?}");
    assert!(peer.violations().is_empty(), "{:?}", peer.violations());
}

#[tokio::test]
async fn tencent_sweeps_unattached_disks_unbound_addresses_and_snapshots() {
    let Some(peer) = crate::tencent_peer::Peer::start() else {
        return;
    };
    let adapter = peer.adapter(Some(crate::tencent_peer::cloud::INSTANCE));
    let running = adapter.sweep().await.unwrap();
    assert!(
        ids(&running).is_empty(),
        "everything is attached or bound while it runs: {:?}",
        ids(&running)
    );
    let report = adapter.perform(&Action::Release).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    let after = adapter.sweep().await.unwrap();
    let listed = ids(&after);
    // disk-keep outlives the instance (DeleteWithInstance false); an ordinary EIP is unbound
    // by the release and stays.
    assert_eq!(listed, ["disk-keep", "eip-loop1"], "{after:?}");
    let disk = &after[0];
    assert_eq!(disk.size_gib, rust_decimal::Decimal::from(500));
    assert_eq!(disk.state, "UNATTACHED");
    assert!(peer.violations().is_empty(), "{:?}", peer.violations());
}

#[tokio::test]
async fn runpod_sweeps_unmounted_network_volumes_and_stopped_pods_disks() {
    use crate::gpu_peer::{Kind, Peer};
    let peer = Peer::start(Kind::Runpod);
    let adapter = peer.runpod();
    let running = adapter.sweep().await.unwrap();
    assert!(
        ids(&running).is_empty(),
        "the running pod mounts nv-data: {running:?}"
    );
    let stop = adapter.perform(&Action::Stop).await.unwrap();
    assert!(stop.confirmed, "{stop:?}");
    let stopped = adapter.sweep().await.unwrap();
    let listed = ids(&stopped);
    assert!(
        listed.contains(&"nv-data"),
        "mounted by no running pod now: {listed:?}"
    );
    let disk = stopped
        .iter()
        .find(|r| r.id.ends_with("-volume"))
        .unwrap_or_else(|| panic!("the stopped pod's volume disk bills: {listed:?}"));
    assert_eq!(disk.size_gib, rust_decimal::Decimal::from(50));
}

#[tokio::test]
async fn vast_sweeps_unused_volumes_and_stopped_instances_storage() {
    use crate::gpu_peer::cloud::Storage;
    use crate::gpu_peer::{Kind, Peer};
    let peer = Peer::start(Kind::Vast);
    peer.cloud(|c| {
        for (id, in_use) in [("31", true), ("32", false)] {
            c.storage.push(Storage {
                id: id.into(),
                name: format!("vol-{id}"),
                in_use,
            });
        }
    });
    let adapter = peer.vast();
    let running = adapter.sweep().await.unwrap();
    assert_eq!(
        ids(&running),
        ["volume-32"],
        "31 is used by the instance: {running:?}"
    );
    let stop = adapter.perform(&Action::Stop).await.unwrap();
    assert!(stop.confirmed, "{stop:?}");
    let stopped = adapter.sweep().await.unwrap();
    let listed = ids(&stopped);
    assert!(
        listed.iter().any(|id| id.ends_with("-disk")),
        "a stopped instance's storage bills: {listed:?}"
    );
    assert!(listed.contains(&"volume-32"), "{listed:?}");
}

#[tokio::test]
async fn lambda_sweeps_the_file_systems_no_instance_uses() {
    use crate::gpu_peer::{Kind, Peer};
    let peer = Peer::start(Kind::Lambda);
    let found = peer.lambda().sweep().await.unwrap();
    assert_eq!(ids(&found), ["fs-old"], "fs-weights is in use: {found:?}");
}

/// Stopped by a provider that keeps charging (`economical` false: StopCharging does not apply
/// to this instance type), the instance itself bills, priced by its type on the sheet, beside
/// the disks attached to it; stopped with StopCharging, only the disks bill.
#[tokio::test]
async fn alibaba_sweeps_a_stopped_instance_that_keeps_charging_and_its_disks() {
    use gpumeter::meter::ResourceKind;
    use gpumeter::provider::{CleanupFilter, CleanupPlan, rank};

    for keeps_charging in [true, false] {
        let Some(peer) = Peer::start() else {
            return;
        };
        peer.cloud(|c| c.economical = !keeps_charging);
        let adapter = peer.adapter(Some(INSTANCE));
        let report = adapter.perform(&Action::Stop).await.unwrap();
        assert!(report.confirmed, "{report:?}");
        let found = adapter.sweep().await.unwrap();
        let listed = ids(&found);
        for disk in [SYSTEM_DISK, DATA_DISK] {
            let d = found.iter().find(|r| r.id == disk).expect(disk);
            assert_eq!(d.attached_to.as_deref(), Some(INSTANCE), "{d:?}");
            assert!(d.state.contains("stopped instance"), "{d:?}");
        }
        let instance = found.iter().find(|r| r.id == INSTANCE);
        if !keeps_charging {
            assert!(instance.is_none(), "StopCharging: {listed:?}");
            continue;
        }
        let instance = instance.expect("KeepCharging: the instance bills");
        assert_eq!(instance.kind, ResourceKind::StoppedInstance);
        assert!(instance.state.contains("KeepCharging"), "{instance:?}");
        let sheet = gpumeter::pricing::bundled_sheet("alibaba-cn-hangzhou").unwrap();
        let sku = sheet.sku(instance.class.as_deref().unwrap()).unwrap();
        let rows = rank(found.clone(), Some(sheet), jiff::Timestamp::now());
        let row = rows.iter().find(|r| r.resource.id == INSTANCE).unwrap();
        let month = rust_decimal::Decimal::from(sheet.billing.month_hours);
        assert_eq!(
            row.monthly.as_ref().map(|m| m.amount),
            Some(sku.on_demand_per_hour.unwrap() * month)
        );
        // The dearest thing left billing is the compute.
        assert_eq!(rows[0].resource.id, INSTANCE);
        // A cleanup never releases an instance: it says how.
        let only = CleanupFilter {
            ids: vec![INSTANCE.into()],
            ..CleanupFilter::default()
        };
        let plan = CleanupPlan::new(&found, &only, &[], jiff::Timestamp::now()).unwrap();
        assert!(plan.delete.is_empty(), "{plan:?}");
        assert!(plan.refused[0].why.contains("gpumeter release"), "{plan:?}");
        assert!(peer.violations().is_empty(), "{:?}", peer.violations());
    }
}

/// The same for Tencent: a stop that could not apply STOP_CHARGING leaves the compute billing,
/// listed and priced by the instance type; one that did leaves only the disks.
#[tokio::test]
async fn tencent_sweeps_a_stopped_instance_that_keeps_charging_and_its_disks() {
    use crate::tencent_peer::Peer;
    use crate::tencent_peer::cloud::INSTANCE;
    use gpumeter::meter::ResourceKind;
    use gpumeter::provider::rank;

    for keeps_charging in [true, false] {
        let Some(peer) = Peer::start() else {
            return;
        };
        peer.cloud(|c| c.stop_charging_supported = !keeps_charging);
        let adapter = peer.adapter(Some(INSTANCE));
        let report = adapter.perform(&Action::Stop).await.unwrap();
        assert!(report.confirmed, "{report:?}");
        let found = adapter.sweep().await.unwrap();
        let disks: Vec<_> = found
            .iter()
            .filter(|r| r.kind == ResourceKind::DataDisk)
            .collect();
        assert!(
            !disks.is_empty(),
            "the stopped instance's disks bill: {found:?}"
        );
        for d in &disks {
            assert_eq!(d.attached_to.as_deref(), Some(INSTANCE), "{d:?}");
            assert!(d.state.contains("stopped instance"), "{d:?}");
        }
        let instance = found.iter().find(|r| r.id == INSTANCE);
        assert_eq!(instance.is_some(), keeps_charging, "{found:?}");
        if let Some(instance) = instance {
            assert_eq!(instance.kind, ResourceKind::StoppedInstance);
            let sheet = gpumeter::pricing::bundled_sheet("tencent-ap-beijing").unwrap();
            let sku = sheet.sku(instance.class.as_deref().unwrap()).unwrap();
            let rows = rank(found.clone(), Some(sheet), jiff::Timestamp::now());
            let month = rust_decimal::Decimal::from(sheet.billing.month_hours);
            assert_eq!(rows[0].resource.id, INSTANCE, "the dearest: {rows:?}");
            assert_eq!(
                rows[0].monthly.as_ref().map(|m| m.amount),
                Some(sku.on_demand_per_hour.unwrap() * month)
            );
        }
        assert!(peer.violations().is_empty(), "{:?}", peer.violations());
    }
}
