//! One test per pricing rule, each computed by hand from a small sheet.

use crate::traffic::EgressSplit;
use jiff::Timestamp;
use rust_decimal::{Decimal, dec};

use super::*;
use crate::pricing::{DataUnit, Sheet, StopPolicy};

pub(crate) fn sheet() -> Sheet {
    super::fixture::example_sheet()
}

pub(crate) fn ts(s: i64) -> Timestamp {
    Timestamp::from_second(s).unwrap()
}

pub(crate) fn hourly(per_hour: Decimal) -> ComputeTerms {
    ComputeTerms::Hourly { per_hour }
}

fn running_from(start: i64) -> Lifecycle {
    Lifecycle::new(ts(start), InstanceState::Running)
}

fn disk(id: &str, class: &str, size: Decimal, with_instance: bool) -> Resource {
    Resource {
        id: id.into(),
        kind: ResourceKind::DataDisk,
        class: Some(class.into()),
        size_gib: size,
        created: ts(0),
        deleted: None,
        deleted_with_instance: with_instance,
    }
}

#[test]
fn on_demand_accrues_per_second_from_creation() {
    let usage = Usage::new(running_from(0), hourly(dec!(3.60)));
    let r = accrue(&sheet(), &usage, ts(90));
    assert_eq!(r.accrued.compute, dec!(0.09));
    assert_eq!(r.burn_per_hour.compute, dec!(3.60));
}

#[test]
fn billing_step_and_minimum_round_billed_not_accrued() {
    let mut s = sheet();
    s.billing.step_seconds = 3600;
    s.billing.minimum_seconds = 0;
    let usage = Usage::new(running_from(0), hourly(dec!(3.60)));
    let r = accrue(&s, &usage, ts(61));
    assert_eq!(r.accrued.compute, dec!(0.061));
    assert_eq!(r.billed.compute, dec!(3.60));

    s.billing.step_seconds = 1;
    s.billing.minimum_seconds = 60;
    let r = accrue(&s, &usage, ts(10));
    assert_eq!(r.accrued.compute, dec!(0.01));
    assert_eq!(r.billed.compute, dec!(0.06));
}

#[test]
fn every_run_pays_its_own_minimum() {
    let mut s = sheet();
    s.billing.minimum_seconds = 60;
    let mut life = running_from(0);
    life.push(ts(10), InstanceState::Stopped);
    life.push(ts(100), InstanceState::Running);
    life.push(ts(110), InstanceState::Released);
    let r = accrue(&s, &Usage::new(life, hourly(dec!(3.60))), ts(200));
    assert_eq!(r.accrued.compute, dec!(0.02));
    assert_eq!(r.billed.compute, dec!(0.12));
}

#[test]
fn stop_policy_decides_what_stopped_time_costs() {
    let mut life = running_from(0);
    life.push(ts(3600), InstanceState::Stopped);
    let usage = Usage::new(life, hourly(dec!(3.60)));
    let mut s = sheet();
    let at = ts(7200);

    s.billing.stop_policy = StopPolicy::StopCharging;
    let r = accrue(&s, &usage, at);
    assert_eq!(r.accrued.compute, dec!(3.60));
    assert_eq!(r.burn_per_hour.compute, dec!(0));

    s.billing.stop_policy = StopPolicy::KeepCharging;
    let r = accrue(&s, &usage, at);
    assert_eq!(r.accrued.compute, dec!(7.20));
    assert_eq!(r.burn_per_hour.compute, dec!(3.60));

    s.billing.stop_policy = StopPolicy::Fraction(dec!(0.25));
    let r = accrue(&s, &usage, at);
    assert_eq!(r.accrued.compute, dec!(4.50));
    assert_eq!(r.burn_per_hour.compute, dec!(0.90));
}

#[test]
fn released_instances_stop_accruing_compute() {
    let mut life = running_from(0);
    life.push(ts(3600), InstanceState::Released);
    let r = accrue(
        &sheet(),
        &Usage::new(life, hourly(dec!(3.60))),
        ts(10 * 3600),
    );
    assert_eq!(r.accrued.compute, dec!(3.60));
    assert_eq!(r.burn_per_hour.compute, dec!(0));
}

#[test]
fn monthly_is_committed_not_accrued() {
    let s = sheet();
    let terms = ComputeTerms::from_sheet(&s, &s.skus[0], BillingMode::Monthly, 2).unwrap();
    assert_eq!(terms, ComputeTerms::Committed { amount: dec!(3000) });
    let usage = Usage::new(running_from(0), terms);
    let early = accrue(&s, &usage, ts(1));
    let late = accrue(&s, &usage, ts(3600 * 24 * 20));
    assert_eq!(early.accrued.compute, dec!(3000));
    assert_eq!(late.accrued.compute, dec!(3000));
    assert_eq!(late.burn_per_hour.compute, dec!(0));
}

#[test]
fn spot_and_compute_units_use_their_own_price() {
    let mut s = sheet();
    let spot = ComputeTerms::from_sheet(&s, &s.skus[0], BillingMode::Spot, 0).unwrap();
    assert_eq!(spot.per_hour(), dec!(1.20));
    s.skus[0].compute_units = Some(crate::pricing::ComputeUnits {
        units_per_hour: dec!(2.5),
        unit_price: dec!(1.6),
    });
    let cu = ComputeTerms::from_sheet(&s, &s.skus[0], BillingMode::ComputeUnits, 0).unwrap();
    assert_eq!(cu.per_hour(), dec!(4.0));
    s.skus[0].spot_per_hour = None;
    let err = ComputeTerms::from_sheet(&s, &s.skus[0], BillingMode::Spot, 0).unwrap_err();
    assert!(err.to_string().contains("no spot price"), "{err}");
}

#[test]
fn egress_is_priced_by_destination_and_only_the_internet_uses_the_allowance() {
    let mut usage = Usage::new(running_from(0), hourly(dec!(0)));
    let gib = 1u64 << 30;
    // 300 GiB sent: 150 to the object store's intranet endpoint, 40 to another region.
    usage.traffic.push(Traffic {
        at: ts(900),
        egress_bytes: 300 * gib,
        ingress_bytes: 0,
        split: crate::traffic::EgressSplit {
            intranet: 150 * gib,
            cross_region: 40 * gib,
        },
    });
    let r = accrue(&sheet(), &usage, ts(1000));
    // Internet: 110 GiB, 100 free, 10 at 0.09; cross-region 40 at 0.02; intranet free.
    assert_eq!(r.egress.internet.bytes, 110 * gib);
    assert_eq!(r.egress.internet.accrued, dec!(0.9));
    assert_eq!(r.egress.intranet.bytes, 150 * gib);
    assert_eq!(r.egress.intranet.accrued, dec!(0));
    assert_eq!(r.egress.cross_region.accrued, dec!(0.8));
    assert_eq!(r.accrued.bandwidth, dec!(1.7));
    // Burn: the last five minutes' billable bytes, an hour's worth: 10 + 40 GiB at their prices.
    assert_eq!(r.egress.internet.burn_per_hour, dec!(10.8));
    assert_eq!(r.egress.cross_region.burn_per_hour, dec!(9.6));

    // A sheet that does not price other regions prices them as the internet.
    let mut unstated = sheet();
    unstated.network.cross_region_per_unit = None;
    let r = accrue(&unstated, &usage, ts(1000));
    assert_eq!(r.egress.cross_region.accrued, dec!(3.6));
}

#[test]
fn egress_is_free_up_to_the_monthly_allowance_then_per_gib() {
    let mut usage = Usage::new(running_from(0), hourly(dec!(0)));
    let gib = 1u64 << 30;
    usage.traffic.push(Traffic {
        at: ts(10),
        egress_bytes: 99 * gib,
        ingress_bytes: 500 * gib,
        split: EgressSplit::default(),
    });
    let r = accrue(&sheet(), &usage, ts(20));
    assert_eq!(r.accrued.bandwidth, dec!(0));
    assert_eq!(
        r.burn_per_hour.bandwidth,
        dec!(0),
        "still within the allowance"
    );
    usage.traffic.push(Traffic {
        at: ts(900),
        egress_bytes: 11 * gib,
        ingress_bytes: 0,
        split: EgressSplit::default(),
    });
    let r = accrue(&sheet(), &usage, ts(1000));
    assert_eq!(r.accrued.bandwidth, dec!(0.9));
    // Of the 11 GiB sent in the last 5 minutes, 10 are beyond the allowance: 120 GiB an hour.
    assert_eq!(r.burn_per_hour.bandwidth, dec!(10.8));
}

#[test]
fn egress_in_gb_counts_decimal_bytes_and_the_allowance_resets_monthly() {
    let mut s = sheet();
    s.network.unit = DataUnit::GB;
    s.network.free_egress_per_month = dec!(1);
    let mut usage = Usage::new(running_from(0), hourly(dec!(0)));
    // 2 GB on 1970-01-01 and 2 GB on 1970-02-01: one free GB each month.
    for day in [0, 31] {
        usage.traffic.push(Traffic {
            at: ts(day * 86_400 + 5),
            egress_bytes: 2_000_000_000,
            ingress_bytes: 0,
            split: EgressSplit::default(),
        });
    }
    let r = accrue(&s, &usage, ts(40 * 86_400));
    assert_eq!(r.accrued.bandwidth, dec!(0.18));
}

#[test]
fn fixed_bandwidth_bills_by_time_while_the_instance_exists() {
    let mut life = running_from(0);
    life.push(ts(3600), InstanceState::Stopped);
    life.push(ts(7200), InstanceState::Released);
    let mut usage = Usage::new(life, hourly(dec!(0)));
    usage.fixed_bandwidth_mbps = Some(dec!(10));
    // 10 Mbps at 7.30 per Mbps-month of 730 h is 0.10 an hour, for two hours.
    let r = accrue(&sheet(), &usage, ts(5 * 3600));
    assert_eq!(r.accrued.bandwidth, dec!(0.2));
    assert_eq!(r.burn_per_hour.bandwidth, dec!(0));
}

#[test]
fn the_no_gpu_mode_bills_its_own_rate_and_disks_as_while_running() {
    // An hour with the cards, an hour without them, an hour shut down.
    let mut life = running_from(0);
    life.push(ts(3600), InstanceState::NoGpu);
    life.push(ts(7200), InstanceState::Stopped);
    let mut usage = Usage::new(life.clone(), hourly(dec!(3.60)));
    usage.resources.push(disk("vol", "volume", dec!(730), true));
    let mut s = sheet();
    s.billing.stop_policy = StopPolicy::StopCharging;
    s.billing.no_gpu_per_hour = Some(dec!(0.10));
    let r = accrue(&s, &usage, ts(3 * 3600));
    assert_eq!(r.accrued.compute, dec!(3.60) + dec!(0.10));
    // 0.1 an hour while up (with or without cards), 0.2 while stopped.
    assert_eq!(r.accrued.storage, dec!(0.1) + dec!(0.1) + dec!(0.2));
    let no_gpu_line = "compute without GPUs: billing.no_gpu_per_hour unknown".to_string();
    assert!(!r.unpriced.contains(&no_gpu_line), "{:?}", r.unpriced);
    let now = accrue(&s, &usage, ts(5400));
    assert_eq!(now.burn_per_hour.compute, dec!(0.10));
    assert_eq!(now.burn_per_hour.storage, dec!(0.1));

    // Without a price for it, the hour without cards is left out and named, never priced as
    // the card's hour.
    s.billing.no_gpu_per_hour = None;
    let r = accrue(&s, &usage, ts(3 * 3600));
    assert_eq!(r.accrued.compute, dec!(3.60));
    assert!(r.unpriced.contains(&no_gpu_line), "{:?}", r.unpriced);
    let never = accrue(&s, &Usage::new(running_from(0), hourly(dec!(3.60))), ts(60));
    assert!(
        !never.unpriced.contains(&no_gpu_line),
        "{:?}",
        never.unpriced
    );
}

#[test]
fn storage_accrues_pro_rata_over_a_730_hour_month() {
    let mut usage = Usage::new(running_from(0), hourly(dec!(0)));
    usage.resources.push(disk("vol-1", "ssd", dec!(730), true));
    let r = accrue(&sheet(), &usage, ts(3600));
    // 730 GiB at 0.10 per GiB-month for 1 of 730 hours.
    assert_eq!(r.accrued.storage, dec!(0.1));
    assert_eq!(r.burn_per_hour.storage, dec!(0.1));
}

#[test]
fn a_disk_deleted_with_the_instance_stops_at_release_and_a_survivor_goes_on() {
    let mut life = running_from(0);
    life.push(ts(3600), InstanceState::Released);
    let mut usage = Usage::new(life, hourly(dec!(0)));
    usage.resources.push(disk("root", "ssd", dec!(730), true));
    usage.resources.push(disk("data", "ssd", dec!(730), false));
    let r = accrue(&sheet(), &usage, ts(3 * 3600));
    assert_eq!(r.accrued.storage, dec!(0.1) + dec!(0.3));
    assert_eq!(r.burn_per_hour.storage, dec!(0.1));
    let left = leftovers(&sheet(), &usage.resources, ts(3 * 3600));
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].id, "data");
    assert_eq!(left[0].monthly, Some(dec!(73)));
}

#[test]
fn a_disk_with_a_stopped_rate_costs_more_while_stopped() {
    let mut life = running_from(0);
    life.push(ts(3600), InstanceState::Stopped);
    let mut usage = Usage::new(life, hourly(dec!(0)));
    usage.resources.push(disk("vol", "volume", dec!(730), true));
    let r = accrue(&sheet(), &usage, ts(7200));
    assert_eq!(r.accrued.storage, dec!(0.1) + dec!(0.2));
    assert_eq!(r.burn_per_hour.storage, dec!(0.2));
}

#[test]
fn public_ip_costs_differ_attached_and_idle() {
    let mut life = running_from(0);
    life.push(ts(3600), InstanceState::Stopped);
    let mut usage = Usage::new(life, hourly(dec!(0)));
    usage.resources.push(Resource {
        id: "eip".into(),
        kind: ResourceKind::PublicIp,
        class: None,
        size_gib: Decimal::ZERO,
        created: ts(0),
        deleted: None,
        deleted_with_instance: false,
    });
    let mut s = sheet();
    s.extras.boot_fee = None;
    let r = accrue(&s, &usage, ts(7200));
    assert_eq!(r.accrued.extras, dec!(0.015));
    assert_eq!(r.burn_per_hour.extras, dec!(0.01));
}

#[test]
fn load_balancer_license_and_boot_fee_are_extras() {
    let mut life = running_from(0);
    life.push(ts(3600), InstanceState::Stopped);
    life.push(ts(7200), InstanceState::Running);
    let mut usage = Usage::new(life, hourly(dec!(0)));
    usage.licenses = 1;
    usage.resources.push(Resource {
        id: "lb".into(),
        kind: ResourceKind::LoadBalancer,
        class: None,
        size_gib: Decimal::ZERO,
        created: ts(0),
        deleted: None,
        deleted_with_instance: false,
    });
    let r = accrue(&sheet(), &usage, ts(3 * 3600));
    // LB 3 h × 0.025, licence 2 running hours × 0.50, two starts × 0.10.
    assert_eq!(r.accrued.extras, dec!(0.075) + dec!(1.00) + dec!(0.20));
    assert_eq!(r.burn_per_hour.extras, dec!(0.025) + dec!(0.50));
}

#[test]
fn a_resource_without_a_price_is_listed_not_silently_free() {
    let mut usage = Usage::new(running_from(0), hourly(dec!(1)));
    usage.fixed_bandwidth_mbps = Some(dec!(1));
    usage.resources.push(Resource {
        id: "nv-1".into(),
        kind: ResourceKind::NetworkVolume,
        class: None,
        size_gib: dec!(100),
        created: ts(0),
        deleted: None,
        deleted_with_instance: false,
    });
    let r = accrue(&sheet(), &usage, ts(3600));
    assert_eq!(
        r.unpriced,
        vec!["network volume nv-1: storage.network_volume_per_gib_month unknown".to_string()]
    );
    assert_eq!(r.accrued.storage, dec!(0));
}

#[test]
fn projection_extends_the_burn_rate() {
    let usage = Usage::new(running_from(0), hourly(dec!(3.60)));
    let r = accrue(&sheet(), &usage, ts(3600));
    let p = project(&r, ts(3600), ts(3 * 3600));
    assert_eq!(p.compute, dec!(10.80));
    assert_eq!(project(&r, ts(3600), ts(0)).compute, dec!(3.60));
}

#[test]
fn at_the_second_of_release_nothing_of_the_instance_burns_any_more() {
    let mut life = running_from(0);
    life.push(ts(3600), InstanceState::Released);
    let mut usage = Usage::new(life, hourly(dec!(3.60)));
    usage.licenses = 1;
    usage.fixed_bandwidth_mbps = Some(dec!(10));
    let r = accrue(&sheet(), &usage, ts(3600));
    assert_eq!(r.accrued.compute, dec!(3.60));
    assert_eq!(r.burn_per_hour.compute, dec!(0));
    assert_eq!(r.burn_per_hour.bandwidth, dec!(0));
    assert_eq!(r.burn_per_hour.extras, dec!(0));
}
