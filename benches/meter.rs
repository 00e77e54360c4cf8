//! The cost engine over a month of history: a state change every ten minutes, a traffic sample
//! every minute and a handful of linked resources, priced at the month's end.

use gpumeter_core::traffic::EgressSplit;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gpumeter::meter::fixture::example_sheet;
use gpumeter::meter::{
    ComputeTerms, InstanceState, Lifecycle, Resource, ResourceKind, Traffic, Usage, accrue,
};
use gpumeter::pricing::Sheet;
use jiff::Timestamp;
use rust_decimal::dec;

const MONTH: i64 = 30 * 86_400;

fn ts(s: i64) -> Timestamp {
    Timestamp::from_second(s).unwrap()
}

fn sheet() -> Sheet {
    let mut sheet = example_sheet();
    sheet.billing.minimum_seconds = 60;
    sheet
}

fn month_of_usage() -> Usage {
    let mut life = Lifecycle::new(ts(0), InstanceState::Running);
    for (i, t) in (600..MONTH).step_by(600).enumerate() {
        let state = if i % 2 == 0 {
            InstanceState::Stopped
        } else {
            InstanceState::Running
        };
        life.push(ts(t), state);
    }
    let mut usage = Usage::new(
        life,
        ComputeTerms::Hourly {
            per_hour: dec!(32.7726),
        },
    );
    usage.traffic = (60..MONTH)
        .step_by(60)
        .map(|t| Traffic {
            at: ts(t),
            egress_bytes: 250_000_000,
            ingress_bytes: 1_000_000_000,
            split: EgressSplit::default(),
        })
        .collect();
    let kinds = [
        (ResourceKind::SystemDisk, 200),
        (ResourceKind::DataDisk, 2000),
        (ResourceKind::Snapshot, 200),
        (ResourceKind::Snapshot, 2000),
        (ResourceKind::Image, 200),
        (ResourceKind::PublicIp, 0),
        (ResourceKind::LoadBalancer, 0),
    ];
    usage.resources = kinds
        .iter()
        .enumerate()
        .map(|(i, (kind, size))| Resource {
            id: format!("r{i}"),
            kind: *kind,
            class: Some("ssd".into()),
            size_gib: (*size).into(),
            created: ts(0),
            deleted: None,
            deleted_with_instance: i == 0,
        })
        .collect();
    usage
}

fn bench_accrue(c: &mut Criterion) {
    let sheet = sheet();
    let usage = month_of_usage();
    c.bench_function(
        "accrue a month (4320 intervals, 43200 traffic samples, 7 resources)",
        |b| {
            b.iter(|| accrue(black_box(&sheet), black_box(&usage), black_box(ts(MONTH))));
        },
    );
    let live = Usage::new(
        Lifecycle::new(ts(0), InstanceState::Running),
        ComputeTerms::Hourly {
            per_hour: dec!(32.7726),
        },
    );
    c.bench_function("accrue one running instance (a cockpit tick)", |b| {
        b.iter(|| accrue(black_box(&sheet), black_box(&live), black_box(ts(MONTH))));
    });
}

criterion_group!(benches, bench_accrue);
criterion_main!(benches);
