//! Retention (minutes older than 30 days roll up into hours, totals exact) and the minute
//! aggregator (running totals into minutes without drift). Time is always injected.

use std::path::Path;

use gpumeter::ledger::amount::to_nanos;
use gpumeter::ledger::{
    GpuMinute, GpuPoint, Ledger, MinuteAggregator, MinuteBucket, Retention, SessionId,
    SessionStart, Tick,
};
use gpumeter::meter::{BillingMode, Breakdown};
use gpumeter::money::Currency;
use jiff::{SignedDuration, Timestamp};
use rust_decimal::{Decimal, dec};

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn session(ledger: &mut Ledger, at: Timestamp) -> SessionId {
    ledger
        .start_session(&SessionStart {
            instance: "i-r".into(),
            provider: "demo".into(),
            region: None,
            sku: "x".into(),
            mode: BillingMode::OnDemand,
            rate_per_hour: Some(dec!(2.5)),
            currency: Currency::USD,
            at,
            billing: None,
        })
        .unwrap()
}

fn bucket(session: SessionId, at: Timestamp, i: i64) -> MinuteBucket {
    MinuteBucket {
        session,
        start: at,
        // 2.50 USD/h for a minute, and amounts with all nine decimals.
        cost: Breakdown {
            currency: Currency::USD,
            compute: dec!(0.041666667),
            bandwidth: Decimal::new(i, 9),
            storage: dec!(0.000123457),
            extras: dec!(0.000000001),
        },
        idle: i % 3 == 0,
        gpu: GpuMinute {
            util_samples: u32::try_from(i % 5 + 1).unwrap(),
            util_mean_pct: Some(f64::from(u32::try_from(i % 100).unwrap())),
            util_max_pct: Some(f64::from(u32::try_from(i % 100).unwrap()) + 0.5),
            power_samples: 8,
            power_mean_w: Some(250.0),
            energy_j: 1000.0,
        },
        egress_bytes: u64::try_from(i).unwrap() * 1000,
        // Of it, 30 % to the intranet and 10 % to another region.
        egress_split: gpumeter_core::traffic::EgressSplit {
            intranet: u64::try_from(i).unwrap() * 300,
            cross_region: u64::try_from(i).unwrap() * 100,
        },
        // Their share of the bandwidth line.
        split_cost: gpumeter::ledger::SplitCost {
            intranet: Decimal::new(i / 2, 9),
            cross_region: Decimal::new(i / 4, 9),
        },
    }
}

/// Totals straight from the file: costs, idle cost and minutes, samples, weighted util sum,
/// max, energy, bytes; and how many buckets of each span.
fn totals(path: &Path) -> (Vec<i64>, f64, f64, f64, i64, i64) {
    let c = rusqlite::Connection::open(path).unwrap();
    c.query_row(
        "SELECT sum(compute), sum(bandwidth), sum(storage), sum(extras), sum(idle_cost),
                sum(idle_minutes), sum(util_samples), sum(power_samples),
                total(util_mean * util_samples), max(util_max), total(energy_j),
                sum(span = 60), sum(span = 3600), sum(egress_bytes),
                sum(intranet_bytes), sum(cross_region_bytes), sum(intranet_cost),
                sum(cross_region_cost)
         FROM buckets",
        [],
        |r| {
            let ints: Vec<i64> = [0, 1, 2, 3, 4, 5, 6, 7, 13, 14, 15, 16, 17]
                .iter()
                .map(|&i| r.get(i))
                .collect::<Result<_, _>>()?;
            Ok((
                ints,
                r.get(8)?,
                r.get(9)?,
                r.get(10)?,
                r.get(11)?,
                r.get(12)?,
            ))
        },
    )
    .unwrap()
}

#[test]
fn minutes_older_than_thirty_days_roll_up_into_hours_with_exact_totals() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    let mut ledger = Ledger::open(&path).unwrap();
    let now = t("2026-06-15T12:34:00Z");
    let old = t("2026-05-10T09:00:00Z"); // 36 days before now
    let s = session(&mut ledger, old);
    // 3 h of old minutes (180) and 90 recent minutes.
    for i in 0..180 {
        let at = old + SignedDuration::from_mins(i);
        ledger.record_minute(bucket(s, at, i)).unwrap();
    }
    let recent = now - SignedDuration::from_hours(2);
    for i in 0..90 {
        let at = recent + SignedDuration::from_mins(i);
        ledger.record_minute(bucket(s, at, 1000 + i)).unwrap();
    }
    let before = totals(&path);
    assert_eq!((before.4, before.5), (270, 0));

    let done = ledger.compact(now, &Retention::default()).unwrap();
    assert_eq!((done.rolled, done.hours), (180, 3));
    let after = totals(&path);
    assert_eq!(
        after.0, before.0,
        "costs, idle cost, minutes and samples are exact"
    );
    assert!((after.1 - before.1).abs() < 1e-6, "weighted util sum");
    assert!((after.2 - before.2).abs() < f64::EPSILON, "max");
    assert!((after.3 - before.3).abs() < 1e-6, "energy");
    assert_eq!((after.4, after.5), (90, 3));
    // What the account reads back keeps each minute's split by destination.
    let traffic = ledger.traffic("i-r").unwrap();
    let sent = |f: fn(&gpumeter::meter::Traffic) -> u64| {
        i64::try_from(traffic.iter().map(f).sum::<u64>()).unwrap()
    };
    assert_eq!(sent(|t| t.egress_bytes), after.0[8]);
    assert_eq!(sent(|t| t.split.intranet), after.0[9]);
    assert_eq!(sent(|t| t.split.cross_region), after.0[10]);
    assert!(after.0[9] > 0);
    assert!(
        after.0[11] > 0 && after.0[12] > 0,
        "the split's costs roll up too"
    );

    // Nothing more to do the second time.
    let again = ledger.compact(now, &Retention::default()).unwrap();
    assert_eq!((again.rolled, again.hours), (0, 0));

    // A late minute in an hour already rolled up merges into that hour.
    let late = old + SignedDuration::from_mins(30);
    ledger.record_minute(bucket(s, late, 7)).unwrap();
    let with_late = totals(&path);
    let merged = ledger.compact(now, &Retention::default()).unwrap();
    assert_eq!((merged.rolled, merged.hours), (2, 1));
    assert_eq!(totals(&path).0, with_late.0);
    assert_eq!(ledger.integrity_check().unwrap(), "ok");
}

#[test]
fn the_full_resolution_span_is_configurable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    let mut ledger = Ledger::open(&path).unwrap();
    let now = t("2026-06-15T12:00:00Z");
    let s = session(&mut ledger, now - SignedDuration::from_hours(48));
    for i in 0..120 {
        let at = now - SignedDuration::from_hours(48) + SignedDuration::from_mins(i);
        ledger.record_minute(bucket(s, at, i)).unwrap();
    }
    let keep_a_month = ledger.compact(now, &Retention::default()).unwrap();
    assert_eq!(keep_a_month.hours, 0);
    let one_day = Retention {
        full_resolution: SignedDuration::from_hours(24),
    };
    let done = ledger.compact(now, &one_day).unwrap();
    assert_eq!((done.rolled, done.hours), (120, 2));
}

#[test]
fn aggregated_minutes_add_up_to_the_running_total_without_drift() {
    let session = SessionId(1);
    let start = t("2026-05-01T00:00:30Z");
    let per_second = dec!(2.5) / dec!(3600); // 0.000694444… never exact
    let base = Breakdown::zero(Currency::USD);
    let mut agg = MinuteAggregator::new(session, Currency::USD, Some(&base));
    let mut out = Vec::new();
    let mut energy = 5000.0;
    for s in 0..=600_i64 {
        let at = start + SignedDuration::from_secs(s);
        let accrued = Breakdown {
            compute: per_second * Decimal::from(s),
            ..base
        };
        energy += 300.0;
        // The intranet's running cost: a nano-unit a second, from 7 before the first tick.
        let egress = gpumeter::meter::EgressByClass {
            intranet: gpumeter::meter::ClassCost {
                accrued: Decimal::new(7 + s, 9),
                ..Default::default()
            },
            ..Default::default()
        };
        let gpus = [
            GpuPoint {
                index: 0,
                util_pct: Some(if s < 60 { 0.0 } else { 100.0 }),
                power_w: Some(300.0),
                energy_j: Some(energy),
            },
            GpuPoint {
                index: 1,
                util_pct: None,
                power_w: Some(100.0),
                energy_j: None,
            },
        ];
        let tick = Tick {
            at,
            accrued: Some(&accrued),
            gpus: &gpus,
            egress_bytes: 10,
            egress_split: gpumeter_core::traffic::EgressSplit::default(),
            egress_accrued: Some(&egress),
            idle: s < 30,
        };
        out.extend(agg.push(&tick));
    }
    out.extend(agg.finish());
    // 00:00:30 to 00:10:30: eleven minutes, the first and last partial.
    assert_eq!(out.len(), 11);
    let sum: Decimal = out.iter().map(|b| b.cost.compute).sum();
    let total = per_second * Decimal::from(600);
    assert_eq!(to_nanos(sum), to_nanos(total));
    assert_eq!(sum, Decimal::new(to_nanos(total).unwrap(), 9));
    // The intranet's share: what it accrued while watched, split by minute without drift.
    let intranet: Decimal = out.iter().map(|b| b.split_cost.intranet).sum();
    assert_eq!(intranet, Decimal::new(600, 9));
    assert_eq!(out[1].split_cost.intranet, Decimal::new(60, 9));
    // Idle held for every tick of the first minute only (00:00:30 to 00:00:59).
    let idle: Vec<bool> = out.iter().map(|b| b.idle).collect();
    assert_eq!(idle[..3], [true, false, false]);
    // The second minute: GPU 0 at 0 % for 30 s then 100 % for 30 s; GPU 1 has no utilisation.
    let m = &out[1];
    assert_eq!(m.gpu.util_samples, 60);
    assert_eq!(m.gpu.util_mean_pct, Some(50.0));
    assert_eq!(m.gpu.util_max_pct, Some(100.0));
    assert_eq!(m.gpu.power_samples, 120);
    assert_eq!(m.gpu.power_mean_w, Some(200.0));
    // GPU 0 by its counter (300 J a second), GPU 1 by power × 1 s.
    assert!(
        (m.gpu.energy_j - 60.0 * 400.0).abs() < 1e-9,
        "{}",
        m.gpu.energy_j
    );
    assert_eq!(m.egress_bytes, 600);
}

#[test]
fn without_a_baseline_only_what_accrues_while_watched_counts() {
    let mut agg = MinuteAggregator::new(SessionId(1), Currency::USD, None);
    let before = Breakdown {
        compute: dec!(100),
        ..Breakdown::zero(Currency::USD)
    };
    let after = Breakdown {
        compute: dec!(100.5),
        ..before
    };
    let tick = |at: &str, accrued| Tick {
        at: t(at),
        accrued: Some(accrued),
        gpus: &[],
        egress_bytes: 0,
        egress_split: gpumeter_core::traffic::EgressSplit::default(),
        egress_accrued: None,
        idle: false,
    };
    assert!(agg.push(&tick("2026-05-01T00:00:10Z", &before)).is_none());
    let first = agg.push(&tick("2026-05-01T00:01:10Z", &after)).unwrap();
    assert_eq!(first.cost.compute, dec!(0));
    assert_eq!(agg.finish().unwrap().cost.compute, dec!(0.5));
}
