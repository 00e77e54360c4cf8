//! Random sheets, lifecycles, usages and resources for the oracle. Input only: nothing here
//! prices anything.

use gpumeter_core::meter::fixture::example_sheet;
use gpumeter_core::meter::{
    ComputeTerms, InstanceState, Lifecycle, Resource, ResourceKind, Traffic, Usage,
};
use gpumeter_core::pricing::{DataUnit, DiskPrice, OtherExtra, OtherPrice, Sheet, StopPolicy};
use gpumeter_core::traffic::EgressSplit;
use proptest::option::of;
use proptest::prelude::*;
use rust_decimal::Decimal;

use super::rules::ts;

#[derive(Debug, Clone)]
pub struct Case {
    pub sheet: Sheet,
    /// The lifecycle as the plain list it was built from, for the oracle.
    pub changes: Vec<(i64, InstanceState)>,
    pub usage: Usage,
}

/// A price from 0 to 99.9999, sometimes a round one.
fn price() -> impl Strategy<Value = Decimal> {
    (0i64..1_000_000, 0u32..=4).prop_map(|(n, scale)| Decimal::new(n, scale).min(Decimal::from(99)))
}

fn known() -> impl Strategy<Value = Option<Decimal>> {
    prop_oneof![3 => price().prop_map(Some), 1 => Just(None)]
}

fn stop_policy() -> impl Strategy<Value = StopPolicy> {
    prop_oneof![
        Just(StopPolicy::KeepCharging),
        Just(StopPolicy::StopCharging),
        (0i64..=100).prop_map(|p| StopPolicy::Fraction(Decimal::new(p, 2))),
    ]
}

fn state() -> impl Strategy<Value = InstanceState> {
    prop_oneof![
        4 => Just(InstanceState::Running),
        3 => Just(InstanceState::Stopped),
        2 => Just(InstanceState::NoGpu),
        1 => Just(InstanceState::Released),
    ]
}

fn sheet() -> impl Strategy<Value = Sheet> {
    let billing = (
        prop_oneof![Just(1u32), Just(60), Just(3600), 1u32..7200],
        prop_oneof![Just(0u32), Just(60), Just(3600), 0u32..7200],
        stop_policy(),
        prop_oneof![Just(730u32), Just(720), 1u32..1000],
        known(),
    );
    let network = (
        any::<bool>(),
        known(),
        price(),
        0u32..300,
        of(price()),
        of(1u32..200),
        price(),
        of(price()),
    );
    let storage = (
        of(price()),
        of((price(), of(price()))),
        known(),
        known(),
        known(),
    );
    let extras = (known(), known(), known(), known(), known());
    let other = proptest::collection::vec((any::<bool>(), price()), 0..3);
    (billing, network, storage, extras, other).prop_map(|(b, n, s, x, other)| {
        let mut sheet = example_sheet();
        sheet.billing.step_seconds = b.0;
        sheet.billing.minimum_seconds = b.1;
        sheet.billing.stop_policy = b.2;
        sheet.billing.month_hours = b.3;
        sheet.billing.no_gpu_per_hour = b.4;
        let net = &mut sheet.network;
        net.unit = if n.0 { DataUnit::GiB } else { DataUnit::GB };
        net.egress_per_unit = n.1;
        net.ingress_per_unit = n.2;
        net.free_egress_per_month = Decimal::from(n.3);
        net.fixed_bandwidth_per_mbps_month = n.4;
        net.fixed_bandwidth_mbps = n.5.map(Decimal::from);
        net.intranet_per_unit = n.6;
        net.cross_region_per_unit = n.7;
        // `ssd` never has a stopped price, `volume` may; either may be missing.
        let disk = &mut sheet.storage.disk;
        disk.clear();
        if let Some(p) = s.0 {
            disk.insert(
                "ssd".into(),
                DiskPrice {
                    per_gib_month: p,
                    when_stopped: None,
                },
            );
        }
        if let Some((p, stopped)) = s.1 {
            disk.insert(
                "volume".into(),
                DiskPrice {
                    per_gib_month: p,
                    when_stopped: stopped,
                },
            );
        }
        sheet.storage.snapshot = s.2;
        sheet.storage.image = s.3;
        sheet.storage.network_volume = s.4;
        let e = &mut sheet.extras;
        (e.public_ip_attached_per_hour, e.public_ip_idle_per_hour) = (x.0, x.1);
        (e.load_balancer_per_hour, e.license_per_hour, e.boot_fee) = (x.2, x.3, x.4);
        e.other = other
            .into_iter()
            .map(|(hourly, p)| OtherExtra {
                label: "port mapping".into(),
                price: if hourly {
                    OtherPrice::PerHourUp(p)
                } else {
                    OtherPrice::PerMonth(p)
                },
            })
            .collect();
        sheet
    })
}

fn resource() -> impl Strategy<
    Value = (
        ResourceKind,
        Option<&'static str>,
        Decimal,
        i64,
        Option<i64>,
        bool,
    ),
> {
    let kind = prop_oneof![
        Just(ResourceKind::SystemDisk),
        Just(ResourceKind::DataDisk),
        Just(ResourceKind::Snapshot),
        Just(ResourceKind::Image),
        Just(ResourceKind::PublicIp),
        Just(ResourceKind::LoadBalancer),
        Just(ResourceKind::NetworkVolume),
    ];
    let class = prop_oneof![
        Just(Some("ssd")),
        Just(Some("volume")),
        Just(Some("hdd")),
        Just(None)
    ];
    (
        kind,
        class,
        (0i64..40_000).prop_map(|n| Decimal::new(n, 1)),
        0i64..4_000_000,
        of(0i64..2_000_000),
        any::<bool>(),
    )
}

pub fn case() -> impl Strategy<Value = Case> {
    let life = (
        0i64..3_000_000,
        prop_oneof![4 => Just(InstanceState::Running), 1 => Just(InstanceState::Stopped)],
        proptest::collection::vec((1i64..200_000, state()), 0..7),
    );
    let terms = prop_oneof![
        6 => price().prop_map(|per_hour| ComputeTerms::Hourly { per_hour }),
        1 => price().prop_map(|amount| ComputeTerms::Committed { amount }),
    ];
    let traffic = proptest::collection::vec(
        (
            0i64..8_000_000,
            0u64..(1 << 38),
            0u64..(1 << 36),
            0u64..(1 << 38),
            0u64..(1 << 37),
        ),
        0..8,
    );
    let resources = proptest::collection::vec(resource(), 0..7);
    (
        sheet(),
        life,
        terms,
        traffic,
        resources,
        0u32..3,
        of(1u32..100),
    )
        .prop_map(
            |(sheet, (created, first, later), terms, traffic, resources, licenses, mbps)| {
                let mut changes = vec![(created, first)];
                for (gap, s) in later {
                    changes.push((changes.last().unwrap().0 + gap, s));
                }
                let mut lifecycle = Lifecycle::new(ts(created), first);
                for &(t, s) in &changes[1..] {
                    lifecycle.push(ts(t), s);
                }
                let mut usage = Usage::new(lifecycle, terms);
                usage.traffic = traffic
                    .into_iter()
                    .map(
                        |(at, egress_bytes, ingress_bytes, intranet, cross_region)| Traffic {
                            at: ts(at),
                            egress_bytes,
                            ingress_bytes,
                            split: EgressSplit {
                                intranet,
                                cross_region,
                            },
                        },
                    )
                    .collect();
                usage.resources = resources
                    .into_iter()
                    .enumerate()
                    .map(
                        |(i, (kind, class, size_gib, created, deleted, with_instance))| Resource {
                            id: format!("r{i}"),
                            kind,
                            class: class.map(String::from),
                            size_gib,
                            created: ts(created),
                            deleted: deleted.map(|d| ts(created + d)),
                            deleted_with_instance: with_instance,
                        },
                    )
                    .collect();
                usage.licenses = licenses;
                usage.fixed_bandwidth_mbps = mbps.map(Decimal::from);
                Case {
                    sheet,
                    changes,
                    usage,
                }
            },
        )
}
