//! Properties of the cost engine over random lifecycles, resources and traffic.

use gpumeter_core::meter::fixture::example_sheet;
use gpumeter_core::meter::{
    ComputeTerms, InstanceState, Lifecycle, Resource, ResourceKind, Traffic, Usage, accrue,
};
use gpumeter_core::pricing::{Sheet, StopPolicy};
use gpumeter_core::traffic::EgressSplit;
use jiff::Timestamp;
use proptest::prelude::*;
use rust_decimal::{Decimal, dec};

fn ts(s: i64) -> Timestamp {
    Timestamp::from_second(s).unwrap()
}

fn sheet(step: u32, minimum: u32, stop_policy: StopPolicy) -> Sheet {
    let mut sheet = example_sheet();
    sheet.billing.step_seconds = step;
    sheet.billing.minimum_seconds = minimum;
    sheet.billing.stop_policy = stop_policy;
    // Price ingress too, so splitting traffic samples is checked on both directions.
    sheet.network.ingress_per_unit = dec!(0.01);
    sheet.storage.network_volume = Some(dec!(0.07));
    sheet
}

fn state() -> impl Strategy<Value = InstanceState> {
    prop_oneof![
        4 => Just(InstanceState::Running),
        2 => Just(InstanceState::Stopped),
        1 => Just(InstanceState::Released),
    ]
}

fn stop_policy() -> impl Strategy<Value = StopPolicy> {
    prop_oneof![
        Just(StopPolicy::KeepCharging),
        Just(StopPolicy::StopCharging),
        (0u32..=100).prop_map(|p| StopPolicy::Fraction(Decimal::new(i64::from(p), 2))),
    ]
}

fn resource() -> impl Strategy<Value = Resource> {
    let kind = prop_oneof![
        Just(ResourceKind::SystemDisk),
        Just(ResourceKind::DataDisk),
        Just(ResourceKind::Snapshot),
        Just(ResourceKind::Image),
        Just(ResourceKind::PublicIp),
        Just(ResourceKind::LoadBalancer),
        Just(ResourceKind::NetworkVolume),
    ];
    (
        kind,
        0u32..4000,
        0i64..200_000,
        proptest::option::of(0i64..400_000),
        any::<bool>(),
    )
        .prop_map(|(kind, size, created, deleted, with_instance)| Resource {
            id: format!("{kind:?}-{size}"),
            kind,
            class: Some("volume".into()),
            size_gib: Decimal::from(size),
            created: ts(created),
            deleted: deleted.map(|d| ts(created + d)),
            deleted_with_instance: with_instance,
        })
}

#[derive(Debug, Clone)]
struct Case {
    sheet: Sheet,
    usage: Usage,
}

fn case() -> impl Strategy<Value = Case> {
    let changes = proptest::collection::vec((1i64..90_000, state()), 0..6);
    let traffic =
        proptest::collection::vec((0i64..3_000_000, 0u64..(1 << 38), 0u64..(1 << 36)), 0..8);
    let resources = proptest::collection::vec(resource(), 0..5);
    (
        prop_oneof![Just(1u32), Just(60), Just(3600)],
        prop_oneof![Just(0u32), Just(60), Just(600)],
        stop_policy(),
        changes,
        traffic,
        resources,
        0u32..3,
        proptest::option::of(1u32..100),
    )
        .prop_map(
            |(step, min, stop, changes, traffic, resources, licenses, mbps)| {
                let mut life = Lifecycle::new(ts(0), InstanceState::Running);
                let mut t = 0;
                for (gap, s) in changes {
                    t += gap;
                    life.push(ts(t), s);
                }
                let mut usage = Usage::new(
                    life,
                    ComputeTerms::Hourly {
                        per_hour: dec!(3.067),
                    },
                );
                usage.traffic = traffic
                    .into_iter()
                    .map(|(at, e, i)| Traffic {
                        at: ts(at),
                        egress_bytes: e,
                        ingress_bytes: i,
                        split: EgressSplit::default(),
                    })
                    .collect();
                usage.resources = resources;
                usage.licenses = licenses;
                usage.fixed_bandwidth_mbps = mbps.map(Decimal::from);
                Case {
                    sheet: sheet(step, min, stop),
                    usage,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn accrual_never_decreases_with_time(c in case(), t1 in 0i64..600_000, dt in 0i64..600_000) {
        let early = accrue(&c.sheet, &c.usage, ts(t1));
        let late = accrue(&c.sheet, &c.usage, ts(t1 + dt));
        for (a, b) in early.accrued.parts().iter().zip(late.accrued.parts()) {
            prop_assert!(*a <= b, "a line went down: {a} -> {b}");
        }
        prop_assert!(early.billed.total().amount <= late.billed.total().amount);
    }

    #[test]
    fn billed_is_never_less_than_accrued(c in case(), t in 0i64..600_000) {
        let r = accrue(&c.sheet, &c.usage, ts(t));
        for (accrued, billed) in r.accrued.parts().iter().zip(r.billed.parts()) {
            prop_assert!(*accrued <= billed);
        }
    }

    #[test]
    fn the_rounded_breakdown_sums_to_the_rounded_total(c in case(), t in 0i64..600_000) {
        let r = accrue(&c.sheet, &c.usage, ts(t));
        for b in [r.accrued, r.billed, r.burn_per_hour] {
            let [compute, bandwidth, storage, extras, total] = b.to_cents();
            prop_assert_eq!(compute + bandwidth + storage + extras, total);
            prop_assert_eq!(total, b.total().round_cents().amount);
            prop_assert_eq!(b.total().amount, b.compute + b.bandwidth + b.storage + b.extras);
        }
    }

    #[test]
    fn cutting_an_interval_anywhere_changes_nothing(c in case(), cut in 1i64..600_000, t in 0i64..600_000) {
        // Restating the state the instance is in at `cut` cuts its interval in two there.
        let mut changes: Vec<(Timestamp, InstanceState)> = Vec::new();
        let life = &c.usage.lifecycle;
        for iv in life.intervals_until(ts(2_000_000)) {
            changes.push((ts(iv.start), iv.state));
        }
        if let Some(state) = life.state_at(ts(cut)) {
            changes.push((ts(cut), state));
        }
        let mut cut_usage = c.usage.clone();
        cut_usage.lifecycle = Lifecycle::from_changes(changes).unwrap();
        // Splitting a traffic sample in two at the same instant must not change its price either.
        if let Some(first) = cut_usage.traffic.first().copied() {
            cut_usage.traffic[0].egress_bytes = first.egress_bytes / 2;
            cut_usage.traffic[0].ingress_bytes = 0;
            cut_usage.traffic.push(Traffic { egress_bytes: first.egress_bytes - first.egress_bytes / 2, ..first });
        }
        let whole = accrue(&c.sheet, &c.usage, ts(t));
        let cut_up = accrue(&c.sheet, &cut_usage, ts(t));
        prop_assert_eq!(whole.accrued, cut_up.accrued);
    }

    #[test]
    fn steady_state_accrual_is_additive_in_time(per_hour in 0u32..100_000, a in 0i64..1_000_000, x in 0i64..1_000_000, y in 0i64..1_000_000) {
        // With one running interval and no other events, [a, a+x+y) costs [a, a+x) plus [a+x, a+x+y).
        let s = sheet(1, 0, StopPolicy::StopCharging);
        let usage = Usage::new(
            Lifecycle::new(ts(0), InstanceState::Running),
            ComputeTerms::Hourly { per_hour: Decimal::new(i64::from(per_hour), 3) },
        );
        // Dividing by 3600 rounds at the 28th significant digit, so "the same" means equal far
        // below a cent: within 1e-18.
        let at = |t: i64| accrue(&s, &usage, ts(t)).accrued.compute;
        let close = |l: Decimal, r: Decimal| (l - r).abs() <= Decimal::new(1, 18);
        prop_assert!(close(at(a + x + y) - at(a), (at(a + x) - at(a)) + (at(a + x + y) - at(a + x))));
        prop_assert!(close(at(x) + at(y), at(x + y)));
    }
}
