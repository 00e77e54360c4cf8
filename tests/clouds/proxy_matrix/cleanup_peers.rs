//! The Alibaba and Tencent loopback peers in the cleanup matrix ([`super::cleanup`]): each world
//! a fresh peer whose data disk and address are free when the plan is made; attaching one is a
//! change to the peer's own state, around the proxy.

use async_trait::async_trait;
use gpumeter::meter::ResourceKind;
use gpumeter::provider::{LinkedResource, Provider};

use super::cleanup::{Cleaning, Leftover, found, run};
use crate::alibaba_peer::{self, cloud::DATA_DISK};
use crate::tencent_peer;

/// The address and disk of a Tencent world.
const TENCENT_EIP: &str = "eip-loop1";
const TENCENT_DISK: &str = "disk-keep";

fn leftovers(
    disk: &str,
    delete_disk: &'static str,
    eip: &str,
    release: &'static str,
) -> Vec<Leftover> {
    vec![
        Leftover {
            resource: found(disk, ResourceKind::DataDisk, None),
            change: delete_disk,
        },
        Leftover {
            resource: found(eip, ResourceKind::PublicIp, None),
            change: release,
        },
    ]
}

struct Alibaba;

#[async_trait]
impl Cleaning for Alibaba {
    type World = alibaba_peer::Peer;

    fn name(&self) -> &'static str {
        "alibaba"
    }

    async fn fresh(&self) -> Self::World {
        let peer = alibaba_peer::Peer::start().expect("the test has checked the models");
        peer.cloud(|c| {
            c.eip_bound = false;
            let disk = c.disks.iter_mut().find(|d| d.id == DATA_DISK).unwrap();
            disk.instance.clear();
            disk.status = "Available".into();
        });
        peer
    }

    fn upstream(&self, world: &Self::World) -> String {
        world.url()
    }

    fn adapter(&self, _world: &Self::World, endpoint: &str) -> Box<dyn Provider> {
        let env = alibaba_peer::env_at(endpoint);
        Box::new(alibaba_peer::Peer::adapter_in(
            &env,
            Some(alibaba_peer::INSTANCE),
            None,
        ))
    }

    fn leftovers(&self, _world: &Self::World) -> Vec<Leftover> {
        let eip = alibaba_peer::cloud::EIP;
        leftovers(DATA_DISK, "DeleteDisk", eip, "ReleaseEipAddress")
    }

    async fn attach(&self, world: &Self::World, r: &LinkedResource) {
        world.cloud(|c| {
            if r.kind == ResourceKind::PublicIp {
                c.eip_bound = true;
            } else {
                let disk = c.disks.iter_mut().find(|d| d.id == r.id).unwrap();
                disk.instance = alibaba_peer::INSTANCE.into();
                disk.status = "In_use".into();
            }
        });
    }

    async fn holds(&self, world: &Self::World, r: &LinkedResource) -> (bool, Option<String>) {
        let on = |bound: bool| bound.then(|| alibaba_peer::INSTANCE.to_string());
        world.cloud(|c| {
            if r.kind == ResourceKind::PublicIp {
                (!c.eip_released, on(c.eip_bound))
            } else {
                c.disks
                    .iter()
                    .find(|d| d.id == r.id)
                    .map_or((false, None), |d| {
                        (true, Some(d.instance.clone()).filter(|i| !i.is_empty()))
                    })
            }
        })
    }

    fn running(&self, _world: &Self::World) -> String {
        alibaba_peer::INSTANCE.into()
    }

    fn secret(&self) -> &'static str {
        alibaba_peer::SECRET
    }
}

struct Tencent;

#[async_trait]
impl Cleaning for Tencent {
    type World = tencent_peer::Peer;

    fn name(&self) -> &'static str {
        "tencent"
    }

    async fn fresh(&self) -> Self::World {
        let peer = tencent_peer::Peer::start().expect("the test has checked the models");
        peer.cloud(|c| {
            c.addresses.iter_mut().for_each(|a| a.bound = false);
            let disk = c.disks.iter_mut().find(|d| d.id == TENCENT_DISK).unwrap();
            disk.state = "UNATTACHED".into();
        });
        peer
    }

    fn upstream(&self, world: &Self::World) -> String {
        world.url()
    }

    fn adapter(&self, _world: &Self::World, endpoint: &str) -> Box<dyn Provider> {
        let env = tencent_peer::env_at(endpoint, tencent_peer::SECRET);
        Box::new(tencent_peer::Peer::adapter_in(
            &env,
            Some(tencent_peer::INSTANCE),
            None,
        ))
    }

    fn leftovers(&self, _world: &Self::World) -> Vec<Leftover> {
        leftovers(
            TENCENT_DISK,
            "TerminateDisks",
            TENCENT_EIP,
            "ReleaseAddresses",
        )
    }

    async fn attach(&self, world: &Self::World, r: &LinkedResource) {
        world.cloud(|c| {
            if r.kind == ResourceKind::PublicIp {
                c.addresses.iter_mut().for_each(|a| a.bound = a.id == r.id);
            } else {
                let disk = c.disks.iter_mut().find(|d| d.id == r.id).unwrap();
                disk.state = "ATTACHED".into();
            }
        });
    }

    async fn holds(&self, world: &Self::World, r: &LinkedResource) -> (bool, Option<String>) {
        let on = |bound: bool| bound.then(|| tencent_peer::INSTANCE.to_string());
        world.cloud(|c| {
            if r.kind == ResourceKind::PublicIp {
                let address = c.addresses.iter().find(|a| a.id == r.id);
                (address.is_some(), on(address.is_some_and(|a| a.bound)))
            } else {
                let disk = c.disks.iter().find(|d| d.id == r.id);
                (
                    disk.is_some(),
                    on(disk.is_some_and(|d| d.state == "ATTACHED")),
                )
            }
        })
    }

    fn running(&self, _world: &Self::World) -> String {
        tencent_peer::INSTANCE.into()
    }

    fn secret(&self) -> &'static str {
        tencent_peer::SECRET
    }
}

#[tokio::test]
async fn cleanup_on_alibaba_behind_the_fault_proxy_deletes_only_what_the_plan_showed() {
    if crate::models::required().is_none() {
        return;
    }
    run(&Alibaba).await.check("alibaba");
}

#[tokio::test]
async fn cleanup_on_tencent_behind_the_fault_proxy_deletes_only_what_the_plan_showed() {
    if crate::models::required().is_none() {
        return;
    }
    run(&Tencent).await.check("tencent");
}
